# Reads testdata/mcr_rulebook_examples.tsv into requests of our notation.
# Plain string handling only: it runs under MicroPython too.
from paths import data

_SUIT = {"W": "m", "T": "s", "B": "p"}
_HON = {"F1": "E", "F2": "S", "F3": "W", "F4": "N", "J1": "C", "J2": "F", "J3": "P"}
_WIND = "ESWN"


def tile(code):
    if code in _HON:
        return _HON[code]
    return code[1] + _SUIT[code[0]]


def _pack(kind, code, offer):
    t = tile(code)
    if kind == "CHI":
        mid = int(t[0])
        return "[%d%d%d%s%d]" % (mid - 1, mid, mid + 1, t[1], offer)
    n = 3 if kind == "PENG" else 4
    s = t[0] * n + t[1:] if len(t) == 2 else t * n
    if kind == "GANG" and offer == 0:
        return "[" + s + "]"
    return "[%s%d]" % (s, offer)


def _packs(text):
    # "[('PENG', 'F1', 1), ('GANG', 'F2', 1)]" -> list of (kind, code, offer)
    out = []
    for part in text.split("(")[1:]:
        fields = part.split(")")[0].split(",")
        out.append((fields[0].strip(" '"), fields[1].strip(" '"), int(fields[2])))
    return out


def _expected(text):
    fans = []
    for item in text.split("、"):
        item = item.strip()
        if item.endswith("。"):  # one example ends with a full stop. Not rstrip: MicroPython
            item = item[:-1]     # strips bytes there, and 一 shares a byte with 。
        count = 1
        i = item.find("×")
        if i >= 0:
            count = int(item[i + 1:])
            item = item[:i]
        if item == "单钓":
            item = "单钓将"
        fans.append((item, count))
    return fans


def examples():
    out = []
    with open(data("mcr_rulebook_examples.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("fan_section"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 11:
                continue
            hand = "".join(_pack(*p) for p in _packs(cols[3]))
            hand += "".join(tile(c) for c in cols[4].split())
            hand += tile(cols[5])
            out.append({
                "section": cols[0],
                "hand": hand,
                "self_drawn": cols[6] == "自摸",
                "prevalent_wind": _WIND[int(cols[7])],
                "seat_wind": _WIND[int(cols[8])],
                "expected": _expected(cols[9]),
                "total": int(cols[10]),
            })
    return out
