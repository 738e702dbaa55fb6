"""The server as it faces the hall's network, between the socket and Django: the event-loop HTTP
server ``serve`` runs (``worker``: uvicorn under gunicorn, with deadlines for a request's
headers and body), the request-body cap (``body_cap``), per-address rate limits on anonymous
routes (``ratelimit``), and the client's address as the login throttle and the rate limits
count it (``client_ip``)."""
