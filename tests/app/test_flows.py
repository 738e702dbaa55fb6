"""The table's flows through the App: a win scored once, records of the one schema, the box
refusing the configs the server refuses, the 杠上炮 question, languages, messages a player
understands, undo in one key. The faults issue 11 found are tests here (they fail on the app
of 9c09def)."""
import json
import sys

import pytest

from protocol import record
from tests.app.helpers import GD, MCR, SC, SC_WIN, WIN, Table


def count_calls(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counted(*a, **kw):
        calls.append(a)
        return real(*a, **kw)
    monkeypatch.setattr(module, name, counted)
    return calls


# ---- a win is scored once ----
def test_an_mcr_win_is_scored_once_for_preview_screen_and_record(monkeypatch, tmp_path):
    from rules_min import mcr
    t = Table(tmp_path, MCR)
    calls = count_calls(monkeypatch, mcr, "score")
    t.keys("A13").tap("3m 4m 5m").keys("#").tap("2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s")
    assert t.app.state == "confirm"
    t.app.screen()
    t.keys("#").keys("#")          # paging redraws, no new scoring
    t.keys("1234")
    rec = t.records()[-1]
    assert rec["kind"] == "hand" and rec["wins"][0]["total"] == 14
    assert len(calls) == 1


@pytest.mark.parametrize("cfg,module", [(SC, "sichuan"), (GD, "guangdong")])
def test_sichuan_and_guangdong_wins_are_scored_once(monkeypatch, tmp_path, cfg, module):
    import importlib
    m = importlib.import_module("rules_min." + module)
    t = Table(tmp_path, cfg)
    calls = count_calls(monkeypatch, m, "score")
    t.keys("A10").tap(SC_WIN)
    t.app.screen()
    t.keys("1234")
    assert len(calls) == 1


# ---- records ----
def test_records_follow_the_one_schema_with_fan_ids_and_transfers(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("C11#C11#")                                   # a warning, then 5 points
    t.keys("A10").tap("a b").tap(WIN).keys("1234")       # two flowers
    recs = t.records()
    for r in recs:
        assert record.validate(r) is None, r
    h = recs[-1]
    text = json.dumps(h, ensure_ascii=False)
    assert not any(ord(ch) > 0x2E80 for ch in text)      # no names in a language: ids
    fans = dict((f, n) for f, n in h["wins"][0]["fans"])
    assert fans[80] == 2                                 # 花牌 x2, fan id 80
    assert h["wins"][0]["total"] == sum(__import__("rules_min.mcr_table").mcr_table.POINTS[f] * n
                                        for f, n in h["wins"][0]["fans"])
    d = [0, 0, 0, 0]
    for a, b, p, ev in h["transfers"]:
        if a is not None:
            d[a] -= p
        if b is not None:
            d[b] += p
        assert 0 <= ev < len(h["events"])
    assert d == h["deltas"] and sum(d) == -5             # the penalty left the table
    assert h["transfers"][0] == [0, None, 5, 1]          # paid by chair 0 for event 1


def test_a_hand_record_is_refused_by_the_validator_when_altered(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN).keys("1234")
    h = t.records()[-1]
    h["deltas"][1] += 8
    assert "sum of the transfers" in record.validate(h)


@pytest.mark.parametrize("bad,field", [
    ({"session": "one"}, "session"), ({"table": [7]}, "table"), ({"session": 2147483647}, "session"),
    ({"first_dealer": None}, "first_dealer"), ({"table": 10001}, "table"), ({"players": ["1", "2", "3", "3"]}, "players"),
    ({"lang": "fr"}, "lang"),
])
def test_the_box_refuses_what_the_server_would_refuse(tmp_path, bad, field):
    cfg = dict(MCR)
    for k, v in bad.items():
        if v is None:
            del cfg[k]
        else:
            cfg[k] = v
    t = Table(tmp_path)
    err = t.app.push_config(cfg)
    assert err is not None and field in err
    assert t.records() == [] and t.app.state == "idle" and t.app.session is None


def test_a_config_from_the_box_keys_passes_the_same_check(tmp_path):
    t = Table(tmp_path)
    t.keys("D1 7#3#11#12#13#14#2#")
    assert t.app.state == "main"
    rec = t.records()[0]
    assert record.validate(rec) is None and rec["first_dealer"] == 1 and rec["table"] == 7 and rec["session"] == 3
    t2 = Table(tmp_path, name="k")
    t2.keys("D1 0#")                                     # table 0 is refused at once
    assert "1-10000" in t2.screen_text() and t2.app.state == "cfg"


# ---- Sichuan: the 杠上炮 fact from the table ----
def test_sichuan_asks_kong_discard_only_when_the_discarder_konged(tmp_path):
    t = Table(tmp_path, SC)
    t.keys("A13")
    assert t.app.state == "tiles"                        # nobody konged: no question
    t2 = Table(tmp_path, SC, name="b")
    t2.keys("B20#A13")                                   # chair 1 konged, chair 2 deals in: no question
    assert t2.app.state == "tiles"
    t3 = Table(tmp_path, SC, name="c")
    t3.keys("B30#A13")                                   # chair 2 konged and deals in
    assert t3.app.state == "kong_discard"
    t3.keys("1").tap(SC_WIN).keys("1234")
    ev = t3.app.events[-1]
    assert ev["kong_discard"] is True and ev["missing_suit"] == "p"
    t4 = Table(tmp_path, SC, name="d")
    t4.keys("B30#A13 0").tap(SC_WIN).keys("1234")
    assert "kong_discard" not in t4.app.events[-1]


def test_another_winner_on_the_same_discard(tmp_path):
    t = Table(tmp_path, SC)
    t.keys("A13").tap(SC_WIN).keys("1234")
    assert "1-4" in t.screen_text()                      # the main screen offers it
    t.keys("2").tap("1m 1m 1m 2m 2m 2m 3m 3m 3m 1s 1s 4s 4s 4s").keys("1234")
    assert t.app.events[-1]["same_discard"] is True and t.app.hand.winners == [0, 1]
    g = Table(tmp_path, GD, name="g")
    g.keys("A13").tap(SC_WIN).keys("1234")
    assert g.app.state == "another"
    g.keys("#")
    assert g.records()[-1]["winners"] == [0] and g.app.state == "main"


# ---- screens and words ----
def test_the_confirmation_shows_payments_by_player_then_fans_with_points_and_the_total(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A13").tap("3m 4m 5m").keys("#").tap("2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s")
    title, rows, hint = t.app.screen()
    assert "14" in title and title.endswith("\t1/2")
    assert rows[0].replace("\x1e", " ").split() == ["1", "101", "+38", "2", "102", "-8"]
    assert rows[1].replace("\x1e", " ").split() == ["3", "103", "-22", "4", "104", "-8"]
    assert rows[2] == "组合龙\t12"
    t.keys("#")
    title, rows, hint = t.app.screen()
    assert title.endswith("\t2/2") and rows[:2] == ["平和\t2", "合计\t14番"]


def test_a_hand_under_8_fans_is_refused_in_words(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A13").tap("1m 2m 3m 5s 6s 7s 7p 8p 9p 2m 3m 4m 5p 5p")
    assert t.app.state == "refused"
    text = t.screen_text()
    assert "只有5番" in text and "8番" in text and "event" not in text
    t.keys("D")                                          # key it as a false win, the tiles kept
    assert t.app.state == "decl_ok"


def test_a_flower_where_the_rules_have_none_gets_a_word(tmp_path):
    t = Table(tmp_path, SC)
    t.keys("A13").tap("1m a")
    assert "川麻不计花牌" in t.screen_text() and t.app.d["entry"].current == [0]
    t.app.lang = "en"
    t.tap("b")
    assert "Sichuan: no flowers" in t.screen_text()
    assert "21 wins off 23" in t.screen_text()              # every line in the language now


def test_a_tile_when_none_is_wanted_gets_a_word(tmp_path):
    t = Table(tmp_path, MCR)
    t.tap("5m")
    assert "现在不用拍牌" in t.screen_text()


def test_one_language_at_a_time_from_the_config_and_on_the_box(tmp_path):
    t = Table(tmp_path, dict(MCR, lang="en"))
    assert t.app.screen()[0].startswith("Hand 1/16")
    t.keys("D5")
    assert t.app.screen()[0].startswith("第1/16盘")
    t.boot()                                             # power cut: the config's language again
    assert t.app.lang == "en" and t.app.screen()[0].startswith("Hand 1/16")


def test_undo_is_one_key_and_redo_puts_it_back(tmp_path):
    t = Table(tmp_path, SC)
    t.keys("B20#")
    assert t.app.running() == [-20, 60, -20, -20]
    t.keys("*")
    assert t.app.events == [] and t.app.running() == [0, 0, 0, 0]
    t.keys("#")
    assert len(t.app.events) == 1 and t.app.running() == [-20, 60, -20, -20]


def test_the_session_end_has_headings_and_places(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN).keys("1234").keys("D4 2580# 2 #")
    title, rows, hint = t.app.screen()
    assert t.app.state == "ended" and rows[0] == "名次 选手\t得分 标准分"
    assert rows[1].split()[:2] == ["1", "101"] and rows[1].endswith("4.0")
    t.keys("#")
    assert t.app.screen()[1][0] == "名次 选手\t得分 标准分"   # the heading on every page


def test_rare_flows_leave_the_heap_when_the_table_leaves_them(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("C11")
    assert "firmware.flows.penalty" in sys.modules
    t.keys("#")
    assert "firmware.flows.penalty" not in sys.modules and t.app.state == "main"
    assert "firmware.flows.setup" not in sys.modules      # the session has started


def test_a_power_cut_in_the_middle_of_a_hand_keeps_what_was_recorded(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN).keys("1234").keys("C11#A13")
    t.boot()
    s = t.app.session
    assert s.hand == 2 and t.app.state == "main" and t.app.events == []
    assert [r["kind"] for r in t.records()] == ["session", "hand"]


def test_fan_names_are_found_by_index():
    from firmware.ui import fan_names as names
    from rules_min import mcr_table, sichuan
    for m, n in ((mcr_table, 82), (sichuan, 11)):
        for s in (m.CN, m.EN):
            idx = names.Names(s)
            text = s.decode() if isinstance(s, bytes) else s   # the core keeps ASCII tables as bytes
            assert len(idx) == n and [idx.get(i) for i in range(n)] == text.split("|")
    assert names.fan("mcr", 34, "cn") == ("组合龙", 12) and names.fan("mcr", 80, "en") == ("Flower Tiles", 1)
    assert names.fan("guangdong", 5, "en") == ("Full Flush", 4)


def test_a_hand_keeps_room_for_its_wins_in_the_journal(tmp_path):
    # a Sichuan hand of many events: the box refuses the event that would leave no room in the
    # hand's record for the wins still to come, instead of failing when the hand is over
    t = Table(tmp_path, SC)
    refused = None
    for i in range(60):
        t.keys("C12")                                    # tier 1 (Sichuan: late is first)
        if t.app.state != "pen_ok":
            refused = len(t.app.events)
            assert "本盘记录已满" in t.screen_text()
            t.keys("**")
            break
        t.keys("#")
    assert refused is not None and refused > 10
    t.keys("A13").tap(SC_WIN).keys("1234")
    t.keys("A24").tap("1m 1m 1m 2m 2m 2m 3m 3m 3m 1s 1s 4s 4s 4s").keys("1234")
    t.keys("A3 0").tap("5m 5m 5m 6m 6m 6m 7m 7m 7m 5s 5s 6s 6s 6s").keys("1234")
    h = t.records()[-1]
    assert h["kind"] == "hand" and h["winners"] == [0, 1, 2]
    assert len(record.encode(h)) <= t.journal.max_payload and record.validate(h) is None


def test_a_win_is_written_to_flash_at_its_preview_and_committed_by_the_key(tmp_path, monkeypatch):
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN)
    assert t.journal.pending() == 2            # the record is on flash, not yet in the journal
    t.ms += 5000                               # the table reads the screen
    appends = []
    for name in ("append", "append_prepared"):
        monkeypatch.setattr(t.journal, name, lambda *a, name=name: appends.append(name))
    t.keys("1234")
    assert appends == [] and t.journal.pending() is None and t.journal.last_seq == 2
    monkeypatch.undo()
    rec = t.records()[-1]
    assert rec["kind"] == "hand" and rec["time"] == 1764400000 + t.ms // 1000 - 5   # the preview's time
    # the same hand keyed on a journal that cannot prepare ahead writes the same record, its time
    # the preview's too (tests/app/test_record_time_is_the_results.py)
    u = Table(tmp_path, MCR, name="k")
    u.app.j = _NoPrepare(u.journal)
    u.ms = t.ms - 5000
    u.keys("A10").tap(WIN)
    u.ms = t.ms
    u.keys("1234")
    assert u.records()[-1] == rec


class _NoPrepare:
    # a journal with append only (as the App's fakes): the record is built at the key
    def __init__(self, j):
        self._j = j

    def __getattr__(self, name):
        if name in ("append_prepared", "pending"):
            raise AttributeError(name)
        return getattr(self._j, name)


def test_a_hand_that_cannot_be_written_can_be_keyed_again(tmp_path, monkeypatch):
    t = Table(tmp_path, MCR)

    def broken(*data):
        raise MemoryError()
    for name in ("append", "append_prepared", "commit"):   # commit: the record prepared ahead
        monkeypatch.setattr(t.journal, name, broken)
    t.keys("A10").tap(WIN).keys("1234")
    assert t.app.state == "main" and t.app.events == [] and "MemoryError" in t.screen_text()
    monkeypatch.undo()
    t.keys("A10").tap(WIN).keys("1234")
    assert [r["kind"] for r in t.records()] == ["session", "hand"] and t.app.session.hand == 2
