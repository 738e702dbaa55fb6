# Tags mode: the box as a tag programmer and checker for `python -m host_tools tags write|verify`.
#
# The requests ride the device link (firmware/link/engine.py, protocol/frames.py) as request types
# 0x0A TAGS (open: poll only, which changes nothing) and 0x0B TAGS_SET (authenticated with the
# device key: every op; the only way to enter or leave the mode, start or cancel a job, write a
# tag or save the set): the payload is a JSON object, the reply (status OK) a JSON object. A host
# without the key cannot put an idle box into tags mode (issue 19.7), and * on the keypad always
# leaves it (the first * cancels a waiting job, the next leaves), so no host can freeze a box. Link is stop-and-wait with short timeouts, so
# nothing waits for a tag inside a request: "write" and "read" start a job and answer at once;
# the host then sends "poll" until the job is done.
#
#   {"op": "begin"}                      -> {"ok": true, "device": "box-1", "set": 1, "registry": 0}
#   {"op": "write", "set": 1, "tile": 4, "copy": 1, "prompt": "tap 5m copy 2", "overwrite": false,
#    "timeout": 120}                     -> {"ok": true, "state": "waiting"}
#       the job: wait for a tag, write the 8-byte record (firmware/tags/tile_tag.py) to pages 4-5, read
#       it back. Result: {"ok": true, "uid": "04..", "tile": 4, "copy": 1} or {"ok": false,
#       "code": "readonly" | "write_failed" | "verify_failed" | "read_failed" | "already" (with
#       the tile and copy the tag holds) | "clone_uid" (another tag written since begin has this
#       UID: clone tags are sold with repeated UIDs, and two of them cannot be told apart on the
#       reader; with the tile and copy of that other tag) | "cancelled" | "timeout", "uid": ..}
#   {"op": "read", "set": 1, "prompt": "tap any tile", "timeout": 120} -> {"ok": true, "state": ..}
#       result: {"ok": true, "uid": "..", "data": "16 bytes hex", "result": "ok" | "blank" |
#       "corrupt" | "foreign_set" | "version", "tile": t, "copy": c, "via": "record" | "uid"}
#       (tile, copy, via with result ok); {"ok": false, "code": "done"} when # is pressed
#   {"op": "poll"}                       -> {"ok": true, "state": "waiting" | "idle"} or
#                                           {"ok": true, "state": "done", "result": {...}}
#   {"op": "cancel"}                     -> the job ends with code "cancelled"
#   {"op": "save", "set": 1, "registry": [["04aa..", tile, copy], ...]}
#       the table's set id and the UID registry of read-only tags, to flash (tagset, uidreg.bin)
#   {"op": "end"}                        -> back to the application
#
# A refused request: {"ok": false, "code": .., "message": ..}; "busy" while a session is running,
# "auth" for any op but poll that came as TAGS.
# From the keypad, *0# on the idle screen enters the same mode without a host, as a tag checker:
# each tap shows what the tag is; * leaves.
import json

from firmware.tags import tile_tag

_PAGE = 4
_UNSET = -1


def hexs(b):
    return "".join("%02x" % x for x in b)


