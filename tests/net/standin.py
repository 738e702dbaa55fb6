"""A stand-in tournament server for the box's push (protocol/push.py), in a thread: it keeps
records by (device, seq) and answers with the ack made with `key` (the box's key: a real
server; another key or None: a server or access point without it). A fetch (protocol/fetch.py)
gets no config and the scripts' time (runner.EPOCH), signed the same way."""
from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from protocol import fetch as F
from protocol import push as P
from protocol.sign import HmacSha256, call_hex, device_z, push_ack_hex, record_sig_ok


class StandIn:
    def __init__(self, key, device, mode="ok"):
        self.key, self.device, self.mode = key, device, mode
        self.stored: dict = {}  # seq -> payload
        self.posts = 0
        self.calls = 0
        self.fetches = 0
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers["Content-Length"])
                body = json.loads(self.rfile.read(n))
                outer.posts += 1
                code, answer = outer.answer(self.path, body)
                data = json.dumps(answer).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = "http://127.0.0.1:%d" % self.srv.server_address[1]
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, path, body):
        if self.mode == "http500":
            return 500, {"error": "down"}
        if path == P.call_path(self.device):
            nonce = bytes.fromhex(body["nonce"])
            if self.mode == "nokey" or body["mac"] != call_hex(self.key, self.device, nonce):
                return (200, {"ack": "00" * 32}) if self.mode == "nokey" else (403, {"error": "not its key"})
            self.calls += 1
            return 200, {"ack": push_ack_hex(self.key, self.device, nonce, 0, 0)}
        if path == F.path(self.device):  # the fetch (protocol/fetch.py): no config, its time
            self.fetches += 1
            nonce = bytes.fromhex(body["nonce"])
            hm = HmacSha256(b"\x55" * 32 if self.mode == "nokey" else self.key)
            t = 1764400000
            return 200, {"config": None, "config_mac": None, "why": "the stand-in has no sessions", "time": t,
                         "time_mac": F.clock_mac(hm, device_z(self.device), nonce, t).hex()}
        assert path == P.path(self.device)
        results, held, sent = [], set(), []
        for e in body["records"]:
            payload = base64.b64decode(e["payload"])
            seq = e["seq"]
            sent.append(seq)
            if self.mode != "nokey" and not record_sig_ok(self.key, e["device"], seq, payload, e["sig"]):
                results.append({"seq": seq, "status_code": 403})
                continue
            if self.mode == "nokey":  # an access point that says "stored" to everything
                results.append({"seq": seq, "status_code": 201})
                held.add(seq)
                continue
            code = 200 if seq in self.stored else 201
            self.stored.setdefault(seq, payload)
            results.append({"seq": seq, "status_code": code})
            held.add(seq)
        run = P.held_run(sent, held)
        ack = None
        if run:
            nonce = bytes.fromhex(body["nonce"])
            if self.mode == "nokey":  # it cannot make the mac: it makes one up
                mac = push_ack_hex(b"\x55" * 32, self.device, nonce, run[0], run[1])
            else:
                mac = push_ack_hex(self.key, self.device, nonce, run[0], run[1])
            ack = {"first": run[0], "last": run[1], "mac": mac}
        return 200, {"results": results, "ack": ack, "time": 1764400000}

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()
