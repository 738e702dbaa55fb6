# The words the box shows, in Chinese and English: one language at a time (app.lang, from the
# session config's "lang" or the box's D 5). A text is a number; its two languages sit side by
# side in a table, one pair a line, "cn|en|", in the order of the numbers (tests/app/test_texts.py
# checks the comment on each line against its constant). Table.get finds a text by an index of
# where each one starts, built once: no string is walked to find a text, and a table is one
# string on the device, not hundreds of objects.
#
# Texts one flow shows live in that flow's module (firmware/flows/*.py: private numbers and a
# table), so a flow that is not loaded costs no heap for them; the ones several modules show are
# here. A text may hold %s / %d: both languages take the same arguments in the same order.
# A new Chinese character needs the glyph subsets rebuilt: python tools/glyphs.py
from firmware.compat import MICROPYTHON as _MP, const


class Table:
    """Texts as "cn|en|" pairs, text i's at pair i."""

    def __init__(self, text):
        self.text = text
        self.b = None
        self.at = None

    def _index(self):
        # where each text starts in the UTF-8 bytes (MicroPython lends them without a copy). The
        # "|" are found by bytes.find in C on a copy let go at once: a loop over the bytes in
        # Python cost ~8 ms of the Pico's time on each flow's first screen (its table is made
        # again when the flow is loaded again)
        e = self.text.encode()
        at = bytearray(2 * (e.count(b"|") + 1))
        k = 2
        i = e.find(b"|")
        while i >= 0:
            i += 1
            at[k] = i >> 8
            at[k + 1] = i & 0xFF
            k += 2
            i = e.find(b"|", i)
        self.b = memoryview(self.text) if _MP else e
        self.at = at

    def get(self, i, lang):
        """Text number i in lang ("cn" or "en")."""
        if self.at is None:
            self._index()
        at = self.at
        k = 2 * i + (1 if lang == "en" else 0)
        a = (at[2 * k] << 8) | at[2 * k + 1]
        e = (at[2 * k + 2] << 8) | at[2 * k + 3]
        return str(self.b[a:e - 1], "utf-8")


WIND_E = const(0)
WIND_S = const(1)
WIND_W = const(2)
WIND_N = const(3)
SUIT_M = const(4)
SUIT_S = const(5)
SUIT_P = const(6)
RULES_MCR = const(7)
RULES_SC = const(8)
RULES_GD = const(9)
NUMBER_RANGE = const(10)
BACK_HINT = const(11)
OK_HINT = const(12)
DIGITS_HINT = const(13)
CONFIRM_HINT = const(14)
PAGE_HINT = const(15)
SAVED = const(16)
ERROR = const(17)
ALREADY_WON = const(18)
NOT_A_MELD = const(19)
NOT_A_MELD_CHOWS = const(20)
FOUR_MELDS = const(21)
TAG_TWICE = const(22)
NO_HONOURS = const(23)
FIFTH = const(24)
ALL_TILES = const(25)
NO_TILE_NOW = const(26)
MCR_UNIT = const(27)
SC_UNIT = const(28)
GD_UNIT = const(29)
TOTAL = const(30)
IS_A_WIN = const(31)
NO_POINTS = const(32)
R_NOT_WIN = const(33)
R_BAD_FLAGS = const(34)
R_BAD_TILES = const(35)
R_CHICKEN = const(36)
R_BARRED = const(37)
R_OUT = const(38)
R_OVER = const(39)
R_ONE_WINNER = const(40)
R_PENALTY = const(41)
REFUSED_GENERIC = const(42)
TAG_BLANK = const(43)
TAG_CORRUPT = const(44)
TAG_FOREIGN = const(45)
TAG_VERSION = const(46)
TAG_MULTIPLE = const(47)
R_HAND_FULL = const(48)
TIME_CHANGED = const(49)

