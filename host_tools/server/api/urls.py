from . import accounts, boxes, push, records, referee, results, survival, tables, timing, tournaments
from .core import api

api.add_router("/", records.router)
api.add_router("/", push.router)
api.add_router("/", accounts.router)
api.add_router("/", tournaments.router)
api.add_router("/", results.router)
api.add_router("/", referee.router)
api.add_router("/", boxes.router)
api.add_router("/", survival.router)
api.add_router("/", timing.router)
api.add_router("/", tables.router)
