"""The application over littlefs, power cut at every flash mutation of the full MCR session
scenario: after each reboot the journal holds exactly the records committed before the cut and
the session resumes in the state the table had after them (tests/journal/app_powercut.py)."""
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MICROPYTHON = Path(sys.executable).parent / "micropython"


def test_every_cut_of_a_full_session_resumes_correctly():
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=4M", "tests/journal/app_powercut.py",
                        "simulator/scenarios/mcr_session.txt"], cwd=REPO, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    m = re.search(r"^RESULT (\w+) W=(\d+) RECORDS=(\d+)$", p.stdout, re.M)
    assert m, p.stdout[-2000:]
    assert m.group(1) == "ok", p.stdout[-3000:]
    assert int(m.group(2)) > 100 and int(m.group(3)) == 19   # session, 16 hands, correction, end
