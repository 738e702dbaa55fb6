"""The Chinese of the box settings form on the Boxes page (issue 18.6: the language and the
referee PIN of a tournament's boxes), read by tools/server_messages.py."""
ZH = {
    "Box settings": "计分器设置", "Language of the boxes": "计分器语言",
    "New referee PIN (empty: keep the PIN)": "新的裁判密码（留空：不变）", "4 to 8 digits": "4 至 8 位数字",
    "Back to the factory PIN": "恢复出厂裁判密码",
    "Give a new PIN or go back to the factory PIN, not both.": "请填写新密码或恢复出厂密码，二者选一。",
    "Box settings saved: the boxes take them with their next config.": "计分器设置已保存：计分器在下次获取配置时采用。",
    "The boxes ask for the factory referee PIN (%(factory_pin_value)s).": "计分器使用出厂裁判密码（%(factory_pin_value)s）。",
    "The boxes ask for this tournament's own referee PIN (set; not shown).": "计分器使用本比赛自设的裁判密码（已设置，不显示）。",
    "A box takes the language and the PIN with its next config.": "计分器在下次获取配置时采用语言和密码。",
}
