"""The sync tool against a hostile box: whatever a box sends (malformed replies, lies, hostile
names and text), the tool ends with a clear error and exit status, never a traceback; it writes
nothing outside the folders it was given and prints no control character or escape sequence.
The box here is a pyserial stand-in that answers each request frame with what a script (or
hypothesis) says."""
import argparse
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from host_tools import sync
from host_tools.sync import cli, run
from host_tools.sync.text import clean
from protocol import codec as C
from protocol import frames as F
from protocol import sign as S

from .helpers import ScriptedSerial, key_for

KEY = key_for("box-1")


def good_hello(**kw):
    info = {"proto": F.PROTO, "device": "box-1", "fw": "0.2.0", "board": "sim", "first": 1, "last": 3,
            "acked": 0, "unsynced": 3, "keyed": True, "key_error": None, "time": 1700000000, "max_frame": F.MAX_FRAME,
            "session": False, "corrupt": None, "aside": [], "rx_bad": 0, "rx_oversized": 0, "resent": 0, "denied": 0}
    info.update(kw)
    return info


def reply(typ, seq, data, status=0):
    return C.encode_frame(typ | F.REPLY, seq, bytes([status]) + data)


class HostileBox(ScriptedSerial):
    """answers: request name -> fn(seq, payload) -> wire bytes (any bytes at all), or the data
    of an OK reply; every other request as a well-behaved box with three signed records does."""

    def __init__(self, **answers):
        super().__init__(self.answer)
        self.answers = answers
        self.timeout = 0.01
        self.requests = []
        self.records = [b"\x01{\"kind\": \"hand\", \"n\": %d}" % i for i in (1, 2, 3)]

    def answer(self, typ, seq, payload):
        name = C.TYPE_NAMES[typ]
        self.requests.append(name)
        a = self.answers.get(name)
        if a is None:
            return self.default(typ, seq, payload)
        return a(seq, payload) if callable(a) else reply(typ, seq, a)

    def default(self, typ, seq, payload):
        if typ == F.T_HELLO:
            return reply(typ, seq, json.dumps(good_hello()).encode())
        if typ == F.T_RECORDS:
            start, want = int.from_bytes(payload[:4], "big"), payload[4]
            out = payload[:4]
            recs = [(s, self.records[s - 1]) for s in range(start, min(start + want, 4))]
            out += bytes([len(recs)])
            for s, p in recs:
                out += s.to_bytes(4, "big") + len(p).to_bytes(2, "big") + S.record_sig(KEY, "box-1", s, p) + p
            return reply(typ, seq, out)
        if typ == F.T_CHALLENGE:
            return reply(typ, seq, bytes(16))
        if typ == F.T_ACK:
            return reply(typ, seq, payload[:4] + payload[:4])
        if typ == F.T_CLOCK:
            return reply(typ, seq, b'{"epoch": 0, "time": 1800000000}')
        return reply(typ, seq, b"")


def hello_with(**kw):
    return json.dumps(good_hello(**kw)).encode()


FAST = dict(timeout=0.01, retries=1, wake=0, http_timeout=1, http_pause=0)


def run_sync(box, tmp_path, **kw):
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"box-1": KEY.hex()}))
    kw.setdefault("offline", str(tmp_path / "off"))
    return sync.sync("hostile", ser=box, key_file=str(keys), **FAST, **kw)


# -------------------------------------------------------------------- the cases of the issue

def test_a_well_behaved_box_syncs(tmp_path):
    s = run_sync(HostileBox(), tmp_path)
    assert s.line() == "pulled 3, uploaded 3, already known 0, refused 0, set aside 0" and s.acked == 3


