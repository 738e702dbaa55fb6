"""The results sum most hands in the database and read single hands only where a table needs
them; on a tournament with every kind of trouble the two ways must give the same standings,
tables, problems and quarantine (``results_paths.py``, in a process of its own per database:
Django is configured once per process). SQLite and PostgreSQL."""
import json
import subprocess
import sys
from pathlib import Path

from .conftest import new_database

HERE = Path(__file__).resolve().parent


def test_summed_and_single_hands_agree(request, backend, tmp_path):
    db = new_database(request, backend, tmp_path)
    p = subprocess.run([sys.executable, str(HERE / "results_paths.py"), db, "3"], capture_output=True, text=True, timeout=600,
                       cwd=HERE.parents[1])
    assert p.returncode == 0, p.stderr[-3000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["differences"] == []
    seen = got["seen"]
    # the data took every path: summed tables and tables read hand by hand, quarantine,
    # accepted and rejected records, repeated hand numbers, corrections, hands entered by hand
    for key in ("summed", "read", "quarantine", "accepted", "rejected", "twice", "corrected", "manual"):
        assert seen[key] > 0, (key, seen)
