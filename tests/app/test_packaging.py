"""protocol/ (the record schema and the config check) goes wherever the firmware goes: the
board build and deploy tree, the unix-port runs (make mp-sim), and `pip install .`."""
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))


def test_board_build_takes_protocol_and_the_flows():
    import firmware_build
    for board in ("pico", "esp32s3", "circuitpython_feather"):
        dests = {d for _, d in firmware_build.sources(firmware_build.load_config(board))}
        assert {"protocol/record", "protocol/config"} <= dests, board
        flows = sorted(p.stem for p in (REPO / "firmware" / "flows").glob("*.py")) if (REPO / "firmware" / "flows").is_dir() else []
        assert {"firmware/flows/" + f for f in flows} <= dests


def test_mp_sim_compiles_protocol():
    p = subprocess.run(["make", "-s", "-n", "-B", "sim-mpy"], cwd=REPO, capture_output=True, text=True)
    assert "protocol/record.py" in p.stdout and "protocol/config.py" in p.stdout


def test_pip_package_finds_every_host_package():
    # a package left out installs without its modules (the pages' template tags went missing when
    # they were listed by hand): setuptools finds them from pyproject's include patterns
    from setuptools import find_packages
    with open(REPO / "pyproject.toml", "rb") as f:
        find = tomllib.load(f)["tool"]["setuptools"]["packages"]["find"]
    listed = set(find_packages(str(REPO), include=find["include"]))
    found = {".".join(p.parent.relative_to(REPO).parts) for root in ("host_tools", "rules_min", "protocol")
             for p in (REPO / root).rglob("__init__.py")}
    assert "protocol" in listed and found - listed == set()
