# JSON written by hand for the line protocols: the same key order on CPython and MicroPython,
# and no dict built per reply.
import json

try:  # CPython: keep non-ASCII as it is, as MicroPython's json does
    json.dumps("", ensure_ascii=False)

    def _dumps_str(s):
        return json.dumps(s, ensure_ascii=False)
except TypeError:  # MicroPython
    _dumps_str = json.dumps


def q(s):
    """A JSON string literal; escapes only what JSON requires."""
    # The json module quotes in C; when it escaped nothing (the length tells) that is the
    # answer. Otherwise escape here: control characters as \u00XX on both interpreters.
    r = _dumps_str(s)
    if len(r) == len(s) + 2:
        return r
    for ch in s:
        if ch == '"' or ch == "\\" or ord(ch) < 32:
            break
    else:
        return '"' + s + '"'
    out = '"'
    for ch in s:
        if ch == '"' or ch == "\\":
            out += "\\" + ch
        elif ord(ch) < 32:
            out += "\\u%04x" % ord(ch)
        else:
            out += ch
    return out + '"'


def value(v):
    if v is None:
        return "null"
    if isinstance(v, str):
        return q(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    try:
        return json.dumps(v)
    except Exception:
        return "null"


def error(rid, code, message, extra="", inside=""):
    """extra goes after the error object, inside within it (e.g. ', "event": 3')."""
    return ('{"id": ' + value(rid) + ', "ok": false, "error": {"code": ' + q(code) + ', "message": '
            + q(message) + inside + "}" + extra + "}")


def read(line, max_line):
    """(request dict, None) or (None, error reply) for one protocol line."""
    if len(line) > max_line:
        return None, error(None, "bad_request", "line longer than %d characters" % max_line)
    try:
        req = json.loads(line)
    except Exception:
        return None, error(None, "bad_json", "the line is not JSON")
    if not isinstance(req, dict):
        return None, error(None, "bad_request", "a request is a JSON object")
    return req, None


def run(line, max_line, body):
    """One protocol line -> one reply line, never raising. body(req) returns the reply text
    after '"ok": true, ' or raises ValueError(code, message[, event index])."""
    rid = None
    try:
        req, err = read(line, max_line)
        if err:
            return err
        rid = req.get("id")
        try:
            text = body(req)
        except ValueError as e:
            a = e.args
            if len(a) >= 3 and a[2] is not None:
                return error(rid, a[0], a[1], "", ', "event": %d' % a[2])
            if len(a) >= 2:
                return error(rid, a[0], a[1], a[3] if len(a) > 3 else "")
            return error(rid, "bad_request", str(e))
        return '{"id": %s, "ok": true, %s}' % (value(rid), text)  # one new str, not three
    except MemoryError:
        return error(rid, "internal", "out of memory")
    except Exception as e:  # a bug must not end the session: the reply names it
        return error(rid, "internal", "%s: %s" % (type(e).__name__, e))


def dumps(v):
    """Compact JSON with sorted keys: the same bytes on CPython and MicroPython (journal records
    are signed, so their bytes must not depend on the interpreter)."""
    if isinstance(v, dict):
        keys = sorted(v)
        return "{" + ",".join(q(k) + ":" + dumps(v[k]) for k in keys) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(dumps(x) for x in v) + "]"
    if isinstance(v, float):
        raise ValueError("no floats in records")
    return value(v)

