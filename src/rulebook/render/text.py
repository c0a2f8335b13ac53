"""Rulebook text -> safe HTML.

The text is parsed once by :mod:`rulebook.markup` (symbol tokens, ``[[cross-references]]``,
``**bold**``, ``*italic*``, blank-line paragraphs and ``- `` list lines); every piece of text
in the tree is escaped as it is written out, and only the tree's nodes become tags. Everything else a translator might type (tags, Markdown
links, ``{{ }}``) stays visible text. Links only come from cross-references, and their
``href`` comes from the caller's resolver (our own pages), never from the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup

from .. import symbols
from ..limits import MAX_TEXT_CHARS
from ..markup import Inline, Paragraph, Ref, Strong, Symbol, Text, parse, parse_inline
from ..model import XRef
from ..symbols import SYMBOLS
from .ui import Words, symbol_label


@dataclass(frozen=True)
class Target:
    """Where a cross-reference leads: an internal URL and the number shown as link text."""

    href: str
    number: str
    title: str = ""


Resolver = Callable[[XRef], "Target | None"]

_SUITS = {"hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", "spades": "\u2660"}
_DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
_MANA_CLASS = {"T": "ms-tap", "Q": "ms-untap", "PW": "ms-planeswalker", "CHAOS": "ms-chaos"}


def symbol_html(symbol: symbols.Symbol, language: str | Words = "en") -> Markup:
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


def _escape(text: str) -> str:
    # What markupsafe.escape does, in C-speed replaces: a megabyte of markup renders in a second.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;").replace('"', "&#34;")


def _html(nodes: tuple[Inline, ...], resolve: Resolver | None, language: str | Words, icons: dict[str, str]) -> str:
    """HTML of inline nodes; ``icons`` keeps each symbol's HTML once made (a text may repeat one thousands of times)."""
    parts = []
    for node in nodes:
        if isinstance(node, Text):
            parts.append(_escape(node.value))
        elif isinstance(node, Symbol):
            if node.token not in icons:
                icons[node.token] = str(symbol_html(SYMBOLS[node.token], language))
            parts.append(icons[node.token])
        elif isinstance(node, Ref):
            target = resolve(node.ref) if resolve else None
            if target is None:
                parts.append(f'<span class="rb-xref rb-xref--missing">{_escape(str(node.ref))}</span>')
            else:
                parts.append(f'<a class="rb-xref" href="{_escape(target.href)}" title="{_escape(target.title or target.number)}">{_escape(target.number)}</a>')
        else:
            tag = "strong" if isinstance(node, Strong) else "em"
            parts.append(f"<{tag}>{_html(node.children, resolve, language, icons)}</{tag}>")
    return "".join(parts)


def text_to_html(text: str, resolve: Resolver | None = None, *, language: str | Words = "it", inline: bool = False) -> Markup:
    """Render one rulebook text field. ``inline`` renders a title: no paragraphs, no lists.

    >>> text_to_html("Paga {W} e vedi **bene** <b>")
    Markup('<p>Paga <i class="ms ms-w ms-cost" role="img" aria-label="mana bianco" title="mana bianco"></i> e vedi <strong>bene</strong> &lt;b&gt;</p>')
    """
    if len(text) > MAX_TEXT_CHARS:
        # Never parsed (the loader and the checks refuse such a text; this is for any caller
        # that skipped them): shown as escaped text, at the cost of escaping it.
        return Markup(f"<p>{_escape(' '.join(text.split()))}</p>" if not inline else _escape(" ".join(text.split())))
    icons: dict[str, str] = language.icons if isinstance(language, Words) else {}
    if inline:
        return Markup(_html(parse_inline(text), resolve, language, icons))
    blocks = []
    for block in parse(text):
        if isinstance(block, Paragraph):
            blocks.append(f"<p>{_html(block.children, resolve, language, icons)}</p>")
        else:
            blocks.append("<ul>" + "".join(f"<li>{_html(item, resolve, language, icons)}</li>" for item in block.items) + "</ul>")
    return Markup("\n".join(blocks))


def _plain(nodes: tuple[Inline, ...], language: str | Words, resolve: Resolver | None, labels: dict[str, str]) -> str:
    parts = []
    for node in nodes:
        if isinstance(node, Text):
            parts.append(node.value)
        elif isinstance(node, Symbol):
            if node.token not in labels:
                labels[node.token] = f"({symbol_label(SYMBOLS[node.token], language).text})"
            parts.append(labels[node.token])
        elif isinstance(node, Ref):
            target = resolve(node.ref) if resolve else None
            parts.append(target.number if target else f"{node.ref.book + ':' if node.ref.book else ''}{node.ref.target}")
        else:
            parts.append(_plain(node.children, language, resolve, labels))
    return "".join(parts)


def text_to_plain(text: str, language: str | Words = "it", resolve: Resolver | None = None) -> str:
    """A text as plain words, for the page title and search: symbols become their names,
    a cross-reference the number ``resolve`` finds for it (else its id).

    >>> text_to_plain("Pianura {W} e **[[casting:601.2f]]**", "it")
    'Pianura (mana bianco) e casting:601.2f'
    """
    if len(text) > MAX_TEXT_CHARS:
        return " ".join(text.split())  # never parsed: see text_to_html
    return " ".join(_plain(parse_inline(text), language, resolve, {}).split())
