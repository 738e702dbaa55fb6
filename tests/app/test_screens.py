"""The reviewed screens (docs/screens/box/, tools/box_screens.py): every state of the app is
among them, nothing is cut short or left off at 128x64 or 320x240 in either language, and the
committed pictures are what the firmware draws today."""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import box_screens  # noqa: E402

from firmware import states  # noqa: E402

DOCS = REPO / "docs" / "screens" / "box"


@pytest.fixture(scope="module", params=["cn", "en"])
def shots(request):
    return request.param, box_screens.shoot(request.param)


def test_every_state_is_reviewed(shots):
    lang, got = shots
    reached = {state for _, state, _ in got}
    assert reached == {st for _, sts in states.FLOWS for st in sts}
    for (name, cfg, steps, _), (n2, state, _) in zip(box_screens.SCREENS, got):
        assert name == n2


def test_nothing_is_cut_short_or_left_off(shots):
    lang, got = shots
    for name, state, by_size in got:
        for size, (model, data, cut) in by_size.items():
            assert cut == 0, (name, size, lang, model)
            title, rows, hint = model
            view_rows = 3 if size == "128x64" else 10
            assert len(rows) <= view_rows, (name, size, rows)
    hidden = []
    for name, cfg, steps, _ in box_screens.SCREENS:
        app = box_screens.play(name, cfg, steps, lang)
        for label, r, view, scale in box_screens.renderers():
            app.view = view
            app.screen()
            if app.hidden:   # a one-page step whose rows did not all fit
                hidden.append((name, label, lang, app.screen()))
    assert hidden == []


def test_the_committed_pictures_are_what_the_firmware_draws(shots):
    lang, got = shots
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    for name, state, by_size in got:
        for size, (model, data, cut) in by_size.items():
            fn = "%s_%s_%s.png" % (name, size, lang)
            assert (DOCS / fn).read_bytes() == data, "stale %s: run python tools/box_screens.py" % fn
            assert "(%s)" % fn in readme
    assert "docs/screens/box/README.md" in (REPO / "README.md").read_text(encoding="utf-8")


def test_the_big_screen_shows_more_at_once():
    for name in ("confirm", "ended"):
        row = [r for r in box_screens.SCREENS if r[0] == name][0]
        app = box_screens.play(*row[:3], "cn")
        small, big = [], []
        for label, r, view, scale in box_screens.renderers():
            app.view = view
            (small if label == "128x64" else big).append(app.screen())
        assert "\t1/" in small[0][0] and "\t1/" not in big[0][0]   # one page on 320x240
        assert len(big[0][1]) > len(small[0][1])
