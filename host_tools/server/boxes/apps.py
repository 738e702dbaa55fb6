from django.apps import AppConfig


class BoxesConfig(AppConfig):
    name = "host_tools.server.boxes"
    label = "boxes"
    verbose_name = "Boxes and records"
