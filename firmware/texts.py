# Words on the screen, Chinese and English, as three "|"-separated strings rather than a dict of
# string pairs: on the device that is 1 KB of heap instead of 12. Fan names come from the rules core.
from rules_min.tiles import nth

KEYS = (
    "idle|keyin|rules|table|session|player|dealer|check|hand|left|menu|more|winner|from|melds|"
    "offer|offer_kong|offer_chow|tiles|wintile|flags_mcr|flags_sc|flags_gd|confirm4|another|"
    "kong_who|kong_kind|kong_from|pen_who|minutes|declare_who|wall_hand|pin|ref|corr_hand|"
    "corr_delta|ended|timeout|ok|back|saved|error|not_win|shanten|full|total|fans"
)
CN = (
    "无对局|D 输入对局|规则 1国标 2川麻 3广东|桌号|局|玩家|庄 1-4|确认对局|盘|剩余|A胡 B杠 C罚 D更多|1报和 2流局 3时间 4裁判 5语言|"
    "胡牌者 1-4|点炮者 1-4 / 0自摸|拍副露 #完|来源 1上 2对 3下|0暗杠 1上 2对 3下|吃第几张 1-3|拍手牌|拍和牌|1绝张 2海底 3杠 4花|"
    "缺 1万2条3筒 4杠 5海底|拍马牌 4杠|四家确认 1-4|同炮另一胡 1-4 / #无|开杠者 1-4|1暗杠 2加杠 3明杠|放杠者 1-4|受罚者 1-4|迟到分钟 #|"
    "报和者 1-4|拍手牌13张|裁判密码|1更正 2结束对局|更正第几盘 #|加减分 A负 #下|对局结束|时间到 确认#|#确认 *返回|*返回|已保存|出错 已复位|不是和牌|"
    "向听|存储已满|总|番"
)
EN = (
    "No session|D key in session|Rules 1MCR 2Sichuan 3Guangdong|Table|Session|Player|"
    "Dealer 1-4|Start session?|Hand|left|A win B kong C pen D more|"
    "1decl 2wall 3time 4ref 5lang|Winner 1-4|Discarder 1-4, 0 self-drawn|Tap melds, # done|"
    "From 1 left 2 opp 3 right|0 concealed 1 left 2 opp 3 right|Claimed tile 1-3|"
    "Tap hand tiles|Tap winning tile|1last kind 2last tile 3kong 4flower|"
    "Void 1m 2s 3p 4kong 5last|Tap horses, 4 kong|All four confirm 1-4|"
    "Another winner 1-4, # none|Kong by 1-4|1concealed 2added 3direct|Kong tile from 1-4|"
    "Penalty on 1-4|Minutes late #|Declared by 1-4|Tap 13 tiles|Referee PIN|"
    "1correct 2end session|Correct hand no. #|Points, A minus, # next|Session over|"
    "Time up, # confirm|#OK *back|*back|Saved|Error, reset|Not a win|shanten|Flash full|Total|"
    "fans"
)

PENALTIES = {
    "mcr": ("empty_call", "early_draw", "slow_claim", "late"),
    "sichuan": ("tier1", "tier2", "tier3", "tier4", "late"),
    "guangdong": ("empty_call", "early_draw", "slow_claim", "late", "false_win", "information", "wall"),
}
_PKEYS = (
    "empty_call|early_draw|slow_claim|late|false_win|information|wall|tier1|tier2|tier3|tier4"
)
_PCN = (
    "空吃碰杠|抢摸|碰慢|迟到|诈和|传递信息|毁牌墙|一级违规|二级违规|三级违规|四级违规"
)
_PEN = (
    "empty call|early draw|slow claim|late|false win|information|wall|tier 1|tier 2|tier 3|"
    "tier 4"
)


def _find(keys, key):
    # index of key among the "|"-separated keys, or -1
    i = 0
    start = 0
    n = len(key)
    while True:
        end = keys.find("|", start)
        if end < 0:
            end = len(keys)
        if end - start == n and keys.startswith(key, start):
            return i
        if end == len(keys):
            return -1
        start = end + 1
        i += 1


def t(key, lang):
    i = _find(KEYS, key)
    if i < 0:
        return key
    return nth(EN if lang == "en" else CN, i)


def penalty_name(kind, lang):
    i = _find(_PKEYS, kind)
    if i < 0:
        return kind
    return nth(_PEN if lang == "en" else _PCN, i)
