"""The client's address, as the login throttle (django-axes) and the rate limits count it.

Without ``--tls`` the server faces the hall's network itself: the peer is the client, and an
X-Forwarded-For a client sends is ignored (anyone could name any address). With ``--tls`` it
sits behind the documented proxy (docs/deploy.md: nginx sets ``X-Forwarded-For $remote_addr``,
one address, overwriting what the client sent): when the peer is a trusted proxy
(``MT_TRUSTED_PROXIES``, default loopback) the client is that header's address, read with
django-ipware; from any other peer the peer itself. Counting the proxy's address instead made
ten failed logins from one client lock out everyone."""
from __future__ import annotations

from django.conf import settings
from ipware import get_client_ip


def client_ip(request) -> str:
    peer = request.META.get("REMOTE_ADDR") or ""
    if settings.TLS and peer in settings.TRUSTED_PROXIES:
        ip, _routable = get_client_ip(request, proxy_count=0, request_header_order=["HTTP_X_FORWARDED_FOR"])
        if ip:
            return ip
    return peer
