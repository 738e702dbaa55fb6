"""Issue 19, item 4: behind the documented proxy (`serve --tls` behind Debian's nginx configured as
docs/deploy.md prints it), the login throttle counts each client's own address: ten failures
from one client lock that client out, not every user of the proxy; a client's own
X-Forwarded-For does not get it out. Not a storage test: SQLite."""
from __future__ import annotations

import pytest

from .conftest import PASSWORD, Running, new_database, start_server, stop, uid
from .helpers import Client
from .proxy import Nginx


@pytest.fixture
def proxied(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, args=["--tls"])
    port = int(url.rsplit(":", 1)[1])
    nginx = Nginx(port, tmp_path)
    s = Running("sqlite", db, proc, url, tmp_path)
    yield s, nginx
    nginx.stop()
    stop(proc)


def test_one_client_behind_the_proxy_locks_out_itself_only(proxied):
    s, nginx = proxied
    org = Client(s.url, headers={"X-Forwarded-Proto": "https"})
    org.token = org.post("/api/login", {"username": "org", "password": PASSWORD})[1]["token"]
    victim = uid("victim")
    assert org.post("/api/accounts", {"username": victim, "password": PASSWORD})[0] == 201
    attacker = Client(nginx.url, source="127.0.0.2")
    got = [attacker.post("/api/login", {"username": victim, "password": "wrong %d" % i})[0] for i in range(10)]
    assert got == [401] * 9 + [429]
    assert attacker.post("/api/login", {"username": "org", "password": PASSWORD})[0] == 429
    # its own X-Forwarded-For is overwritten by the proxy: still itself
    spoof = Client(nginx.url, source="127.0.0.2", headers={"X-Forwarded-For": "10.1.2.3"})
    assert spoof.post("/api/login", {"username": "org", "password": PASSWORD})[0] == 429
    # everyone else behind the same proxy logs in, the victim too
    for n, who in ((3, victim), (4, "org"), (5, "ref")):
        st, body = Client(nginx.url, source="127.0.0.%d" % n).post("/api/login", {"username": who, "password": PASSWORD})
        assert st == 200, (who, st, body)
    # the browser's login form through the proxy is throttled for the attacker alone
    st, _, _ = attacker.request("POST", "/login/", raw=b"username=org&password=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert st in (403, 429)
    # what axes stored: the clients' addresses, never the proxy's
    addresses = {r[0] for r in s.sql("SELECT ip_address FROM axes_accessattempt")}
    assert addresses == {"127.0.0.2"}, addresses
