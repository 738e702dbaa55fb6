# JSON written by hand for the line protocols: the same key order on CPython and MicroPython,
# and no dict built per reply.
import json


def q(s):
    """A JSON string literal; escapes only what JSON requires."""
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
