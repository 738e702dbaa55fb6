"""The JSON API (django-ninja). The typed schemas in ``schemas`` validate every request body and
generate ``/openapi.json``; every refusal is a 4xx with ``{"error": ...}``, never a 500.
Routers: ``records`` (the device contract), ``tournaments`` (organizer), ``results`` (public
reading), ``referee`` (corrections, hands, penalties, play-offs, quarantine), ``boxes``,
``accounts``. Authentication: a bearer token (``POST /api/login``) or the browser session (with
its CSRF token)."""
