"""Each box's binding history (``Binding``), the records the door did not place at their table
(``Held``) and the referees' claims of sessions keyed in at a box (``Claim``).

What is stored already: every box bound now gets its binding as the first row of its history,
since its registration (the history before is unknown). Records stored before, of a tournament
their box is not bound to now (or of a box bound to none), are held: that is the binding check
this history replaces, made once for every session rather than for the latest one only. Records
of the tournament a box is bound to keep counting whatever their table (boxes move from table to
table between sessions, and which table when was not kept).
"""
import django.db.models.deletion
from django.db import migrations, models

BEFORE = "stored before the binding history began"


def history_from_the_bindings_of_now(apps, schema_editor):
    Device = apps.get_model("boxes", "Device")
    Binding = apps.get_model("boxes", "Binding")
    Record = apps.get_model("boxes", "Record")
    Held = apps.get_model("boxes", "Held")
    Tournament = apps.get_model("tournaments", "Tournament")
    bound = {}
    rows = []
    for d in Device.objects.filter(tournament__isnull=False).values("id", "tournament_id", "table", "created_at"):
        bound[d["id"]] = d["tournament_id"]
        rows.append(Binding(device_id=d["id"], tournament=d["tournament_id"], table=d["table"], since=d["created_at"], by="(migration)"))
    Binding.objects.bulk_create(rows, batch_size=500)
    known = set(Tournament.objects.values_list("id", flat=True))
    held = []
    for rid, dev, tid in Record.objects.exclude(kind="correction").values_list("id", "device_id", "tournament").iterator(chunk_size=2000):
        now = bound.get(dev)
        if tid == now:
            continue
        foreign = tid not in known
        where = ("bound to tournament %s" % now) if now else "bound to no tournament"
        if foreign:
            reason = ("%s; it names tournament %s, which this server does not have (its box is %s): a referee claims it for a session "
                      "and table" % (BEFORE, tid, where))
        else:
            reason = "%s; box %s was not bound to tournament %s then (it is %s now)" % (BEFORE, dev, tid, where)
        held.append(Held(record_id=rid, tournament=now if foreign else tid, unknown_tournament=foreign, reason=reason[:400]))
        if len(held) >= 2000:
            Held.objects.bulk_create(held)
            held = []
    Held.objects.bulk_create(held)


class Migration(migrations.Migration):
    dependencies = [("boxes", "0003_correction_rescored_hand"), ("tournaments", "0002_penalty_game_session_start")]

    operations = [
        migrations.CreateModel(
            name="Claim",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tournament", models.CharField(db_index=True, max_length=64)),
                ("device", models.CharField(max_length=64)),
                ("session", models.BigIntegerField()),
                ("table", models.BigIntegerField()),
                ("named", models.JSONField()),
                ("players", models.JSONField(default=dict)),
                ("referee", models.CharField(max_length=150)),
                ("reason", models.CharField(blank=True, default="", max_length=1000)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={"ordering": ["id"]},
        ),
        migrations.CreateModel(
            name="Held",
            fields=[
                ("record", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, primary_key=True, related_name="held", serialize=False,
                                                to="boxes.record")),
                ("tournament", models.CharField(db_index=True, max_length=64, null=True)),
                ("unknown_tournament", models.BooleanField(default=False)),
                ("reason", models.CharField(max_length=400)),
                ("claim", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="records",
                                            to="boxes.claim")),
            ],
        ),
        migrations.CreateModel(
            name="Binding",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tournament", models.CharField(max_length=64)),
                ("table", models.PositiveIntegerField(blank=True, null=True)),
                ("since", models.DateTimeField()),
                ("until", models.DateTimeField(blank=True, null=True)),
                ("by", models.CharField(max_length=150)),
                ("device", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="bindings", to="boxes.device")),
            ],
            options={"ordering": ["id"], "indexes": [models.Index(fields=["device", "since"], name="binding_by_device")]},
        ),
        migrations.RunPython(history_from_the_bindings_of_now, migrations.RunPython.noop),
    ]
