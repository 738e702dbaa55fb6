"""Text for people from the score and settle protocols' replies, in English or Chinese.

The replies are the protocols' own (rules_min/request.py, rules_min/settle_request.py): this
module only lays them out, so what a person reads is what the box and the line protocol say.
Transfer reasons come from the settle engine in English; `reason()` renders them in Chinese.
People read chairs 1-4 (chair 1 is East when the session starts); the protocols' seats 0-3 are
shown as their chair (seat + 1) everywhere here.
"""
import re

RULE_NAMES = {"mcr": ("Chinese Official", "国标麻将"), "sichuan": ("Sichuan 血战到底", "四川血战到底"),
              "guangdong": ("Guangdong 推倒胡", "广东推倒胡")}
WINDS = {"E": ("East", "东"), "S": ("South", "南"), "W": ("West", "西"), "N": ("North", "北")}

# label -> (English, Chinese)
_T = {
    "seat": ("chair %d", "%d号位"),
    "winner": ("winner", "和牌"),
    "discarder": ("discarder", "放铳"),
    "on_discard": ("on chair %d's discard", "%d号位放铳"),
    "self_drawn": ("self-drawn", "自摸"),
    "no_winner": ("payments: say --self-drawn or --discard-from CHAIR", "付分：请给出 --self-drawn 或 --discard-from 座位号"),
    "winds": ("seat wind %s, round wind %s", "门风%s，圈风%s"),
    "total": ("Total", "合计"),
    "fans": ("fans", "番"),
    "reaches": ("reaches the 8 fans to win", "够8番起和"),
    "short": ("does not reach 8 (flowers do not count toward it): not a win; key it as a declared win (错和)",
              "不够8番（花牌不计起和番）：不能和牌，应按错和录入"),
    "no_pay": ("not a win: no payments", "不能和牌：不计付分"),
    "hand_fans": ("%d without flowers", "不含花牌%d番"),
    "payments": ("Payments", "付分"),
    "value": ("Value", "分值"),
    "capped": (" (capped at 3)", "（3番封顶）"),
    "mult": (" (times the base 2)", "（底分2的倍数）"),
    "horses": ("horse hits", "中马"),
    "horse_rule": ("each hit doubles the win", "每中一马和牌分翻倍"),
    "not_win": ("Not a winning hand", "不是和牌"),
    "shanten0": ("it was ready (shanten 0)", "已听牌（向听数0）"),
    "shantenN": ("%d tile(s) from ready (shanten %d)", "离听牌差%d张（向听数%d）"),
    "cuohe": ("declared and shown: 错和, 10 to each other player", "报和亮牌：错和，罚付各家10分"),
    "zhahe": ("declared and shown: 诈和, 20 to each other player", "报和亮牌：诈和，罚付各家20分"),
    "youyi": ("declared and shown: 有意诈和, charged as 诈和, for the referee (disqualification)",
              "报和亮牌：有意诈和，按诈和计分，由裁判判定是否取消资格"),
    "error": ("Error", "错误"),
    "dealer": ("dealer chair %d", "庄家%d号位"),
    "events": ("%d events", "%d个事件"),
    "over": ("the hand is over, chair %d deals next", "本盘结束，下盘%d号位坐庄"),
    "going": ("the hand is still going", "本盘未结束"),
    "transfers": ("Transfers", "转账"),
    "nobody": ("deducted", "扣分"),
    "per_seat": ("Per chair", "各座位合计"),
    "referee": ("For the referee", "裁判须知"),
    "nothing": ("nothing moves", "无分数变动"),
    "event": ("event %d", "第%d个事件"),
}

_FLAG_TEXT = {
    "warning": ("warning (%s)", "警告（%s）"),
    "barred": ("barred from winning this hand: %s", "本盘停和陪打：%s"),
    "forfeit": ("forfeits the session", "本局弃权"),
    "disqualified": ("disqualified", "取消资格"),
    "round_cancelled": ("the round is cancelled", "取消本轮成绩"),
    "false_win": ("false declaration: barred from winning", "报和不成立：停和"),
    "false_declaration": ("错报和: barred from winning this hand", "错报和：本盘停和陪打"),
    "intentional_false_win": ("有意诈和: the referee decides on disqualification", "有意诈和：由裁判判定是否取消资格"),
}


def t(key, lang, *args):
    s = _T[key][0 if lang == "en" else 1]
    return s % args if args else s


def width(s):
    """Columns a string takes in a terminal: CJK characters and full-width punctuation take two.
    (Ranges, not unicodedata: its import is a tenth of the score command's start.)"""
    n = 0
    for c in s:
        o = ord(c)
        n += 2 if (0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7A3 or 0xF900 <= o <= 0xFAFF
                   or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFF60 or 0xFFE0 <= o <= 0xFFE6) else 1
    return n


