"""Log in and out (django-axes throttles failures per address: settings.AXES_*)."""
from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _


def locked_out(request, credentials=None, *args, **kwargs):
    """What axes answers once an address is locked: 429, JSON for the API."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "too many failed logins: try again later"}, status=429)
    return HttpResponse(_("Too many failed logins: try again in 15 minutes."), status=429, content_type="text/plain; charset=utf-8")


class Login(auth_views.LoginView):
    template_name = "web/login.html"
    redirect_authenticated_user = True


class Logout(auth_views.LogoutView):
    next_page = "/"
