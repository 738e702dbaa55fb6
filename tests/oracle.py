"""Reference scorer for differential tests: PyMahjongGB 1.4.0 (`import MahjongGB`). CPython only.

    oracle_score(req)         -> (fans, total); fans = sorted [(name_cn, points, count)]
    oracle_raw(req)           -> MahjongGB's own verbose tuples (fan_point, count, name_cn, name_en)
    oracle_shanten(notation)  -> int, for melds + 13 - 3k concealed tiles (no winning tile)

Fan names are those of testdata/mcr_fans.tsv (docs/rules.md: "Output must use these names").
MahjongGB's Chinese names agree with that table except for the three waits, which it calls
独听・边张 / 独听・嵌张 / 独听・单钓; they are renamed here (the English names agree for all 82).
花牌 is reported by MahjongGB itself (count = flowers, 1 point each) and is kept.
"""

import MahjongGB

try:
    from . import handgen
except ImportError:  # loaded as a top-level module (tests/ on sys.path)
    import handgen

RENAME = {
    "独听・边张": "边张",
    "独听・嵌张": "嵌张",
    "独听・单钓": "单钓将",
}


class OracleRefused(Exception):
    """MahjongGB raised (ERROR_NOT_WIN, ERROR_WRONG_TILES_COUNT, ...)."""


def oracle_raw(req):
    args = handgen.to_mahjonggb(req)
    try:
        return MahjongGB.MahjongFanCalculator(*args, verbose=True)
    except TypeError as exc:
        raise OracleRefused(str(exc)) from None


def oracle_score(req):
    fans = []
    for points, count, cn, _en in oracle_raw(req):
        fans.append((RENAME.get(cn, cn), points, count))
    fans.sort()
    return fans, sum(p * c for _, p, c in fans)


def oracle_shanten(hand):
    """Shanten of a 13-tile hand in our notation: claimed melds then 13 - 3k concealed tiles.

    0 = ready (听牌). MahjongGB.MahjongShanten only looks at the standing tiles: it refuses a
    number of them that is not 1, 4, 7, 10 or 13 but ignores the packs entirely (3 packs + 10
    standing tiles is accepted), so the 13 - 3k count is checked here."""
    melds, tiles = handgen.parse_hand(hand)
    if len(tiles) != 13 - 3 * len(melds):
        raise OracleRefused("ERROR_WRONG_TILES_COUNT: %d melds and %d concealed tiles" % (len(melds), len(tiles)))
    try:
        return MahjongGB.MahjongShanten(handgen.mgb_packs(melds), tuple(handgen.MGB[t] for t in tiles))
    except TypeError as exc:
        raise OracleRefused(str(exc)) from None
