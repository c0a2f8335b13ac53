"""Rulebook text -> safe HTML.

The text is escaped first, whole; only then are the few things the format allows turned into
HTML: symbol tokens, ``[[cross-references]]``, ``**bold**``, ``*italic*``, blank-line
paragraphs and ``- `` list lines. Everything else a translator might type (tags, Markdown
links, ``{{ }}``) stays visible text. Links only come from cross-references, and their
``href`` comes from the caller's resolver (our own pages), never from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup, escape

from ..model import LIST_ITEM_RE, XREF_RE, XRef
from ..symbols import SYMBOLS, TOKEN_RE, Symbol
from .ui import Words, symbol_label


@dataclass(frozen=True)
class Target:
    """Where a cross-reference leads: an internal URL and the number shown as link text."""

    href: str
    number: str
    title: str = ""


Resolver = Callable[[XRef], "Target | None"]

_BOLD_RE = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# Italic never spans a tag produced by bold, so markup can never be mis-nested.
_ITALIC_RE = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*<>]+?)(?<=[^\s*])\*(?![\w*])")
_LIST_RE = LIST_ITEM_RE

_SUITS = {"hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", "spades": "\u2660"}
_DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
_MANA_CLASS = {"T": "ms-tap", "Q": "ms-untap", "PW": "ms-planeswalker", "CHAOS": "ms-chaos"}


def symbol_html(symbol: Symbol, language: str | Words = "en") -> Markup:
    """One symbol as an icon with a text alternative (``role=img`` + ``aria-label`` + ``title``)."""
    label = symbol_label(symbol, language)
    code = symbol.token[1:-1]
    common = Markup('role="img" aria-label="{0}" title="{0}"{1}').format(label.text, label.lang_attribute)
    if symbol.kind == "suit":
        return Markup('<span class="rb-suit rb-suit--{}" {}>{}</span>').format(code, common, _SUITS[code])
    if symbol.kind == "die":
        return Markup('<span class="rb-die" {}>{}</span>').format(common, _DIE_FACES[int(code[1:]) - 1])
    if code == "BLANK":
        return Markup('<span class="rb-planar-blank" {}></span>').format(common)
    if code in _MANA_CLASS:
        return Markup('<i class="ms {}" {}></i>').format(_MANA_CLASS[code], common)
    return Markup('<i class="ms ms-{} ms-cost" {}></i>').format(code.replace("/", "").lower(), common)


def _inline(escaped: str, resolve: Resolver | None, language: str | Words) -> str:
    def xref(match: re.Match[str]) -> str:
        ref = XRef(match.group(1), match.group(2))
        target = resolve(ref) if resolve else None
        if target is None:
            return str(Markup('<span class="rb-xref rb-xref--missing">{}</span>').format(str(ref)))
        return str(
            Markup('<a class="rb-xref" href="{}" title="{}">{}</a>').format(target.href, target.title or target.number, target.number)
        )

    def symbol(match: re.Match[str]) -> str:
        found = SYMBOLS.get(match.group(0))
        return str(symbol_html(found, language)) if found else match.group(0)

    # Emphasis first, on text that holds no tags yet; then the tags of links and icons.
    text = _BOLD_RE.sub(r"<strong>\1</strong>", escaped)
    text = _ITALIC_RE.sub(r"<em>\1</em>", text)
    text = XREF_RE.sub(xref, text)
    return TOKEN_RE.sub(symbol, text)


def text_to_html(text: str, resolve: Resolver | None = None, *, language: str | Words = "it", inline: bool = False) -> Markup:
    """Render one rulebook text field. ``inline`` renders a title: no paragraphs, no lists.

    >>> text_to_html("Paga {W} e vedi **bene** <b>")
    Markup('<p>Paga <i class="ms ms-w ms-cost" role="img" aria-label="mana bianco" title="mana bianco"></i> e vedi <strong>bene</strong> &lt;b&gt;</p>')
    """
    escaped = str(escape(text.strip()))
    if inline:
        return Markup(_inline(" ".join(escaped.split()), resolve, language))
    blocks: list[str] = []
    for paragraph in re.split(r"\n\s*\n", escaped):
        lines = [line for line in paragraph.split("\n") if line.strip()]
        run: list[str] = []
        items: list[str] = []

        def flush_run() -> None:
            if run:
                blocks.append(f"<p>{_inline(' '.join(l.strip() for l in run), resolve, language)}</p>")
                run.clear()

        def flush_items() -> None:
            if items:
                lis = "".join(f"<li>{_inline(item, resolve, language)}</li>" for item in items)
                blocks.append(f"<ul>{lis}</ul>")
                items.clear()

        for line in lines:
            if _LIST_RE.match(line):
                flush_run()
                items.append(_LIST_RE.sub("", line, count=1).strip())
            elif items and line.startswith((" ", "\t")):
                items[-1] += " " + line.strip()  # a list item wrapped onto the next line
            else:
                flush_items()
                run.append(line)
        flush_run()
        flush_items()
    return Markup("\n".join(blocks))


def text_to_plain(text: str, language: str | Words = "it", resolve: Resolver | None = None) -> str:
    """A text as plain words, for the page title and search: symbols become their names,
    a cross-reference the number ``resolve`` finds for it (else its id).

    >>> text_to_plain("Pianura {W} e **[[casting:601.2f]]**", "it")
    'Pianura (mana bianco) e casting:601.2f'
    """

    def symbol(match: re.Match[str]) -> str:
        found = SYMBOLS.get(match.group(0))
        return f"({symbol_label(found, language).text})" if found else match.group(0)

    def xref(match: re.Match[str]) -> str:
        target = resolve(XRef(match.group(1), match.group(2))) if resolve else None
        return target.number if target else f"{match.group(1) + ':' if match.group(1) else ''}{match.group(2)}"

    plain = XREF_RE.sub(xref, text)
    plain = TOKEN_RE.sub(symbol, plain).replace("**", "")
    plain = _ITALIC_RE.sub(r"\1", plain)
    return " ".join(plain.split())