def pad(s, n):
    return s + " " * max(0, n - width(s))


def colon(lang):
    return ": " if lang == "en" else "："


def seat(s, lang):
    """A protocol seat (0-3) as people number the chairs (1-4)."""
    return t("seat", lang, s + 1)


def signed(n):
    return "%+d" % n if n else "0"


def payments_line(payments, lang, winner=None, discarder=None):
    parts = []
    for s, p in enumerate(payments):
        label = seat(s, lang)
        if s == winner:
            label += " (%s)" % t("winner", lang) if lang == "en" else "（%s）" % t("winner", lang)
        elif s == discarder:
            label += " (%s)" % t("discarder", lang) if lang == "en" else "（%s）" % t("discarder", lang)
        parts.append("%s %s" % (label, signed(p)))
    return "%s%s%s" % (t("payments", lang), ": " if lang == "en" else "：", "   ".join(parts))


def unit(n, word, lang):
    """"14 fans", "1 fan", "14番", "x4" (Guangdong multipliers: word "x")."""
    if word == "x":
        return "x%d" % n
    if lang != "en":
        return "%d%s" % (n, word)
    return "%d %s" % (n, word if n != 1 else word[:-1])


def _fan_lines(fans, lang, word):
    rows = []
    for f in fans:
        name = f["en"] if lang == "en" else f["name"]
        if f["count"] > 1:
            name += " x%d" % f["count"]
        rows.append((name, f["points"] * f["count"]))
    w = max([width(n) for n, _ in rows] + [width(t("total", lang))]) + 2
    return ["  %s%8s" % (pad(n, w), unit(p, word, lang)) for n, p in rows], w


def shanten_text(rules, n, lang):
    out = t("shanten0", lang) if n == 0 else t("shantenN", lang, n, n)
    if rules == "mcr":
        out += "; " + t("cuohe" if n == 0 else "zhahe" if n == 1 else "youyi", lang)
    return out


def score_text(rules, hand, how, reply, lang="en", payments=None, winner=None, discarder=None):
    """The scored hand for people. how: the header's description of the win (already in lang);
    payments: per seat, or None."""
    lines = ["%s  %s  %s" % (RULE_NAMES[rules][0 if lang == "en" else 1], hand, how), ""]
    fans = reply["fans"]
    word = t("fans", lang) if rules != "guangdong" else "x"
    rows, w = _fan_lines(fans, lang, word)
    lines += rows
    lines.append("  " + "-" * (w + 8))
    total = reply["total"]
    colon = ": " if lang == "en" else "："
    short = rules == "mcr" and not reply["meets_minimum"]
    if rules == "mcr":
        flowers = sum(f["count"] for f in fans if f["name"] == "花牌")
        verdict = t("short" if short else "reaches", lang)
        extra = (" (%s)" % t("hand_fans", lang, total - flowers)) if flowers else ""
        lines.append("  %s%8s%s%s%s" % (pad(t("total", lang), w), unit(total, word, lang), extra, colon, verdict))
    elif rules == "sichuan":
        lines.append("  %s%8s%s" % (pad(t("total", lang), w), unit(total, word, lang), t("capped", lang)))
        lines.append("  %s%8d" % (pad(t("value", lang), w), reply["value"]))
    else:
        lines.append("  %s%8s%s" % (pad(t("total", lang), w), "x%d" % total, t("mult", lang)))
        lines.append("  %s%8d" % (pad(t("value", lang), w), reply["value"]))
        if reply.get("horse_hits"):
            lines.append("  %s%8d%s%s" % (pad(t("horses", lang), w), reply["horse_hits"], colon, t("horse_rule", lang)))
    lines.append("")
    if short:
        lines.append(t("no_pay", lang))
    elif payments is not None:
        lines.append(payments_line(payments, lang, winner, discarder))
    else:
        lines.append(t("no_winner", lang))
    return "\n".join(lines)


def caret_lines(text, pos):
    """text, and a caret under its character at pos (0-based), aligned for CJK widths."""
    return ["  " + text, "  " + " " * width(text[:pos]) + "^"]


_AT = re.compile(r"at position (\d+)$")


def error_text(error, lang="en", hand=None):
    """An error reply for people; with the hand, a caret under the character it names."""
    lines = ["%s (%s)%s%s" % (t("error", lang), error.get("code"), colon(lang), error.get("message"))]
    m = _AT.search(error.get("message", ""))
    if m and hand is not None:
        lines += caret_lines(hand, int(m.group(1)))
    return "\n".join(lines)


# ---- settle ----

