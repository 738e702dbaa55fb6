# rules_min/mcr.py score(): the scorer runs with the heap locked on MicroPython, every frame of it
# on the C stack. A win scored from deep in the device loop can run out of C stack there
# (RuntimeError: maximum recursion depth exceeded); it must then be scored again unlocked, not
# refused. Runs under pytest and the unix port (tests/mp_run.py): a stand-in lock, and a scorer
# that fails while the lock is held, as the Pico's did.
from rules_min import mcr, mcr_table as T
from rules_min.notation import parse
from rules_min.win import Win


def _win(text):
    melds, counts, win, _ = parse(text)
    return Win(melds, counts, win, True)


def test_a_scorer_out_of_stack_while_locked_is_run_again_unlocked():
    p = _win("1344555666777s2s")
    ft = bytearray(T.NUM_FANS)
    real = mcr._score
    want = real(p)
    want_ft = bytes(mcr._alt if mcr._g_alt_key > mcr._g_best_key else mcr._best)
    assert want > 0
    held = [False]
    calls = []

    def lock():
        held[0] = True

    def unlock():
        held[0] = False

    def tight(q):
        calls.append(held[0])
        if held[0]:
            raise RuntimeError("maximum recursion depth exceeded")
        return real(q)

    saved = (mcr._heap_lock, getattr(mcr, "_heap_unlock", None), mcr._score)
    mcr._heap_lock, mcr._heap_unlock, mcr._score = lock, unlock, tight
    try:
        total = mcr.score(p, ft)
    finally:
        mcr._heap_lock, mcr._heap_unlock, mcr._score = saved
    assert calls == [True, False]        # tried locked, then unlocked
    assert not held[0]                   # the heap is unlocked again
    assert total == want and bytes(ft) == want_ft


def test_an_error_of_the_unlocked_scorer_is_not_swallowed():
    p = _win("1344555666777s2s")

    def broken(q):
        raise RuntimeError("a bug")

    saved = (mcr._heap_lock, getattr(mcr, "_heap_unlock", None), mcr._score)
    mcr._heap_lock, mcr._heap_unlock, mcr._score = (lambda: None), (lambda: None), broken
    try:
        try:
            mcr.score(p, bytearray(T.NUM_FANS))
            raised = False
        except RuntimeError:
            raised = True
    finally:
        mcr._heap_lock, mcr._heap_unlock, mcr._score = saved
    assert raised
