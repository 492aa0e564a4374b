"""States as patches: a client that says ``"patches": true`` in its hello is sent its first state whole and each
later one as what changed since the one before it (``protocol.encode_state``); the page applies them
(``applyPatch`` in app.js, ``protocol.apply_patch`` here).  A patched view must be exactly the whole view, and say
nothing the whole view does not."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.test_web import (
    Message,
    check_log,
    make_table,
    new_table,
    random_action,
    receive,
    stored,
)

from piquet.web.protocol import Sent, apply_patch, encode_state, state_message, state_text

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402


def _round(obj: Any) -> Any:
    """What a client reads: the JSON of ``obj``, parsed."""
    return json.loads(json.dumps(obj))


def test_a_patch_turns_each_view_into_the_next() -> None:
    """Whole parties between two seats, every view of each seat patched on the one before it, as a server sends
    them (the shared parts as the texts kept for them) and as the plain VIEW says them."""
    whole = patched = 0
    for seed in range(6):
        table = make_table(seed, persons=seed % 2 == 0)
        rng = random.Random(seed)
        sent: dict[str, Sent | None] = {}
        held: dict[str, Any] = {}
        for s in "AB":
            text, sent[s] = encode_state(table.message(s, told=True))
            held[s] = json.loads(text)["view"]
            assert held[s] == _round(table.view(s))
        while table.status != "finished":
            seat = table.to_move()
            assert seat is not None
            table.apply(seat, _decoded(table.view(seat), rng), table.version)
            for s in "AB":
                before = sent[s]
                assert before is not None
                text, sent[s] = encode_state(table.message(s, told=True), before)
                patch = json.loads(text)
                assert patch["type"] == "patch" and patch["since"] == before.version
                assert patch["version"] == table.version and patch["seat"] == s
                new = _round(table.view(s))
                # Nothing in the patch that the new view does not hold.
                assert set(patch.get("set", {})) | set(patch.get("append", {})) <= set(new)
                for key, value in patch.get("set", {}).items():
                    assert value == new[key]
                held[s] = apply_patch(held[s], patch)
                assert held[s] == new
                assert json.loads(state_text(table.message(s, told=True)))["view"] == new
                whole += len(state_text(table.message(s)))
                patched += len(text)
    assert patched < whole / 4, (patched, whole)


def _decoded(view: dict[str, Any], rng: random.Random) -> Any:
    from piquet.web.protocol import decode_message
    msg = decode_message({"type": "action", "version": 0, "action": random_action(view, rng)})
    assert msg.action is not None
    return msg.action


_values = st.one_of(st.integers(-3, 3), st.text(max_size=3), st.lists(st.integers(0, 3), max_size=4))
_views = st.dictionaries(st.sampled_from(["a", "b", "c", "events", "lines"]), _values, max_size=5)


@settings(max_examples=300, deadline=None)
@given(_views, _views)
def test_any_two_views(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Whatever two views are, the patch of one on the other gives the other (members dropped, lists cut short or
    grown, a list become a number)."""
    _, sent = encode_state(state_message(1, "A", old))
    patch = json.loads(encode_state(state_message(2, "A", new), sent)[0])
    assert apply_patch(old, patch) == new
    assert set(patch) <= {"type", "version", "since", "seat", "set", "drop", "append"}
    if old == new:
        assert set(patch) == {"type", "version", "since", "seat"}


def test_a_growing_list_sends_only_its_new_items() -> None:
    old = {"events": [{"e": 1}, {"e": 2}], "lines": ["a"], "hand": ["AS"]}
    new = {"events": [{"e": 1}, {"e": 2}, {"e": 3}], "lines": ["b"], "hand": ["AS"]}
    _, sent = encode_state(state_message(4, "A", old))
    text, after = encode_state(state_message(5, "A", new), sent)
    assert json.loads(text) == {"type": "patch", "version": 5, "since": 4, "seat": "A", "set": {"lines": ["b"]},
                                "append": {"events": [{"e": 3}]}}
    assert after is not None and after.version == 5
    # Another seat's state is sent whole; a message with no view is sent whole and leaves nothing to patch on.
    _, other = encode_state(state_message(4, "B", old))
    assert json.loads(encode_state(state_message(5, "A", new), other)[0])["type"] == "state"
    assert encode_state({"type": "thinking"}, sent) == ('{"type":"thinking"}', None)


# ---------------------------------------------------------------- over the websocket


def _hello(t: dict[str, Any], key: str, patches: bool, name: str | None = None) -> dict[str, Any]:
    token = t[key].split("#token=", 1)[1]
    hello: dict[str, Any] = {"type": "hello", "token": token, "patches": patches}
    if name:
        hello["name"] = name
    return hello


def test_patches_over_the_websocket_equal_the_whole_states(client: TestClient, db: str) -> None:
    """Two persons; seat A has two windows, one taking patches, one whole states: after every action both hold the
    same view, and every state A's patched window holds passes the hidden-card check."""
    seed = 77
    t = new_table(client, opponent="person", name="Ann", seed=seed)
    tid = t["table"]
    rng = random.Random(seed)
    kinds: list[str] = []
    log: list[Message] = []  # seat A's states as its patched window holds them
    with client.websocket_connect(f"/ws/{tid}") as wa, client.websocket_connect(f"/ws/{tid}") as whole:
        wa.send_json(_hello(t, "url", True))
        whole.send_json(_hello(t, "url", False))
        first = receive(wa)
        assert first["type"] == "state"  # the first state on a socket is whole
        held = first
        receive(whole)
        with client.websocket_connect(f"/ws/{tid}") as wb:
            wb.send_json(_hello(t, "invite", False, "Bob"))
            last_b = receive(wb)

            def read_a() -> Message:
                nonlocal held
                msg = receive(wa)
                kinds.append(msg["type"])
                if msg["type"] == "patch":
                    assert msg["since"] == held["version"]
                    held = {"type": "state", "version": msg["version"], "seat": msg["seat"],
                            "view": apply_patch(held["view"], msg)}
                else:
                    held = msg
                log.append(held)
                other = receive(whole)
                assert other["type"] == "state" and other["version"] == held["version"]
                assert held["view"] == other["view"]
                return held

            last_a = read_a()  # Bob's arrival
            while last_a["view"]["status"] != "finished":
                mover = "A" if last_a["view"]["my_turn"] else "B"
                last = last_a if mover == "A" else last_b
                sock = wa if mover == "A" else wb
                sock.send_json({"type": "action", "version": last["version"],
                                "action": random_action(last["view"], rng)})
                last_a = read_a()
                last_b = receive(wb)
                assert last_b["type"] == "state" and last_b["version"] == last_a["version"]
    assert kinds.count("patch") > 100 and set(kinds) == {"patch"}
    record = stored(db, tid)[1]
    assert check_log("A", [first, *log], seed, record, "AB") == len(log) + 1
