"""HTTP: request/response objects, the router, and the threaded server (stdlib only).

Why the standard library: the server's work is small JSON bodies and SQL; ``ThreadingHTTPServer``
(a thread per connection, HTTP/1.1 keep-alive) carries 250 concurrent uploaders on loopback
without a dependency to pin, audit and keep in step with Python, and the router is 60 lines.
The listen backlog is raised from socketserver's 5 to 1024 so a burst of connections is queued,
not refused. A request body must come with Content-Length (no chunked uploads) and is capped.

Routes are registered with their OpenAPI metadata (summary, role, request body schema), so
``/openapi.json`` is generated from the same table that dispatches requests and cannot miss one.
"""
from __future__ import annotations

import json
import logging
import re
import socket
import sys
import threading
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("host_tools.server")

MAX_BODY = 16 * 1024 * 1024


class ApiError(Exception):
    def __init__(self, status: int, message: str, extra: Optional[dict] = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: list = field(default_factory=list)


def json_response(obj: Any, status: int = 200, headers: Optional[list] = None) -> Response:
    return Response(status, json.dumps(obj, ensure_ascii=False, default=str).encode(), "application/json; charset=utf-8", headers or [])


def text_response(text: str, status: int = 200, content_type: str = "text/plain; charset=utf-8", headers: Optional[list] = None) -> Response:
    return Response(status, text.encode(), content_type, headers or [])


def redirect(location: str, headers: Optional[list] = None) -> Response:
    return Response(303, b"", "text/plain", [("Location", location)] + (headers or []))


class Request:
    def __init__(self, app: "App", method: str, target: str, headers, body: bytes, client: str = ""):
        self.app = app
        self.method = method
        parts = urlsplit(target)
        self.path = parts.path
        self.query = parse_qs(parts.query, keep_blank_values=True)
        self.headers = headers
        self.body = body
        self.client = client
        self.params: dict = {}
        self._json: Any = None

    def header(self, name: str) -> str:
        return self.headers.get(name, "") or ""

    def json(self) -> Any:
        if self._json is None:
            if not self.body:
                raise ApiError(400, "a JSON body is needed")
            try:
                self._json = json.loads(self.body.decode("utf-8"), parse_constant=_bad_constant)
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise ApiError(400, "the body is not valid JSON") from None
        return self._json

    def form(self) -> dict:
        try:
            q = parse_qs(self.body.decode("utf-8"), keep_blank_values=True, max_num_fields=100)
        except (ValueError, UnicodeDecodeError):
            raise ApiError(400, "bad form data") from None
        return {k: v[0] for k, v in q.items()}

    def arg(self, name: str, default: str = "") -> str:
        v = self.query.get(name)
        return v[0] if v else default

    def cookie(self, name: str) -> Optional[str]:
        raw = self.header("Cookie")
        if not raw:
            return None
        c = SimpleCookie()
        try:
            c.load(raw)
        except CookieError:
            return None
        m = c.get(name)
        return m.value if m else None

    def bearer(self) -> Optional[str]:
        h = self.header("Authorization")
        if h.startswith("Bearer "):
            return h[7:].strip()
        return None


def _bad_constant(name):
    raise ValueError(name)


@dataclass
class Route:
    method: str
    pattern: str
    handler: Callable
    summary: str
    role: Optional[str] = None  # None: public; "referee" / "organizer"; "device": signed records
    body: Optional[dict] = None  # OpenAPI schema of the request body
    responses: dict = field(default_factory=dict)
    content: str = "application/json"  # response type
    page: bool = False
    regex: Any = None
    converters: dict = field(default_factory=dict)


class Router:
    def __init__(self):
        self.routes: list[Route] = []

    def add(self, method: str, pattern: str, handler: Callable, summary: str, **kw) -> None:
        conv = {}

        def repl(m):
            name, typ = m.group(1), m.group(2) or "str"
            conv[name] = typ
            return "(?P<%s>%s)" % (name, r"[0-9]{1,9}" if typ == "int" else r"[^/]+")

        rx = re.compile("^" + re.sub(r"\{(\w+)(?::(\w+))?\}", repl, re.escape(pattern).replace(r"\{", "{").replace(r"\}", "}")) + "$")
        self.routes.append(Route(method, pattern, handler, summary, regex=rx, converters=conv, **kw))

    def match(self, method: str, path: str):
        allowed = []
        for r in self.routes:
            m = r.regex.match(path)
            if not m:
                continue
            if r.method != method and not (method == "HEAD" and r.method == "GET"):
                allowed.append(r.method)
                continue
            params = {}
            for k, v in m.groupdict().items():
                v = unquote(v, errors="strict")
                params[k] = int(v) if r.converters.get(k) == "int" else v
            return r, params
        return None, allowed


class App:
    def __init__(self, db, verbose: bool = False):
        self.db = db
        self.verbose = verbose
        self.router = Router()
        from host_tools.server import api, pages

        api.register(self.router)
        pages.register(self.router)

    def handle(self, req: Request) -> Response:
        try:
            try:
                route, params = self.router.match(req.method, req.path)
            except UnicodeDecodeError:
                raise ApiError(400, "bad URL encoding") from None
            if route is None:
                if params:
                    raise ApiError(405, "method not allowed", {"allow": sorted(set(params))})
                raise ApiError(404, "not found")
            req.params = params
            return route.handler(req)
        except ApiError as e:
            if req.path.startswith("/api/") or req.path == "/openapi.json":
                body = {"error": e.message, **e.extra}
                return json_response(body, e.status)
            from host_tools.server import pages

            return pages.error_page(e.status, e.message)
        except Exception:  # a bug: log it, answer 500 without details
            log.error("500 on %s %s\n%s", req.method, req.path, traceback.format_exc())
            return json_response({"error": "internal error"}, 500)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mahjong-table"
    sys_version = ""
    timeout = 60  # idle keep-alive connections close after a minute
    disable_nagle_algorithm = True  # headers and body go out at once: no 40 ms delayed-ACK stalls

    def _run(self):
        app: App = self.server.app
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            return self._send(json_response({"error": "chunked bodies are not accepted: send Content-Length"}, 411), close=True)
        body = b""
        if length is not None:
            try:
                n = int(length)
                if n < 0:
                    raise ValueError
            except ValueError:
                return self._send(json_response({"error": "bad Content-Length"}, 400), close=True)
            if n > MAX_BODY:
                return self._send(json_response({"error": "body too large (max %d bytes)" % MAX_BODY}, 413), close=True)
            body = self.rfile.read(n)
            if len(body) != n:
                self.close_connection = True
                return
        req = Request(app, self.command, self.path, self.headers, body, self.client_address[0])
        resp = app.handle(req)
        self._send(resp, head=self.command == "HEAD")

    def _send(self, resp: Response, close: bool = False, head: bool = False):
        self.send_response(resp.status, HTTPStatus(resp.status).phrase if resp.status in HTTPStatus._value2member_map_ else "")
        self.send_header("Content-Type", resp.content_type)
        self.send_header("Content-Length", str(len(resp.body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        if resp.content_type.startswith("text/html"):
            self.send_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'")
            self.send_header("Referrer-Policy", "same-origin")
        for k, v in resp.headers:
            self.send_header(k, v)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        if head:
            self.end_headers()
        else:  # one write for the header block and the body
            self._headers_buffer.append(b"\r\n")
            self._headers_buffer.append(resp.body)
            self.flush_headers()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _run

    def log_message(self, fmt, *args):
        if self.server.app.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    allow_reuse_address = True

    def __init__(self, addr, app: App):
        self.app = app
        super().__init__(addr, Handler)

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, socket.timeout, TimeoutError)):
            return
        super().handle_error(request, client_address)


def make_server(db, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False) -> Server:
    return Server((host, port), App(db, verbose))


def serve_in_thread(db, host: str = "127.0.0.1", port: int = 0) -> tuple[Server, threading.Thread]:
    """Start a server on a free port (port 0) in a daemon thread; for tests and the benchmark."""
    srv = make_server(db, host, port)
    th = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    th.start()
    return srv, th
