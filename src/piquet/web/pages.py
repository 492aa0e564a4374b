"""What the web's modules share to serve a page of ``static/`` and to read a JSON body: one place for both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from piquet.records.jsontext import JSONRefused, read_json

STATIC: Final = Path(__file__).resolve().parent / "static"
#: The largest body a page's POST may send, in bytes (``/api/mark``, ``/api/settle``).
MAX_BODY: Final = 256 * 1024


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def static_page(name: str, status: int = 200) -> Response:
    """A page of ``static/``, never cached stale; a 404 saying so if it is not installed."""
    path = STATIC / name
    if not path.is_file():
        return error(404, f"{name} is not installed")
    return FileResponse(path, status_code=status, headers={"Cache-Control": "no-cache"})


class BadBody(ValueError):
    """A body too large (413) or not JSON (400): the status and what to say."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


async def json_body(request: Request, shape: str) -> object:
    """The request's body, parsed; ``BadBody`` when it is over ``MAX_BODY`` or not JSON (``shape``: what the
    body should look like, said in the refusal)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadBody(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    try:
        return read_json(raw)
    except JSONRefused as e:
        raise BadBody(f"the body is a JSON object: {shape}; this one is refused: {e.msg} (line {e.lineno}, column "
                      f"{e.colno})", 400) from None
    except json.JSONDecodeError:
        raise BadBody(f"the body is a JSON object: {shape}", 400) from None


__all__ = ["MAX_BODY", "STATIC", "BadBody", "error", "json_body", "static_page"]
