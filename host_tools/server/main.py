"""``python -m host_tools serve``: open (and migrate) the database, then serve HTTP until Ctrl-C."""
from __future__ import annotations

import getpass
import os
import sys

from host_tools.server import auth, store
from host_tools.server.app import make_server
from host_tools.server.db import DatabaseError, IntegrityError, open_database


def main(args) -> int:
    try:
        db = open_database(args.db, pool_size=max(1, args.pool))
    except DatabaseError as e:
        print("serve: %s" % e, file=sys.stderr)
        return 2
    if args.create_account:
        password = os.environ.get("MT_PASSWORD") or getpass.getpass("password for %s: " % args.create_account)
        try:
            with db.tx(write=True) as tx:
                auth.create_account(tx, args.create_account, password, args.role)
                store.audit(tx, "cli", "account.create", None, "account " + args.create_account, None, {"username": args.create_account, "role": args.role})
        except (ValueError, IntegrityError) as e:
            print("serve: cannot create %s: %s" % (args.create_account, e), file=sys.stderr)
            return 1
        print("created %s (%s)" % (args.create_account, args.role))
        return 0
    srv = make_server(db, args.host, args.port, args.verbose)
    host, port = srv.server_address[:2]
    print("serving on http://%s:%d/ (database: %s)" % (host, port, db.dialect), flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
        db.close()
    return 0
