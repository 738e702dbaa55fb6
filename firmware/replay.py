# The table after a reboot: the session of the journal's records again (its config, its hands
# and corrections for the totals, who sits where, the hand being played), and its closing record
# if the power died before it was written. The App runs it once, as it starts; it reads the
# records the score book (firmware/scorebook.py) wrote.
from firmware import heap
from firmware.scorebook import config_module, keyed_text, preload, record_module, open_session, warm_fan_names


def resume(book):
    """The session of the journal's records again, after a reboot: its totals from its hands
    and corrections, its closing record written if the power died before it. False when
    there is no session."""
    app = book.app
    started = 0
    closed = False
    config = config_module()
    record = record_module()
    for seq, data in app.j.records(1):
        rec = record.decode(data)
        if rec is None or rec.get("v") != record.VERSION:
            continue
        kind = rec.get("kind")
        if kind == "session":
            cfg = {}
            for name, _r, _k, _lo, _hi in config.FIELDS:
                k = "seats" if name == "players" else name
                if k in rec:
                    cfg[name] = rec[k]
            app.session = open_session(config.with_defaults(cfg), 0, getattr(app, "can_draw", None))
            app.lang = app.session.cfg["lang"]
            started = rec.get("time", 0)
            closed = False
        elif app.session is None:
            continue
        elif kind == "hand":
            s = app.session
            s.apply(rec)
            if rec.get("time_out"):
                s.time_out()
            else:
                s.next_hand(rec.get("next_dealer"))
        elif kind == "correction":
            book.apply_correction(rec)
        elif kind == "session_end":
            app.session.ended = app.session.ended or "hands"
            closed = True
    config = record = None
    heap.forget("protocol.config")
    s = app.session
    if s is None:
        return False
    app.leave_setup()
    s.keyed = keyed_text(s.rules)
    preload(s.rules)
    # as a session that opens does: the first win after the reboot would otherwise build the
    # fan names' index between its last tile and its result (+20 ms on the frozen Pico, the
    # session's slowest result in bench/pico_glass.py)
    warm_fan_names(s.rules, app.lang)
    if s.ended and not closed:
        # the power died between the last hand and the session's closing record
        book.end_session()
    # the clock restarts at boot: the session's time runs from its record's time
    s.start_ms = app.clock() - max(0, app.now_s() - started) * 1000
    if app.timefile is not None and not s.ended:   # a referee's extension, kept across the cut
        from firmware import session_time
        kept = session_time.load(app.timefile, s.cfg)
        heap.done_with("firmware.session_time")
        if kept is not None:
            if kept[0] is not None:
                s.cfg["minutes"] = kept[0]
                s.limit_ms = kept[0] * 60000
            if kept[1] is not None:
                s.cfg["ends_at"] = kept[1]
    book.rebuild()
    return True
