# Chinese Official fan table: ids, points, names, exclusions (不计).
# Ids follow testdata/mcr_fans.tsv (points descending, 明暗杠 last); a test checks the names.
# The exclusion lists at the bottom are rules: each cites seed 001 §三 or seed 000 §二.
from rules_min.tiles import fields, field

from rules_min.tiles import const  # MicroPython's, or a stand-in on CPython

BIG_FOUR_WINDS = const(0)  # 大四喜
BIG_THREE_DRAGONS = const(1)  # 大三元
ALL_GREEN = const(2)  # 绿一色
NINE_GATES = const(3)  # 九莲宝灯
FOUR_KONGS = const(4)  # 四杠
SEVEN_SHIFTED_PAIRS = const(5)  # 连七对
THIRTEEN_ORPHANS = const(6)  # 十三幺
ALL_TERMINALS = const(7)  # 清幺九
LITTLE_FOUR_WINDS = const(8)  # 小四喜
LITTLE_THREE_DRAGONS = const(9)  # 小三元
ALL_HONORS = const(10)  # 字一色
FOUR_CONCEALED_PUNGS = const(11)  # 四暗刻
PURE_TERMINAL_CHOWS = const(12)  # 一色双龙会
QUADRUPLE_CHOW = const(13)  # 一色四同顺
FOUR_PURE_SHIFTED_PUNGS = const(14)  # 一色四节高
FOUR_PURE_SHIFTED_CHOWS = const(15)  # 一色四步高
THREE_KONGS = const(16)  # 三杠
ALL_TERMINALS_AND_HONORS = const(17)  # 混幺九
SEVEN_PAIRS = const(18)  # 七对
GREATER_HONORS_KNITTED = const(19)  # 七星不靠
ALL_EVEN_PUNGS = const(20)  # 全双刻
FULL_FLUSH = const(21)  # 清一色
PURE_TRIPLE_CHOW = const(22)  # 一色三同顺
PURE_SHIFTED_PUNGS = const(23)  # 一色三节高
UPPER_TILES = const(24)  # 全大
MIDDLE_TILES = const(25)  # 全中
LOWER_TILES = const(26)  # 全小
PURE_STRAIGHT = const(27)  # 清龙
THREE_SUITED_TERMINAL_CHOWS = const(28)  # 三色双龙会
PURE_SHIFTED_CHOWS = const(29)  # 一色三步高
ALL_FIVE = const(30)  # 全带五
TRIPLE_PUNG = const(31)  # 三同刻
THREE_CONCEALED_PUNGS = const(32)  # 三暗刻
LESSER_HONORS_KNITTED = const(33)  # 全不靠
KNITTED_STRAIGHT = const(34)  # 组合龙
UPPER_FOUR = const(35)  # 大于五
LOWER_FOUR = const(36)  # 小于五
BIG_THREE_WINDS = const(37)  # 三风刻
MIXED_STRAIGHT = const(38)  # 花龙
REVERSIBLE_TILES = const(39)  # 推不倒
MIXED_TRIPLE_CHOW = const(40)  # 三色三同顺
MIXED_SHIFTED_PUNGS = const(41)  # 三色三节高
CHICKEN_HAND = const(42)  # 无番和
LAST_TILE_DRAW = const(43)  # 妙手回春
LAST_TILE_CLAIM = const(44)  # 海底捞月
OUT_WITH_REPLACEMENT = const(45)  # 杠上开花
ROBBING_THE_KONG = const(46)  # 抢杠和
ALL_PUNGS = const(47)  # 碰碰和
HALF_FLUSH = const(48)  # 混一色
MIXED_SHIFTED_CHOWS = const(49)  # 三色三步高
ALL_TYPES = const(50)  # 五门齐
MELDED_HAND = const(51)  # 全求人
TWO_CONCEALED_KONGS = const(52)  # 双暗杠
TWO_DRAGON_PUNGS = const(53)  # 双箭刻
OUTSIDE_HAND = const(54)  # 全带幺
FULLY_CONCEALED = const(55)  # 不求人
TWO_MELDED_KONGS = const(56)  # 双明杠
LAST_TILE = const(57)  # 和绝张
DRAGON_PUNG = const(58)  # 箭刻
PREVALENT_WIND = const(59)  # 圈风刻
SEAT_WIND = const(60)  # 门风刻
CONCEALED_HAND = const(61)  # 门前清
ALL_CHOWS = const(62)  # 平和
TILE_HOG = const(63)  # 四归一
DOUBLE_PUNG = const(64)  # 双同刻
TWO_CONCEALED_PUNGS = const(65)  # 双暗刻
CONCEALED_KONG = const(66)  # 暗杠
ALL_SIMPLES = const(67)  # 断幺
PURE_DOUBLE_CHOW = const(68)  # 一般高
MIXED_DOUBLE_CHOW = const(69)  # 喜相逢
SHORT_STRAIGHT = const(70)  # 连六
TWO_TERMINAL_CHOWS = const(71)  # 老少副
PUNG_OF_TERMINALS = const(72)  # 幺九刻
MELDED_KONG = const(73)  # 明杠
ONE_VOIDED_SUIT = const(74)  # 缺一门
NO_HONORS = const(75)  # 无字
EDGE_WAIT = const(76)  # 边张
CLOSED_WAIT = const(77)  # 嵌张
SINGLE_WAIT = const(78)  # 单钓将
SELF_DRAWN = const(79)  # 自摸
FLOWER_TILES = const(80)  # 花牌
CONCEALED_AND_MELDED_KONG = const(81)  # 明暗杠
NUM_FANS = const(82)

