"""Start time of `mahjong-table score HAND` against a bare interpreter: `make cli-bench`
(= .venv/bin/python -m bench.cli_start [--runs N]).

Target (issue 13): the score command, start to answer, in at most 2x a bare `python -c pass` of
the same interpreter. Bytecode is compiled first (a user's install has it), then each command
runs N times: with hyperfine when it is installed (`--export-json`), else a loop of runs timed
here. Reported: mean, median and min wall time; the ratio uses the medians (the machine is
shared, so min and median say more than the mean).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.path.join(ROOT, ".venv", "bin", "python")
HAND = "[345m3]258m1488s369p7s"
COMMANDS = (
    ("bare python", [PY, "-c", "pass"]),
    ("score (python -m host_tools)", [PY, "-m", "host_tools", "score", HAND, "--discard-from", "3",
                                      "--seat-wind", "E", "--round-wind", "E"]),
    ("score (mahjong-table)", [os.path.join(ROOT, ".venv", "bin", "mahjong-table"), "score", HAND,
                               "--discard-from", "3", "--seat-wind", "E", "--round-wind", "E"]),
)
TARGET = 2.0


def _loop(cmd, runs):
    times = []
    for _ in range(3):
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return times


def _hyperfine(runs):
    out = tempfile.mktemp(suffix=".json")
    import shlex
    subprocess.run(["hyperfine", "-N", "-w", "3", "-r", str(runs), "--export-json", out]
                   + [" ".join(shlex.quote(a) for a in cmd) for _, cmd in COMMANDS],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        res = json.load(f)["results"]
    os.unlink(out)
    return [r["times"] for r in res]


def main(argv):
    runs = 30
    for a in argv:
        if a.startswith("--runs="):
            runs = int(a[7:])
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([PY, "-m", "compileall", "-q", "rules_min", "host_tools"], cwd=ROOT, env=env,
                   stdout=subprocess.DEVNULL, check=True)
    tool = "hyperfine" if shutil.which("hyperfine") else "loop"
    all_times = _hyperfine(runs) if tool == "hyperfine" else [_loop(cmd, runs) for _, cmd in COMMANDS]
    rows = []
    for (name, cmd), times in zip(COMMANDS, all_times):
        rows.append((name, statistics.mean(times) * 1e3, statistics.median(times) * 1e3, min(times) * 1e3))
    print("%d runs each (%s)" % (runs, tool))
    print("%-30s %9s %9s %9s %7s" % ("command", "mean ms", "median ms", "min ms", "x bare"))
    base = rows[0][2]
    for name, mean, med, lo in rows:
        print("%-30s %9.1f %9.1f %9.1f %7.2f" % (name, mean, med, lo, med / base))
    worst = max(r[2] for r in rows[1:]) / base
    print("target: score <= %.1fx bare python (median): %s (%.2fx)" % (TARGET, "met" if worst <= TARGET else "NOT met",
                                                                        worst))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
