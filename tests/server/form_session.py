"""A browser's session with the server's pages, without a browser: the login form, cookies and
the CSRF token, and form posts as the pages send them (for the attacks that go through a page's
form rather than the API)."""
from __future__ import annotations

import http.client
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit


class FormSession:
    def __init__(self, url: str, username: str, password: str):
        u = urlsplit(url)
        self.host, self.port = u.hostname, u.port
        self.cookies: dict = {}
        self.get("/login/")
        st, headers, _ = self.post("/login/", {"username": username, "password": password, "next": "/"})
        assert st == 302 and "sessionid" in self.cookies, (st, headers)

    def request(self, method: str, path: str, form: dict | None = None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(dict(form, csrfmiddlewaretoken=self.cookies.get("csrftoken", ""))).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            data = r.read()
            for line in r.msg.get_all("Set-Cookie") or ():
                c = SimpleCookie()
                c.load(line)
                for k, m in c.items():
                    self.cookies[k] = m.value
            return r.status, dict(r.getheaders()), data.decode("utf-8", "replace")
        finally:
            conn.close()

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, form: dict):
        return self.request("POST", path, form)


def errors_on(page: str) -> str:
    """The refusals a page shows (form errors and messages), as text."""
    return " ".join(re.sub(r"<[^>]+>", " ", m) for m in re.findall(r'<ul class="(?:errorlist[^"]*|messages)">(.*?)</ul>', page, re.S)).strip()