POINTS = b'\x58\x58\x58\x58\x58\x58\x58\x40\x40\x40\x40\x40\x40\x30\x30\x20\x20\x20\x18\x18\x18\x18\x18\x18\x18\x18\x18\x10\x10\x10\x10\x10\x10\x0c\x0c\x0c\x0c\x0c\x08\x08\x08\x08\x08\x08\x08\x08\x08\x06\x06\x06\x06\x06\x06\x06\x04\x04\x04\x04\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x05'

# Names joined by "|" as UTF-8 bytes, with the byte offset of each (tiles.fields): name() reads
# two offsets and decodes one slice, and no list of 82 strings sits in RAM. (The Chinese names
# are encoded at import: ~900 bytes of RAM even when frozen, for a readable source.)
CN = "大四喜|大三元|绿一色|九莲宝灯|四杠|连七对|十三幺|清幺九|小四喜|小三元|字一色|四暗刻|一色双龙会|一色四同顺|一色四节高|一色四步高|三杠|混幺九|七对|七星不靠|全双刻|清一色|一色三同顺|一色三节高|全大|全中|全小|清龙|三色双龙会|一色三步高|全带五|三同刻|三暗刻|全不靠|组合龙|大于五|小于五|三风刻|花龙|推不倒|三色三同顺|三色三节高|无番和|妙手回春|海底捞月|杠上开花|抢杠和|碰碰和|混一色|三色三步高|五门齐|全求人|双暗杠|双箭刻|全带幺|不求人|双明杠|和绝张|箭刻|圈风刻|门风刻|门前清|平和|四归一|双同刻|双暗刻|暗杠|断幺|一般高|喜相逢|连六|老少副|幺九刻|明杠|缺一门|无字|边张|嵌张|单钓将|自摸|花牌|明暗杠".encode()
EN = (
    b"Big Four Winds|Big Three Dragons|All Green|Nine Gates|Four Kongs|Seven Shifted Pairs|"
    b"Thirteen Orphans|All Terminals|Little Four Winds|Little Three Dragons|All Honors|"
    b"Four Concealed Pungs|Pure Terminal Chows|Quadruple Chow|Four Pure Shifted Pungs|"
    b"Four Pure Shifted Chows|Three Kongs|All Terminals and Honors|Seven Pairs|"
    b"Greater Honors and Knitted Tiles|All Even Pungs|Full Flush|Pure Triple Chow|Pure Shifted Pungs|"
    b"Upper Tiles|Middle Tiles|Lower Tiles|Pure Straight|Three-Suited Terminal Chows|Pure Shifted Chows|"
    b"All Five|Triple Pung|Three Concealed Pungs|Lesser Honors and Knitted Tiles|Knitted Straight|"
    b"Upper Four|Lower Four|Big Three Winds|Mixed Straight|Reversible Tiles|Mixed Triple Chow|"
    b"Mixed Shifted Pungs|Chicken Hand|Last Tile Draw|Last Tile Claim|Out with Replacement Tile|"
    b"Robbing The Kong|All Pungs|Half Flush|Mixed Shifted Chows|All Types|Melded Hand|Two Concealed Kongs|"
    b"Two Dragons Pungs|Outside Hand|Fully Concealed Hand|Two Melded Kongs|Last Tile|Dragon Pung|"
    b"Prevalent Wind|Seat Wind|Concealed Hand|All Chows|Tile Hog|Double Pung|Two Concealed Pungs|"
    b"Concealed Kong|All Simples|Pure Double Chow|Mixed Double Chow|Short Straight|Two Terminal Chows|"
    b"Pung of Terminals or Honors|Melded Kong|One Voided Suit|No Honors|Edge Wait|Closed Wait|Single Wait|"
    b"Self-Drawn|Flower Tiles|Concealed Kong and Melded Kong"
)


_CN_AT = fields(CN)
_EN_AT = fields(EN)