# English reason (as rules_min/settle.py and penalties.py write them) -> Chinese
_REASONS = (
    (r"win (\d+) fans self-drawn", r"自摸 \1番"),
    (r"win (\d+) fans, the caller of a wrong tile name pays for three", r"和牌 \1番，报错牌名者包付三家"),
    (r"win (\d+) fans", r"和牌 \1番"),
    (r"win (\S+) x(\d+)(?:, (\d+) horse hits)?( self-drawn)?(, pays for all \(承包\))?", None),
    (r"direct kong, discarder pays for three \(放杠\)", "放杠，点杠者包三家"),
    (r"direct kong \(刮风\)", "直杠（刮风）"),
    (r"added kong \(刮风\)", "巴杠（刮风）"),
    (r"concealed kong \(下雨\)", "暗杠（下雨）"),
    (r"added kong", "补杠"),
    (r"concealed kong", "暗杠"),
    (r"kong income passed to the winner \(呼叫转移\)", "杠钱转移给和牌者（呼叫转移）"),
    (r"refund of kong income \(退税\)", "退还杠钱（退税）"),
    (r"late (\d+) min", r"迟到\1分钟"),
    (r"penalty (\S+) #(\d+)", None),
    (r"barred: (.+)", None),
)


def _gd_win(m):
    out = "和牌 %s x%s" % (m.group(1), m.group(2))
    if m.group(3):
        out += "，中马%s" % m.group(3)
    if m.group(4):
        out += " 自摸"
    if m.group(5):
        out += "，承包"
    return out


def reason(text, lang, rules):
    """A transfer's reason in lang (the engine writes English with Chinese terms)."""
    if lang == "en":
        return text
    from rules_min import keyed
    for pat, zh in _REASONS:
        m = re.fullmatch(pat, text)
        if not m:
            continue
        if zh is not None:
            return m.expand(zh)
        if pat.startswith("win"):
            return _gd_win(m)
        if pat.startswith("penalty"):
            return "%s 第%s次" % (keyed.name("kinds", m.group(1), rules, "zh"), m.group(2))
        for key in keyed.bar_reasons(rules):
            if keyed.name("bars", key, rules) == m.group(1):
                return "停和：" + keyed.name("bars", key, rules, "zh")
    # a penalty's English name (penalties.KIND_EN) as the whole reason
    for kind in keyed.kinds(rules):
        if keyed.name("kinds", kind, rules) == text:
            return keyed.name("kinds", kind, rules, "zh")
    return text   # already Chinese: 查花猪, 查大叫, 错和, 诈和


def flag_text(f, lang, rules):
    en, zh = _FLAG_TEXT.get(f["kind"], (f["kind"], f["kind"]))
    s = en if lang == "en" else zh
    if "%s" in s:
        from rules_min import keyed
        if f["kind"] == "warning":
            arg = keyed.name("kinds", f["penalty"], rules, lang)
        else:
            try:
                arg = keyed.name("bars", f["reason"], rules, lang)
            except KeyError:   # barred by a penalty kind (information, tier2, tier4)
                arg = keyed.name("kinds", f["reason"], rules, lang)
        s = s % arg
    if lang == "en":
        return "%s: %s (%s)" % (seat(f["seat"], lang), s, t("event", lang, f["event"]))
    return "%s：%s（%s）" % (seat(f["seat"], lang), s, t("event", lang, f["event"]))


def settle_text(rules, req, reply, lang="en"):
    dealer = req.get("dealer", 0)
    pw = req.get("prevalent_wind", "E")
    wind = WINDS[pw][0 if lang == "en" else 1]
    head = "%s  %s%s%s" % (RULE_NAMES[rules][0 if lang == "en" else 1], t("dealer", lang, dealer + 1),
                           ", " if lang == "en" else "，", ("round wind %s" % wind) if lang == "en" else "圈风" + wind)
    nd = reply["next_dealer"]
    state = t("over", lang, nd + 1) if nd is not None else t("going", lang)
    lines = [head, "%s%s%s" % (t("events", lang, len(req.get("events", []))), colon(lang), state), ""]
    tr = reply["transfers"]
    if tr:
        lines.append(t("transfers", lang) + colon(lang).strip())
        rows = []
        for x in tr:
            a = seat(x["from"], lang)
            b = seat(x["to"], lang) if x["to"] is not None else t("nobody", lang)
            rows.append(("%s -> %s" % (a, b), x["points"], reason(x["reason"], lang, rules)))
        w = max(width(r[0]) for r in rows) + 2
        for who, p, why in rows:
            lines.append("  %s%5d  %s" % (pad(who, w), p, why))
    else:
        lines.append(t("nothing", lang))
    lines.append("")
    lines.append("%s%s%s" % (t("per_seat", lang), colon(lang), "   ".join(
        "%s %s" % (seat(s, lang), signed(d)) for s, d in enumerate(reply["deltas"]))))
    if reply["flags"]:
        lines.append("")
        lines.append(t("referee", lang) + colon(lang).strip())
        for f in reply["flags"]:
            lines.append("  " + flag_text(f, lang, rules))
    return "\n".join(lines)
