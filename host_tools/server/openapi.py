"""The OpenAPI 3 document, generated from the route table (``app.Router``): every route that
dispatches a request is in it, with its summary, the role it needs, its body schema and its
response type. Served at /openapi.json."""
from __future__ import annotations

import re

from host_tools.server.records import KIND_FIELDS

ROLE_NOTE = {
    None: "Public.",
    "referee": "Needs a referee or organizer token (Authorization: Bearer).",
    "organizer": "Needs an organizer token (Authorization: Bearer).",
    "device": "Authenticated by the record's HMAC-SHA256 signature with the device key.",
}


def _path(pattern: str) -> tuple[str, list]:
    params = []

    def repl(m):
        name, typ = m.group(1), m.group(2) or "str"
        params.append({"name": name, "in": "path", "required": True, "schema": {"type": "integer" if typ == "int" else "string"}})
        return "{%s}" % name

    return re.sub(r"\{(\w+)(?::(\w+))?\}", repl, pattern), params


def document(router) -> dict:
    paths: dict = {}
    for r in router.routes:
        path, params = _path(r.pattern)
        op: dict = {
            "summary": r.summary,
            "description": ROLE_NOTE[r.role if r.role in ROLE_NOTE else None] + (" HTML page." if r.page else ""),
            "operationId": "%s_%s" % (r.method.lower(), re.sub(r"[^A-Za-z0-9]+", "_", path).strip("_") or "root"),
            "tags": ["pages" if r.page else ("records" if r.role == "device" else "api")],
            "responses": {},
        }
        if params:
            op["parameters"] = params
        if r.role in ("referee", "organizer") and not r.page:
            op["security"] = [{"bearer": []}]
            op["responses"]["401"] = {"description": "not logged in"}
            op["responses"]["403"] = {"description": "role not allowed"}
        if r.body is not None:
            schema = {k: v for k, v in r.body.items() if k != "x-form"}
            ctype = "application/x-www-form-urlencoded" if r.body.get("x-form") else "application/json"
            op["requestBody"] = {"required": True, "content": {ctype: {"schema": schema}}}
        ok = "201" if r.method == "POST" and not r.page else "200"
        if r.responses:
            for code, text in r.responses.items():
                op["responses"][code] = {"description": text}
        else:
            op["responses"][ok] = {"description": "success", "content": {r.content: {"schema": {"type": "string"} if r.content != "application/json" else {}}}}
            op["responses"]["400"] = {"description": "malformed request"}
            if "{" in path:
                op["responses"]["404"] = {"description": "not found"}
        paths.setdefault(path, {})[r.method.lower()] = op
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Mahjong tournament system",
            "version": "1",
            "description": "Uploads of signed table-device records, tournament administration, standings, pages. "
            "Record payload kinds and their fields: " + "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in KIND_FIELDS.items()),
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