def name(fan, en=False):
    if en:
        return field(EN, _EN_AT, fan)
    return field(CN, _CN_AT, fan)


def name_bytes(fan, en=False):
    """name() as UTF-8 bytes, for replies built as bytes. No name holds a character that JSON
    would escape (tests/core/test_speed.py)."""
    b = EN if en else CN
    at = _EN_AT if en else _CN_AT
    i = 2 * fan  # tiles.field_bytes, inlined: a call less per name
    return b[at[i] | at[i + 1] << 8:(at[i + 2] | at[i + 3] << 8) - 1]


# Fans in the order exclusions are applied: higher points first.
ORDER = b'\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f\x30\x31\x32\x33\x34\x35\x51\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f\x50'

# _EXCLUDES[fan]: the fans a present fan rules out (不计), from seed 001 §三 and the 2016
# supplement of seed 000 §二; lists are complete, they are not applied transitively.
_EXCLUDES = (
    bytes((BIG_THREE_WINDS, ALL_PUNGS, PREVALENT_WIND, SEAT_WIND, LITTLE_FOUR_WINDS)),  # 大四喜: 三风刻 碰碰和 圈风刻 门风刻 小四喜
    bytes((TWO_DRAGON_PUNGS, DRAGON_PUNG, LITTLE_THREE_DRAGONS)),  # 大三元: 双箭刻 箭刻 小三元
    bytes((HALF_FLUSH,)),  # 绿一色: 混一色
    bytes((FULL_FLUSH, CONCEALED_HAND, FULLY_CONCEALED, NO_HONORS, ONE_VOIDED_SUIT)),  # 九莲宝灯: 清一色 门前清 不求人 无字 缺一门
    bytes((THREE_KONGS, TWO_MELDED_KONGS, TWO_CONCEALED_KONGS, CONCEALED_AND_MELDED_KONG, MELDED_KONG, CONCEALED_KONG, SINGLE_WAIT, ALL_PUNGS)),  # 四杠: 三杠 双明杠 双暗杠 明暗杠 明杠 暗杠 单钓将 碰碰和
    bytes((FULL_FLUSH, SEVEN_PAIRS, CONCEALED_HAND, FULLY_CONCEALED, SINGLE_WAIT, NO_HONORS, ONE_VOIDED_SUIT)),  # 连七对: 清一色 七对 门前清 不求人 单钓将 无字 缺一门
    bytes((ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED, SINGLE_WAIT, ALL_TERMINALS_AND_HONORS)),  # 十三幺: 五门齐 门前清 不求人 单钓将 混幺九
    bytes((ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, NO_HONORS, DOUBLE_PUNG)),  # 清幺九: 混幺九 碰碰和 全带幺 无字 双同刻
    bytes((BIG_THREE_WINDS,)),  # 小四喜: 三风刻
    bytes((TWO_DRAGON_PUNGS, DRAGON_PUNG)),  # 小三元: 双箭刻 箭刻
    bytes((ALL_PUNGS, ALL_TERMINALS_AND_HONORS, OUTSIDE_HAND)),  # 字一色: 碰碰和 混幺九 全带幺
    bytes((CONCEALED_HAND, ALL_PUNGS, THREE_CONCEALED_PUNGS, TWO_CONCEALED_PUNGS, FULLY_CONCEALED)),  # 四暗刻: 门前清 碰碰和 三暗刻 双暗刻 不求人
    bytes((ALL_CHOWS, SEVEN_PAIRS, FULL_FLUSH, PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, NO_HONORS, ONE_VOIDED_SUIT)),  # 一色双龙会: 平和 七对 清一色 一般高 老少副 无字 缺一门
    bytes((PURE_TRIPLE_CHOW, PURE_DOUBLE_CHOW, TILE_HOG, PURE_SHIFTED_PUNGS)),  # 一色四同顺: 一色三同顺 一般高 四归一 一色三节高
    bytes((PURE_SHIFTED_PUNGS, ALL_PUNGS, PURE_TRIPLE_CHOW)),  # 一色四节高: 一色三节高 碰碰和 一色三同顺
    bytes((PURE_SHIFTED_CHOWS, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)),  # 一色四步高: 一色三步高 连六 老少副
    bytes((TWO_MELDED_KONGS, TWO_CONCEALED_KONGS, CONCEALED_AND_MELDED_KONG, MELDED_KONG, CONCEALED_KONG)),  # 三杠: 双明杠 双暗杠 明暗杠 明杠 暗杠
    bytes((ALL_PUNGS, OUTSIDE_HAND)),  # 混幺九: 碰碰和 全带幺
    bytes((CONCEALED_HAND, FULLY_CONCEALED, SINGLE_WAIT)),  # 七对: 门前清 不求人 单钓将
    bytes((LESSER_HONORS_KNITTED, ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED, SINGLE_WAIT)),  # 七星不靠: 全不靠 五门齐 门前清 不求人 单钓将
    bytes((ALL_PUNGS, ALL_SIMPLES, NO_HONORS)),  # 全双刻: 碰碰和 断幺 无字
    bytes((NO_HONORS, ONE_VOIDED_SUIT)),  # 清一色: 无字 缺一门
    bytes((PURE_SHIFTED_PUNGS, PURE_DOUBLE_CHOW)),  # 一色三同顺: 一色三节高 一般高
    bytes((PURE_TRIPLE_CHOW,)),  # 一色三节高: 一色三同顺
    bytes((UPPER_FOUR, NO_HONORS)),  # 全大: 大于五 无字
    bytes((ALL_SIMPLES, NO_HONORS)),  # 全中: 断幺 无字
    bytes((LOWER_FOUR, NO_HONORS)),  # 全小: 小于五 无字
    bytes((SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)),  # 清龙: 连六 老少副
    bytes((MIXED_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, NO_HONORS, ALL_CHOWS)),  # 三色双龙会: 喜相逢 老少副 无字 平和
    bytes(()),  # 一色三步高
    bytes((ALL_SIMPLES, NO_HONORS)),  # 全带五: 断幺 无字
    bytes((DOUBLE_PUNG,)),  # 三同刻: 双同刻
    bytes((TWO_CONCEALED_PUNGS,)),  # 三暗刻: 双暗刻
    bytes((ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED, SINGLE_WAIT)),  # 全不靠: 五门齐 门前清 不求人 单钓将
    bytes(()),  # 组合龙
    bytes((NO_HONORS,)),  # 大于五: 无字
    bytes((NO_HONORS,)),  # 小于五: 无字
    bytes(()),  # 三风刻
    bytes(()),  # 花龙
    bytes((ONE_VOIDED_SUIT,)),  # 推不倒: 缺一门
    bytes((MIXED_DOUBLE_CHOW,)),  # 三色三同顺: 喜相逢
    bytes(()),  # 三色三节高
    bytes(()),  # 无番和
    bytes((SELF_DRAWN,)),  # 妙手回春: 自摸
    bytes(()),  # 海底捞月
    bytes((SELF_DRAWN,)),  # 杠上开花: 自摸
    bytes((LAST_TILE,)),  # 抢杠和: 和绝张
    bytes(()),  # 碰碰和
    bytes(()),  # 混一色
    bytes(()),  # 三色三步高
    bytes(()),  # 五门齐
    bytes((SINGLE_WAIT,)),  # 全求人: 单钓将
    bytes((CONCEALED_KONG, TWO_CONCEALED_PUNGS)),  # 双暗杠: 暗杠 双暗刻
    bytes((DRAGON_PUNG,)),  # 双箭刻: 箭刻
    bytes(()),  # 全带幺
    bytes((CONCEALED_HAND, SELF_DRAWN)),  # 不求人: 门前清 自摸
    bytes((MELDED_KONG,)),  # 双明杠: 明杠
    bytes(()),  # 和绝张
    bytes(()),  # 箭刻
    bytes(()),  # 圈风刻
    bytes(()),  # 门风刻
    bytes(()),  # 门前清
    bytes((NO_HONORS,)),  # 平和: 无字
    bytes(()),  # 四归一
    bytes(()),  # 双同刻
    bytes(()),  # 双暗刻
    bytes(()),  # 暗杠
    bytes((NO_HONORS,)),  # 断幺: 无字
    bytes(()),  # 一般高
    bytes(()),  # 喜相逢
    bytes(()),  # 连六
    bytes(()),  # 老少副
    bytes(()),  # 幺九刻
    bytes(()),  # 明杠
    bytes(()),  # 缺一门
    bytes(()),  # 无字
    bytes(()),  # 边张
    bytes(()),  # 嵌张
    bytes(()),  # 单钓将
    bytes(()),  # 自摸
    bytes(()),  # 花牌
    bytes((MELDED_KONG, CONCEALED_KONG)),  # 明暗杠: 明杠 暗杠
)

# Packed once into one blob: EXCL[EXCL_AT[f]:EXCL_AT[f + 1]] are the fans f rules out. 82 small
# bytes objects would cost the device a few KB of heap for the whole session.
EXCL_AT = bytearray(NUM_FANS + 1)
EXCL = bytearray()
for _f in range(NUM_FANS):
    EXCL_AT[_f] = len(EXCL)
    EXCL.extend(_EXCLUDES[_f])
EXCL_AT[NUM_FANS] = len(EXCL)
EXCL = bytes(EXCL)
del _EXCLUDES
