"""The Chinese of the event-day pages (issue 18: a table's page and the referee's actions there,
the hand form by chairs, awards, check-in, the event's details), read by tools/server_messages.py
beside its own catalogue."""
ZH = {
    # the event's details, a player's family name
    "time zone of the hall": "赛场时区", "first day": "首日", "last day": "末日", "city": "城市", "MERS weight": "MERS 权重",
    "family name": "姓", "Time zone of the hall (e.g. Europe/Paris; empty: the server's)": "赛场时区（如 Asia/Shanghai；空：服务器的时区）",
    "First day (YYYY-MM-DD)": "首日（YYYY-MM-DD）", "Last day": "末日", "City": "城市",
    "Country (three letters, as the EMA lists it)": "国家（三个字母，与 EMA 一致）", "MERS weight (EMA)": "MERS 权重（EMA）",
    "Family name (as in the name: 李 of 李明)": "姓（姓名中的姓：李明的李）",
    "CSV file (columns: id,name,draw,ema_id,country,substitute,family_name)": "CSV 文件（列：id,name,draw,ema_id,country,substitute,family_name）",
    # a table's referee actions
    "Minutes more (negative: take back)": "加时分钟数（负数：收回）", "at every table of the session": "本轮所有桌",
    "Table (empty: every table)": "桌号（空：所有桌）", "Yes, the table's session is over": "确认：本桌本轮比赛结束", "Spare box": "备用计分器",
    "From hand": "自第几盘", "to hand": "至第几盘", "They stay where they sit (the seating follows; a box keeps its session's chairs until the session ends)": "选手保持现座（座次表随之更改；计分器在本节结束前仍按原座位）",
    "Chair %(n)d (%(w)s) was in fact": "%(n)d号位（%(w)s）实际是",
    # the hand form
    "Dealer (chair)": "庄家（座位）", "How the hand ended": "本盘如何结束", "Why it is keyed by hand": "手工录入的原因",
    "with its win": "和牌结束", "with its last win (three players out)": "最后一家和牌（三家已和）", "wall exhausted": "荒庄",
    "time called (the unfinished hand)": "比赛时间到（未完成的一盘）", "Note (optional)": "备注（可不填）", "Chair %(n)d": "%(n)d号位",
    "Wall exhausted: chair %(n)d's 13 tiles (if still in)": "荒庄：%(n)d号位的13张手牌（如仍在局中）", "its missing suit": "其定缺",
    "the dealer sits in an empty chair": "庄家座位无人", "Event": "事件", "Chair": "座位", "From / victim": "来自 / 受害者",
    "Tiles (notation, last tile wins)": "牌（记法，最后一张为和张）", "Flags": "标记", "Kong": "杠", "Barred (停和陪打)": "停和陪打",
    "win": "和牌", "kong": "杠", "declared win that failed": "报和不成立", "penalty": "处罚", "bar from winning": "停和陪打",
    "concealed": "暗杠", "added to a pung": "加杠", "on a discard": "明杠（点杠）", "and barred (information)": "并停和陪打（非法信息）",
    "Missing suit (定缺)": "定缺", "Horses (买马, e.g. 3m W)": "买马（如 3m W）", "say whose event it is (the chair)": "请选择座位",
    "say which kong": "请选择杠的种类", "a kong on a discard names who discarded it": "点杠须注明打出者", "say which penalty": "请选择处罚种类",
    "say why the player is barred": "请选择停和陪打的原因", "- (self-drawn / none)": "-（自摸 / 无）",
    "key in at least the win or how the hand ended": "至少录入和牌或本盘如何结束",
    "Correct a hand by its tiles": "按牌更正一盘",
    "For a table without a box, or a box that failed: the hand is scored by the same rules as the boxes.":
        "用于没有计分器或计分器故障的桌：按与计分器相同的规则计分。",
    "The hand is keyed again as it was played and scored again by the same rules as the boxes: its points, winner, fans and penalties all change with it. The record stays as the box signed it.":
        "按实际打法重新录入本盘，并按与计分器相同的规则重新计分：分数、和牌者、番数和罚分都随之更正。计分器签名的记录保持不变。",
    "Chairs are numbered 1-4 (chair 1 is East at the start of the session), with this hand's wind. Notation: melds in brackets, then the concealed tiles; the last tile is the winning tile, e.g.":
        "座位编号 1-4（本轮开始时 1号位为东），并注明本盘门风。记法：副露写在方括号中，然后是手牌；最后一张为和张，例如",
    "What happened, in table order": "本盘经过（按发生顺序）", "More rows": "更多行",
    "Win: the winner's chair, from whom (empty: self-drawn), the tiles and flags. Kong: whose, which kind, from whom on a discard. Penalty: whose, which, points or minutes where the rule asks, the victim in From.":
        "和牌：和牌者座位、点炮者（空：自摸）、牌和标记。杠：谁杠、杠的种类、点杠时的打出者。处罚：谁、哪种、规则要求时的分数或分钟数，受害者填在“来自”。",
    # the referee page, the table page
    "No seated tables yet: publish a seating.": "尚无已安排的桌：请先发布座次表。", "More time": "加时", "Extend": "加时",
    "Re-seat": "更正座位",
    "Players found in the wrong chairs: say who really sat in each chair of the seating. The hands in the range (the %(last)s played so far, by default) are counted for the players who sat there, in one step the audit log keeps; the records stay as the box signed them.":
        "发现选手坐错位置：请注明座次表中每个座位实际坐的是谁。范围内的各盘（默认为已打的 %(last)s 盘）将一次性改记给实际就座的选手，并记入审计日志；计分器签名的记录保持不变。",
    "Re-seat and re-attribute the hands": "更正座位并改记各盘", "Chair %(c)s": "%(c)s号位", "The table's page": "本桌页面", "Wind": "风位",
    "Chairs as seated at the start of the session (chair 1 is East); MCR players change chairs after each round.":
        "本轮开始时的座位（1号位为东）；国标麻将每圈换位。",
    "Where it stands": "进行情况", "ended by %(who)s: %(why)s": "由 %(who)s 结束：%(why)s", "time not started": "未开始计时",
    "no time limit": "不限时", "%(m)s min given by a referee": "裁判加时 %(m)s 分钟", "%(n)s record(s) not synced": "%(n)s 条记录未同步",
    "none: hands are entered here": "无：在此录入各盘", "Enter hand %(n)s": "录入第 %(n)s 盘", "Players in the wrong chairs: re-seat": "选手坐错位置：更正座位",
    "Points by chair": "各座位得分", "re-seated": "已更正座位", "points only": "仅更正分数", "No hands yet.": "尚无牌局。",
    "Swap the box": "更换计分器", "Bind it to this table": "绑定到本桌",
    "The box at this table now (if any) stays with the tournament as a spare; records recovered from it later still count.":
        "本桌原有的计分器（如有）留在本赛事中作为备用；日后从中恢复的记录仍然计入。",
    "No spare box: register one on the Boxes page.": "没有备用计分器：请在“计分器”页登记。", "Reopen the table": "重新开启本桌", "Reopen": "重新开启",
    "End the table": "结束本桌", "End the table's session": "结束本桌本轮比赛", "+%(m)s min": "+%(m)s 分钟",
    "Table %(t)d is not seated in session %(s)d": "第 %(s)d 轮没有第 %(t)d 桌", "Time extended.": "已加时。", "Table ended.": "本桌已结束。",
    "reopened": "重新开启", "Table reopened.": "本桌已重新开启。", "Box swapped.": "计分器已更换。", "Hand %(n)d entered.": "第 %(n)d 盘已录入。",
    "Table re-seated.": "座位已更正。",
    # check-in, the audit log
    "Save check-in: the ticked players are here": "保存签到：勾选的选手已到场",
    "Ticked before anyone is checked in: every player expected at session %(s)s; untick who is missing.":
        "尚无人签到时，默认勾选第 %(s)s 轮应到的所有选手；请取消未到者。",
    "Here": "到场", "Check-in saved: %(n)d present.": "签到已保存：%(n)d 人到场。", "What changed (before -> after)": "变更内容（之前 -> 之后）",
    # awards
    "Best attack (最佳进攻)": "最佳进攻", "Best defence (最佳防守)": "最佳防守", "Biggest hand (单盘最大番)": "单盘最大番", "Self-draw king (自摸王)": "自摸王",
    "Most hands won in the preliminary sessions; a tie goes to the better preliminary rank.": "预赛中和牌盘数最多者；相同时预赛名次靠前者优先。",
    "Fewest deal-ins (discarding another player's winning tile) among the players who played every preliminary session; a tie goes to the better preliminary rank.":
        "参加全部预赛的选手中点炮次数最少者；相同时预赛名次靠前者优先。",
    "The most fans in one winning hand (flowers included); a tie goes to the hand reached first.": "单盘和牌番数最多者（含花牌）；相同时先达到者优先。",
    "Most wins by self-draw; a tie goes to the most self-draws in one session, then the better preliminary rank.":
        "自摸次数最多者；相同时单轮自摸最多者优先，再相同时预赛名次靠前者优先。",
    "%(n)d win": "和牌 %(n)d 次", "%(n)d deal-in": "点炮 %(n)d 次", "%(n)d fan": "%(n)d 番", "%(n)d self-draw": "自摸 %(n)d 次",
    "Provisional: session(s) %(s)s not complete yet. The awards are decided over the preliminary sessions once every table has finished.":
        "暂定：第 %(s)s 轮尚未全部结束。奖项在预赛各桌全部结束后确定。",
    "provisional": "暂定", "session %(s)s, table %(t)s, hand %(h)s": "第 %(s)s 轮第 %(t)s 桌第 %(h)s 盘",
    "Winner (chair)": "和牌者（座位）", "On the discard of": "点炮者", "Hand %(n)s: a win": "第 %(n)s 盘：和牌",
    "Kongs, penalties, a wall exhausted or time called: the whole form, \"Enter hand %(n)s\".": "有杠、处罚、荒庄或时间到：请用完整表单“录入第 %(n)s 盘”。",
}
