"""Request bodies are capped before anything stores them, on every route and for every user: a
body longer than ``MAX_BODY`` (a declared Content-Length, or the bytes of a chunked one as they
come) is answered 413 and the connection closed; what was read is held in memory only (Django
then keeps it there too: FILE_UPLOAD_MAX_MEMORY_SIZE is the same cap). Django's own ASGI handler
spools a body of any size to a temporary file before a view, the CSRF check included, sees it
(a 300 MB multipart POST to /login/ went to disk in full before its refusal)."""
from __future__ import annotations

import json

# the largest body any route takes: a batch of 200 records is ~200 KB, the CSV import of
# 10,000 players ~1 MB
MAX_BODY = 4 * 1024 * 1024


def declared_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() and len(value) < 19 else MAX_BODY + 1
    return None


class BodyCap:
    """ASGI middleware: reads the whole body (up to the cap) before the application runs."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = declared_length(scope)
        if length is not None and length > self.limit:
            return await self.too_large(send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self.too_large(send)
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body, given = b"".join(chunks), False
        if length is None:  # a chunked body, now whole: the WSGI application reads CONTENT_LENGTH
            scope = dict(scope, headers=[h for h in scope.get("headers", ()) if h[0] != b"transfer-encoding"] +
                         [(b"content-length", str(len(body)).encode())])

        async def replay():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the client going away

        return await self.app(scope, replay, send)

    async def too_large(self, send):
        payload = json.dumps({"error": "the request body is larger than %d bytes" % self.limit}).encode()
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})
