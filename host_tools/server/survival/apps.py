from django.apps import AppConfig


class SurvivalConfig(AppConfig):
    name = "host_tools.server.survival"
    label = "survival"
    verbose_name = "Survival event"
