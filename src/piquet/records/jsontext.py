"""One strict JSON reader for text from outside: record files, saved parties, websocket messages, HTTP bodies.

``read_json`` is ``json.loads`` that refuses, with a ``JSONRefused`` saying what and where (line, column),
what a hostile or broken text could use to crash or stall a reader further on:

* nesting deeper than ``MAX_DEPTH`` (100) arrays and objects (``json.loads`` raises ``RecursionError``
  near a thousand, and a reader that walks the value may recurse too);
* an integer of more than ``MAX_DIGITS`` (4300) digits (Python's own limit of conversion: ``ValueError``);
* a lone surrogate, ``"\\ud800"``: not Unicode text, and a ``UnicodeEncodeError`` wherever it is printed;
* ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON;
* bytes that are not UTF-8.

``JSONRefused`` is a ``json.JSONDecodeError`` (so a ``ValueError``): a reader that already catches the
syntax errors of ``json.loads`` catches these too.  Everything here is linear in the text's length.

>>> read_json('{"deals": []}')
{'deals': []}
>>> try:
...     read_json("[" * 101 + "]" * 101)
... except JSONRefused as e:
...     print(e)
nested more than 100 deep: line 1 column 101 (char 100)
>>> brief("a" * 100)
'"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..." (100 characters)'
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Final

#: The deepest nesting of arrays and objects read: a record nests seven deep, a chouette's document ten.
MAX_DEPTH: Final = 100
#: The most digits of an integer read: Python's own limit of conversion (``sys.get_int_max_str_digits``).
MAX_DIGITS: Final = 4300

_TOKEN: Final = re.compile(rf'[\[\]{{}}"]|(?<![\d.eE+-])-?\d{{{MAX_DIGITS + 1},}}(?![\d.eE])|NaN|-?Infinity')
#: The rest of a string after its opening quote, up to and with its closing quote (anchored: linear).
_STRING_REST: Final = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
#: A whole string of valid JSON (as UTF-8); the brackets as steps of depth (+1, -1 as a signed byte); the rest.
_STRING_BYTES: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STEPS: Final = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS: Final = bytes(set(range(256)) - set(b"[]{}"))


class JSONRefused(json.JSONDecodeError):
    """JSON this reader refuses (too deep, a number too long, a lone surrogate ...): what, and where."""


def _tokens(text: str) -> Iterator[tuple[int, str]]:
    """Where each bracket, whole string and over-long integer of ``text`` begins, and the token, in order."""
    pos = 0
    while (m := _TOKEN.search(text, pos)) is not None:
        pos = m.end()
        if m.group() == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:  # unterminated: json.loads says so
                return
            pos = rest.end()
        yield m.start(), text[m.start():pos]


def _where(text: str, found: Callable[[str, int], bool]) -> int:
    """The position of the first token for which ``found(token, depth)`` holds (0 if none does)."""
    depth = 0
    for start, token in _tokens(text):
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
        if found(token, depth):
            return start
    return 0


def _decoded(token: str) -> str:
    """A string token's value (``""`` for any other token)."""
    if not token.startswith('"'):
        return ""
    try:
        value = json.loads(token)
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


def _refuse(message: str, text: str, found: Callable[[str, int], bool]) -> JSONRefused:
    return JSONRefused(message, text, _where(text, found))


class _TooLong(Exception):
    """An integer of more than ``MAX_DIGITS`` digits (raised inside ``json.loads``)."""


class _NotJSON(Exception):
    """``NaN`` or an infinity (raised inside ``json.loads``)."""


def _constant(name: str) -> float:
    raise _NotJSON(name)


def _int(digits: str) -> int:
    if len(digits) > MAX_DIGITS + 1 or len(digits.lstrip("-")) > MAX_DIGITS:
        raise _TooLong
    return int(digits)


def _too_deep(text: str) -> bool:
    """Whether the valid JSON ``text`` nests deeper than ``MAX_DEPTH``: the greatest running count of its
    brackets outside strings, opening +1, closing -1, in C loops (``bytes.translate``, ``accumulate``)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    brackets = _STRING_BYTES.sub(b"", text.encode("utf-8", "surrogatepass")).translate(_STEPS, _NOT_BRACKETS)
    return max(itertools.accumulate(memoryview(brackets).cast("b")), default=0) > MAX_DEPTH


def _lone_surrogate(text: str, value: object) -> bool:
    """Whether a string of ``value`` (keys too) holds a lone surrogate, which cannot be encoded."""
    if _SURROGATE_ESCAPE.search(text) is None and _SURROGATE.search(text) is None:
        return False
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read_json(text: str | bytes) -> object:
    """The value of a JSON text, refusing what a hostile text could use (see the module's docstring).

    ``json.JSONDecodeError`` for a syntax error, ``JSONRefused`` (one of those) for the rest; never a
    ``RecursionError``, a ``ValueError`` of another kind, or a string that cannot be encoded.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise JSONRefused("not UTF-8 text", repr(text[:e.start + 1]), e.start) from None
    deep = f"nested more than {MAX_DEPTH} deep"
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant)
    except RecursionError:
        raise _refuse(deep, text, lambda t, d: d > MAX_DEPTH) from None
    except _TooLong:
        raise _refuse(f"a number of more than {MAX_DIGITS} digits", text, lambda t, d: t[0] in "-0123456789") \
            from None
    except _NotJSON as e:
        constant = e.args[0]
        raise _refuse(f"{constant} is not JSON (a number is finite)", text, lambda t, d: t == constant) from None
    if _too_deep(text):
        raise _refuse(deep, text, lambda t, d: d > MAX_DEPTH)
    if _lone_surrogate(text, value):
        raise _refuse("a lone surrogate (\\ud800-\\udfff not in a pair) in a string: not Unicode text", text,
                      lambda t, d: _SURROGATE.search(_decoded(t)) is not None)
    return value


def brief(value: object, limit: int = 40) -> str:
    """A value as JSON, for an error message: cut after ``limit`` characters, saying how long it was, so that
    a message never echoes a hostile megabyte back."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit]
        shown = json.dumps(text, ensure_ascii=True)
        return shown if len(value) <= limit else f"{shown[:-1]}...\" ({len(value):,} characters)"
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) > limit:
        return f"a number of {len(str(value)):,} digits"
    return json.dumps(value)


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "JSONRefused", "brief", "read_json"]
