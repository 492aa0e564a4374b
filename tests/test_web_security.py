"""The server against hostile clients (issue 17, item 5; ``piquet.web.guard``).

* A seat's token is in its link's fragment (``/t/ID#token=T``), sent in the websocket's first message and in an
  ``Authorization`` header, and never written to the server's log (a real ``piquet serve``, its access log on).
* A seat's link can be revoked and another issued: the old token stops at once, its sockets are closed saying why.
* A seat holds at most ``Limits.seat_connections`` sockets; the next is refused saying why.
* Rates per client address (tables and chouettes made, websocket messages); bodies limited everywhere (a 50 MB
  table request refused with 413 before it is read).
* Every page carries a Content-Security-Policy, frame-ancestors 'none', Referrer-Policy no-referrer; a POST or a
  websocket from another site is refused.
* ``/api/tables`` and ``/api/chouettes`` list only the open invitations; the asker's own games come from the
  tokens he sends (``POST .../mine``).
* A NUL byte or an over-long name in a static path is a 404 with a message, not a 500.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from piquet.web.app import create_app
from piquet.web.guard import CSP, Buckets, Limits, RedactTokens, redact
from test_web import new_table

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

PAGES = ("/", "/rules", "/mark", "/settle")


def token_of(link: str) -> str:
    """The token of a seat's link, from its fragment."""
    m = re.fullmatch(r"/[tc]/[0-9a-fc]+#token=([\w-]+)", link)
    assert m, f"not a seat's link with its token in the fragment: {link}"
    return m.group(1)


def hello(ws: Any, token: str, **more: Any) -> dict[str, Any]:
    """Send the first message, the seat's token; the first answer."""
    ws.send_json({"type": "hello", "token": token, **more})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def refused(ws: Any) -> tuple[dict[str, Any], int]:
    """The error a refused socket is sent (after any state or thinking of the table still on its way), and the code
    it is then closed with."""
    err: dict[str, Any] = ws.receive_json()
    while err["type"] in ("state", "thinking"):
        err = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return err, closed.value.code


def new_chouette(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/chouettes", json={"players": [{"name": "Ann"}, {"name": "Bob"},
                                                        {"name": "Cy", "kind": "computer", "level": "random"}]})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


# ---------------------------------------------------------------- tokens out of addresses


def test_links_carry_the_token_in_their_fragment(client: TestClient) -> None:
    t = new_table(client, opponent="person", name="Ann")
    assert token_of(t["url"]) == t["token"] and token_of(t["invite"]) != t["token"]
    c = new_chouette(client)
    assert token_of(c["url"]) == c["token"]
    assert [s["url"] is not None and token_of(s["url"]) for s in c["seats"]][1]
    assert "?token=" not in json.dumps([t, c])


def test_the_socket_takes_its_token_in_the_first_message(client: TestClient) -> None:
    t = new_table(client, opponent="person", name="Ann", seed=3)
    with client.websocket_connect(f"/ws/{t['table']}") as wa:
        state = hello(wa, t["token"])
        assert state["type"] == "state" and state["seat"] == "A"
        with client.websocket_connect(f"/ws/{t['table']}") as wb:
            state = hello(wb, token_of(t["invite"]), name="Bob")
            assert state["seat"] == "B" and state["view"]["players"]["B"] == "Bob"
    c = new_chouette(client)
    with client.websocket_connect(f"/ws/c/{c['table']}") as ws:
        assert hello(ws, c["token"])["type"] == "state"


