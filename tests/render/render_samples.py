# Screen models drawn by the render tests on CPython and on MicroPython (plain data: both import it).
# (name, model, scroll)
SCREENS = (
    ("fans", ("自摸 玩家2 64番", ["清一色\t24", "一色三同顺\t24", "清龙\t16", "三色三步高\t6",
                                 "门前清\t2", "自摸\t1", "花牌\t2"], "#确认 *返回"), 0),
    ("fans_scrolled", ("自摸 玩家2 64番", ["清一色\t24", "一色三同顺\t24", "清龙\t16", "三色三步高\t6",
                                          "门前清\t2", "自摸\t1", "花牌\t2"], "#确认 *返回"), 2),
    ("payments", ("结算 第5盘 东风圈", ["东 玩家1 庄\t+82", "南 玩家2 点炮\t-34", "西 玩家3\t-24",
                                       "北 玩家4\t-24"], "#确认 *返回 A撤销"), 0),
    ("english", ("Hand 5: self-drawn", ["Full Flush\t24", "Pure Triple Chow\t24", "Pure Straight\t16",
                                        "Fully Concealed Hand\t4", "Flower Tiles\t2"], "#=OK *=Back"), 0),
    ("sichuan", ("血战到底 第3盘", ["龙七对\t3", "杠上开花\t1", "根 x2\t2", "海底捞月\t1",
                                   "定缺: 万", "查叫 花猪"], "#确认 *返回"), 1),
    ("clipped", ("一色双龙会 一色四同顺 一色四节高 Quadruple Chow",
                 ["平胡 对对胡 清一色 七对 龙七对 清七对 自摸 杠上开花 抢杠胡 海底捞月",
                  "Long English text that has to be cut with an ellipsis at the edge",
                  "1m2m3m 4p5p6p 7s8s9s EE\t+1024", "not in the font: 麒麟 ★"],
                 "A胡 B杠 C罚 D更多 #确认 *返回 警告 错和 诈和"), 0),
    ("empty", ("", [], ""), 5),
    ("tofu", ("麒麟 ★ 不在字库", ["★麒\t1", "a 麟 b 😀", "★★★★★★★★★★★★★★"], "★ #"), 0),  # boxes, cut short too
)

SIZES = ((128, 64, False), (320, 240, True))


def texts():
    """Every text of SCREENS, and some the screens do not have (a tab, two columns, a code point of
    four UTF-8 bytes, none at all): for widths measured on both interpreters."""
    out = []
    for _, (title, lines, hint), _ in SCREENS:
        out.append(title)
        out.extend(lines)
        out.append(hint)
    out.extend(("\t", "a\x1eb", "\x01\x7f", "\U0001f600x", "\u00a7\u00a8\uffff", ""))
    return out
