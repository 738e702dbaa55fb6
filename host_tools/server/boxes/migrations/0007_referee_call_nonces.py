# The referee calls the server took, by the box's nonce: a call replayed is refused (issue 20)

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('boxes', '0006_device_referee_called_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='CallNonce',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('nonce', models.CharField(max_length=32)),
                ('at', models.DateTimeField(auto_now_add=True)),
                ('device', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE, related_name='call_nonces', to='boxes.device')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('device', 'nonce'), name='call_nonce_once')],
            },
        ),
    ]
