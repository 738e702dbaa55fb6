# What the box online shows, over the app's own screens (only on a board with a network; the
# app's flows know nothing of it):
#   - the main screen's title ends with a mark: ● every record of the table is on the server
#     (acknowledged with the device key), ○ some are not yet
#   - key 9 on the main or idle screen: the network's status (the connection, the last push,
#     the records not yet synced, what went wrong); any key goes back
#   - key 0 on the main screen: call the referee (firmware/net/call.py); the title says so until
#     the server confirms it, then for CALLED_MS
# Keys 9 and 0 do nothing on those screens of a board without a network (firmware/flows/table.py
# takes 1-4 as chairs only). The status screen's words are English and ASCII: the fonts carry
# only the glyphs of firmware/ui/texts.py's tables (● and ○ are among them).
STATUS_KEY = "9"
CALL_KEY = "0"
SYNCED = "\u25cf"  # ●
UNSYNCED = "\u25cb"  # ○
CALLED_MS = 60000


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


def _ago(now, t):
    if t is None:
        return "never"
    s = (now - t) // 1000
    return "%ds ago" % s if s < 120 else "%dm ago" % (s // 60)


def status(net, now):
    conn, problem, last, unsynced = net.status()
    lines = ["wifi: %s" % conn]
    p = net.pusher
    if p is not None:
        lines.append("server %s:%d" % (p.host, p.port))
        lines.append("last push: %s" % _ago(now, last))
        lines.append("not synced: %d" % unsynced)
    if problem:
        lines.append("! " + problem)
    return "Network", lines, "any key: back"


def screen(net, app, now):
    if net.showing:
        return status(net, now)
    m = app.screen()
    p = net.pusher
    if p is None or app.state != "main":
        return m
    title = m[0] + " " + (SYNCED if p.unsynced() == 0 else UNSYNCED)
    c = p.call
    if c is not None:
        if c.done_at is None:
            title = "call referee..."
        elif now - c.done_at < CALLED_MS:
            title = "referee called " + title
    return (title,) + tuple(m[1:])
