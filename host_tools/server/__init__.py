"""Tournament system server: uploads of signed device records, standings, pages.

Modules, one job each: ``app`` (HTTP server and router), ``db`` (sqlite3 / psycopg 3 layer),
``migrations`` (versioned schema), ``auth`` (accounts, passwords, tokens), ``records`` (the
device contract: envelope, signature, payload validation), ``store`` (domain storage and audit
log), ``standings`` (results from stored data through host_tools.tournament), ``api`` (JSON
endpoints), ``pages`` (HTML), ``openapi`` (/openapi.json). Start with ``python -m host_tools serve``.
"""
