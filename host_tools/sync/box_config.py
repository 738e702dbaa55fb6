"""The box's next session config, from the tournament server (standard library only: a laptop
that syncs boxes has none of the server's web stack): the session config of the table a box is
bound to.

    from host_tools.sync.box_config import fetch_box_config
    cfg = fetch_box_config("http://10.0.0.2:8000", "box-07")   # -> dict, or raises ConfigError

The sync tool (``run.server_config``, ``--next-session``) calls it after a sync and pushes the
result to the box (link's ``push_config``), so nobody writes a config by hand: the server
answers from the latest published seating and the table the box is bound to
(``GET /api/boxes/DEVICE/config``), a read that writes nothing (the box's journal head goes in a
report signed with its key: ``server.ServerSink.report_head``).
"""
from __future__ import annotations

import http.client
import json
import urllib.parse


class ConfigError(Exception):
    """No config: unknown box, box not bound, no published seating (the server's message), or
    the server could not be reached."""


def fetch_box_config(server: str, device: str, timeout: float = 10.0) -> dict:
    u = urllib.parse.urlsplit(server)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ConfigError("server URL must be http(s)://host[:port], not %r" % server)
    path = (u.path.rstrip("/") + "/api/boxes/%s/config" % urllib.parse.quote(device, safe=""))
    cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    conn = cls(u.hostname, u.port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept": "application/json"})
        r = conn.getresponse()
        body = r.read()
    except (OSError, http.client.HTTPException) as e:
        raise ConfigError("cannot reach %s: %s" % (server, e)) from None
    finally:
        conn.close()
    try:
        obj = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise ConfigError("the server answered %d without JSON" % r.status) from None
    if r.status != 200:
        raise ConfigError(obj.get("error", "HTTP %d" % r.status) if isinstance(obj, dict) else "HTTP %d" % r.status)
    if not isinstance(obj, dict) or not isinstance(obj.get("players"), list):
        raise ConfigError("the server's config is not a session config")
    return obj
