"""Tournament system server: uploads of signed box records, standings, pages. Django in uvicorn
workers under gunicorn's master; start it with ``python -m host_tools serve`` (``main``).

Django apps, each with its models, actions and migrations side by side:

    boxes/        the boxes at the tables: devices and keys, who may register, bind or move
                  one (``ownership``), its binding history and the session config (``actions``),
                  the device contract (``contract``, ``contract_v1``: envelope, signature,
                  payload, over protocol/), results that add up (``invariants``), uploads
                  (``ingest``, plain SQL in ``sql``) and where each record goes (``placement``),
                  the one builder of a hand's row (``hand_row``), the referees' corrections,
                  hands and rulings (``referee``), a hand re-scored from its tiles (``rescore``),
                  a table's box swapped (``swap``), sessions keyed in at a box claimed for a
                  table (``claims``), every record a box sent accounted for (``accounting``)
    tournaments/  tournaments, players, attendance, roles, seatings, penalties, play-offs, the
                  hall's clock and more time (``clock``), a table's end and re-seat
                  (``tables``), the audit log; ``actions.bump`` invalidates cached results
    results/      results from what is stored: snapshot, integrity (quarantine), compute,
                  cache, exports, progress (sessions complete) (its ``__init__`` lists them)
    survival/     the survival event while it runs
    api/          the JSON API (django-ninja): its schemas are the one source of /openapi.json
    web/          the organizer's, referees' and public pages (a table's page: ``views.tables``,
                  ``table_status``, the hand form ``hand_forms``); ``unknown_tournament``
                  (404 for an unknown id on every route); ``static/`` (the stylesheet and
                  script the Content-Security-Policy allows)
    edge/         what faces the hall's network before Django: the uvicorn worker's deadlines
                  (``worker``), the body cap (``body_cap``), the client's address behind the
                  documented proxy (``client_ip``), rate limits (``ratelimit``)

Modules: ``main`` (the ``serve`` command), ``settings`` (from the environment ``main`` sets),
``urls``, ``wsgi``, ``asgi`` (what the uvicorn workers run), ``dburl`` (``--db`` URLs), ``sqlite_backend`` (SQLite opened for durability),
``errors`` (domain errors the API and pages map), ``numeric`` (numbers checked as text).
The laptop's side (the sync tool and its HTTP client) is ``host_tools/sync``.
"""
