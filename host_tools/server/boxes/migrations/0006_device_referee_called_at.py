# The box's call of the referee (issue 20: one key on the box, over Wi-Fi)

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('boxes', '0005_box_settings_per_tournament'),
    ]

    operations = [
        migrations.AddField(
            model_name='device',
            name='referee_called_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
