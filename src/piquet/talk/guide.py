"""The guide to the game: docs/rules.md, shipped in the package as ``talk/rules.md``, cut into topics.

Each ``##`` heading is a topic (``The exchange``, ``The play``, ``Glossary`` ...); each ``###`` heading under
``Glossary`` is an entry, whose heading names its terms, parted by commas (``Good, equal, not good``).
``find`` finds a topic or an entry by name or term, as ``piquet rules TOPIC`` and the terminal's ``rules TOPIC``
ask; ``rules_text`` is what they print; ``guide_html`` is the browser's "How to play" page, every term with its
anchor (``/rules#repique``); ``talk_terms`` the phrases of the table's talk that lead to the glossary.

>>> find("exchange").title
'The exchange'
>>> find("Repique").anchor
'repique'
>>> find("quint").title
'Tierce, quart, quint, sixieme, septieme, huitieme'
>>> find("no such thing") is None
True
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources

GLOSSARY = "Glossary"


@dataclass(frozen=True)
class Topic:
    """A part of the guide: a topic (``level`` 2) or a glossary entry (``level`` 3)."""

    title: str
    level: int
    body: str  # the Markdown under the heading, without it

    @property
    def terms(self) -> tuple[str, ...]:
        """The words it is found by: an entry's terms (``Elder``, ``elder hand``); a topic's title."""
        if self.level == 3:
            return tuple(t.strip() for t in self.title.split(","))
        return (self.title,)

    @property
    def anchor(self) -> str:
        return slug(self.terms[0])

    @property
    def anchors(self) -> tuple[str, ...]:
        """Every term's anchor: ``/rules#quint`` leads to the entry of the sequences as ``/rules#tierce`` does."""
        return tuple(dict.fromkeys(slug(t) for t in self.terms))

    def text(self) -> str:
        """The topic as the terminal prints it: its heading, then its words."""
        return f"{self.title}\n{'=' * len(self.title) if self.level == 2 else '-' * len(self.title)}\n\n{self.body}"


def _fold(text: str) -> str:
    """Lower case, no accents, no leading "the", single spaces: how a name is compared."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = " ".join(re.findall(r"[a-z0-9]+", text))
    return text.removeprefix("the ")


def slug(text: str) -> str:
    """An anchor: ``The cards`` -> ``the-cards``, ``Not good`` -> ``not-good``."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", text))


@functools.cache
def guide_text() -> str:
    """The guide, as docs/rules.md says it (the package's copy, ``piquet/talk/rules.md``)."""
    return resources.files("piquet.talk").joinpath("rules.md").read_text(encoding="utf-8")


@functools.cache
def _parts() -> tuple[str, str, tuple[Topic, ...]]:
    """The title, the opening paragraphs, and every topic and entry in the guide's order."""
    title, opening, found = "", [], []
    heading: tuple[str, int] | None = None
    body: list[str] = []

    def close() -> None:
        if heading is not None:
            found.append(Topic(heading[0], heading[1], "\n".join(body).strip() + "\n"))

    for line in guide_text().splitlines():
        m = re.match(r"(#{1,3}) (.+)", line)
        if m and len(m.group(1)) == 1:
            title = m.group(2).strip()
        elif m:
            close()
            heading, body = (m.group(2).strip(), len(m.group(1))), []
        elif heading is None:
            opening.append(line)
        else:
            body.append(line)
    close()
    return title, "\n".join(opening).strip() + "\n", tuple(found)


def topics() -> list[Topic]:
    """The topics (the ``##`` headings), the glossary last."""
    return [t for t in _parts()[2] if t.level == 2]


def glossary() -> list[Topic]:
    """The glossary's entries."""
    return [t for t in _parts()[2] if t.level == 3]


def _topic_with_entries(topic: Topic) -> str:
    if topic.title != GLOSSARY:
        return topic.text()
    return "\n".join([topic.text(), *(entry.text() for entry in glossary())])


def find(name: str) -> Topic | None:
    """The entry of a glossary term, else the topic of that name (``exchange``, ``au cent``), else one whose
    title has that word; plurals are found (``quatorzes``)."""
    want = _fold(name)
    if not want:
        return None
    wants = (want, want.removesuffix("s"), want.removesuffix("es"))
    for entry in glossary():
        if any(_fold(t) in wants for t in entry.terms):
            return entry
    for topic in topics():
        if _fold(topic.title) in wants:
            return topic
    for topic in topics():
        words = _fold(topic.title).split()
        if any(" ".join(words[i:i + len(w.split())]) == w for w in wants for i in range(len(words))):
            return topic
    stem = want.removesuffix("e")  # "score" finds "The scoring"
    if len(stem) >= 4:
        for topic in topics():
            if any(w.startswith(stem) for w in _fold(topic.title).split()):
                return topic
    return None


