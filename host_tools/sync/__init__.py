"""Sync a scoring box: pull its new journal records over USB serial and upload them.

    python -m host_tools sync --port PORT --server URL --key-file KEYS [--quarantine QDIR]
    python -m host_tools sync --port PORT --offline DIR --key-file KEYS  # to files, for later:
    python -m host_tools sync --upload DIR --server URL
    python -m host_tools sync --port PORT --provision --key-file KEYS   # first time: set the key
    python -m host_tools sync --port PORT --release SEQ --key-file KEYS # a referee resolved it

The wire protocol is protocol/frames.py (both ends import it; its header is the specification),
signatures and request MACs protocol/sign.py. The modules here, one job each:

    client.py   the link client: HostLink (frames, resends), Box (requests, replies checked),
                open_serial / find_port (--port auto)
    run.py      one sync run (Syncer, sync), provisioning and rekeying
    summary.py  what a run did (Summary): counts, refusals, records set aside
    server.py   uploads to the tournament server (ServerSink, Outcome); the envelope they
                carry is protocol/envelope.py
    box_config.py  the box's next session config from the server (fetch_box_config)
    store.py    files on the laptop: --offline DIR, --upload DIR, the quarantine folder
    keys.py     the key file, atomic writes
    text.py     what the box says, made safe to print and to parse
    errors.py   SyncError and its kinds, exit statuses
    cli.py      the `sync` subcommand

Exit status: 0 done; 1 failed (link, device, server: nothing wrong stored, run again; a server
that answers nothing is "unreachable", one that answers 5xx to every record "fails");
2 usage; 3 the server refused records, or failed on some (5xx, after a bounded number of tries)
while it took others (set aside in the quarantine folder and on the box, offered again next run,
or, without the key or a quarantine folder, left unacknowledged on the box). The summary says
where the server put each record (its table, or a tournament's quarantine and why).

--port auto: $MAHJONG_TABLE_PORT if set; else the one USB serial port whose VID:PID is a box's
(client.USB_IDS, or $MAHJONG_TABLE_USB_IDS="1209:0001,2e8a:0005"); else the port the simulator
announced in its marker file (python -m simulator --serial writes it).
"""
from protocol.codec import FrameError, cobs_decode, cobs_encode, crc32, decode_body, encode_frame  # noqa: F401

from .cli import add_parser, main  # noqa: F401
from .client import USB_IDS, Box, HostLink, Record, check_hello, find_port, open_serial, sim_marker_path  # noqa: F401
from .errors import (EXIT_FAIL, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, DeviceError, LinkError, ProtocolError,  # noqa: F401
                     ServerError, SyncError)
from .keys import atomic_write, key_for, load_keys, save_keys  # noqa: F401
from .run import Summary, Syncer, envelope, sync  # noqa: F401
from .server import Outcome, ServerSink  # noqa: F401
from .store import OfflineSink, Quarantine, upload_dir  # noqa: F401
