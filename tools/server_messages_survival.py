"""The Chinese of the survival event's pages, short tables and the hall's clock (tourney stream),
read by tools/server_messages.py beside its own catalogue."""
ZH = {
    "Late for game (Sichuan; empty: the first)": "迟到的局（四川；空：第一局）",
    "East": "东", "South": "南", "West": "西", "North": "北", "Hall table": "场地桌号",
    "Survival event": "勇者争先赛", "Seat tables": "配桌", "(×%(n)s from %(at)s)": "（%(at)s 起 ×%(n)s）",
    "%(n)s of %(m)s still in": "%(m)s 人中 %(n)s 人在场", "The survival event is not drawn yet.": "勇者争先赛尚未抽签。",
    "Final placings": "最终名次", "Playing": "比赛中", "Table %(n)s · hall table %(h)s": "第 %(n)s 桌 · %(h)s 号台",
    "the last table": "最后一桌", "Waiting for a table": "等待配桌", "Places decided": "已定名次",
    "Entrants: the players of %(ind)s below its %(n)s finalists, in preliminary order (their numbers stay); the first tables are its snake.":
        "参赛选手：%(ind)s 中未进入前 %(n)s 名决赛的选手，按预赛成绩排序（选手编号与个人赛一致）；首盘座次按蛇形排位。",
    "Entrants: the registered players in draw order.": "参赛选手：已登记选手，按抽签号排序。", "Draw again": "重新抽签",
    "The event has ended.": "比赛已结束。", "Proposed next tables": "建议的下一桌",
    "First finished, first seated; of those finished together the highest and the lowest first; seats East to North by score. Change a seat to swap players.":
        "先结束的先配桌；同时结束的比赛分最高和最低者优先；每桌按比赛分由高到低就座东南西北。改动座位即可调换选手。",
    "Confirm all as proposed": "全部按建议确认", "Table %(n)s": "第 %(n)s 桌", "Confirm": "确认",
    "Nobody to seat now: a table forms when four players wait.": "暂无可配桌：四名选手等待时才能组成一桌。", "Seat another table": "另配一桌",
    "Multipliers": "倍数", "not counted": "不计", "ended": "已结束", "playing": "比赛中", "swapped": "已调换",
    "This is not a survival event": "这不是勇者争先赛", "Drawn from the preliminary ranking.": "已按预赛成绩抽签。",
    "Tables confirmed: the boxes can fetch their configs.": "已确认配桌：计分器可获取设置。",
    "Table confirmed: the box can fetch its config.": "已确认配桌：计分器可获取设置。",
    "Individual event (its preliminary ranking gives the draw)": "个人赛（按其预赛成绩抽签）",
    "Champion": "冠军", "Runner-up": "亚军", "Third place": "季军", "Fourth place": "殿军",
}