@pytest.mark.parametrize("first", [
    {"type": "hello", "token": "not-the-token"},
    {"type": "hello", "token": "x" * 5000},
    {"type": "hello"},
    {"type": "ping"},
    {"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}},
    "not json",
    "9" * 4301,  # a number of more than 4300 digits: refused, not a traceback
])
def test_a_first_message_that_is_no_seats_token(client: TestClient, first: Any) -> None:
    t = new_table(client, opponent="computer", level="random", seed=3)
    with client.websocket_connect(f"/ws/{t['table']}") as ws:
        if isinstance(first, str):
            ws.send_text(first)
        else:
            ws.send_json(first)
        err, code = refused(ws)
    assert err["type"] == "error" and err["code"] == "token" and code == 4403
    assert "cards" not in json.dumps(err)


def test_the_hint_takes_the_token_in_a_header(client: TestClient) -> None:
    t = new_table(client, opponent="computer", level="random", seed=5)
    url = f"/api/tables/{t['table']}/hint"
    assert client.get(f"{url}?token={t['token']}").status_code == 403
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(url, headers={"Authorization": f"Basic {t['token']}"}).status_code == 403
    assert client.get(url, headers={"Authorization": f"Bearer {t['token']}"}).status_code in (200, 409)


def test_redact() -> None:
    assert redact('- "GET /t/ab?token=s3cr3t-_x HTTP/1.1" 200') == '- "GET /t/ab?token=[redacted] HTTP/1.1" 200'
    assert redact("/ws/ab?name=Bob&token=s3cr3t&x=1") == "/ws/ab?name=Bob&token=[redacted]&x=1"
    assert redact("/ws/ab?TOKEN=s3cr3t") == "/ws/ab?TOKEN=[redacted]"
    assert redact("/t/ab%3Ftoken%3Ds3cr3t") == "/t/ab%3Ftoken%3D[redacted]"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/t/x?token=abc", "1.1", 200), None)
    assert RedactTokens().filter(record) and "abc" not in record.getMessage()


# ---------------------------------------------------------------- a real server and its log


class Served:
    """``piquet serve`` in a subprocess, its access log on, its output in a file."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "serve.log"
        command = [sys.executable, "-c", "import sys; from piquet.cli.main import main; sys.exit(main())", "serve",
                   "--port", str(self.port), "--db", str(folder / "t.db"), "--pace", "0", "--log-level", "info"]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def raw(self, request: bytes, then: bytes = b"") -> bytes:
        """Send the head of a request (and ``then``), and read what comes back before anything more is sent."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(request)
            if then:
                s.sendall(then)
            s.shutdown(socket.SHUT_WR) if not then else None
            chunks = []
            while True:
                try:
                    chunk = s.recv(65536)
                except (ConnectionResetError, TimeoutError):
                    break
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b'"error"' in b"".join(chunks):
                    break
            return b"".join(chunks)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    srv = Served(tmp_path_factory.mktemp("served"))
    try:
        yield srv
    finally:
        srv.stop()


def test_no_token_reaches_the_log(served: Served) -> None:
    """Old links and a script's socket put the token in the address: uvicorn's log shows it redacted."""
    websockets = pytest.importorskip("websockets.sync.client")
    t = served.post("/api/tables", {"opponent": "person", "name": "Ann", "seed": 4})
    token, invite = t["token"], token_of(t["invite"])
    with urllib.request.urlopen(f"{served.base}/t/{t['table']}?token={token}", timeout=10) as r:
        assert r.status == 200
    with urllib.request.urlopen(f"{served.base}/t/{t['table']}/replay?token={invite}", timeout=10) as r:
        assert r.status == 200
    ws_base = served.base.replace("http", "ws")
    with websockets.connect(f"{ws_base}/ws/{t['table']}?token={token}") as ws:  # a script, the old way
        assert json.loads(ws.recv())["type"] == "state"
    with websockets.connect(f"{ws_base}/ws/{t['table']}") as ws:  # the page's way
        ws.send(json.dumps({"type": "hello", "token": invite}))
        assert json.loads(ws.recv())["seat"] == "B"
    time.sleep(0.5)
    log = served.log.read_text()
    assert f"/t/{t['table']}?token=[redacted]" in log, log  # the access log is on, and the token is out of it
    assert "WebSocket /ws/" in log
    assert token not in log and invite not in log, log


def test_a_50_mb_request_is_refused_before_it_is_read(served: Served) -> None:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 52428800\r\n\r\n")
    answer = served.raw(head, b'{"name": "' + b"x" * 1000)  # 1 KB of the 50 MB sent: the answer comes all the same
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than 256 KiB" in answer
    # Sent in chunks, with no length: refused once it passes the limit.
    chunk = b"x" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(5)) + b"0\r\n\r\n"
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    answer = served.raw(head, body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_piquet_serve_limits_the_tables_of_an_address(served: Served) -> None:
    """``piquet serve`` sets the default rates (``guard.DEFAULT_LIMITS``): 20 tables at once from one address."""
    answers = []
    for _ in range(25):
        try:
            answers.append(served.post("/api/tables", {"opponent": "computer", "level": "random"})["table"])
        except urllib.error.HTTPError as e:
            assert e.code == 429 and "too many tables" in json.load(e)["error"] and int(e.headers["Retry-After"]) >= 1
            break
    else:
        raise AssertionError("25 tables made at once from one address")
    assert 15 <= len(answers) <= 20


def test_every_limit_of_a_body(client: TestClient) -> None:
    big = b'{"name": "' + b"x" * (300 * 1024) + b'"}'
    for path in ("/api/tables", "/api/chouettes", "/api/tables/mine", "/api/mark", "/api/settle"):
        r = client.post(path, content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and "256 KiB" in r.json()["error"], (path, r.text)
    r = client.post("/api/tables", content=b"{}", headers={"Content-Length": "12abc"})
    assert r.status_code == 413


# ---------------------------------------------------------------- a new link for a seat


def test_a_seats_link_revoked_and_another_issued(client: TestClient) -> None:
    t = new_table(client, opponent="person", name="Ann", seed=6)
    table, old = t["table"], t["token"]
    with client.websocket_connect(f"/ws/{table}") as wa, client.websocket_connect(f"/ws/{table}") as wb:
        assert hello(wa, old)["seat"] == "A"
        assert hello(wb, token_of(t["invite"]))["seat"] == "B"
        wa.receive_json()  # the state again, now that B has come
        r = client.post(f"/api/tables/{table}/new-link")
        assert r.status_code == 401 and "Authorization: Bearer" in r.json()["error"]
        r = client.post(f"/api/tables/{table}/new-link", headers={"Authorization": "Bearer nope"})
        assert r.status_code == 403
        r = client.post(f"/api/tables/{table}/new-link", headers={"Authorization": f"Bearer {old}"})
        assert r.status_code == 200 and "no-store" in r.headers["cache-control"]
        doc = r.json()
        new = doc["token"]
        assert doc["seat"] == "A" and doc["url"] == f"/t/{table}#token={new}" and new != old
        err, code = refused(wa)  # the socket opened with the old link: told, and closed
        assert err["code"] == "token" and "replaced by a new one" in err["message"] and code == 4401
        msg = wb.receive_json()  # the other seat plays on
        assert msg["type"] == "state" and msg["seat"] == "B"
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": old})
        assert refused(ws) == ({"type": "error", "code": "token",
                                "message": "that is not a seat's token at this table"}, 4403)
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, new)["seat"] == "A"
    assert client.post(f"/api/tables/{table}/new-link", headers={"Authorization": f"Bearer {old}"}).status_code == 403
    mine = client.post("/api/tables/mine", json={"seats": [{"table": table, "token": old}]}).json()
    assert mine == []
    mine = client.post("/api/tables/mine", json={"seats": [{"table": table, "token": new}]}).json()
    assert [g["seat"] for g in mine] == ["A"]
    assert client.get(f"/api/tables/{table}/hint", headers={"Authorization": f"Bearer {old}"}).status_code == 403


def test_a_chouette_seats_link_revoked(client: TestClient) -> None:
    c = new_chouette(client)
    bob = token_of(c["seats"][1]["url"])
    with client.websocket_connect(f"/ws/c/{c['table']}") as ws:
        assert hello(ws, bob)["type"] == "state"
        r = client.post(f"/api/chouettes/{c['table']}/new-link", headers={"Authorization": f"Bearer {bob}"})
        assert r.status_code == 200 and r.json()["seat"] == "Bob"
        assert r.json()["url"] == f"/c/{c['table']}#token={r.json()['token']}"
        err, code = refused(ws)
        assert code == 4401 and "replaced" in err["message"]
    with client.websocket_connect(f"/ws/c/{c['table']}") as ws:
        ws.send_json({"type": "hello", "token": bob})
        assert refused(ws)[1] == 4403
    with client.websocket_connect(f"/ws/c/{c['table']}") as ws:
        assert hello(ws, r.json()["token"])["type"] == "state"


def test_a_link_revoked_by_another_process(db: str) -> None:
    """Two server processes on one database: a link revoked through one closes its sockets on the other."""
    with TestClient(create_app(db, poll=0.05)) as one, TestClient(create_app(db, poll=0.05)) as two:
        t = new_table(one, opponent="person", name="Ann", seed=8)
        with two.websocket_connect(f"/ws/{t['table']}") as ws:
            assert hello(ws, t["token"])["seat"] == "A"
            r = one.post(f"/api/tables/{t['table']}/new-link", headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200
            err, code = refused(ws)
            assert code == 4401 and err["code"] == "token"
        with two.websocket_connect(f"/ws/{t['table']}") as ws:
            ws.send_json({"type": "hello", "token": t["token"]})
            assert refused(ws)[1] == 4403


# ---------------------------------------------------------------- a seat's sockets


def test_a_seat_holds_at_most_four_sockets(client: TestClient) -> None:
    t = new_table(client, opponent="computer", level="random", seed=9)
    path = f"/ws/{t['table']}"
    opened = [client.websocket_connect(path) for _ in range(4)]
    socks = [o.__enter__() for o in opened]
    try:
        for ws in socks:
            assert hello(ws, t["token"])["type"] == "state"
        with client.websocket_connect(path) as fifth:
            fifth.send_json({"type": "hello", "token": t["token"]})
            err, code = refused(fifth)
        assert err["code"] == "busy" and "open in 4 windows" in err["message"] and code == 4429
        opened.pop().__exit__(None, None, None)
        socks.pop()
        time.sleep(0.2)
        with client.websocket_connect(path) as again:  # one closed: room for another
            assert hello(again, t["token"])["type"] == "state"
    finally:
        for o in opened:
            o.__exit__(None, None, None)


# ---------------------------------------------------------------- rates


def test_tables_per_address(db: str) -> None:
    with TestClient(create_app(db, limits=Limits(tables=3, tables_per_minute=1))) as client:
        for _ in range(2):
            new_table(client, opponent="computer", level="random")
        new_chouette(client)  # chouettes share the tables' bucket
        r = client.post("/api/tables", json={"opponent": "computer"})
        assert r.status_code == 429 and "too many tables" in r.json()["error"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert client.post("/api/chouettes", json={}).status_code == 429
        assert client.get("/api/tables").status_code == 200  # reading is not limited


def test_buckets_are_per_address_and_refill() -> None:
    now = [0.0]
    buckets = Buckets(2, 0.5, clock=lambda: now[0])
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(2.0)
    assert buckets.take("b") == 0  # another address has its own
    now[0] = 2.0
    assert buckets.take("a") == 0 and buckets.take("a") > 0


def test_messages_per_address(db: str) -> None:
    with TestClient(create_app(db, limits=Limits(messages=3, messages_per_second=0.01))) as client:
        t = new_table(client, opponent="computer", level="random", seed=2)
        with client.websocket_connect(f"/ws/{t['table']}") as ws:
            assert hello(ws, t["token"])["type"] == "state"  # the hello is no message of the table
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            err = ws.receive_json()
            assert err["code"] == "rate" and "not read" in err["message"]


# ---------------------------------------------------------------- headers and origins


def test_every_page_carries_the_headers(client: TestClient) -> None:
    t = new_table(client, opponent="computer", level="random", seed=1)
    for path in (*PAGES, f"/t/{t['table']}", f"/t/{t['table']}/replay", "/static/app.js", "/api/tables",
                 "/t/nosuch", "/static/nothing.js"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP, path
        assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP and "unsafe-inline" not in CSP
    for path in ("/", "/mark", "/settle", f"/t/{t['table']}", f"/t/{t['table']}/replay", "/rules"):
        html = client.get(path).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"{path} has an inline script"
        assert not re.search(r"\son[a-z]+=", html) and "javascript:" not in html and "<style" not in html, path


def test_posts_and_sockets_from_another_site_are_refused(client: TestClient) -> None:
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/tables", json={"opponent": "computer"}, headers=evil)
    assert r.status_code == 403 and "another site" in r.json()["error"]
    assert client.post("/api/tables", json={"opponent": "computer"},
                       headers={"Origin": "http://testserver"}).status_code == 201
    assert client.post("/api/tables", json={"opponent": "computer"}).status_code == 201  # no Origin: curl
    assert client.post("/api/tables", json={}, headers={"Origin": "null"}).status_code == 403
    assert client.post("/api/tables", json={}, headers={"Origin": "http://testserver:8000"}).status_code == 403
    assert client.get("/api/tables", headers=evil).status_code == 200  # a GET changes nothing
    t = new_table(client, opponent="computer", level="random", seed=1)
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{t['table']}", headers=evil):
        pass
    assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/{t['table']}", headers={"Origin": "http://testserver"}) as ws:
        assert hello(ws, t["token"])["type"] == "state"


# ---------------------------------------------------------------- the games lists


def test_the_lists_show_open_invitations_and_ones_own(client: TestClient) -> None:
    computer = new_table(client, opponent="computer", level="random", seed=1, name="Ann")
    person = new_table(client, opponent="person", name="Bea", seed=2)
    chouette = new_chouette(client)
    assert [g["table"] for g in client.get("/api/tables").json()] == [person["table"]]
    assert [g["table"] for g in client.get("/api/chouettes").json()] == [chouette["table"]]
    mine = client.post("/api/tables/mine", json={"seats": [
        {"table": computer["table"], "token": computer["token"]},
        {"table": person["table"], "token": token_of(person["invite"])},
        {"table": person["table"], "token": "not-hers"},
        {"table": "nosuch", "token": computer["token"]},
        {"table": chouette["table"], "token": chouette["token"]},  # a chouette is no table of two
    ]})
    assert mine.status_code == 200 and "no-store" in mine.headers["cache-control"]
    assert [(g["table"], g["seat"]) for g in mine.json()] == [(computer["table"], "A"), (person["table"], "B")]
    assert "token" not in json.dumps(mine.json())
    held = {"seats": [{"table": chouette["table"], "token": chouette["token"]}]}
    mine = client.post("/api/chouettes/mine", json=held)
    assert [(g["table"], g["seat"]) for g in mine.json()] == [(chouette["table"], "Ann")]
    # Once the guest has come, the table is nobody's invitation.
    with client.websocket_connect(f"/ws/{person['table']}") as ws:
        hello(ws, token_of(person["invite"]))
    assert client.get("/api/tables").json() == []
    for body in ({}, {"seats": "x"}, {"seats": [{"table": 1, "token": "t"}]}, {"seats": [{"table": "a"}]},
                 {"seats": [{"table": "a", "token": "t"}] * 201}):
        r = client.post("/api/tables/mine", json=body)
        assert r.status_code == 400 and "seats" in r.json()["error"], body
    assert client.post("/api/chouettes/mine", content=b"{nope").status_code == 400


# ---------------------------------------------------------------- static paths


@pytest.mark.parametrize("path", ["/static/app%00.js", "/static/%00", "/static/" + "a" * 5000,
                                  "/static/" + "a" * 300 + ".js", "/static/" + "/".join(["a"] * 600)])
def test_a_static_path_the_system_refuses(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404 and "error" in r.json(), (path[:40], r.status_code)
