# The Pico W's frozen build on the emulated chip with the network code loaded (issue 20): the
# box boots with Wi-Fi settings on littlefs (/net.json, as `sync --wifi` leaves them), brings the
# radio up once at boot (no CYW43439 answers: "no radio"), loads the pusher, the fetcher and the
# HTTP client and steps them every loop while it plays a hand: the journal is the desktop
# simulator's byte for byte, and the heap keeps issue 20's 100 KB floor at its lowest. The whole
# session's figure is bench/pico_w_net_heap.py's (docs/box_online.md).
#
# Needs build/pico-w-uf2/firmware.uf2 of the sources in the tree now: skipped, with the reason
# naming each missing source, where they are absent (CI's clean checkout), as tests/pico/
# test_pico_w.py (whose fixture this uses).
import os
import sys

from test_pico_w import OUT, REPO, SCRIPT, box_w  # noqa: F401  (box_w: the fixture; tests/pico has no package)

FLOOR = 100 * 1024


def test_network_code_loaded_radio_absent_plays_a_hand_above_the_floor(node_ready, box_w):  # noqa: F811
    sys.path.insert(0, os.path.join(REPO, "bench"))
    import pico_w_net_heap
    out = pico_w_net_heap.measure(SCRIPT, True, fs=box_w, uf2_dir=OUT)
    # 1 pusher, 2 fetcher, 4 firmware.net.http imported, 8 the radio says "no radio"
    assert out["net_loaded"] == 15, out
    assert out["journal_as_desktop"], out
    assert out["min_free_raw"] >= FLOOR and out["min_free_live"] >= FLOOR, out
