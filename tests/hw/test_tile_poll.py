"""firmware/main.py: while the app's tile entry asks for tiles, the reader is polled at every step
(a tile laid on it then waits half a step for its read, not half of READ_MS); elsewhere every
READ_MS, as the idle box's poll budget has it."""
from firmware.main import READ_MS
from tests.hw.test_main_loop import keys, make, run, start_session


def polls_in(dev, t, steps, ms=5):
    rdr = dev.hw.reader
    n = [0]
    real = rdr.poll

    def counted(*a, **k):
        n[0] += 1
        return real(*a, **k)
    rdr.poll = counted
    try:
        run(dev, t, steps, ms)
    finally:
        rdr.poll = real
    return n[0]


def test_the_reader_is_polled_every_step_while_tiles_are_tapped_in(tmp_path):
    dev, hw, t = make(tmp_path)
    start_session(dev, hw, t)
    steps = 40
    idle = polls_in(dev, t, steps)
    assert idle <= steps * 5 // READ_MS + 1      # the main screen: every READ_MS
    keys(dev, hw, t, "A10")                      # a win: player 1, self-drawn, its tiles next
    assert dev.app.state == "tiles"
    assert polls_in(dev, t, steps) == steps      # every step
    keys(dev, hw, t, "*")                        # back out of the tiles
    assert dev.app.state != "tiles"
    assert polls_in(dev, t, steps) <= steps * 5 // READ_MS + 1


def test_a_step_that_takes_a_key_leaves_the_poll_to_the_next_step(tmp_path):
    dev, hw, t = make(tmp_path)
    start_session(dev, hw, t)
    keys(dev, hw, t, "A10")
    assert dev.app.state == "tiles"               # the reader is due at every step here
    rdr = dev.hw.reader
    log = []                                      # (what, the step it happened in)
    real_poll, real_key = rdr.poll, dev.key

    def poll(*a, **k):
        log.append(("poll", dev.steps))
        return real_poll(*a, **k)

    def key(k):
        log.append(("key", dev.steps))
        return real_key(k)
    rdr.poll, dev.key = poll, key
    try:
        keys(dev, hw, t, "*")                     # a key among steps that all poll
    finally:
        rdr.poll, dev.key = real_poll, real_key
    step = [n for what, n in log if what == "key"]
    assert len(step) == 1
    polled = {n for what, n in log if what == "poll"}
    assert step[0] - 1 in polled                  # the step before the key's polled
    assert step[0] not in polled                  # the key's own step did not
    assert step[0] + 1 in polled                  # the next one did