def unhex(s):
    out = bytearray(len(s) // 2)
    for i in range(len(out)):
        out[i] = int(s[2 * i:2 * i + 2], 16)
    return bytes(out)


def tile_label(tile, copy=None):
    if tile >= 34:
        s = "flower " + "abcdefgh"[tile - 34]
    else:
        from rules_min.tiles import name
        s = name(tile)
    if copy is not None and tile < 34:
        s += " copy %d" % (copy + 1)
    return s


from protocol.frames import E_BAD_REQUEST, T_TAGS, T_TAGS_SET

_OPEN = ("poll",)  # the only op that changes nothing on the box: every other one is TAGS_SET only


class TagsMode:
    def __init__(self, dev):
        self.dev = dev  # firmware.main.Device: hw.reader, clock, tag_set, registry, app
        self.active = False
        self.host = False  # entered by a request (False: the keypad's tag checker)
        self.job = None  # the write / read request waiting for a tag
        self.result = None  # the finished job's result, until polled
        self.deadline = 0
        self.last = ""  # what the last tag was
        self.count = 0
        self.buf = bytearray(16)
        self.uids = None  # firmware/tags/uids.py: the UIDs written since begin, for clone tags

    # ---- requests from the link ----
    def request(self, req, authed=False):
        """One request (a dict) -> the reply (a dict). authed: it came authenticated (TAGS_SET)."""
        op = req.get("op")
        if op not in _OPEN and not authed:
            return _err("auth", "%s needs the device key: send it as TAGS_SET" % op)
        app = self.dev.app
        if not self.active and app.state not in ("idle", "ended"):
            return _err("busy", "a session is running: tags mode only between sessions")
        if op == "poll":
            if self.result is not None:
                out = {"ok": True, "state": "done", "result": self.result}
                self.result = None
                return out
            return {"ok": True, "state": "waiting" if self.job is not None else "idle"}
        if op == "cancel":
            if self.job is not None:
                self._finish(_err("cancelled", "cancelled by the host"))
            return {"ok": True}
        if op == "end":
            self.leave()
            return {"ok": True}
        if self.job is not None:
            return _err("busy", "a tag job is waiting: poll or cancel it")
        if op == "begin":
            self._enter(True)
            self.result = None
            self.uids = None
            reg = self.dev.registry
            return {"ok": True, "device": app.device_id, "set": self.dev.tag_set,
                    "registry": reg.count if reg is not None else 0}
        if op == "write" or op == "read":
            try:
                if op == "write":
                    tile_tag.encode(req["set"], req["tile"], req["copy"])  # checks the numbers
                elif "set" not in req:
                    req["set"] = self.dev.tag_set
            except (KeyError, ValueError) as e:
                return _err("bad_request", str(e.args[-1]) if e.args else "missing field")
            self._enter(True)
            self.job = req
            self.result = None
            self.deadline = self.dev.clock() + int(req.get("timeout", 120)) * 1000
            return {"ok": True, "state": "waiting"}
        if op == "save":
            return self._save(req)
        return _err("unknown_op", "unknown tags request %s" % op)

    def _enter(self, host):
        if not self.active:
            self.active = True
            self.count = 0
            self.last = ""
        self.host = self.host or host

    def leave(self):
        self.active = False
        self.host = False
        self.job = None
        self.result = None

    def _finish(self, result):
        self.job = None
        self.result = result
        self.dev.dirty = True

    def _save(self, req):
        try:
            set_id = req["set"]
            entries = [(unhex(u), t, c) for u, t, c in req.get("registry", [])]
            blob = tile_tag.UidRegistry.build(set_id, entries) if entries else None
        except (KeyError, ValueError, TypeError) as e:
            return _err("bad_request", str(e.args[-1]) if e.args else "bad registry")
        self.dev.save_tag_settings(set_id, blob)
        return {"ok": True, "set": set_id, "registry": len(entries)}

    # ---- the device loop ----
    def tick(self):
        if self.job is not None and self.dev.clock() - self.deadline >= 0:
            self._finish(_err("timeout", "no tag"))

    def key(self, k):
        if k == "*":
            if self.job is not None:
                self._finish(_err("cancelled", "cancelled on the box"))
            else:  # host or not: a box must never be stuck in tags mode
                self.leave()
        elif k == "#" and self.job is not None and self.job["op"] == "read":
            self._finish(_err("done", "done on the box"))

    def on_tag(self, uid, data):
        """A tag was polled and its pages 4-7 read into data; the reader still has it selected."""
        self.count += 1
        job = self.job
        if job is None:
            self.last = self._describe(uid, data)
            return
        if job["op"] == "read":
            out = self._identify(uid, data, job["set"])
            out["ok"] = True
            self.last = self._describe(uid, data)
            self._finish(out)
            return
        self._finish(self._write(job, uid, data))

    def _identify(self, uid, data, set_id):
        out = {"uid": hexs(uid), "data": hexs(data)}
        reg = self.dev.registry
        if reg is not None and reg.set_id != set_id:
            reg = None
        try:
            t, c = tile_tag.decode(data, set_id)
            out["via"] = "record"
        except ValueError as e:
            code = e.args[0]
            v = reg.lookup(uid, len(uid)) if reg is not None and code in ("blank", "corrupt") else -1
            if v < 0:
                out["result"] = code
                return out
            t, c = v >> 2, v & 3
            out["via"] = "uid"
        out["result"] = "ok"
        out["tile"] = t
        out["copy"] = c
        return out

    def _describe(self, uid, data):
        out = self._identify(uid, data, self.dev.tag_set)
        if out["result"] == "ok":
            return tile_label(out["tile"], out["copy"]) + (" (uid)" if out["via"] == "uid" else "")
        return out["result"]

    def _write(self, job, uid, data):
        rdr = self.dev.hw.reader
        set_id = job["set"]
        tile = job["tile"]
        copy = job["copy"]
        u = {"uid": hexs(uid)}
        try:
            held = tile_tag.decode(data, set_id)
        except ValueError:
            held = None
        if not job.get("overwrite"):
            if held is not None and held != (tile, copy):
                u["tile"] = held[0]
                u["copy"] = held[1]
                self.last = "already " + tile_label(held[0], held[1])
                return _err("already", "tag holds " + tile_label(held[0], held[1]), u)
        if self.uids is None:
            from firmware.tags.uids import UidLog
            self.uids = UidLog()
        other = self.uids.find(uid)
        if other is not None and other != (tile, copy) and held != other:
            # a UID written before, on a tag that does not hold that record: another tag, a clone
            u["tile"] = other[0]
            u["copy"] = other[1]
            self.last = "clone uid: set aside"
            return _err("clone_uid", "UID %s is also the tag of %s: a clone tag, set it aside"
                        % (hexs(uid), tile_label(other[0], other[1])), u)
        rec = tile_tag.encode(set_id, tile, copy)
        for i in range(0, len(rec), 4):
            r = rdr.write(_PAGE + i // 4, rec[i:i + 4])
            if r != 0:
                self.last = "read-only tag" if i == 0 else "write failed"
                return _err("readonly" if i == 0 else "write_failed", "write refused (result %d)" % r, u)
        buf = self.buf
        r = rdr.read(_PAGE, buf)
        if r != 0:
            self.last = "read back failed"
            return _err("read_failed", "read back failed (result %d)" % r, u)
        if bytes(buf[0:8]) != rec:
            self.last = "read back differs"
            return _err("verify_failed", "read back " + hexs(buf[0:8]), u)
        self.last = tile_label(tile, copy) + " written"
        self.uids.add(uid, tile, copy)
        u["ok"] = True
        u["tile"] = tile
        u["copy"] = copy
        return u

    # ---- the screen ----
    def screen(self):
        job = self.job
        if job is None:
            title = "Tags" if self.host else "Tag check"
            lines = [self.last or ("waiting for the host" if self.host else "tap a tile"),
                     "set %d, %d read" % (self.dev.tag_set, self.count)]
            return title, lines, "* back"
        write = job["op"] == "write"
        prompt = job.get("prompt") or (("tap " + tile_label(job["tile"], job["copy"])) if write
                                       else "tap a tile")
        lines = [prompt]
        if self.last:
            lines.append("last: " + self.last)
        return ("Tags: write" if write else "Tags: read"), lines, "* cancel" if write else "* cancel # done"


def _err(code, message, fields=None):
    out = fields or {}
    out["ok"] = False
    out["code"] = code
    out["message"] = message
    return out


def attach(link, tags):
    """Answer the link's TAGS (open) and TAGS_SET (authenticated) requests with tags.request
    (firmware/link/engine.py's Link.handle). Returns False for a link without it (nothing attached)."""
    handle = getattr(link, "handle", None)
    if handle is None:
        return False

    def on_tags(lk, req, authed=False):
        try:
            obj = json.loads(bytes(req).decode())
        except (ValueError, UnicodeError):
            return lk.error(E_BAD_REQUEST, "TAGS wants a JSON object")
        if not isinstance(obj, dict):
            return lk.error(E_BAD_REQUEST, "TAGS wants a JSON object")
        lk.reply_json(tags.request(obj, authed))

    handle(T_TAGS, on_tags)
    handle(T_TAGS_SET, lambda lk, req: on_tags(lk, req, True), auth=True)
    return True
