# What a table keys, as tables for the box's screens and the host tools: the penalty kinds and bar
# reasons of rules_min/penalties.py (the engine's rows: kind, rule sets, how, bounds) and the win
# flags (FLAGS below), with their names in both languages and their seed clauses, row for row as
# packed "|"-separated strings (one object each, not one per row). Settling a hand never loads
# this module. Clauses: 000 / 001 (Chinese Official), 003 (Sichuan), 004 (Guangdong), the seed
# documents docs/rules.md describes.
from rules_min.tiles import nth
from rules_min import penalties as P

# key, rule sets (m MCR, s Sichuan, g Guangdong), protocols (s score, e settle), a row per "|".
# Settle has no self_drawn key: a win without "from" is self-drawn.
FLAGS = (
    "self_drawn msg s|kong msg se|last_tile ms se|last_of_kind m se|win_tile_mixed m se|"
    "replacement_flower m se|kong_discard s e|misnamed m se"
)

_LETTER = {"mcr": "m", "sichuan": "s", "guangdong": "g"}


def _keys(table, rules, protocol=None):
    r = _LETTER.get(rules, "?")
    out = []
    for row in table.split("|"):
        f = row.split(" ")
        if f[1].find(r) >= 0 and (protocol is None or f[2].find(protocol) >= 0):
            out.append(f[0])
    return out


def kinds(rules):
    """The penalty kinds of a rule set, in table order (the box's penalty screen)."""
    return _keys(P.KINDS, rules)


def bar_reasons(rules):
    """The reasons that bar a player (停和陪打) in a rule set, in table order."""
    return _keys(P.BARS, rules)


def flags(rules, protocol="e"):
    """Win flag keys a rule set takes in a protocol ("s" score, "e" settle), in table order."""
    return _keys(FLAGS, rules, protocol)


def spec(kind, rules):
    """(how, lo, hi, group) of a penalty kind in a rule set, or None; how may include P.BAR."""
    i, f = P.find(P.KINDS, kind, rules)
    if f is None:
        return None
    return int(f[2]), int(f[3]), int(f[4]), f[5]


def bar_points(reason, rules):
    """Points deducted with a bar (Sichuan's tier-2 reasons), or None for no such reason."""
    i, f = P.find(P.BARS, reason, rules)
    return None if f is None else int(f[2])

_KINDS_ZH = "空吃空碰空杠|抢摸|碰牌超时|抢摸|未用规范语言报碰杠和|迟到|暴露他人牌张|暴露他人牌张|非法信息|传递信息|诈和|毁牌墙|一级违规|二级违规|三级违规|四级违规"
_KINDS_CLAUSE = (
    "000 §一.4.3; 001 §四.3|000 §一.4.4; 001 §四.4|001 §四.5|004 §三.3(1)|004 §三.3(1)|"
    "000 §一.4.1; 003 第五条.1; 004 §三.1|000 §一.4.6; 001 §四.7(3)|004 §三.2(3)|001 §四.10|004 §三.2(2)|"
    "004 §三.4|004 §三.2(4)|003 第六条.1|003 第六条.2|003 第六条.3|003 第六条.4"
)
_BARS_ZH = "错吃错碰错杠|相公|抓错牌入手|错报和|亮牌后和牌不成立|非法信息|干扰赛场|拖延出牌"
_BARS_CLAUSE = (
    "000 §一.4.2; 001 §四.2|000 §一.4.7; 001 §四.9; 004 §三.5|000 §一.4.4; 004 §三.3(2)|000 §一.4.5|"
    "001 §四.7(2)|001 §四.10|003 第六条.2|003 第六条.2"
)
_FLAGS_EN = (
    "self-drawn|on a kong: out on its replacement (self-drawn) or robbing it (discard)|"
    "the last tile of the wall|the last tile of its kind|"
    "winning tile mixed into the hand before it was shown|the kong's replacement was a flower|"
    "discard right after the discarder's kong|won on a wrongly named discard"
)
_FLAGS_ZH = "自摸|杠上开花 / 抢杠和|海底捞月 / 妙手回春|和绝张|和牌插入手牌|开杠补花后和牌|杠上炮|报错牌名误和"
_FLAGS_CLAUSE = (
    "000 §一.3; 003 第十二条.1; 004 §一.4|000 §一 (base rules); 003 第十二条.2; 004 §一.6(2)|"
    "000 §一 (base rules); 003 第十二条.2|000 §一 (base rules); 000 §二.10|000 §一.2.8|000 §二.14|"
    "003 第八条.4|001 §四.8"
)
# what each flag does to the score, for help texts
_FLAGS_EFFECT = (
    "all three pay|杠上开花 on a self-draw, 抢杠和 on a discard|妙手回春 self-drawn, 海底捞月 on a discard|"
    "和绝张|no 边张, 嵌张, 单钓, 和绝张, 九莲宝灯|no 杠上开花|the kong's income goes to the winner (呼叫转移)|"
    "the discarder pays what all three would have paid"
)


def _row(table, key, rules):
    i, f = P.find({"kinds": P.KINDS, "bars": P.BARS, "flags": FLAGS}[table], key, rules)
    if f is None:
        raise KeyError(key)
    return i, f


def name(table, key, rules, lang="en"):
    """The name of a row: table "kinds", "bars" or "flags"; lang "en" or "zh"."""
    i, _ = _row(table, key, rules)
    if lang != "en":
        return nth({"kinds": _KINDS_ZH, "bars": _BARS_ZH, "flags": _FLAGS_ZH}[table], i)
    return nth({"kinds": P.KIND_EN, "bars": P.BAR_EN, "flags": _FLAGS_EN}[table], i)


def clause(table, key, rules):
    i, _ = _row(table, key, rules)
    return nth({"kinds": _KINDS_CLAUSE, "bars": _BARS_CLAUSE, "flags": _FLAGS_CLAUSE}[table], i)


def effect(key, rules):
    i, _ = _row("flags", key, rules)
    return nth(_FLAGS_EFFECT, i)


def sizes():
    """Fields per packed string, for the test that keeps them row for row with the tables."""
    return {"kinds": (_KINDS_ZH, _KINDS_CLAUSE), "bars": (_BARS_ZH, _BARS_CLAUSE),
            "flags": (_FLAGS_EN, _FLAGS_ZH, _FLAGS_CLAUSE, _FLAGS_EFFECT)}
