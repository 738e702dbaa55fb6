# The upload envelope: one signed journal record on its way to the tournament server. The sync
# tool builds it (host_tools/sync/run.py) and keeps it in its --offline and quarantine files
# (host_tools/sync/store.py); the server reads it (host_tools/server/boxes/contract.py) and its
# API schema publishes it (/openapi.json). Both ends import this module: its header is the
# specification.
#
#   POST /api/records          {"device": id, "seq": n, "payload": base64, "sig": hex}
#   POST /api/records:batch    a JSON list of at most BATCH_MAX of them
#
#   device   the box's id (1-64 characters)
#   seq      the record's journal sequence number, SEQ_MIN..SEQ_MAX
#   payload  standard padded base64 of the journal payload exactly as the box wrote it:
#            protocol/record.py's PAYLOAD byte, then its compact JSON; at most PAYLOAD_MAX bytes
#   sig      the record's signature as 64 hex digits (either case): HMAC-SHA256(device key,
#            device id + NUL + seq (4 bytes big-endian) + payload), protocol/sign.py
#
# These four keys and no others (the sync tool sends them in this order). Pure Python (binascii)
# for MicroPython and CPython, as the rest of protocol/.
FIELDS = ("device", "seq", "payload", "sig")
SEQ_MIN = 1
SEQ_MAX = 0xFFFFFFFF
PAYLOAD_MAX = 64 * 1024       # bytes of payload, decoded
PAYLOAD_TEXT_MAX = 90000      # characters of the base64 text the API's schema admits
SIG_PATTERN = r"^[0-9a-fA-F]{64}$"
BATCH_MAX = 200               # envelopes in one POST /api/records:batch

# What /openapi.json says of the two encoded fields (the server's schema publishes these words)
PAYLOAD_DOC = "base64 of 0x01 + minified UTF-8 JSON of a session, hand, correction or session_end record"
SIG_DOC = "hex HMAC-SHA256(device key, device + NUL + seq (4 bytes big-endian) + payload)"


def make(device, seq, payload, sig):
    """The envelope of record seq of device: its journal payload (bytes) and signature (hex)."""
    from binascii import b2a_base64
    return {"device": device, "seq": seq, "payload": b2a_base64(bytes(payload), newline=False).decode(), "sig": sig}


def signed(key, device, seq, payload):
    """The envelope of a payload signed here with the device key (what the box would send)."""
    from protocol.sign import record_sig_hex
    return make(device, seq, payload, record_sig_hex(key, device, seq, payload))


def payload_text_ok(text):
    """False when the base64 text is longer than any payload of PAYLOAD_MAX bytes encodes to
    (checked before decoding anything)."""
    return len(text) <= PAYLOAD_MAX * 4 // 3 + 4


def decode_payload(text):
    """The payload bytes of an envelope's base64 text. Raises ValueError for anything but the
    standard alphabet with its padding (no whitespace, no URL-safe letters) or a non-string."""
    if not isinstance(text, str):
        raise ValueError("payload is not a string")
    try:
        from base64 import b64decode  # CPython: validate=True refuses what is not base64
    except ImportError:  # MicroPython: binascii refuses what it cannot decode
        from binascii import a2b_base64
        return a2b_base64(text)
    return b64decode(text.encode("ascii"), validate=True)
