"""URLs: the JSON API under /api/ (its OpenAPI document at /openapi.json, docs at /api/docs),
the admin, and the pages."""
from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from django.views.static import serve

from host_tools.server.api import urls as _routes  # noqa: F401  (registers the routers)
from host_tools.server.api.core import api
from host_tools.server.settings import PACKAGE

STATIC_DIR = PACKAGE / "web" / "static"


def openapi(request):
    return JsonResponse(api.get_openapi_schema(path_prefix="/api/"), json_dumps_params={"ensure_ascii": False})


def static(request, name):
    """The pages' stylesheet and script (two small files shipped with the package: no static-file
    server to set up; the browser caches them for an hour)."""
    response = serve(request, name, document_root=STATIC_DIR)
    response["Cache-Control"] = "public, max-age=3600"
    return response


urlpatterns = [
    path("static/<str:name>", static),
    path("api/", api.urls),
    path("openapi.json", openapi),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("host_tools.server.web.urls")),
]
