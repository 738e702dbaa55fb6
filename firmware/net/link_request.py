# NET over the USB link (protocol/frames.py): the host sets the box's Wi-Fi name, password and
# server address, authenticated with the device key like CONFIG (a request that changes where
# the box sends its records must come from whoever holds the key). Empty args read them back,
# without the password. The new settings take effect at the next boot (the radio joins there).
import json

from protocol.frames import E_BAD_REQUEST, E_REFUSED, T_NET


def attach(link, root):
    def on_net(lk, req):
        from firmware.net import settings as S
        if not len(req):
            s = S.load(root)
            return lk.reply_json({} if s is None else {"ssid": s["ssid"], "server": s["server"]})
        try:
            s = json.loads(bytes(req).decode())
        except (ValueError, UnicodeError):
            return lk.error(E_BAD_REQUEST, "NET wants a JSON object")
        why = S.check(s)
        if why:
            return lk.error(E_REFUSED, why)
        S.save(root, s)
        lk.reply_json({"set": True})

    link.handle(T_NET, on_net, auth=True)
