from django.urls import path

from .views import auth, boxes, manage, public, referee, seating, survival, tables

urlpatterns = [
    path("", public.index, name="index"),
    path("login/", auth.Login.as_view(), name="login"),
    path("logout/", auth.Logout.as_view(), name="logout"),
    path("manage/new", manage.new_tournament),
    path("t/<str:tid>/", public.home),
    path("t/<str:tid>/standings", public.standings),
    path("t/<str:tid>/board", public.board),
    path("t/<str:tid>/awards", public.awards),
    path("t/<str:tid>/exports", public.exports),
    path("t/<str:tid>/tables/<int:session>/<int:number>", tables.table),
    path("t/<str:tid>/players/<str:pid>", public.player),
    path("t/<str:tid>/seating/<int:session>", public.seating),
    path("t/<str:tid>/seating/<int:session>/sheets", public.sheets),
    path("t/<str:tid>/manage/", manage.settings),
    path("t/<str:tid>/manage/players", manage.players),
    path("t/<str:tid>/manage/players/<str:pid>", manage.player_edit),
    path("t/<str:tid>/manage/accounts", manage.accounts),
    path("t/<str:tid>/manage/audit", manage.audit_log),
    path("t/<str:tid>/manage/boxes", boxes.boxes_page),
    path("t/<str:tid>/manage/seating/", seating.overview),
    path("t/<str:tid>/manage/seating/<int:session>", seating.session_page),
    path("t/<str:tid>/referee/", referee.home),
    path("t/<str:tid>/survival", survival.projector),
    path("t/<str:tid>/referee/survival", survival.referee),
    path("t/<str:tid>/referee/tables/<int:session>/<int:table>/hands/<int:number>/correct", tables.correct),
    path("t/<str:tid>/referee/tables/<int:session>/<int:table>/hands/<int:number>/points", tables.correct_points),
    path("t/<str:tid>/referee/tables/<int:session>/<int:table>/enter", tables.enter),
    path("t/<str:tid>/referee/tables/<int:session>/<int:table>/reseat", tables.reseat),
]
