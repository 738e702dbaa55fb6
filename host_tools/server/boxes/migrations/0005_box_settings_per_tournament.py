# The boxes' language and referee PIN per tournament (issue 18.6)

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('boxes', '0004_binding_history_held_claims'),
        ('tournaments', '0004_tournament_event_details_player_family_name'),
    ]

    operations = [
        migrations.CreateModel(
            name='BoxSettings',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='box_settings', serialize=False, to='tournaments.tournament')),
                ('lang', models.CharField(default='cn', max_length=2)),
                ('pin', models.CharField(blank=True, default='', max_length=8)),
            ],
        ),
    ]
