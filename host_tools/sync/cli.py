"""`python -m host_tools sync`: the command line of the sync tool (host_tools/cli.py adds it)."""
from __future__ import annotations

import json
import os
import sys

from .errors import EXIT_OK, SyncError
from .run import sync
from .store import upload_dir
from .text import clean

ENV_QUARANTINE = "MAHJONG_TABLE_QUARANTINE"


def add_parser(sub) -> None:
    p = sub.add_parser("sync", help="pull new hands from a scoring box over USB serial and upload them",
                       description="Pull the box's unsynced journal records and upload them; the box is "
                                   "acknowledged (with its key) only for what the server (or --offline DIR) "
                                   "stored. A record the server refuses is set aside: kept in the quarantine "
                                   "folder with the server's reason and listed on the box, so the records after "
                                   "it go on. Progress goes to stderr, the summary to stdout. Exit status: 0 done, "
                                   "1 failed (run again: it goes on where it stopped), 3 records refused.")
    p.add_argument("--port", help="serial port of the box, or 'auto'")
    p.add_argument("--server", metavar="URL", help="tournament server, e.g. http://10.0.0.2:8000")
    p.add_argument("--offline", metavar="DIR", help="store the records as files in DIR instead of uploading")
    p.add_argument("--upload", metavar="DIR", help="upload the files an --offline run stored (no box needed)")
    p.add_argument("--key-file", metavar="FILE", help="device keys, JSON {device: hex}: needed to acknowledge, "
                                                      "set the clock or start a session; signatures are checked "
                                                      "here; --provision writes a new key to it")
    p.add_argument("--quarantine", metavar="DIR", default=os.environ.get(ENV_QUARANTINE, "quarantine"),
                   help="where records the server refused are kept with its reason (default ./quarantine, "
                        "or $%s)" % ENV_QUARANTINE)
    p.add_argument("--provision", action="store_true", help="give a box without a key its key (from/into --key-file)")
    p.add_argument("--rekey", action="store_true", help="change the box's key (the current one must be in --key-file)")
    p.add_argument("--release", metavar="SEQ", type=int, action="append",
                   help="a referee resolved this set-aside record: the box no longer lists it (repeatable)")
    p.add_argument("--config", metavar="FILE", help="after syncing, start the next session with this JSON config")
    p.add_argument("--next-session", action="store_true",
                   help="after syncing, start the next session the server has for this box (its table in the "
                        "published seating)")
    p.add_argument("--wifi", metavar="FILE", help='a box with Wi-Fi: set its network from this JSON file, '
                                                  '{"ssid": ..., "password": ..., "server": "http://HOST:PORT"} (never typed on the keypad)')
    p.add_argument("--no-clock", action="store_true", help="leave the box's clock alone")
    p.add_argument("--no-batch", action="store_true", help="upload one record per request")
    p.add_argument("--timeout", type=float, default=0.5, help="seconds before a request is sent again (default 0.5)")
    p.add_argument("--retries", type=int, default=6, help="resends before giving up (default 6)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    p.set_defaults(run=main)


def read_wifi(path: str) -> dict:
    """The --wifi file, checked as the box checks it (firmware/net/settings.py)."""
    from firmware.net.settings import check
    try:
        with open(path, encoding="utf-8") as f:
            wifi = json.load(f)
    except (OSError, ValueError, RecursionError) as e:
        raise SyncError("cannot read the network settings %s: %s" % (path, e))
    why = check(wifi)
    if why:
        raise SyncError("network settings %s: %s" % (path, why))
    return wifi


def main(args) -> int:
    quiet = getattr(args, "quiet", False)

    def progress(msg):
        if not quiet:
            print(clean(msg, 1000), file=sys.stderr, flush=True)

    def report(s):
        print(s.line(), flush=True)
        for line in s.details():
            print(line, flush=True)

    try:
        if args.upload:
            if not args.server:
                raise SyncError("--upload DIR needs --server URL")
            s = upload_dir(args.upload, args.server, args.key_file, progress, batch=not args.no_batch,
                           quarantine=args.quarantine)
        else:
            if not args.port:
                raise SyncError("--port PORT (or --port auto) is needed")
            if args.server and args.offline:
                raise SyncError("--server or --offline, not both")
            config = None
            if args.config:
                try:
                    with open(args.config, encoding="utf-8") as f:
                        config = json.load(f)
                except (OSError, ValueError, RecursionError) as e:
                    raise SyncError("cannot read config %s: %s" % (args.config, e))
                if not isinstance(config, dict):
                    raise SyncError("config %s is not a JSON object" % args.config)
            wifi = read_wifi(args.wifi) if getattr(args, "wifi", None) else None
            s = sync(args.port, server=args.server, offline=args.offline, key_file=args.key_file, progress=progress,
                     timeout=args.timeout, retries=args.retries, batch=not args.no_batch, set_clock=not args.no_clock,
                     config=config, provision=args.provision, rekey=args.rekey, quarantine=args.quarantine,
                     release=args.release, next_session=args.next_session, wifi=wifi)
    except SyncError as e:
        s = getattr(e, "summary", None)
        if s is not None:
            report(s)
        print("sync: error: %s" % clean(str(e), 2000), file=sys.stderr, flush=True)
        return e.exit_code
    report(s)
    return EXIT_OK
