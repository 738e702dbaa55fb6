from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "host_tools.server.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
