"""Fill the Chinese (zh-hans) catalogue of the tournament server's pages and compile it.

    .venv/bin/python tools/server_messages.py      # after `django-admin makemessages -l zh_Hans`

The translations live here, one line each, so a reviewer reads them side by side; an English
message without a translation stays English (and is listed on stderr). Needs gettext's msgfmt.
"""
import re
import subprocess
import sys
from pathlib import Path

PO = Path(__file__).resolve().parents[1] / "host_tools/server/locale/zh_Hans/LC_MESSAGES/django.po"

ZH = {
    "id": "编号", "name": "名称", "format": "赛制", "settings": "设置", "player id": "选手编号", "draw number": "抽签号",
    "EMA id": "EMA 编号", "country": "国家", "substitute": "替补", "checked in": "已签到", "withdrawn from session": "自该轮退赛",
    "organizer": "组织者", "referee": "裁判", "late arrival": "迟到", "points": "罚分", "disqualification": "取消资格",
    "1-64 characters, no spaces or control characters": "1-64 个字符，不含空格或控制字符",
    "1-16 characters, no spaces, / or control characters": "1-16 个字符，不含空格、/ 或控制字符", "letters, digits, . _ - only": "只能用字母、数字和 . _ -",
    "Id (in URLs and on the boxes)": "编号（用于网址和计分器）", "Name": "名称", "Format": "赛制", "Preliminary sessions": "预赛轮数",
    "Finalists": "决赛人数", "Starting score (base)": "基础分", "Stage 2: players who advance": "第二阶段晋级人数",
    "Final: carry ratio (e.g. 1/2 or 0.3)": "决赛带入比例（如 1/2 或 0.3）", "Event start (Unix time)": "比赛开始（Unix 时间）",
    "Time limit of a session in minutes (empty: none)": "每轮时限（分钟，空为不限时）",
    "Player id": "选手编号", "Draw number": "抽签号", "EMA number": "EMA 编号", "Country": "国家", "Substitute": "替补",
    "Checked in": "已签到", "Withdrawn from session": "自该轮退赛", "CSV file (columns: id,name,draw,ema_id,country,substitute)": "CSV 文件（列：id,name,draw,ema_id,country,substitute）",
    "Session": "轮次", "Player": "选手", "Absent": "缺席", "Reason": "原因", "Account name": "账号", "Password": "密码",
    "Role in this tournament": "本赛事中的角色", "Existing account": "已有账号", "Role": "角色", "none": "无", "Box id": "计分器编号",
    "Key (64 hex digits, from the sync tool's --provision)": "密钥（64 位十六进制，来自同步工具的 --provision）", "64 hex digits": "64 位十六进制数字",
    "Label": "标签", "Table": "桌", "Method": "方法", "by draw number": "按抽签号", "by rank (高碰高)": "按排名（高碰高）", "Swiss (no repeats)": "瑞士制（不重复对手）",
    "pre-set schedule (sessions 1-3)": "预设编排（第 1-3 轮）", "snake": "蛇形", "swaps chairs with": "与之换座", "Kind": "类型", "Minutes late": "迟到分钟数",
    "Points (negative: deducted)": "分数（负数为扣分）", "Table (empty: runners-up play-off)": "桌号（空：次名加赛）", "Scores: player=score, one per line": "成绩：选手=分数，每行一个",
    "write player=score, one per line": "请写成 选手=分数，每行一个", "name at least one player": "至少填写一名选手", "penalty paid by %(p)s": "%(p)s 被罚分数",
    "Hand number": "盘号", "Seat 0": "座位 0", "Seat 1": "座位 1", "Seat 2": "座位 2", "Seat 3": "座位 3", "Dealer": "庄家", "seat %d": "座位 %d",
    "Prevalent wind": "圈风", "Outcome": "结果", "a win": "和牌", "wall exhausted (no win)": "荒庄（无人和牌）", "Winner": "和牌者",
    "Discarded by (empty: self-drawn)": "点炮者（空：自摸）", "Winning hand (notation, last tile wins)": "和牌牌型（记法，最后一张为和张）", "Flowers": "花牌",
    "Last tile (海底)": "海底", "Last of its kind (和绝张)": "和绝张", "Missing suit (Sichuan)": "定缺（四川）", "Horses (Guangdong, e.g. 3m W)": "买马（广东，如 3m W）",
    "Why entered by hand": "手工录入原因", "seat 3 or 4 different players": "请安排 3 或 4 名不同的选手", "pick the winner among the seated players": "请从在座选手中选择和牌者",
    "the discarder is another seated player": "点炮者须是另一名在座选手", "key in the winning hand": "请输入和牌牌型",
    "Standings": "排名", "Live board": "实时看板", "Awards": "奖项", "Exports": "导出", "Referee": "裁判", "Settings": "设置", "Players": "选手",
    "Boxes": "计分器", "Seating": "座位", "Accounts": "账号", "Audit log": "审计日志", "session": "轮", "table": "桌", "hand": "盘", "fans": "番",
    "Mahjong tournament": "麻将比赛", "Language": "语言", "Go": "确定", "Log out": "退出", "Log in": "登录", "refreshes every %(refresh)s s": "每 %(refresh)s 秒刷新", "updates as hands arrive": "有新结果即更新",
    "Hands": "盘数", "finished": "已结束", "%(m)s min left": "剩余 %(m)s 分钟", "Box": "计分器", "last sync": "上次同步", "No tables in this session yet.": "本轮尚无桌次。",
    "Standings (CSV)": "排名（CSV）", "Every counted hand (CSV)": "全部计分牌局（CSV）", "EMA results sheet (CSV)": "EMA 成绩表（CSV）", "Standings (JSON)": "排名（JSON）",
    "Standings page (print it)": "排名页（可打印）", "Sessions": "轮次", "published": "已发布", "draft": "草稿", "Projector": "投影", "Table sheets": "桌签",
    "No seating yet.": "尚未编排座位。", "Tournaments": "赛事", "No tournaments yet.": "尚无赛事。", "New tournament": "新建赛事", "Account": "账号",
    "server organizer": "服务器组织者", "New account": "新账号", "Create": "创建", "Role of an existing account": "已有账号的角色", "Save": "保存",
    "When": "时间", "Who": "操作人", "What": "操作", "Target": "对象", "Before": "修改前", "After": "修改后", "Register a box and bind it to a table": "登记计分器并绑定到桌",
    "Register": "登记", "Records": "记录", "Last sync": "上次同步", "Not synced": "未同步", "Bind to table": "绑定到桌", "Bind": "绑定", "No boxes yet.": "尚无计分器。",
    "The sync tool sets each box up for its table from the published seating:": "同步工具根据已发布的座位为每台计分器设置桌次：",
    "%(n)s player": "%(n)s 名选手", "%(n)s players": "%(n)s 名选手", "%(checked)s checked in": "%(checked)s 人已签到", "Add or update a player": "添加或修改选手",
    "Import a CSV": "导入 CSV", "Import": "导入", "Absence": "缺席", "Draw": "抽签", "Id": "编号", "EMA": "EMA", "Status": "状态", "Check-in": "签到",
    "withdrawn from session %(s)s": "自第 %(s)s 轮退赛", "checked in ✓": "已签到 ✓", "check in": "签到", "edit": "编辑", "Absences": "缺席", "Generate": "生成",
    "Published": "已发布", "Draft": "草稿", "method": "方法", "%(n)s repeated pairs": "%(n)s 对重复对手", "Withdraw": "撤回", "Publish": "发布",
    "Swap two players": "交换两名选手", "Swap": "交换", "Next:": "下一步：", "players": "选手", "boxes": "计分器", "seating": "座位", "Rank": "名次",
    "Standard": "标准分", "Places": "各轮名次", "Match": "比赛分", "Score": "得分", "Hand": "盘", "Points": "分数", "Correct a hand": "更正一盘",
    "Points are the hand's payments between the players: they sum to 0. What a player paid to nobody (a penalty) is a deduction.": "分数是选手之间的支付，合计为 0；选手被罚而不付给他人的分数记为扣分。",
    "Save the correction": "保存更正", "Enter a hand": "录入一盘", "For a box that failed: the hand is scored by the same rules as the boxes.": "用于计分器故障时：按与计分器相同的规则计分。",
    "Notation: melds in brackets, then the concealed tiles; the last tile is the winning tile, e.g.": "记法：副露写在方括号中，其后为手牌；最后一张为和张，例如",
    "Score and save": "计分并保存", "Quarantine": "待审记录", "Record": "记录", "Session / table / hand": "轮 / 桌 / 盘", "Problems": "问题", "accepted": "已接受",
    "reason": "原因", "Accept": "接受", "Reject": "拒绝", "Nothing in quarantine.": "没有待审记录。", "Tables": "桌次", "No results yet.": "尚无成绩。",
    "Penalty": "罚分", "Play-off": "加赛", "Penalties": "罚分", "Revoke": "撤销", "Draft: not published": "草稿：未发布", "Print": "打印",
    "%(hands)s hands": "%(hands)s 盘", "%(minutes)s minutes": "%(minutes)s 分钟",
    "The box is set up for this table by the sync tool; check the four names on its screen.": "计分器由同步工具设置为本桌；请核对屏幕上的四个名字。",
    "updated": "更新于", "projector view": "投影视图", "%(n)s record waits in quarantine for a referee and is not counted.": "%(n)s 条记录待裁判审核，暂不计分。",
    "%(n)s records wait in quarantine for a referee and are not counted.": "%(n)s 条记录待裁判审核，暂不计分。", "Stage": "阶段", "Place": "名次", "Net": "净胜分",
    "out": "出局", "For the referee": "请裁判处理", "Hands total": "各盘合计", "Points by player": "各选手分数", "From": "点炮", "Fans": "番数", "draw": "流局",
    "corrected by %(who)s: %(why)s": "%(who)s 更正：%(why)s", "entered by a referee": "裁判录入", "Correct": "更正", "Enter a hand by hand": "手工录入一盘",
    "In quarantine": "待审", "Too many failed logins: try again in 15 minutes.": "登录失败次数过多：请 15 分钟后再试。", "Box %(b)s registered.": "计分器 %(b)s 已登记。",
    "Binding saved.": "绑定已保存。", "No such tournament": "没有此赛事", "This page needs the %(role)s role in this tournament.": "此页面需要本赛事的%(role)s角色。",
    "Only server organizers create tournaments.": "只有服务器组织者可以新建赛事。", "Tournament created.": "赛事已创建。", "Settings saved.": "设置已保存。",
    "Player %(p)s saved.": "选手 %(p)s 已保存。", "the file is larger than 2 MB": "文件超过 2 MB", "the file is not UTF-8 text": "文件不是 UTF-8 文本",
    "Import done.": "导入完成。", "Check-in saved.": "签到已保存。", "Absence saved.": "缺席已保存。", "Player saved.": "选手已保存。", "Account created.": "账号已创建。",
    "Role saved.": "角色已保存。", "%(n)d record(s) in quarantine": "%(n)d 条记录待审", "no box bound to this table": "本桌未绑定计分器",
    "%(n)d record(s) not synced": "%(n)d 条记录未同步", "No results for this table yet": "本桌尚无成绩", "No such player": "没有此选手",
    "No published seating for this session": "本轮座位尚未发布", "Ruling saved.": "裁决已保存。", "Penalty recorded.": "罚分已记录。", "Penalty revoked.": "罚分已撤销。",
    "Play-off recorded.": "加赛已记录。", "No counted hand here": "这里没有计分的牌局", "Hand corrected.": "已更正。", "Hand entered.": "已录入。",
    "Seating of session %(n)d saved as a draft.": "第 %(n)d 轮座位已保存为草稿。", "Swapped.": "已交换。", "Seating published.": "座位已发布。", "Seating withdrawn.": "座位已撤回。",
}

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_messages_survival import ZH as _ZH_SURVIVAL  # noqa: E402  (the tourney stream's pages)

