"""The organizer's form for the tournament's boxes (issue 18.6): the language they show and the
referee PIN their menu asks for. The PIN is write-only: the field never shows it back (the page
says only whether the tournament has its own PIN or the factory one). Field checks here; the
action (``boxes.box_settings.update``) checks them again, as it does for the API."""
from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from protocol import config as pconfig

LANG_NAMES = {"cn": "中文", "en": "English"}   # each in its own language, as a language menu shows it


class BoxSettingsForm(forms.Form):
    lang = forms.ChoiceField(label=_("Language of the boxes"), choices=[(code, LANG_NAMES.get(code, code)) for code in pconfig.LANGS])
    pin = forms.CharField(
        label=_("New referee PIN (empty: keep the PIN)"), required=False, max_length=pconfig.PIN_DIGITS[1],
        validators=[RegexValidator(r"^[0-9]{%d,%d}$" % pconfig.PIN_DIGITS, _("4 to 8 digits"))],
        # never rendered back, not even after a refused submit; no browser autofill of a login password
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password", "inputmode": "numeric"}))
    factory_pin = forms.BooleanField(label=_("Back to the factory PIN"), required=False)

    def clean(self):
        d = super().clean()
        if d.get("pin") and d.get("factory_pin"):
            raise forms.ValidationError(_("Give a new PIN or go back to the factory PIN, not both."))
        return d
