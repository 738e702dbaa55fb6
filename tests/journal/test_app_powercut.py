"""The application over littlefs, power cut at every flash mutation of the full MCR session
scenario: after each reboot the journal holds exactly the records committed before the cut and
the session resumes in the state the table had after them (tests/journal/app_powercut.py)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MICROPYTHON = Path(sys.executable).parent / "micropython"


PARTS = 2   # the cuts split over two processes: CI has two cores


# ~270 s on a busy 2-core machine, past the default limit; its two processes wait up to 300 s each
@pytest.mark.timeout(900)
def test_every_cut_of_a_full_session_resumes_correctly():
    procs = [subprocess.Popen([str(MICROPYTHON), "-X", "heapsize=4M", "tests/journal/app_powercut.py",
                               "simulator/scenarios/mcr_session.txt", "%d/%d" % (i, PARTS)], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(PARTS)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        m = re.search(r"^RESULT (\w+) W=(\d+) RECORDS=(\d+)$", out, re.M)
        assert m, out[-2000:]
        assert m.group(1) == "ok", out[-3000:]
        assert int(m.group(2)) > 100 and int(m.group(3)) == 19   # session, 16 hands, correction, end