@pytest.mark.parametrize("answers,message", [
    ({"CLOCK": b"\xff\xfe not UTF-8"}, "CLOCK reply is not UTF-8"),
    ({"CLOCK": b'[1, 2]'}, "CLOCK reply is a JSON list, not an object"),
    ({"CLOCK": b'{"time": "soon"}'}, "CLOCK reply without the box's time"),
    ({"HELLO": b'[1, 2, 3]'}, "HELLO reply is a JSON list, not an object"),
    ({"HELLO": b"[" * 2040}, "HELLO reply is nested more than 8 deep"),  # the issue's: a RecursionError
    ({"HELLO": b"[" * 1000 + b"]" * 1000}, "HELLO reply is nested more than 8 deep"),
    ({"HELLO": b'{"a": ' * 250 + b"1" + b"}" * 250}, "nested more than 8 deep"),
    ({"HELLO": b"[" * 20000}, "oversized frames"),
    ({"HELLO": b"\xc3\x28"}, "HELLO reply is not UTF-8"),
    ({"HELLO": b"{nope"}, "HELLO reply is not JSON"),
    ({"HELLO": hello_with(device="..")}, "not a device id"),
    ({"HELLO": hello_with(device="../../etc")}, "not a device id"),
    ({"HELLO": hello_with(device="/tmp/x")}, "not a device id"),
    ({"HELLO": hello_with(device="")}, "not a device id"),
    ({"HELLO": hello_with(device="a" * 65)}, "not a device id"),
    ({"HELLO": hello_with(device=["box-1"])}, "not a device id"),
    ({"HELLO": hello_with(proto=1)}, "protocol 1"),
    ({"HELLO": hello_with(last="3")}, "bad last"),
    ({"HELLO": hello_with(last=True)}, "bad last"),
    ({"HELLO": hello_with(last=2 ** 40)}, "bad last"),
    ({"HELLO": hello_with(acked=-1)}, "bad acked"),
    ({"HELLO": hello_with(acked=5)}, "beyond its last record"),
    ({"HELLO": hello_with(first=3, acked=0)}, "has lost records 1..2"),
    ({"HELLO": hello_with(keyed="yes")}, "whether it has a key"),
    ({"HELLO": hello_with(time=1.5)}, "bad time"),
    ({"HELLO": hello_with(aside=[[0, "x"]])}, "bad set-aside entry"),
    ({"HELLO": hello_with(aside="all")}, "bad set-aside list"),
    ({"CHALLENGE": b"\x00" * 5}, "CHALLENGE reply of 5 bytes"),
    ({"ACK": lambda seq, p: reply(F.T_ACK, seq, p[:4] + b"\x00")}, "ACK reply of 5 bytes"),
    ({"ACK": b"\x00"}, "did not match the request"),
    ({"ACK": lambda seq, p: reply(F.T_ACK, seq, p[:4] + (1).to_bytes(4, "big"))}, "acknowledged only up to 1"),
    ({"RECORDS": lambda seq, p: reply(F.T_RECORDS, seq, p[:4] + b"\x05")}, "RECORDS reply cut short"),
    ({"RECORDS": lambda seq, p: reply(F.T_RECORDS, seq, p[:4] + b"\x00" + b"junk")}, "stray bytes"),
    ({"RECORDS": lambda seq, p: reply(F.T_RECORDS, seq, p[:4] + b"\x00")}, "sends none from 1"),
])
def test_malformed_replies_are_clear_errors(tmp_path, answers, message):
    box = HostileBox(**answers)
    with pytest.raises(sync.SyncError) as e:
        run_sync(box, tmp_path, set_clock=True)
    assert message in str(e.value)
    assert isinstance(e.value.summary, run.Summary)
    assert not (tmp_path / "off" / "..").resolve().joinpath("etc").exists()


def test_a_device_id_of_dotdot_writes_nothing_outside_the_offline_folder(tmp_path):
    top = tmp_path / "top"
    top.mkdir()
    off = top / "off"
    for dev in ("..", ".", "../x", "..\\x", "x/../..", "\x00"):
        with pytest.raises(sync.ProtocolError, match="not a device id"):
            run_sync(HostileBox(HELLO=hello_with(device=dev)), tmp_path, offline=str(off))
    assert sorted(os.listdir(top)) == [] and sorted(os.listdir(tmp_path)) == ["keys.json", "top"]
    # the offline store refuses such a name even if one got that far
    sink = sync.OfflineSink(str(off))
    with pytest.raises(sync.SyncError, match="refusing"):
        sink.put([{"device": "..", "seq": 1, "payload": "", "sig": ""}])
    assert not (top / "0000000001.json").exists()


