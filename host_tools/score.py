"""Line protocol scorer and settler for the host: the same requests and replies as the device's stdio loop.

Each input line gets exactly one reply line, so a caller can pair them by position even when
a request is malformed; that is why nothing here may end the loop early.
"""
import json
import sys


def internal_error(line, exc):
    """The reply for a request whose handler raised; keeps the id when the line has one."""
    rid = None
    try:
        obj = json.loads(line)
        if isinstance(obj, dict):
            rid = obj.get("id")
    except Exception:  # the line is not JSON: the reply still goes out, without an id
        pass
    message = "%s: %s" % (type(exc).__name__, exc)
    return json.dumps({"id": rid, "ok": False, "error": {"code": "internal", "message": message}}, ensure_ascii=False)


def serve(lines, out, handle, rules):
    for line in lines:
        try:
            reply = handle(line, rules)
        except Exception as exc:  # handle_line should never raise; if it does, answer anyway
            reply = internal_error(line, exc)
        out.write(reply + "\n")
        out.flush()  # the caller may wait for each reply before sending the next request


def main(rules, command="score"):
    # Imported here so the CLI still starts (and shows help) without loading the rules core.
    if command == "settle":
        from rules_min.settle_request import handle_line
    else:
        from rules_min.request import handle_line

    # The protocol is UTF-8 whatever the locale; undecodable bytes become U+FFFD and get a parse error reply.
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    serve(sys.stdin, sys.stdout, handle_line, rules)
    return 0
