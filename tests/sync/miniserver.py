"""A minimal tournament server for the sync tests: a real HTTP server on 127.0.0.1 with the upload
contract of the device records, nothing else (the real one is host_tools/server/).

POST /api/records        {"device", "seq", "payload": base64, "sig": hex} ->
                         201 {"status": "stored"} | 200 {"status": "known"} | 409 different payload
                         | 403 unknown device or bad signature | 400 malformed
POST /api/records:batch  a JSON list (at most 200) -> 200 [{"status": .., "status_code": ..}, ...]
GET /api/boxes/DEVICE/config  the next session's config of the box (box_configs), or 404
POST /api/boxes/DEVICE/head  {"head", "at", "sig"}: the box's journal head, signed with its key
                             (checked with CPython's hmac) -> 200, or 403
GET /api/health          200 {"status": "ok"}

Faults for the tests: `fail` = probability that a request gets a 503 or a dropped connection
(seeded `rng`), `batch=False` answers 404 on the batch endpoint, `down=True` refuses all,
`store.crash` = (device, seq) of records the server fails on: 500 for the record, and for any
batch that holds it (as a server whose database refuses one value fails its whole transaction).
"""
import base64
import binascii
import hashlib
import hmac
import json
import random
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Store:
    def __init__(self, keys):
        self.keys = dict(keys)  # device -> key bytes
        self.records = {}  # (device, seq) -> payload bytes
        self.inserts = []  # (device, seq) per 201, to prove "exactly once"
        self.counts = {}
        self.accept_any_version = False  # a server "fixed" after refusing a record
        self.refuse = set()  # (device, seq) answered 400 "refused by the test"
        self.crash = set()  # (device, seq) answered 500 (and their batch)
        self.tries = {}  # (device, seq) -> requests that carried it
        self.lock = threading.Lock()

    def put(self, obj):
        code, body = self._put(obj)
        with self.lock:
            self.counts[code] = self.counts.get(code, 0) + 1
        return code, body

    def _put(self, obj):
        if not isinstance(obj, dict) or set(obj) != {"device", "seq", "payload", "sig"}:
            return 400, {"error": "envelope must have exactly device, seq, payload, sig"}
        dev, seq, p64, sig = obj["device"], obj["seq"], obj["payload"], obj["sig"]
        if not isinstance(dev, str) or not dev or len(dev) > 64:
            return 400, {"error": "bad device"}
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < 2**32:
            return 400, {"error": "bad seq"}
        if not isinstance(sig, str) or len(sig) != 64:
            return 400, {"error": "bad sig"}
        try:
            payload = base64.b64decode(p64, validate=True)
        except (binascii.Error, TypeError, ValueError):
            return 400, {"error": "payload is not base64"}
        if not payload or (payload[0] != 1 and not self.accept_any_version):
            return 400, {"error": "payload version"}
        with self.lock:
            self.tries[(dev, seq)] = self.tries.get((dev, seq), 0) + 1
        if (dev, seq) in self.refuse:
            return 400, {"error": "refused by the test"}
        if (dev, seq) in self.crash:
            return 500, {"error": "Internal Server Error"}
        key = self.keys.get(dev)
        if key is None:
            return 403, {"error": "unknown device or bad signature"}
        # the signature from CPython's hmac, not protocol/sign.py: the test server checks the box's
        want = hmac.new(key, dev.encode() + b"\x00" + seq.to_bytes(4, "big") + payload, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(want, sig):
            return 403, {"error": "unknown device or bad signature"}
        try:
            if payload[0] == 1:
                json.loads(payload[1:].decode())
        except (UnicodeDecodeError, ValueError):
            return 400, {"error": "payload is not JSON"}
        with self.lock:
            old = self.records.get((dev, seq))
            if old is not None:
                if old == payload:
                    return 200, {"status": "known", "device": dev, "seq": seq}
                return 409, {"error": "stored with a different payload"}
            self.records[(dev, seq)] = payload
            self.inserts.append((dev, seq))
        return 201, {"status": "stored", "device": dev, "seq": seq}


class MiniServer:
    def __init__(self, keys, batch=True, fail=0.0, seed=0):
        self.store = Store(keys)
        self.batch = batch
        self.fail = fail
        self.down = False
        self.down_after = None  # requests answered before the server "dies"
        self.rng = random.Random(seed)
        self.requests = 0
        self.box_configs = {}  # device -> the next session's config (GET /api/boxes/DEVICE/config)
        self.heads = {}  # device -> the head the sync tool reported
        srv = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def setup(self):
                BaseHTTPRequestHandler.setup(self)
                # headers and body go in two writes: without this, Nagle and the client's delayed
                # ACK hold the body ~40 ms
                self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def _send(self, code, obj):
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                import urllib.parse
                u = urllib.parse.urlsplit(self.path)
                parts = u.path.split("/")
                if u.path == "/api/health":
                    if srv.down:
                        return self._send(503, {"error": "down"})
                    return self._send(200, {"status": "ok"})
                if len(parts) == 5 and parts[1:3] == ["api", "boxes"] and parts[4] == "config":
                    dev = urllib.parse.unquote(parts[3])
                    cfg = srv.box_configs.get(dev)
                    if cfg is None:
                        return self._send(404, {"error": "box %s is not bound to a table" % dev})
                    return self._send(200, cfg)
                return self._send(404, {"error": "no such endpoint"})

            def do_POST(self):
                srv.requests += 1
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n)
                if srv.down_after is not None and srv.requests > srv.down_after:
                    srv.down = True
                if srv.down:
                    self.close_connection = True
                    return self._send(503, {"error": "down"})
                if srv.fail and srv.rng.random() < srv.fail:
                    if srv.rng.random() < 0.5:
                        self.close_connection = True  # a dead server: no answer at all
                        self.connection.close()
                        return
                    return self._send(503, {"error": "try later"})
                try:
                    obj = json.loads(raw.decode())
                except (UnicodeDecodeError, ValueError):
                    return self._send(400, {"error": "not JSON"})
                parts = self.path.split("/")
                if len(parts) == 5 and parts[1:3] == ["api", "boxes"] and parts[4] == "head":
                    dev = parts[3]
                    key = srv.store.keys.get(dev)
                    msg = b"head\x00" + dev.encode() + b"\x00" + obj["head"].to_bytes(4, "big") + obj["at"].to_bytes(4, "big")
                    if key is None or not hmac.compare_digest(hmac.new(key, msg, hashlib.sha256).hexdigest(), obj.get("sig", "")):
                        return self._send(403, {"error": "unknown device or bad signature"})
                    srv.heads[dev] = obj["head"]
                    return self._send(200, {"device": dev, "head": obj["head"]})
                if self.path == "/api/records":
                    code, body = srv.store.put(obj)
                    return self._send(code, body)
                if self.path == "/api/records:batch":
                    if not srv.batch:
                        return self._send(404, {"error": "no such endpoint"})
                    if not isinstance(obj, list) or len(obj) > 200:
                        return self._send(400, {"error": "a batch is a list of at most 200"})
                    if any(isinstance(it, dict) and (it.get("device"), it.get("seq")) in srv.store.crash for it in obj):
                        for it in obj:  # counted as carried, as the real server's transaction would have
                            k = (it.get("device"), it.get("seq"))
                            srv.store.tries[k] = srv.store.tries.get(k, 0) + 1
                        return self._send(500, {"error": "Internal Server Error"})
                    out = []
                    for item in obj:
                        code, body = srv.store.put(item)
                        out.append(dict(body, status_code=code))
                    return self._send(200, out)
                return self._send(404, {"error": "no such endpoint"})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