def test_hostile_text_is_cleaned_before_it_reaches_the_terminal(tmp_path, capsys, monkeypatch):
    evil = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\u202eevil\r\x08"
    box = HostileBox(HELLO=hello_with(fw=evil, board=evil, corrupt=evil, aside=[[2, evil]], last=3),
                     CLOCK=lambda seq, p: reply(F.T_CLOCK, seq, evil.encode(), status=F.E_REFUSED))
    monkeypatch.setattr(run, "open_serial", lambda port: box)
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"box-1": KEY.hex()}))
    ns = cli_args(port="x", offline=str(tmp_path / "off"), key_file=str(keys))
    code = cli.main(ns)
    out, err = capsys.readouterr()
    assert code == 1 and "box refused CLOCK" in err
    for text in (out, err):
        assert not hidden(text.replace("\n", "")), repr(text)
    assert "\\x1b]0;pwned\\x07" in err and "\\u202eevil" in err


def hidden(text):
    """The characters a terminal would act on (or hide): what must never come from the box."""
    import unicodedata
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")]


def cli_args(**kw):
    ns = argparse.Namespace(port=None, server=None, offline=None, upload=None, key_file=None, quarantine=None, next_session=False,
                            provision=False, rekey=False, release=None, config=None, no_clock=False, no_batch=False,
                            timeout=0.01, retries=1, quiet=False)
    for k, v in kw.items():
        setattr(ns, k, v)
    return ns


def test_clean():
    assert clean("plain text, 中文 ok") == "plain text, 中文 ok"
    assert clean("a\x1b[31mb") == "a\\x1b[31mb"
    assert clean("\u200bzero\u2066width") == "\\u200bzero\\u2066width"
    assert clean("x" * 500, 10) == "x" * 10 + "…"
    assert clean(None) == "None" and clean(["\x07"]) == repr(["\x07"])


# -------------------------------------------------------------------- fuzz

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
TOP = st.lists(JSON, max_size=4) | st.dictionaries(st.sampled_from(["time", "epoch", "ok", "x"]), JSON, max_size=3)
DATA = st.one_of(TOP.map(lambda v: json.dumps(v).encode()), JSON.map(lambda v: json.dumps(v).encode()),
                 st.binary(max_size=80), st.builds(lambda k: b"[" * k, st.integers(1, 2040)))


def answer_for(typ):
    """Strategies for what a hostile box answers to request type typ."""
    return st.one_of(
        DATA.map(lambda d: lambda seq, p: reply(typ, seq, d)),  # OK and junk
        DATA.map(lambda d: lambda seq, p: reply(typ, seq, bytes(p[:4]) + d)),  # the echo right, then junk
        st.tuples(st.integers(1, 255), DATA).map(lambda cd: lambda seq, p: reply(typ, seq, cd[1], status=cd[0])),
        DATA.map(lambda d: lambda seq, p: reply(typ, (seq + 1) & 0xFF, d)),  # another seq
        st.binary(max_size=80).map(lambda w: lambda seq, p: w),  # not even a frame
    )


REQS = ["HELLO", "CHALLENGE", "CLOCK", "RECORDS", "ACK", "BYE"]
TYPES = {n: t for t, n in C.TYPE_NAMES.items()}
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])