def topic_names() -> list[str]:
    """What may follow ``piquet rules``: each topic, then each glossary term."""
    return [_fold(t.title) for t in topics()] + [_fold(t) for e in glossary() for t in e.terms]


def rules_text(name: str | None = None) -> str:
    """``piquet rules [TOPIC]``: the whole guide; the topic or entry asked for; or, if there is none of that
    name, the list of topics."""
    title, opening, _ = _parts()
    if not name or not name.strip():
        return "\n".join([title, "=" * len(title), "", opening, *(_topic_with_entries(t) for t in topics())])
    found = find(name)
    if found is not None:
        return _topic_with_entries(found)
    return f"No topic named {name.strip()[:40]!r} in the guide. " + topic_list()


def topic_list() -> str:
    """The topics of the guide and the glossary's terms, one of which may follow ``rules``."""
    return ("The topics:\n" + "\n".join(f"  {_fold(t.title)}" for t in topics())
            + "\nand the glossary's terms: " + ", ".join(_fold(t) for e in glossary() for t in e.terms) + ".\n")


# ---------------------------------------------------------------- the page


def _inline(text: str) -> str:
    """One paragraph's words as HTML: escaped first, then ``**bold**`` and `` `code` ``."""
    out = html.escape(text, quote=True)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", out)


def _blocks(markdown: str) -> str:
    """Paragraphs and lists (``- `` items, continued by indented lines) as HTML."""
    out: list[str] = []
    para: list[str] = []
    items: list[list[str]] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(' '.join(i))}</li>" for i in items) + "</ul>")
            items.clear()

    for line in markdown.splitlines():
        if not line.strip():
            flush()
        elif line.startswith("- "):
            if para:
                flush()
            items.append([line[2:].strip()])
        elif items and line.startswith("  "):
            items[-1].append(line.strip())
        else:
            if items:
                flush()
            para.append(line.strip())
    flush()
    return "\n".join(out)


def guide_html() -> str:
    """The guide as the body of the "How to play" page: each topic a section with its anchor, each glossary
    entry with an anchor for each of its terms (``id="repique"``, ``id="not-good"``)."""
    title, opening, _ = _parts()
    out = [f'<h1 id="top">{_inline(title)}</h1>', _blocks(opening)]
    out.append('<nav class="guide-topics" aria-label="Topics"><ul>'
               + "".join(f'<li><a href="#{t.anchor}">{_inline(t.title)}</a></li>' for t in topics())
               + "</ul></nav>")
    for t in topics():
        out.append(f'<section class="guide-topic" id="{t.anchor}"><h2>{_inline(t.title)}</h2>')
        out.append(_blocks(t.body))
        if t.title == GLOSSARY:
            out.append('<dl class="glossary">')
            for e in glossary():
                extra = "".join(f'<span id="{a}"></span>' for a in e.anchors[1:])
                out.append(f'<dt id="{e.anchor}" data-testid="term-{e.anchor}">{extra}{_inline(e.title)}</dt>'
                           f"<dd>{_blocks(e.body)}</dd>")
            out.append("</dl>")
        out.append("</section>")
    return "\n".join(out)


def page_html() -> str:
    """The "How to play" page, whole: the guide, and the way back to the lobby."""
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light">
  <title>Piquet — how to play</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules-page">
  <header class="bar">
    <a class="brand" href="/" data-testid="lobby-link">Piquet</a>
    <span class="tagline">How to play</span>
  </header>
  <main class="guide" data-testid="guide">
{guide_html()}
  </main>
</body>
</html>
"""


#: Where a glossary term in the talk is a phrase of its own, not the word alone: "the cards" is also said of
#: the cards left in the stock, so the talk links only the score ("the cards, ten").
_TALK_PHRASES = {"the-cards": ("the cards, ten", "for the cards")}


def talk_terms() -> list[dict[str, str]]:
    """The phrases of the table's talk that lead to the glossary, the longest first: ``{"words": "not good",
    "anchor": "not-good"}``.  The page links them in the talk lines it shows (``/rules#not-good``)."""
    found: dict[str, str] = {}
    for entry in glossary():
        for term in entry.terms:
            anchor = slug(term)
            for words in _TALK_PHRASES.get(anchor, (term.lower(),)):
                found.setdefault(words, anchor)
    return [{"words": w, "anchor": a} for w, a in sorted(found.items(), key=lambda wa: -len(wa[0]))]


__all__ = ["GLOSSARY", "Topic", "find", "glossary", "guide_html", "guide_text", "page_html", "rules_text", "slug",
           "talk_terms", "topic_list", "topic_names", "topics"]