TEXTS = Table(
    "东|E|"  # WIND_E
    "南|S|"  # WIND_S
    "西|W|"  # WIND_W
    "北|N|"  # WIND_N
    "万|m|"  # SUIT_M
    "条|s|"  # SUIT_S
    "筒|p|"  # SUIT_P
    "国标|MCR|"  # RULES_MCR
    "川麻|Sichuan|"  # RULES_SC
    "广东|Guangdong|"  # RULES_GD
    "号码须 1-10000|Numbers run 1-10000|"  # NUMBER_RANGE
    "*返回|* back|"  # BACK_HINT
    "#确认 *返回|# OK  * back|"  # OK_HINT
    "数字 #确认 *删|digits, # OK, * delete|"  # DIGITS_HINT
    "确认 %s|OK %s|"  # CONFIRM_HINT
    "#翻页|# page|"  # PAGE_HINT
    "已保存|Saved|"  # SAVED
    "出错 已复位|Error, reset|"  # ERROR
    "%s 已经和牌|%s has already won|"  # ALREADY_WON
    "不是一组碰或杠|Not a pung or kong|"  # NOT_A_MELD
    "不是一组吃碰杠|Not a chow, pung or kong|"  # NOT_A_MELD_CHOWS
    "最多四组副露|Four melds at most|"  # FOUR_MELDS
    "这张牌刚拍过|That tile was read already|"  # TAG_TWICE
    "本规则没有字牌|No honour tiles here|"  # NO_HONOURS
    "第五张%s?|A fifth %s?|"  # FIFTH
    "%d张已齐|All %d tiles are in|"  # ALL_TILES
    "现在不用拍牌|No tile needed now|"  # NO_TILE_NOW
    "%d番|%d pts|"  # MCR_UNIT
    "%d番|%d fan|"  # SC_UNIT
    "%d倍|x%d|"  # GD_UNIT
    "合计|Total|"  # TOTAL
    "这是和牌: 请按A输入|That is a win: key it with A|"  # IS_A_WIN
    "不计分|no points|"  # NO_POINTS
    "这手牌不成和牌|These tiles are no win|"  # R_NOT_WIN
    "标记与牌不符|Flags do not fit the tiles|"  # R_BAD_FLAGS
    "本规则不许这样的牌|Tiles the rules refuse|"  # R_BAD_TILES
    "鸡和只能自摸|Chicken hand: self-draw only|"  # R_CHICKEN
    "此人本盘不能再和|Barred from winning now|"  # R_BARRED
    "此人已经和牌|Has already won|"  # R_OUT
    "本盘已结束|The hand is over|"  # R_OVER
    "只能一人和牌|Only one winner|"  # R_ONE_WINNER
    "本规则没有此罚则|No such penalty here|"  # R_PENALTY
    "规则不允许|The rules refuse that|"  # REFUSED_GENERIC
    "空白牌签: 未写入|Blank tag: not written|"  # TAG_BLANK
    "不是麻将牌签|Not a tile tag|"  # TAG_CORRUPT
    "别的牌套的牌|A tile of another set|"  # TAG_FOREIGN
    "牌签格式更新了|Newer tag format|"  # TAG_VERSION
    "一次只拍一张|One tile at a time|"  # TAG_MULTIPLE
    "本盘记录已满: 叫裁判|Hand record full: referee|"  # R_HAND_FULL
    "新时间: 剩%d分钟|Time: %d min left|"  # TIME_CHANGED
)

# the rules core's codes, and other keys, to texts
RULES_NAME = {"mcr": RULES_MCR, "sichuan": RULES_SC, "guangdong": RULES_GD}
TOTAL_UNIT = {"mcr": MCR_UNIT, "sichuan": SC_UNIT, "guangdong": GD_UNIT}
# rules_min/settle.py's error codes
REFUSAL = {"not_win": R_NOT_WIN, "bad_flags": R_BAD_FLAGS, "bad_tiles": R_BAD_TILES,
           "chicken_discard": R_CHICKEN, "barred": R_BARRED, "out_of_hand": R_OUT, "hand_over": R_OVER,
           "second_winner": R_ONE_WINNER, "bad_penalty": R_PENALTY, "is_a_win": IS_A_WIN,
           "hand_full": R_HAND_FULL}
# why a tag read is no tile: firmware/main.py's codes (and the headless runner's bad tag)
TAG_MESSAGES = {"blank": TAG_BLANK, "corrupt": TAG_CORRUPT, "foreign_set": TAG_FOREIGN, "version": TAG_VERSION,
                "multiple": TAG_MULTIPLE, "not a tile of this set": TAG_FOREIGN}


def t(i, lang):
    """Shared text number i in lang."""
    return TEXTS.get(i, lang)
