# What the box online shows, over the app's own screens (only on a board with a network; the
# app's flows know nothing of it):
#   - the main screen's title ends with a mark: ● every record of the table is on the server
#     (acknowledged with the device key), ○ some are not yet
#   - key 9 on the main or idle screen: the network's status (the connection, the last push,
#     the records not yet synced, what went wrong); any key goes back
#   - key 0 on the main screen: call the referee (firmware/net/push.py call_referee); the title says so until
#     the server confirms it, then for CALLED_MS
# Keys 9 and 0 do nothing on those screens of a board without a network (firmware/flows/table.py
# takes 1-4 as chairs only). The words are in the box's language (app.lang), from this module's
# own table (firmware/ui/texts.py's Table, as a flow's: only a board with a network loads it);
# a problem the table does not word (a socket's error number, the server's HTTP status) keeps
# its technical part in ASCII after a worded head.
from firmware.compat import const
from firmware.ui import texts as T

STATUS_KEY = "9"
CALL_KEY = "0"
SYNCED = "\u25cf"  # ●
UNSYNCED = "\u25cb"  # ○
CALLED_MS = 60000

_NETWORK = const(0)
_WIFI = const(1)
_UP = const(2)
_JOINING = const(3)
_NO_RADIO = const(4)
_NOT_SET_UP = const(5)
_SERVER = const(6)
_LAST_PUSH = const(7)
_NEVER = const(8)
_SECONDS_AGO = const(9)
_MINUTES_AGO = const(10)
_NOT_SYNCED = const(11)
_BACK = const(12)
_CALLING = const(13)
_CALLED = const(14)
_LAST_FETCH = const(15)
_NO_CONFIG = const(16)
_LACKS_KEY = const(17)
_UNKNOWN_BOX = const(18)
_NO_KEY = const(19)
_CALL_UNCONFIRMED = const(20)
_NEXT_WAITS = const(21)
_SERVER_SAYS = const(22)
_JOURNAL = const(23)
_CONFIG_REFUSED = const(24)
_TX = T.Table(
    "网络|Network|"  # _NETWORK
    "无线: %s|wifi: %s|"  # _WIFI
    "已连接|up|"  # _UP
    "连接中|joining|"  # _JOINING
    "无无线模块|no radio|"  # _NO_RADIO
    "未设置|not set up|"  # _NOT_SET_UP
    "服务器 %s:%d|server %s:%d|"  # _SERVER
    "上次上传: %s|last push: %s|"  # _LAST_PUSH
    "从未|never|"  # _NEVER
    "%d秒前|%d s ago|"  # _SECONDS_AGO
    "%d分钟前|%d min ago|"  # _MINUTES_AGO
    "未同步: %d|not synced: %d|"  # _NOT_SYNCED
    "任意键返回|any key: back|"  # _BACK
    "呼叫裁判中...|call referee...|"  # _CALLING
    "已叫裁判 %s|referee called %s|"  # _CALLED
    "上次取配置: %s|last fetch: %s|"  # _LAST_FETCH
    "服务器无本桌配置|no config for this box|"  # _NO_CONFIG
    "服务器无本盒密钥|server lacks key|"  # _LACKS_KEY
    "服务器不认识本盒|server does not know this box|"  # _UNKNOWN_BOX
    "本盒无密钥|no device key|"  # _NO_KEY
    "呼叫裁判未确认|referee call not confirmed|"  # _CALL_UNCONFIRMED
    "下一局等本局结束|next session waits|"  # _NEXT_WAITS
    "服务器: %s|server: %s|"  # _SERVER_SAYS
    "记录: %s|journal: %s|"  # _JOURNAL
    "配置被拒: %s|config refused: %s|"  # _CONFIG_REFUSED
)
# the states and problems the push and the fetch report (in English: their tests read them), worded
_WORDS = {"up": _UP, "joining": _JOINING, "no radio": _NO_RADIO, "not set up": _NOT_SET_UP,
          "server lacks key": _LACKS_KEY, "server does not know this box": _UNKNOWN_BOX, "no device key": _NO_KEY,
          "referee call not confirmed": _CALL_UNCONFIRMED, "next session waits": _NEXT_WAITS}
_HEADS = (("server: ", _SERVER_SAYS), ("journal: ", _JOURNAL), ("config refused: ", _CONFIG_REFUSED))


def _t(lang, i):
    return _TX.get(i, lang)


def worded(lang, text):
    """A state or problem of the push or the fetch in lang."""
    i = _WORDS.get(text)
    if i is not None:
        return _t(lang, i)
    for head, i in _HEADS:
        if text.startswith(head):
            return _t(lang, i) % text[len(head):]
    return text


def key(net, app, k):
    """True when the network took the key."""
    if net.showing:
        net.showing = False
        return True
    st = app.state
    if k == STATUS_KEY and st in ("main", "idle"):
        net.showing = True
        return True
    if k == CALL_KEY and st == "main" and net.pusher is not None:
        net.pusher.call_referee()
        return True
    return False


def _ago(lang, now, t):
    if t is None:
        return _t(lang, _NEVER)
    s = (now - t) // 1000
    return _t(lang, _SECONDS_AGO) % s if s < 120 else _t(lang, _MINUTES_AGO) % (s // 60)


def status(net, now, lang="en"):
    conn, problem, last, unsynced = net.status()
    lines = [_t(lang, _WIFI) % worded(lang, conn)]
    p = net.pusher
    if p is not None:
        lines.append(_t(lang, _SERVER) % (p.host, p.port))
        lines.append(_t(lang, _LAST_PUSH) % _ago(lang, now, last))
        lines.append(_t(lang, _NOT_SYNCED) % unsynced)
    f = net.fetcher
    if f is not None:
        lines.append(_t(lang, _LAST_FETCH) % _ago(lang, now, f.last))
        if f.why is not None:
            lines.append(worded(lang, f.why) if f.why == "next session waits" else _t(lang, _NO_CONFIG))
    if problem:
        lines.append("! " + worded(lang, problem))
    return _t(lang, _NETWORK), lines, _t(lang, _BACK)


def screen(net, app, now):
    if net.showing:
        return status(net, now, app.lang)
    m = app.screen()
    p = net.pusher
    if p is None or app.state != "main":
        return m
    title = m[0] + " " + (SYNCED if p.unsynced() == 0 else UNSYNCED)
    c = p.call
    if c is not None:
        if c.done_at is None:
            title = _t(app.lang, _CALLING)
        elif now - c.done_at < CALLED_MS:
            title = _t(app.lang, _CALLED) % title
    return (title,) + tuple(m[1:])
