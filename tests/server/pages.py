"""A browser's session over the test Client: cookies kept, the login form posted with its CSRF
token, pages fetched as that account (what Playwright does, without a browser)."""
from __future__ import annotations

import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from .conftest import PASSWORD
from .helpers import Client


class PageSession:
    def __init__(self, url: str, source: str | None = None, headers: dict | None = None):
        self.client = Client(url, source=source, headers=headers)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        raw = None
        if form is not None:
            raw = urlencode(form).encode()
            h["Content-Type"] = "application/x-www-form-urlencoded"
            h.setdefault("Referer", self.client.base + path)
        st, hdrs, body = self.client.request(method, path, raw=raw, headers=h)
        for line in self.client.last_set_cookies:
            c = SimpleCookie()
            c.load(line)
            for k, m in c.items():
                if m.value:
                    self.cookies[k] = m.value
                else:
                    self.cookies.pop(k, None)
        return st, hdrs, body

    def get(self, path: str):
        return self.request("GET", path)

    def csrf(self, path: str) -> str:
        st, _, body = self.get(path)
        m = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert m, (path, st, body[:300])
        return m.group(1).decode()

    def post_form(self, path: str, form: dict, token_from: str | None = None):
        form = dict(form, csrfmiddlewaretoken=self.csrf(token_from or path))
        return self.request("POST", path, form)

    def login(self, username: str, password: str = PASSWORD) -> int:
        st, hdrs, _ = self.post_form("/login/", {"username": username, "password": password})
        return st
