"""The flows every hand passes through (states.EVERY_HAND: win, tiles) stay loaded while the heap
has more than heap.HOT free (issue 21: on the stock Pico, importing them again from .mpy cost
~100 ms at each hand's first key), and go after each hand as before when it has less; the rare
flows go in either case. Here on CPython with MicroPython's flag set and gc.mem_free() given."""
import sys

from firmware import heap
from firmware.states import EVERY_HAND
from tests.app.helpers import MCR, WIN, Table


def hand(t):
    t.keys("A10")
    t.tap(WIN)
    t.keys("1234")
    assert t.app.state == "main"


def with_free(monkeypatch, free):
    class Gc:
        @staticmethod
        def mem_free():
            return free
    monkeypatch.setattr(heap, "MICROPYTHON", True)
    monkeypatch.setattr(heap, "_gc", Gc, raising=False)


def test_a_heap_above_hot_keeps_the_flows_of_every_hand(tmp_path, monkeypatch):
    with_free(monkeypatch, heap.HOT + 1)
    t = Table(tmp_path, MCR)
    hand(t)
    first = [sys.modules.get("firmware.flows." + name) for name in EVERY_HAND]
    hand(t)
    hand(t)
    for name, m in zip(EVERY_HAND, first):   # imported once, not again at every hand
        assert m is not None and sys.modules.get("firmware.flows." + name) is m
    t.keys("C11#")   # a rare flow still goes
    assert "firmware.flows.penalty" not in sys.modules


def test_a_heap_below_hot_drops_them_after_each_hand(tmp_path, monkeypatch):
    with_free(monkeypatch, heap.HOT - 1)
    t = Table(tmp_path, MCR)
    for _ in range(2):
        hand(t)
        for name in EVERY_HAND:
            assert "firmware.flows." + name not in sys.modules
