"""Tile tags through a connected box: `python -m host_tools tags write|verify`.

    python -m host_tools tags write  --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json
    python -m host_tools tags verify --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json [--json]

The box (firmware/tags/mode.py) does the tag work; this side drives it over the device link
(protocol/frames.py, through host_tools/sync/client.py) with request types 0x0A TAGS (poll
only) and 0x0B TAGS_SET (every request that changes the box, entering tags mode included:
authenticated with the box's key, so write and verify need --key-file), whose payload and reply
are JSON.

write: every tile of a full set in order (34 kinds x 4 copies + the 8 flowers: 144; Sichuan: the
108 suited tiles), prompting "tap 5m copy 2" on the box and here; the box writes the record and
reads it back. A tag that already holds another tile of this set is refused (tap another, or
--overwrite); a read-only tag is registered by its UID instead (the UID registry goes to the box
with the set id at the end, and to --registry FILE as JSON). verify: tap every tile (any order);
# on the box or Ctrl-C ends early. Reports missing, duplicate (two tags with the same tile),
foreign (another set), corrupt (blank, damaged, not ours, newer format) and unexpected (a flower
in a Sichuan set) tags, and clone UIDs (two tags with one UID, which write refuses), then what to do
about each. Exit status 0: complete and clean, 1: problems, 2: no answer or refused.
"""
import json
import sys
import time

from host_tools.sync.client import Box, HostLink
from host_tools.sync.errors import DeviceError, SyncError
from host_tools.sync.keys import key_for, load_keys
from host_tools.sync.text import clean
from protocol.codec import ERROR_NAMES

OPEN = ("poll",)  # the only op that changes nothing on the box; the others are authenticated (TAGS_SET)
FLOWERS = "abcdefgh"
SUITS = "msp"
HONOURS = "ESWNCFP"


class LinkError(Exception):
    pass


