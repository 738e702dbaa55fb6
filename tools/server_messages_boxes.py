"""The Chinese of the boxes' pages (issue 19: a box's records accounted for, its binding history, a
claimed session; issue 20: the referee called from a table; issue 18.3: one hand
recorded twice), read by tools/server_messages.py."""
ZH = {
    "referee called at table %(n)s": "%(n)s 号桌呼叫裁判", "On my way": "马上到",
    "All boxes": "全部计分器", "Journal head": "日志末条", "Received": "已收到", "Counted": "已计入",
    "Quarantined": "已隔离", "Ruled": "已裁定", "Duplicates": "重复", "Waiting for their hand": "等待所属牌局",
    "Not received": "未收到", "Seq": "序号", "Tournament": "比赛", "Why": "原因",
    "counted": "已计入", "claimed": "已认领", "rejected": "已驳回", "duplicate": "重复", "waiting": "等待中",
    "quarantined": "已隔离", "No records yet.": "尚无记录。", "Bindings": "绑定记录", "Since": "起", "Until": "止",
    "By": "操作人", "empty: takes the box off its table; it stays in this tournament": "留空：计分器离开该桌，仍属本比赛",
    "Claim the session": "认领该轮", "No such box in this tournament": "本比赛没有这台计分器",
    "%(n)d records claimed for session %(s)d table %(t)d.": "已为第 %(s)d 轮 %(t)d 号桌认领 %(n)d 条记录。",
    # issue 18.3: one hand recorded twice, both versions shown to the referee
    "Version": "版本", "Winners": "和牌者", "Paid by": "付分者", "Dealer": "庄家", "counted:": "计入的：", "this one:": "本条：",
    "another version counts": "已计入另一版本",
}
