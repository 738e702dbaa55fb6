"""The repository stands on its own: a clone with no ../shared beside it reads its test data
from testdata/, and nothing in the tree points at ../shared except the Pico firmware, which a
user downloads (the Pico harness names its setting and says plainly when it did not run)."""
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUTSIDE = ("../shared", "/work/shared")


def _tracked():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return [p for p in out if p and (REPO / p).is_file()]


def test_nothing_in_the_tree_reads_shared_but_the_pico_firmware():
    found = []
    for p in _tracked():
        if p == "tests/test_standalone.py":
            continue
        try:
            text = (REPO / p).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if any(o in line for o in OUTSIDE) and "pico" not in line.lower():
                found.append("%s:%d: %s" % (p, n, line.strip()[:100]))
    assert not found, "\n".join(found)


def test_the_data_loaders_run_in_a_copy_with_no_shared_beside_it(tmp_path):
    clone = tmp_path / "clone"
    for p in _tracked():
        dst = clone / p
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes((REPO / p).read_bytes())
    assert not (clone.parent / "shared").exists()
    script = (
        "import sys; sys.path[:0] = ['tests', 'tests/core', 'tools']\n"
        "import rulebook, test_mcr_oracle, test_handgen, rules_min\n"
        "import glyphs\n"
        "assert rules_min.__file__.startswith(%r), rules_min.__file__\n"
        "assert len(rulebook.examples()) == 132\n"
        "assert len(test_mcr_oracle._fan_names()) == 82\n"
        "assert len(test_handgen._read_fans()) == 82\n"
        "assert '九莲宝灯'[0] in glyphs.tsv_chars(glyphs.FANS_TSV)\n"
        "print('loaded')\n" % str(clone))
    p = subprocess.run([sys.executable, "-c", script], cwd=clone, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "loaded" in p.stdout, p.stdout + p.stderr
    # and the tests that read the data pass there, on CPython and MicroPython
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "tests/core/test_mcr_rulebook.py"], cwd=clone, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    mp = Path(sys.executable).parent / "micropython"
    p = subprocess.run([str(mp), "-X", "heapsize=256K", "tests/mp_run.py", "tests/core/test_mcr_rulebook.py"],
                       cwd=clone, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "1 failed" not in p.stdout and " passed" in p.stdout, p.stdout + p.stderr
