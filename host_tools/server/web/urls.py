from django.urls import path

from .views import auth

urlpatterns = [
    path("login/", auth.Login.as_view(), name="login"),
    path("logout/", auth.Logout.as_view(), name="logout"),
]
