"""URLs: the JSON API under /api/ (its OpenAPI document at /openapi.json, docs at /api/docs),
the admin, and the pages."""
from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path

from host_tools.server.api import urls as _routes  # noqa: F401  (registers the routers)
from host_tools.server.api.core import api


def openapi(request):
    return JsonResponse(api.get_openapi_schema(path_prefix="/api/"), json_dumps_params={"ensure_ascii": False})


urlpatterns = [
    path("api/", api.urls),
    path("openapi.json", openapi),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("host_tools.server.web.urls")),
]
