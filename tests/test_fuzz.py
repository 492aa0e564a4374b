"""Fuzzing in the suite (issue 17, item 7): property tests over the record reader, the websocket message
decoders and the JSON endpoints.  No input yields a traceback (only the reader's own error) or a 500."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from test_web import new_table, ws_path

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.records.jsontext import read_json
from piquet.records.record import RecordError, parse_record, replay
from piquet.web.app import create_app
from piquet.web.chouette import decode_chouette_message
from piquet.web.protocol import ProtocolError, decode_message, read_message

RECORD = (Path(__file__).parent / "data" / "records" / "case-xxii-partie.json").read_text(encoding="utf-8")
FIELDS = ["format", "rules", "agreements", "players", "deals", "seed", "deal_by", "dealer", "elder", "younger",
          "stock", "elder_discard", "younger_discard", "younger_looks_at_left", "elder_looks_at_left", "calls",
          "play", "irregularities", "point", "sequences", "sets", "kind", "facts", "law", "remedy", "took_in",
          "after", "offender", "type", "version", "action", "cards", "runs", "look", "card", "deal", "by", "A", "B"]
WORDS = ["piquet-record/1", "rubicon", "au-cent", "four-deal", "small-cards", "fours", "club", "A", "B", "elder",
         "younger", "QS", "10H", "7D", "AC", "took-more", "wrong-count", "waive", "Law 35", "action", "ping",
         "discard", "look", "point", "sequences", "sets", "play", "deal", "deal_by", "suggest", "leave", "end",
         "next_partie", "x\ud800", "\x1b[2J", ""]

# Awkward text: any characters, lone surrogates included (``st.text`` draws them).
TEXT = st.one_of(st.sampled_from(WORDS), st.text(max_size=12))
#: Stand-ins for integers of 4300 and 4301 digits (hypothesis cannot print those): ``dumped`` writes them.
HUGE = {"\x00digits-4300": "9" * 4300, "\x00digits-4301": "-" + "9" * 4301}
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.integers(), st.floats(allow_nan=False),
                   TEXT, st.sampled_from(sorted(HUGE)))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.one_of(st.sampled_from(FIELDS), TEXT), inner, max_size=5)),
    max_leaves=30)


def dumped(value: Any) -> str:
    """``value`` as JSON text as a hostile client might write it: lone surrogates escaped, the stand-ins of
    ``HUGE`` written as their integers."""
    text = json.dumps(value)
    for stand_in, digits in HUGE.items():
        text = text.replace(json.dumps(stand_in), digits)
    return text


def nested(depth: int, inner: str = "[]") -> str:
    return "[" * depth + inner + "]" * depth


# Texts that are JSON shaped like a record or a message, or nearly: cut, spliced, nested deep.
@st.composite
def json_texts(draw: st.DrawFn) -> str:
    how = draw(st.sampled_from(["value", "cut", "deep", "splice", "raw"]))
    if how == "raw":
        return draw(st.text(max_size=60))
    text = dumped(draw(VALUE))
    if how == "cut":
        return text[:draw(st.integers(0, len(text)))]
    if how == "deep":
        return '{"deals": ' + nested(draw(st.integers(90, 3000)), text) + "}"
    if how == "splice":
        at = draw(st.integers(0, len(RECORD)))
        return RECORD[:at] + text + RECORD[at + draw(st.integers(0, 40)):]
    return text


def mutated_record(draw: st.DrawFn) -> dict[str, Any]:
    """The record of case XXII with one value somewhere in it replaced by anything."""
    doc: dict[str, Any] = json.loads(RECORD)
    spots: list[tuple[Any, Any]] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                spots.append((v, k))
                walk(x)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                spots.append((v, i))
                walk(x)

    walk(doc)
    for _ in range(draw(st.integers(1, 3))):
        where, key = draw(st.sampled_from(spots))
        where[key] = draw(VALUE)
    return doc


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- the record reader


@FUZZ
@given(json_texts())
def test_the_record_reader_raises_only_its_own_error(text: str) -> None:
    try:
        replay(parse_record(text))
    except RecordError as e:
        assert str(e).encode("utf-8")  # printable: no lone surrogate in a message
        assert len(str(e)) < 2000


@FUZZ
@given(st.data())
def test_a_record_changed_anywhere_replays_or_says_why(data: st.DataObject) -> None:
    text = dumped(mutated_record(data.draw))
    try:
        partie = replay(parse_record(text))
    except RecordError as e:
        assert str(e).encode("utf-8") and len(str(e)) < 2000
    else:
        assert all(d.events is not None for d in partie.deals)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_the_strict_reader_raises_only_a_json_error(text: str) -> None:
    try:
        value = read_json(text)
    except json.JSONDecodeError:
        return
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # whatever it reads can be written out again


# ---------------------------------------------------------------- the websocket decoders


@FUZZ
@given(st.one_of(json_texts(), st.builds(lambda v, a: dumped({"type": "action", "version": v, "action": a}),
                                         st.one_of(st.integers(), st.sampled_from(sorted(HUGE)), TEXT), VALUE)))
def test_the_message_decoders_raise_only_a_protocol_error(text: str) -> None:
    for decode in (decode_message, decode_chouette_message):
        try:
            decode(read_message(text))
        except ProtocolError as e:
            assert str(e).encode("utf-8") and len(str(e)) < 400


# ---------------------------------------------------------------- the server: no 500


ENDPOINTS = ["/api/tables", "/api/chouettes", "/api/mark", "/api/settle"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ENDPOINTS), st.one_of(json_texts(), st.builds(dumped, st.dictionaries(
    st.sampled_from(["name", "level", "rules", "seed", "opponent", "action", "record", "parties", "stake",
                     "custom", "agreements", "players"]), VALUE, max_size=4))))
def test_no_json_body_gets_a_500(client: TestClient, endpoint: str, text: str) -> None:
    assume(len(text) < 200_000)
    r = client.post(endpoint, content=text.encode("utf-8", "surrogatepass"),
                    headers={"Content-Type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text[:300])


def test_the_hostile_bodies_of_the_issue_get_a_4xx_with_a_message(client: TestClient) -> None:
    bodies = {"deep": nested(100_000).encode(), "digits": b'{"seed": ' + b"9" * 4301 + b"}",
              "surrogate": b'{"name": "Ann\\ud800"}', "not utf-8": b'{"name": "\xff"}'}
    for endpoint in ENDPOINTS:
        for what, body in bodies.items():
            r = client.post(endpoint, content=body, headers={"Content-Type": "application/json"})
            assert 400 <= r.status_code < 500, (endpoint, what, r.status_code, r.text[:300])
            assert r.json().get("error"), (endpoint, what)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(json_texts(), st.just(dumped({"type": "action", "version": "\x00digits-4301"}))),
                min_size=1, max_size=5))
def test_no_websocket_message_breaks_the_connection(client: TestClient, texts: list[str]) -> None:
    table = new_table(client, opponent="computer", seed=3)
    with client.websocket_connect(ws_path(table)) as ws:
        assert ws.receive_json()["type"] == "state"
        for text in texts:
            if len(text) > 60_000:
                continue
            ws.send_text(text)
            ws.send_text('{"type": "ping"}')
            answers = []
            while not answers or answers[-1].get("type") != "pong":
                answers.append(ws.receive_json())
            assert all(a["type"] in ("error", "state", "pong") for a in answers)
            assert all(a["code"] in ("malformed", "stale", "illegal", "turn") for a in answers if a["type"] == "error")


def test_the_websocket_says_why_it_refuses_a_4301_digit_version(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = new_table(client, opponent="computer", seed=3)
        with client.websocket_connect(ws_path(table)) as ws:
            assert ws.receive_json()["type"] == "state"
            for text, says in ((dumped({"type": "action", "version": "\x00digits-4301"}), "4300 digits"),
                               (nested(30_000), "nested more than 100 deep"),  # under 64 KiB
                               ('{"type": "\\ud800"}', "lone surrogate")):
                ws.send_text(text)
                answer = ws.receive_json()
                assert answer["type"] == "error" and answer["code"] == "malformed" and says in answer["message"]