def tile_label(tile, copy=None):
    if tile >= 34:
        s = "flower " + FLOWERS[tile - 34]
    elif tile < 27:
        s = "%d%s" % (tile % 9 + 1, SUITS[tile // 9])
    else:
        s = HONOURS[tile - 27]
    if copy is not None and tile < 34:
        s += " copy %d" % (copy + 1)
    return s


def full_set(rules):
    """(tile, copy) of every tagged tile of a set, in the order write asks for them."""
    kinds = 27 if rules == "sichuan" else 34
    out = [(t, c) for t in range(kinds) for c in range(4)]
    if rules != "sichuan":
        out += [(34 + f, 0) for f in range(8)]
    return out


# ---------------------------------------------------------------------------- the link
class LinkClient:
    """The tag requests over the box's link: host_tools/sync/client.py (the one link client).
    port: a pyserial Serial (or anything with read(n), write(b), in_waiting and a timeout);
    key: the device key, for the requests that write (TAGS_SET)."""

    def __init__(self, port, timeout=1.0, retries=5, key=None):
        self.link = HostLink(port, timeout=timeout, retries=retries, max_timeout=max(timeout, 2.0))
        self.box = Box(self.link, key)
        self.link.wake(0.05)  # idle fill, then a pause: the box switches off Ctrl-C first

    def hello(self):
        try:
            return self.box.hello()
        except SyncError as e:
            raise LinkError(str(e)) from None

    def tags(self, obj):
        """One TAGS request; all but poll go authenticated (TAGS_SET), with the key."""
        op = obj.get("op")
        try:
            r = self.box.tags(obj, authed=op not in OPEN)
        except DeviceError as e:
            raise LinkError("%s: %s" % (ERROR_NAMES.get(e.code, "error %d" % e.code), e.message)) from None
        except SyncError as e:
            raise LinkError(str(e)) from None
        return _checked(r)

    def job(self, obj, poll_s=0.02, abort=None):
        """Start a write / read job and poll until its result."""
        r = self.tags(obj)
        if not r.get("ok"):
            raise LinkError("refused: %s" % clean(r.get("message", r.get("code"))))
        while True:
            if abort is not None and abort():
                self.tags({"op": "cancel"})
            r = self.tags({"op": "poll"})
            if r.get("state") == "done":
                res = r.get("result")
                if not isinstance(res, dict):
                    raise LinkError("the box sent a job result that is not an object")
                return _checked(res)
            if r.get("state") != "waiting":
                raise LinkError("the box lost the job (state %s)" % clean(r.get("state")))
            time.sleep(poll_s)


def _checked(r):
    """A reply's fields as the tool uses them: text cleaned for the terminal, numbers numbers."""
    for k in ("uid", "message", "code", "data", "result", "state", "device", "via"):
        if isinstance(r.get(k), str):
            r[k] = clean(r[k], 200)
    for k in ("tile", "copy"):
        if k in r and not (isinstance(r[k], int) and not isinstance(r[k], bool) and 0 <= r[k] < 42):
            raise LinkError("the box sent a bad %s: %s" % (k, clean(r[k])))
    return r


def open_port(path, baud=115200):
    import serial
    if path == "auto":  # as sync finds the box: $MAHJONG_TABLE_PORT, its USB ids, the simulator
        from host_tools.sync.client import find_port
        path = find_port()
    return serial.Serial(path, baud, timeout=0.01, write_timeout=2)


# ---------------------------------------------------------------------------- write
def write(client, set_id, rules, out=print, overwrite=False, timeout=120, max_timeouts=3, only=None):
    """Program a full set (only: just these (tile, copy)). Returns a summary dict."""
    begin = client.tags({"op": "begin"})
    if not begin.get("ok"):
        raise LinkError("the box refused tags mode: %s" % begin.get("message"))
    queue = list(only) if only else full_set(rules)
    written = {}  # uid -> (tile, copy)
    registry = []  # [uid hex, tile, copy] of read-only tags
    problems = []
    i = 0
    timeouts = 0
    while i < len(queue):
        t, c = queue[i]
        label = tile_label(t, c)
        prompt = "tap " + label
        out("[%d/%d] %s" % (i + 1, len(queue), prompt))
        res = client.job({"op": "write", "set": set_id, "tile": t, "copy": c, "prompt": prompt,
                          "overwrite": overwrite, "timeout": timeout})
        uid = res.get("uid")
        code = res.get("code")
        if res.get("ok"):
            prev = written.get(uid)
            if prev is not None and prev != (t, c):
                # --overwrite and the same tag twice: the earlier tile needs a tag again
                out("  that tag was %s: %s will be asked again" % (tile_label(*prev), tile_label(*prev)))
                queue.append(prev)
            written[uid] = (t, c)
            i += 1
            timeouts = 0
            continue
        if code == "readonly":
            known = [e for e in registry if e[0] == uid]
            if known or uid in written:
                out("  that read-only tag is already %s: tap another" % tile_label(*(known[0][1:] if known else written[uid])))
                continue
            registry.append([uid, t, c])
            out("  read-only tag %s: registered by its UID" % uid)
            i += 1
            continue
        if code == "already":
            out("  that tag already holds %s: tap another tag (or use --overwrite)"
                % tile_label(res["tile"], res["copy"]))
            continue
        if code == "clone_uid":
            # the box refused it before writing: its UID is the one of a tag written before
            out("  REFUSED: that tag's UID %s is also the UID of the tag of %s (a clone tag: two tags"
                " with one UID cannot be told apart on the reader). Set it aside, tap another"
                % (uid, tile_label(res["tile"], res["copy"])))
            problems.append([uid, code, t, c])
            continue
        if code in ("verify_failed", "write_failed", "read_failed"):
            out("  %s (%s): tap the same tag again" % (code.replace("_", " "), res.get("message")))
            problems.append([uid, code, t, c])
            continue
        if code == "timeout":
            timeouts += 1
            if timeouts >= max_timeouts:
                raise LinkError("no tag tapped %d times in a row: stopped" % timeouts)
            continue
        if code == "cancelled":
            client.tags({"op": "end"})
            raise LinkError("cancelled on the box at %s" % label)
        raise LinkError("unexpected answer %r" % res)
    if only and not registry:
        out("the box's set id and UID registry were left as they are (--only)")
    else:
        if only:
            out("note: --only saves the UID registry of this run alone on the box: run a full write to keep the others")
        saved = client.tags({"op": "save", "set": set_id, "registry": registry})
        if not saved.get("ok"):
            raise LinkError("the box did not save the set: %s" % saved.get("message"))
    client.tags({"op": "end"})
    out("done: %d tags written, %d read-only tags registered by UID, set %d saved on the box"
        % (len(written), len(registry), set_id))
    return {"set": set_id, "rules": rules, "written": len(written), "registry": registry,
            "retries": problems}


# ---------------------------------------------------------------------------- verify
def verify(client, set_id, rules, out=print, timeout=120):
    """Read tiles until every one was seen, # on the box, or a read timed out."""
    begin = client.tags({"op": "begin"})
    if not begin.get("ok"):
        raise LinkError("the box refused tags mode: %s" % begin.get("message"))
    expected = full_set(rules)
    want = set(expected)
    out("tap every tile of set %d on the box, in any order (# on the box or Ctrl-C ends)" % set_id)
    seen = {}  # (tile, copy) -> uid
    uids = {}
    report = {"duplicate": [], "foreign": [], "corrupt": [], "unexpected": [], "clone": []}
    data_of = {}  # uid -> the 16 bytes it read the first time
    try:
        while len(seen) < len(want):
            prompt = "tap any tile (%d/%d)" % (len(seen), len(want))
            res = client.job({"op": "read", "set": set_id, "prompt": prompt, "timeout": timeout})
            if not res.get("ok"):
                if res.get("code") in ("done", "timeout", "cancelled"):
                    out("ended: %s" % res.get("code"))
                    break
                raise LinkError("unexpected answer %r" % res)
            uid = res["uid"]
            if uid in uids:
                if res.get("data") != data_of.get(uid) and uid not in [x["uid"] for x in report["clone"]]:
                    # one UID, other bytes: two tags answer as one (clone tags)
                    report["clone"].append({"uid": uid, "first": uids[uid] if isinstance(uids[uid], str)
                                            else tile_label(*uids[uid]), "data": [data_of.get(uid), res.get("data")]})
                    out("  %s: CLONE UID (another tag with this UID was read before)" % uid)
                else:
                    out("  %s: read before" % uid)
                continue
            data_of[uid] = res.get("data")
            result = res["result"]
            if result == "ok":
                tc = (res["tile"], res["copy"])
                uids[uid] = tc
                if tc not in want:
                    report["unexpected"].append({"uid": uid, "tile": tile_label(*tc)})
                    out("  %s: %s is not part of a %s set" % (uid, tile_label(*tc), rules))
                elif tc in seen:
                    report["duplicate"].append({"tile": tile_label(*tc), "uids": [seen[tc], uid]})
                    out("  %s: DUPLICATE %s (also %s)" % (uid, tile_label(*tc), seen[tc]))
                else:
                    seen[tc] = uid
                    out("  %s%s" % (tile_label(*tc), " (by UID)" if res.get("via") == "uid" else ""))
            else:
                uids[uid] = result
                kind = "foreign" if result == "foreign_set" else "corrupt"
                report[kind].append({"uid": uid, "result": result, "data": res.get("data")})
                out("  %s: %s" % (uid, result.upper()))
    except KeyboardInterrupt:
        client.tags({"op": "cancel"})
        out("interrupted")
    client.tags({"op": "end"})
    report["missing"] = [tile_label(t, c) for t, c in expected if (t, c) not in seen]
    report["seen"] = len(seen)
    report["expected"] = len(want)
    report["set"] = set_id
    report["rules"] = rules
    report["ok"] = not (report["missing"] or report["duplicate"] or report["foreign"]
                        or report["corrupt"] or report["unexpected"] or report["clone"])
    out("%d/%d tiles; missing %d, duplicate %d, foreign %d, corrupt %d, unexpected %d, clone UIDs %d"
        % (len(seen), len(want), len(report["missing"]), len(report["duplicate"]),
           len(report["foreign"]), len(report["corrupt"]), len(report["unexpected"]), len(report["clone"])))
    if report["missing"]:
        out("missing: " + " ".join(report["missing"]))
    report["fix"] = fixes(report, set_id, rules)
    if report["fix"]:
        out("what to fix:")
        for ln in report["fix"]:
            out("  " + ln)
    return report


def fixes(report, set_id, rules):
    """What to do about each problem of an audit (verify), one line each."""
    w = "python -m host_tools tags write --set %d --rules %s --only" % (set_id, rules)
    out = []
    for d in report["duplicate"]:
        out.append("%s is on two tags (%s): find the tile whose tag is wrong by tapping them one at a time, "
                   "then rewrite it: %s '<its tile>' --overwrite" % (d["tile"], " and ".join(d["uids"]), w))
    for m in report["missing"]:
        out.append("%s was not read: find the tile (another set's box? the floor?); if its tag is lost or dead, "
                   "stick a new tag on it and write it: %s '%s'" % (m, w, m))
    for f in report["foreign"]:
        out.append("tag %s belongs to another set: return that tile to its own set" % f["uid"])
    for c in report["corrupt"]:
        out.append("tag %s reads %s: if it is one of this set's tiles, rewrite it (%s '<its tile>' --overwrite); "
                   "if not, take it out" % (c["uid"], c["result"], w))
    for u in report["unexpected"]:
        out.append("%s (tag %s) is not part of a %s set: take it out" % (u["tile"], u["uid"], rules))
    for c in report["clone"]:
        out.append("UID %s is on two tags (clone tags): replace one of them with a tag of its own UID and "
                   "write it with --only; the reader cannot tell the two apart" % c["uid"])
    return out


def parse_only(text, rules):
    """--only "5m copy 2,flower a,E copy 1" -> [(tile, copy)] of this rule set's tiles."""
    by_label = {tile_label(t, c): (t, c) for t, c in full_set(rules)}
    out = []
    for part in text.split(","):
        part = " ".join(part.split())
        if part not in by_label:
            raise LinkError("--only: no tile %r in a %s set (labels as tags verify prints them: "
                            "'5m copy 2', 'E copy 1', 'flower a')" % (part, rules))
        out.append(by_label[part])
    return out


def main(args):
    quiet = getattr(args, "json", False)

    def out(s):
        print(s, file=sys.stderr if quiet else sys.stdout, flush=True)

    try:
        port = open_port(args.port, args.baud)
    except Exception as e:  # serial.SerialException and OSError
        print("cannot open %s: %s" % (args.port, e), file=sys.stderr)
        return 2
    client = None
    try:
        try:
            keys = load_keys(args.key_file)
        except SyncError as e:
            raise LinkError(str(e)) from None
        client = LinkClient(port, timeout=args.link_timeout)
        hello = client.hello()
        client.box.key = key_for(keys, hello["device"])
        out("box %s (%s), firmware %s" % (hello["device"], hello.get("board"), hello.get("fw")))
        if client.box.key is None:
            raise LinkError("tags mode changes the box: %s needs the key of %s (--key-file)"
                            % (args.action, hello["device"]))
        if args.action == "write":
            only = parse_only(args.only, args.rules) if args.only else None
            res = write(client, args.set, args.rules, out, overwrite=args.overwrite, timeout=args.timeout, only=only)
            if args.registry:
                with open(args.registry, "w") as f:
                    json.dump({"set": args.set, "uids": res["registry"]}, f, indent=1)
            if quiet:
                print(json.dumps(res))
            return 0
        res = verify(client, args.set, args.rules, out, timeout=args.timeout)
        if quiet:
            print(json.dumps(res))
        return 0 if res["ok"] else 1
    except LinkError as e:
        print("error: %s" % clean(str(e), 2000), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C while the box waits for a tag: cancel its job, or the next run is refused
        # ("a tag job is waiting") until someone cancels it on the box
        try:
            if client is not None:
                client.tags({"op": "cancel"})
        except Exception:  # the box gone or the link broken: nothing more to tidy here
            pass
        print("stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except (KeyError, TypeError, ValueError, IndexError) as e:  # a reply with fields missing or odd
        print("error: the box sent a reply this tool does not understand (%s)" % clean(repr(e)), file=sys.stderr)
        return 2
    finally:
        port.close()


def add_parser(sub):
    p = sub.add_parser("tags", help="write or verify the NFC tags of a tile set through a connected box")
    p.add_argument("action", choices=("write", "verify"))
    p.add_argument("--port", required=True, help="the box's serial port (/dev/ttyACM0, the simulator's pty), or 'auto'")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--set", type=int, default=1, help="tile set id 1..65535 (default 1)")
    p.add_argument("--rules", choices=("mcr", "sichuan", "guangdong"), default="mcr",
                   help="which tiles make a set: sichuan 108, else 144 with flowers")
    p.add_argument("--key-file", help="device keys (JSON {device: hex}, as sync writes it): the box's key is needed")
    p.add_argument("--registry", help="write: also save the UIDs of read-only tags to this JSON file")
    p.add_argument("--overwrite", action="store_true", help="write: rewrite tags that hold another tile")
    p.add_argument("--only", help="write: just these tiles, as verify names them ('9p copy 4,flower a')")
    p.add_argument("--timeout", type=int, default=120, help="seconds to wait for each tag (default 120)")
    p.add_argument("--link-timeout", type=float, default=1.0, help="seconds before a request is resent")
    p.add_argument("--json", action="store_true", help="the summary / report as JSON on stdout")
    p.set_defaults(run=main)
    return p
