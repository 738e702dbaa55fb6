"""Hands carry their box (``Hand.device``), and one covering index replaces ``hand_by_table``:
the results sum a tournament's hands per (box, session, table, chairs) in SQL."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("boxes", "0001_initial")]

    operations = [
        migrations.AddField(model_name="hand", name="device", field=models.CharField(blank=True, max_length=64, null=True)),
        migrations.RunSQL(
            "UPDATE boxes_hand SET device = (SELECT r.device_id FROM boxes_record r WHERE r.id = boxes_hand.record_id) WHERE record_id IS NOT NULL",
            migrations.RunSQL.noop),
        migrations.RemoveIndex(model_name="hand", name="hand_by_table"),
        migrations.AddIndex(model_name="hand", index=models.Index(
            fields=["tournament", "session", "table", "device", "p0", "p1", "p2", "p3", "d0", "d1", "d2", "d3", "number", "time"],
            name="hand_by_table_seats")),
    ]
