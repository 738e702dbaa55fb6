"""The package as a user installs it (README: `pip install .`, `pip install '.[server]'`): the
wheel built from the checkout's files, installed (not editable) into a fresh virtual
environment, serves. The checkout is not on the installed tools' path: a package, template,
migration or catalogue that the build does not find is missing here as it would be for a user.

Kept quick: the wheel is built once, without build isolation (setuptools and wheel of the test
venv, pinned in requirements-dev.txt); it is installed with --no-deps into a venv made without
pip, whose dependencies (Django, django-ninja, gunicorn, ...: the pinned versions `.[server]`
resolves to) come from the test venv's site-packages through a .pth file. That .pth adds the
directory only: the test venv's own .pth files (the editable install of the checkout) are not
read from it, so `host_tools` can only come from the wheel."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from .sandbox import stop

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("host_tools", "rules_min", "protocol")


def checkout_files() -> list[str]:
    """What `pip install .` reads from the checkout: its files, tracked or new (not ignored)."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [f for f in out.stdout.splitlines() if f.split("/")[0] in PACKAGES + ("pyproject.toml", "README.md")
            and (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the venv, the wheel, seconds to build and install)."""
    t0 = time.monotonic()
    tmp = tmp_path_factory.mktemp("installed")
    src = tmp / "src"
    for f in checkout_files():
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        (src / f).write_bytes((ROOT / f).read_bytes())
    py = sys.executable
    subprocess.run([py, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"), str(src)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp / "dist").glob("mahjong_table-*.whl")
    venv = tmp / "venv"
    subprocess.run([py, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True, timeout=120)
    subprocess.run([py, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True, timeout=300)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "test_venv_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv, wheel, time.monotonic() - t0


def test_the_wheel_holds_every_package_and_data_file(installed):
    _, wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = []
    for f in checkout_files():
        if "__pycache__" in f or f in ("pyproject.toml", "README.md"):
            continue
        # every module of every package, and every file beside them (templates, catalogues)
        if f not in names:
            missing.append(f)
    assert not missing, "not in the wheel: %s" % missing
    assert not [n for n in names if n.startswith(("firmware/", "simulator/", "tests/", "board_configs/"))]


def test_installed_wheel_serves(installed, tmp_path):
    """pip install '.[server]', then mahjong-table serve --create-account ... and serve."""
    venv, _, seconds = installed
    print("wheel built and installed in %.1f s" % seconds)
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(PATH="%s:/usr/bin:/bin" % bin_, MT_PASSWORD="a long enough password", MT_SECRET_KEY_FILE=str(tmp_path / "secret"),
               PYTHONUNBUFFERED="1")
    where = subprocess.run(["python", "-c", "import host_tools.server.survival as s, host_tools as h; print(h.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=60)
    assert where.returncode == 0 and where.stdout.startswith(str(venv)), (where.stdout, where.stderr)
    p = subprocess.run(["mahjong-table", "serve", "--create-account", "boss"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and "created boss" in p.stdout, (p.stdout, p.stderr)
    from tests.server.helpers import free_port
    port = free_port()
    proc = subprocess.Popen(["mahjong-table", "serve", "--port", str(port), "--workers", "1"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        line = proc.stdout.readline().decode()
        assert "serving" in line, line + proc.stdout.read1(4096).decode()
        url = "http://127.0.0.1:%d" % port
        req = urllib.request.Request(url + "/api/login", data=json.dumps({"username": "boss", "password": env["MT_PASSWORD"]}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 200 and json.loads(r.read())["token"]
        # a page from the installed templates, in Chinese from the installed catalogue
        req = urllib.request.Request(url + "/login/", headers={"Accept-Language": "zh-hans"})
        with urllib.request.urlopen(req, timeout=30) as r:
            page = r.read().decode()
        assert r.status == 200 and "登录" in page and 'name="password"' in page, page[:500]
    finally:
        stop(proc, sig=2)


def test_installed_tools_for_a_laptop(installed, tmp_path):
    """pip install . (a referee's laptop): the scoring and sync commands from the wheel."""
    venv, _, _ = installed
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = "%s:/usr/bin:/bin" % (venv / "bin")
    p = subprocess.run(["mahjong-table", "score", "[345m3]258m1488s369p7s", "--discard-from", "3"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "Knitted Straight" in p.stdout, (p.stdout, p.stderr)
    for sub in ("sync", "tags", "settle"):
        p = subprocess.run(["mahjong-table", sub, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and "usage: mahjong-table " + sub in p.stdout, (sub, p.stderr)
