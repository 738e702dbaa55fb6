from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "host_tools.server.web"
    label = "web"
    verbose_name = "Pages"