def survive(tmp_path, answers):
    """One run of the tool against the box: a summary or a clear SyncError, nothing else; and
    nothing written outside the folders it was given, no hidden character in its messages."""
    top = tmp_path / "fuzz"
    top.mkdir(exist_ok=True)
    before = set(os.listdir(tmp_path))
    box = HostileBox(**answers)
    try:
        s = run_sync(box, tmp_path, offline=str(top / "off"), quarantine=str(top / "q"))
        assert isinstance(s, run.Summary)
    except sync.SyncError as e:
        assert str(e) and not hidden(str(e)), repr(str(e))
    assert set(os.listdir(tmp_path)) <= before | {"fuzz", "keys.json"}
    for d in os.listdir(top):
        assert d in ("off", "q") and set(os.listdir(top / d)) <= {"box-1"}


@pytest.mark.parametrize("name", REQS)
@FUZZ
@given(data=st.data())
def test_fuzz_each_reply_of_a_hostile_box(tmp_path, name, data):
    survive(tmp_path, {name: data.draw(answer_for(TYPES[name]))})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(sorted(good_hello())), JSON | st.integers(0, 5), max_size=5),
       st.lists(st.sampled_from(sorted(good_hello())), max_size=3))
def test_fuzz_the_hello_of_a_hostile_box(tmp_path, fields, drop):
    info = good_hello(**fields)
    for k in drop:
        info.pop(k, None)
    survive(tmp_path, {"HELLO": json.dumps(info).encode()})


@pytest.mark.parametrize("cfg", [{"tournament": "T", "session": "one", "table": 1, "rules": "mcr",
                                  "players": ["1", "2", "3", "4"], "first_dealer": 0},
                                 {"tournament": "T", "session": 1, "table": [7], "rules": "mcr",
                                  "players": ["1", "2", "3", "4"], "first_dealer": 0},
                                 {"tournament": "T", "session": 1, "table": 7, "rules": "mcr",
                                  "players": ["1", "2", "3", "4"]}])
def test_the_tool_checks_a_session_config_before_sending_it(tmp_path, cfg):
    box = HostileBox()
    with pytest.raises(sync.SyncError, match="the session config is refused"):
        run_sync(box, tmp_path, config=cfg)
    assert "CONFIG" not in box.requests


def test_a_box_that_lost_its_nonce_gets_one_more_challenge(tmp_path):
    # the box restarted between CHALLENGE and the request: E_NONCE once, then it goes through
    tries = []

    def ack(seq, p):
        tries.append(p)
        if len(tries) == 1:
            return reply(F.T_ACK, seq, b"restarted", status=F.E_NONCE)
        return reply(F.T_ACK, seq, p[:4] + p[:4])

    box = HostileBox(ACK=ack)
    s = run_sync(box, tmp_path)
    assert s.acked == 3 and len(tries) == 2 and box.requests.count("CHALLENGE") >= 3  # CLOCK, ACK twice
    # a second E_NONCE in a row is an error, not a loop
    box = HostileBox(ACK=lambda seq, p: reply(F.T_ACK, seq, b"again", status=F.E_NONCE))
    with pytest.raises(sync.DeviceError, match="no fresh challenge"):
        run_sync(box, tmp_path)


def test_folders_that_cannot_be_written_are_clear_errors(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {"device": "box-1", "seq": 1, "payload": "", "sig": ""}
    with pytest.raises(sync.SyncError, match="cannot make the folder"):
        sync.Quarantine(str(blocker)).put(env, sync.Outcome("refused", 400, "no"), "server")
    with pytest.raises(sync.SyncError, match="cannot make the folder"):
        sync.OfflineSink(str(blocker)).put([env])
    with pytest.raises(sync.SyncError, match="cannot make the folder"):
        run_sync(HostileBox(), tmp_path, offline=str(blocker / "x"))


def test_a_key_file_that_cannot_be_written_stops_provisioning_before_the_box_gets_a_key(tmp_path):
    box = HostileBox(HELLO=hello_with(keyed=False, last=0, first=None))
    with pytest.raises(sync.SyncError, match="cannot write the key file"):
        sync.sync("x", ser=box, provision=True, key_file=str(tmp_path / "no" / "such" / "keys.json"), **FAST)
    assert "PROVISION" not in box.requests
