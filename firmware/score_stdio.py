# Scoring over stdio on MicroPython: one JSON request per line in, one JSON reply per line out.
# Used to run the host's request suites against the device build (`make mp-score`) under a
# device-sized heap; the device application itself reads the keypad, not stdin. The settle
# protocol's loop (settle_stdio.py) is this one with another handler.
import gc
import sys



def rules_from_argv(argv):
    # argv[0] is the module name under `micropython -m score_stdio`.
    rules = "mcr"
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--rules" and i + 1 < len(args):
            rules = args[i + 1]
            i += 2
        elif a.startswith("--rules="):
            rules = a[8:]
            i += 1
        else:
            raise ValueError("usage: score_stdio [--rules mcr|sichuan|guangdong]")
    return rules


FALLBACK_REPLY = '{"id": null, "ok": false, "error": {"code": "internal", "message": "internal error"}}'


def internal_error(line, exc):
    # Still one reply per request, so a caller pairing replies by position stays in step.
    import json

    rid = None
    try:
        obj = json.loads(line)
        if isinstance(obj, dict):
            rid = obj.get("id")
    except Exception:
        pass
    msg = "%s: %s" % (type(exc).__name__, exc)
    return json.dumps({"id": rid, "ok": False, "error": {"code": "internal", "message": msg}})


def serve(rules, handle_line):
    out = sys.stdout
    flush = getattr(out, "flush", None)  # not every port's stdout has one
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        try:
            reply = handle_line(line, rules)
        except Exception as exc:  # MemoryError included: report it instead of dropping the session
            gc.collect()
            try:
                reply = internal_error(line, exc)
            except Exception:  # too little heap left even for the error reply
                reply = FALLBACK_REPLY
        out.write(reply)
        out.write("\n")
        if flush:
            flush()
        # Collect between requests so each starts from an unfragmented heap, as on the device.
        gc.collect()


def main(handle_line=None):
    try:
        rules = rules_from_argv(sys.argv)
    except ValueError as exc:
        sys.stderr.write(str(exc) + "\n")
        sys.exit(2)
    if handle_line is None:  # imported here: the settle loop does not load the score protocol
        from rules_min.request import handle_line
    serve(rules, handle_line)


if __name__ == "__main__":
    main()