ZH.update(_ZH_SURVIVAL)
from server_messages_tables import ZH as _ZH_TABLES  # noqa: E402  (issue 18: a table's page, the event day)

ZH.update(_ZH_TABLES)
from server_messages_boxes import ZH as _ZH_BOXES  # noqa: E402  (issues 19, 20: a box's records, the referee call)

ZH.update(_ZH_BOXES)
from server_messages_box_settings import ZH as _ZH_BOX_SETTINGS  # noqa: E402  (issue 18.6: the boxes' language and PIN)

ZH.update(_ZH_BOX_SETTINGS)


def q(s: str) -> str:
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def main() -> int:
    text = PO.read_text(encoding="utf-8")
    text = text.replace('"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"', '"Plural-Forms: nplurals=1; plural=0;\\n"')
    text = text.replace('"Content-Type: text/plain; charset=CHARSET\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"')
    text = text.replace('#, fuzzy\nmsgid ""\nmsgstr ""', 'msgid ""\nmsgstr ""', 1)
    missing = []
    out = []
    for entry in text.split("\n\n"):
        m = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        if not m:
            out.append(entry)
            continue
        mid = "".join(re.findall(r'"(.*)"', m.group(1))).replace('\\"', '"')
        if mid == "":
            out.append(entry)
            continue
        zh = ZH.get(mid)
        if zh is None:
            missing.append(mid)
            out.append(entry)
            continue
        entry = entry.replace("#, fuzzy\n", "")
        if "msgid_plural" in entry:
            entry = re.sub(r'msgstr\[0\] ".*"(\nmsgstr\[1\] ".*")?', "msgstr[0] " + q(zh), entry)
        else:
            entry = re.sub(r'msgstr ".*"(\n".*")*$', "msgstr " + q(zh), entry)  # ZH wins over a fuzzy guess
        out.append(entry)
    PO.write_text("\n\n".join(out), encoding="utf-8")
    for mid in missing:
        print("no translation: %r" % mid, file=sys.stderr)
    subprocess.run(["msgfmt", "--check", "-o", str(PO.with_suffix(".mo")), str(PO)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
