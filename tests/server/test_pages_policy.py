"""Issue 19, item 10: every page is sent with a Content-Security-Policy that allows no inline
script, handler or style, and holds none (what the handlers did is web/static/pages.js, which a
real browser runs under that policy); every cookie the server sets says SameSite."""
from __future__ import annotations

import re

from .conftest import uid
from .pages import PageSession
from .test_standings import seat

PLAYERS = ["a", "b", "c", "d"]


def _policy(headers) -> dict:
    csp = headers.get("Content-Security-Policy")
    assert csp, "no Content-Security-Policy"
    return {d.split()[0]: d.split()[1:] for d in (x.strip() for x in csp.split(";")) if d}


def _no_inline(path: str, html: str) -> None:
    scripts = re.findall(r"<script\b([^>]*)>", html, re.I)
    assert all("src=" in attrs for attrs in scripts), (path, scripts)
    assert not re.search(r"<style\b", html, re.I), path
    handlers = re.findall(r"<[^>]+\s(on[a-z]+)\s*=", html, re.I)
    assert not handlers, (path, handlers)
    assert not re.search(r"<[^>]+\sstyle\s*=", html, re.I), path
    assert not re.search(r"""href\s*=\s*["']?\s*javascript:""", html, re.I), path


def test_pages_allow_no_inline_script(server):
    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS])
    st, h = server.ref.post("/api/tournaments/%s/hands" % tid, {"session": 1, "table": 1, "hand": 1, "seats": PLAYERS, "dealer": 0,
                                                               "prevalent_wind": "E", "events": [{"win": 1, "hand": "123m456m789m111s22s"}],
                                                               "reason": "no box"})
    assert st == 201, h
    org = PageSession(server.url)
    assert org.login("org") == 302
    table = "/t/%s/referee/tables/1/1/" % tid
    pages = ["/t/%s/tables/1/1" % tid, table + "enter", table + "reseat", table + "hands/1/correct", table + "hands/1/points", "/", "/login/", "/t/%s/" % tid, "/t/%s/standings" % tid, "/t/%s/board" % tid, "/t/%s/seating/1" % tid, "/t/%s/seating/1/sheets" % tid,
             "/t/%s/awards" % tid, "/t/%s/exports" % tid, "/t/%s/manage/" % tid, "/t/%s/manage/players" % tid, "/t/%s/manage/boxes" % tid,
             "/t/%s/manage/seating/1" % tid, "/t/%s/referee/" % tid, "/t/%s/referee/tables/1/1/enter" % tid, "/manage/new"]
    for path in pages:
        c = org if "manage" in path or "referee" in path or "tables" in path else PageSession(server.url)
        st, headers, body = c.get(path)
        assert st == 200, (path, st)
        p = _policy(headers)
        for directive in ("script-src", "style-src"):
            assert p.get(directive) == ["'self'"], (path, directive, p)
        assert p.get("object-src") == ["'none'"] and p.get("frame-ancestors") == ["'none'"], (path, p)
        _no_inline(path, body.decode())
    for name, ctype in (("site.css", "text/css"), ("pages.js", "javascript")):
        st, headers, body = PageSession(server.url).get("/static/" + name)
        assert st == 200 and ctype in headers.get("Content-Type", ""), (name, st, headers)
    assert PageSession(server.url).get("/static/..%2Fsettings.py")[0] == 404


def test_every_cookie_says_samesite(server):
    tid = server.tournament("mcr_000", players=PLAYERS)
    c = PageSession(server.url)
    lines = []
    c.get("/login/")
    lines += c.client.last_set_cookies  # csrftoken
    assert c.login("org") == 302
    lines += c.client.last_set_cookies  # sessionid, csrftoken rotated
    st, _, _ = c.post_form("/i18n/setlang/", {"language": "zh-hans", "next": "/"}, token_from="/")
    assert st == 302
    lines += c.client.last_set_cookies  # django_language
    st, _, _ = c.post_form("/t/%s/manage/players" % tid, {"action": "add", "add-id": uid("p"), "add-name": "New"})
    assert st in (200, 302)
    lines += c.client.last_set_cookies  # messages
    names = {line.split("=", 1)[0] for line in lines}
    assert {"csrftoken", "sessionid", "django_language", "messages"} <= names, names
    for line in lines:
        assert re.search(r";\s*SameSite=(Lax|Strict)", line, re.I), line


def test_a_browser_runs_the_pages_under_the_policy(server):
    """Debian's chromium: no CSP violation on the pages with behaviour, and the language switch
    (a select that submits its form, once an inline onchange) still switches."""
    from playwright.sync_api import sync_playwright

    from .browser import ARGS, chromium

    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS])
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        try:
            page = browser.new_page()
            violations = []
            page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
            page.goto(server.url + "/t/%s/seating/1/sheets" % tid)
            assert page.locator("button[data-print]").count() == 1
            page.goto(server.url + "/t/%s/standings" % tid)
            assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""  # the stylesheet loaded
            with page.expect_navigation():
                page.select_option("select[name=language]", "zh-hans")
            assert page.evaluate("document.documentElement.lang") == "zh-hans"
            assert not violations, violations
        finally:
            browser.close()
