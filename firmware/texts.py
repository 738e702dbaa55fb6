# Words on the screen, Chinese and English: T[key] = (cn, en). Fan names come from the rules core.
T = {
    "idle": ("无对局", "No session"),
    "keyin": ("D 输入对局", "D key in session"),
    "rules": ("规则 1国标 2川麻 3广东", "Rules 1MCR 2Sichuan 3Guangdong"),
    "table": ("桌号", "Table"),
    "session": ("局", "Session"),
    "player": ("玩家", "Player"),
    "dealer": ("庄 1-4", "Dealer 1-4"),
    "check": ("确认对局", "Start session?"),
    "hand": ("盘", "Hand"),
    "left": ("剩余", "left"),
    "menu": ("A胡 B杠 C罚 D更多", "A win B kong C pen D more"),
    "more": ("1报和 2流局 3时间 4裁判 5语言", "1decl 2wall 3time 4ref 5lang"),
    "winner": ("胡牌者 1-4", "Winner 1-4"),
    "from": ("点炮者 1-4 / 0自摸", "Discarder 1-4, 0 self-drawn"),
    "melds": ("拍副露 #完", "Tap melds, # done"),
    "offer": ("来源 1上 2对 3下", "From 1 left 2 opp 3 right"),
    "offer_kong": ("0暗杠 1上 2对 3下", "0 concealed 1 left 2 opp 3 right"),
    "offer_chow": ("吃第几张 1-3", "Claimed tile 1-3"),
    "tiles": ("拍手牌", "Tap hand tiles"),
    "wintile": ("拍和牌", "Tap winning tile"),
    "flags_mcr": ("1绝张 2海底 3杠 4花", "1last kind 2last tile 3kong 4flower"),
    "flags_sc": ("缺 1万2条3筒 4杠 5海底", "Void 1m 2s 3p 4kong 5last"),
    "flags_gd": ("拍马牌 4杠", "Tap horses, 4 kong"),
    "confirm4": ("四家确认 1-4", "All four confirm 1-4"),
    "another": ("同炮另一胡 1-4 / #无", "Another winner 1-4, # none"),
    "kong_who": ("开杠者 1-4", "Kong by 1-4"),
    "kong_kind": ("1暗杠 2加杠 3明杠", "1concealed 2added 3direct"),
    "kong_from": ("放杠者 1-4", "Kong tile from 1-4"),
    "pen_who": ("受罚者 1-4", "Penalty on 1-4"),
    "minutes": ("迟到分钟 #", "Minutes late #"),
    "declare_who": ("报和者 1-4", "Declared by 1-4"),
    "wall_hand": ("拍手牌13张", "Tap 13 tiles"),
    "pin": ("裁判密码", "Referee PIN"),
    "ref": ("1更正 2结束对局", "1correct 2end session"),
    "corr_hand": ("更正第几盘 #", "Correct hand no. #"),
    "corr_delta": ("加减分 A负 #下", "Points, A minus, # next"),
    "ended": ("对局结束", "Session over"),
    "timeout": ("时间到 确认#", "Time up, # confirm"),
    "ok": ("#确认 *返回", "#OK *back"),
    "back": ("*返回", "*back"),
    "saved": ("已保存", "Saved"),
    "error": ("出错 已复位", "Error, reset"),
    "not_win": ("不是和牌", "Not a win"),
    "shanten": ("向听", "shanten"),
    "full": ("存储已满", "Flash full"),
    "total": ("总", "Total"),
    "fans": ("番", "fans"),
}

PENALTIES = {
    "mcr": ("empty_call", "early_draw", "slow_claim", "late"),
    "sichuan": ("tier1", "tier2", "tier3", "tier4", "late"),
    "guangdong": ("empty_call", "early_draw", "slow_claim", "late", "false_win", "information", "wall"),
}

PEN_NAMES = {
    "empty_call": ("空吃碰杠", "empty call"), "early_draw": ("抢摸", "early draw"),
    "slow_claim": ("碰慢", "slow claim"), "late": ("迟到", "late"), "false_win": ("诈和", "false win"),
    "information": ("传递信息", "information"), "wall": ("毁牌墙", "wall"),
    "tier1": ("一级违规", "tier 1"), "tier2": ("二级违规", "tier 2"),
    "tier3": ("三级违规", "tier 3"), "tier4": ("四级违规", "tier 4"),
}


def t(key, lang):
    pair = T.get(key)
    if pair is None:
        return key
    return pair[1] if lang == "en" else pair[0]
