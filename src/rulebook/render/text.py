"""Rulebook text -> safe HTML.

The text is parsed once by :mod:`rulebook.markup` (symbol tokens, ``[[cross-references]]``,
``**bold**``, ``*italic*``, blank-line paragraphs and ``- `` list lines); every piece of text
in the tree is escaped as it is written out, and only the tree's nodes become tags. Everything else a translator might type (tags, Markdown
links, ``{{ }}``) stays visible text. Links only come from cross-references, and their
``href`` comes from the caller's resolver (our own pages), never from the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from .. import symbols
from ..limits import MAX_TEXT_CHARS
from ..markup import Block, Emphasis, Inline, Lines, Paragraph, Ref, Strong, Symbol, Text, collapse_spacing, parse, parse_inline
from ..model import XRef
from ..symbols import SYMBOLS
from .bidi import closed_bidi, has_bidi
from .ui import Phrase, Words, shipped_words, symbol_label

if TYPE_CHECKING:
    from .glossary import TermLinks


@dataclass(frozen=True)
class Target:
    """Where a cross-reference leads: an internal URL and the number shown as link text."""

    href: str
    number: str
    title: str = ""


Resolver = Callable[[XRef], "Target | None"]


@dataclass(frozen=True)
class SymbolSet:
    """The symbols a book's texts may hold beyond the toolkit's: its engine's own (``symbols()``,
    docs/engines.md), and how a page reads one out (its label, a message of the engine's
    domain, in the page's language)."""

    table: Mapping[str, symbols.Symbol]  # the toolkit's and the engine's, by token
    label: Callable[[symbols.Symbol], Phrase]

    @cached_property
    def tokens(self) -> tuple[str, ...]:
        """The engine's own tokens (what the parser must know besides the toolkit's)."""
        return tuple(token for token, symbol in self.table.items() if symbol.kind == "engine")

_SUITS = {"hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", "spades": "\u2660"}
_DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
_MANA_CLASS = {"T": "ms-tap", "Q": "ms-untap", "PW": "ms-planeswalker", "CHAOS": "ms-chaos"}


def symbol_html(symbol: symbols.Symbol, language: str | Words = "en", label: Phrase | None = None) -> Markup:
    """One symbol as an icon with a text alternative (``role=img`` + ``aria-label`` + ``title``);
    ``label``: an engine's symbol's, in the page's language (:class:`SymbolSet`)."""
    label = label or symbol_label(symbol, language)
    code = symbol.token[1:-1]
    common = Markup('role="img" aria-label="{0}" title="{0}"{1}').format(label.text, label.lang_attribute)
    if symbol.kind == "engine":  # its glyph is text: escaped like any other
        return Markup('<span class="rb-symbol rb-symbol--{}" {}>{}</span>').format(code, common, symbol.glyph)
    if symbol.kind == "suit":
        return Markup('<span class="rb-suit rb-suit--{}" {}>{}</span>').format(code, common, _SUITS[code])
    if symbol.kind == "die":
        return Markup('<span class="rb-die" {}>{}</span>').format(common, _DIE_FACES[int(code[1:]) - 1])
    if code == "BLANK":
        return Markup('<span class="rb-planar-blank" {}></span>').format(common)
    if code in _MANA_CLASS:
        return Markup('<i class="ms {}" {}></i>').format(_MANA_CLASS[code], common)
    return Markup('<i class="ms ms-{} ms-cost" {}></i>').format(code.replace("/", "").lower(), common)


def _symbol(token: str, own: SymbolSet | None) -> symbols.Symbol:
    """The toolkit's symbol ``token``, else the book's engine's own."""
    return SYMBOLS.get(token) or (own.table[token] if own is not None else SYMBOLS[token])


#: A symbol's label in the form a sentence asked for (i18n/forms.py), from its label as shown.
Relabel = Callable[[symbols.Symbol, str], str]


def _label(symbol: symbols.Symbol, language: str | Words, own: SymbolSet | None, form: str) -> Phrase | None:
    """An engine's symbol's label (its engine's message, which has no forms); a toolkit symbol's
    in the form a translation asked for (``{1:acc}``); None: the label as shown."""
    if own is not None and symbol.kind == "engine":
        return own.label(symbol)
    if form:
        return (language if isinstance(language, Words) else shipped_words(language)).symbol_label_in(symbol, form)
    return None


def _icon(token: str, language: str | Words, icons: dict[str, str], own: SymbolSet | None, relabel: Relabel | None = None,
          form: str = "") -> str:
    """A symbol's icon, made once per page language and form (an engine's under its engine's name too:
    two engines may both call a symbol {knock})."""
    symbol = _symbol(token, own)
    key = f"{symbol.engine}:{token}" if symbol.engine else token
    key = f"{key}:{form}" if form else key
    if key not in icons:
        label = _label(symbol, language, own, form)
        if relabel is not None:
            label = label or symbol_label(symbol, language)
            label = replace(label, text=relabel(symbol, label.text))
        icons[key] = str(symbol_html(symbol, language, label))
    return icons[key]


@dataclass
class _Writer:
    """What one text's HTML is written with: its cross-references' resolver, the page's words
    and icons, the book's own symbols, and its pieces of text as HTML (``shown``, in the order
    :meth:`html` writes them: escaped, a game term's first use a link to its glossary entry)."""

    resolve: Resolver | None
    language: str | Words
    icons: dict[str, str]  # each symbol's HTML once made (a text may repeat one thousands of times)
    own: SymbolSet | None
    relabel: Relabel | None
    shown: Iterator[str]

    def html(self, nodes: tuple[Inline, ...]) -> str:
        """HTML of inline nodes."""
        parts = []
        for node in nodes:
            if isinstance(node, Text):
                parts.append(next(self.shown))
            elif isinstance(node, Symbol):
                parts.append(_icon(node.token, self.language, self.icons, self.own, self.relabel, node.form))
            elif isinstance(node, Ref):
                target = self.resolve(node.ref) if self.resolve else None
                if target is None:
                    parts.append(f'<span class="rb-xref rb-xref--missing">{escape(str(node.ref))}</span>')
                else:
                    parts.append(f'<a class="rb-xref" href="{escape(target.href)}" title="{escape(target.title or target.number)}">{escape(target.number)}</a>')
            else:
                tag = "strong" if isinstance(node, Strong) else "em"
                parts.append(f"<{tag}>{self.html(node.children)}</{tag}>")
        return "".join(parts)


def _values(nodes: tuple[Inline, ...], into: list[str]) -> None:
    """The text of each piece of text among ``nodes``, in the order :meth:`_Writer.html` writes them."""
    for node in nodes:
        if isinstance(node, Text):
            into.append(node.value)
        elif isinstance(node, Strong | Emphasis):
            _values(node.children, into)


def _writer(text: str, lines: list[tuple[Inline, ...]], resolve: Resolver | None, language: str | Words, icons: dict[str, str],
            own: SymbolSet | None, relabel: Relabel | None, terms: TermLinks | None) -> _Writer:
    """The writer of a text whose paragraphs and list items are ``lines``: their pieces of text
    escaped all at once, and cut where their game terms link (an escape per piece of text was a
    fifth of a page's time)."""
    values: list[str] = []
    for nodes in lines:
        _values(nodes, values)
    bidi = has_bidi(text)  # a text without a direction control closes none of its pieces
    if terms is None:
        return _Writer(resolve, language, icons, own, relabel, iter(escape_each([closed_bidi(v) for v in values] if bidi else values)))
    cuts = terms.cut(values)
    flat: list[str] = []  # each piece, then the href of a piece that links
    for pieces in cuts:
        for piece, href in pieces:
            flat.append(closed_bidi(piece) if bidi else piece)
            if href:
                flat.append(href)
    escaped = iter(escape_each(flat))
    shown = []
    for pieces in cuts:
        parts = []
        for _, href in pieces:
            piece = next(escaped)
            parts.append(f'<a class="rb-term" href="{next(escaped)}">{piece}</a>' if href else piece)
        shown.append("".join(parts))
    return _Writer(resolve, language, icons, own, relabel, iter(shown))


def escape_each(values: list[str]) -> list[str]:
    """Each of ``values`` escaped by markupsafe, in one call where none holds a NUL: the pieces
    of a text joined by it, escaped, and cut apart again (an escape per piece was a fifth of a
    page's time)."""
    joined = "\x00".join(values)
    if joined.count("\x00") != len(values) - 1:
        return [escape(value) for value in values]
    return str.split(escape(joined), "\x00") if values else []


def text_to_html(text: str, resolve: Resolver | None = None, *, language: str | Words = "it", inline: bool = False,
                 symbols: SymbolSet | None = None, terms: TermLinks | None = None, relabel: Relabel | None = None,
                 lines: Lines | None = None) -> Markup:
    """Render one rulebook text field. ``inline`` renders a title: no paragraphs, no lists.
    ``symbols``: the book's engine's own symbols, when it has any. ``terms`` links the game
    terms a prose text uses to the glossary (a title's are never linked). ``relabel``: an inline
    text's symbols read in the form its sentence asked for (a notation in an engine sentence).
    ``lines``: the parsed lines a caller keeps for the same symbols (markup.Lines).

    >>> text_to_html("Paga {W} e vedi **bene** <b>")
    Markup('<p>Paga <i class="ms ms-w ms-cost" role="img" aria-label="mana bianco" title="mana bianco"></i> e vedi <strong>bene</strong> &lt;b&gt;</p>')
    """
    if len(text) > MAX_TEXT_CHARS:
        # Never parsed (the loader and the checks refuse such a text; this is for any caller
        # that skipped them): shown as escaped text, at the cost of escaping it.
        shown = escape(closed_bidi(collapse_spacing(text)))
        return Markup(f"<p>{shown}</p>") if not inline else shown
    # Icons in another form than the label's own are made for this text alone.
    icons: dict[str, str] = language.icons if isinstance(language, Words) and relabel is None else {}
    tokens = symbols.tokens if symbols is not None else ()
    if inline:
        nodes = parse_inline(text, symbols=tokens, lines=lines)
        return Markup(_writer(text, [nodes], resolve, language, icons, symbols, relabel, None).html(nodes))
    parsed = parse(text, symbols=tokens, lines=lines)
    written = [nodes for block in parsed for nodes in ((block.children,) if isinstance(block, Paragraph) else block.items)]
    writer = _writer(text, written, resolve, language, icons, symbols, relabel, terms)
    blocks = []
    for block in parsed:
        if isinstance(block, Paragraph):
            blocks.append(f"<p>{writer.html(block.children)}</p>")
        else:
            blocks.append("<ul>" + "".join(f"<li>{writer.html(item)}</li>" for item in block.items) + "</ul>")
    return Markup("\n".join(blocks))


@dataclass
class _Reader:
    """What one text's plain words are made with: the page's words, its cross-references' numbers,
    each symbol's label once read (``labels``), the book's own symbols and a sentence's forms."""

    language: str | Words
    resolve: Resolver | None
    own: SymbolSet | None
    relabel: Relabel | None
    bidi: bool  # whether the text holds a direction control: each piece of it then closes its own
    labels: dict[str, str] = field(default_factory=dict)

    def label(self, node: Symbol) -> str:
        key = f"{node.token}:{node.form}" if node.form else node.token
        if key not in self.labels:
            symbol = _symbol(node.token, self.own)
            label = _label(symbol, self.language, self.own, node.form) or symbol_label(symbol, self.language)
            self.labels[key] = self.relabel(symbol, label.text) if self.relabel is not None else label.text
        return self.labels[key]

    def plain(self, nodes: tuple[Inline, ...]) -> str:
        parts: list[str] = []
        run: list[str] = []  # the labels of the symbols in a row ({2}{B}{B}), read together
        named = False  # the symbol just left out was named by the text before it
        for node in nodes:
            if isinstance(node, Symbol):
                label = self.label(node)
                # A title that names its symbol before drawing it ("Chaos symbol {CHAOS}") says the name
                # once: "Symbole de chaos", never "Symbole de chaos (symbole de chaos)".
                # Only the text right before it is read: each text once, so a long text stays linear.
                if not run and parts and _names(parts[-1], label):
                    parts[-1], named = parts[-1].rstrip(), True
                else:
                    run.append(label)
                continue
            if run:
                parts.append(_read_symbols(run, parts[-1] if parts else "", self.language))
                run = []
            if isinstance(node, Text):
                value = closed_bidi(node.value) if self.bidi else node.value
                # "planeswalker {PW}, une autre": the comma follows the name, without the space before the icon.
                parts.append(" " + value if named and value[:1].isalnum() else value)
                named = False
                continue
            named = False
            if isinstance(node, Ref):
                target = self.resolve(node.ref) if self.resolve else None
                parts.append(target.number if target else f"{node.ref.book + ':' if node.ref.book else ''}{node.ref.target}")
            else:
                parts.append(self.plain(node.children))
        if run:
            parts.append(_read_symbols(run, parts[-1] if parts else "", self.language))
        return "".join(parts)


def _names(before: str, label: str) -> bool:
    """Whether the text right ``before`` a symbol ends by naming it: its label's words there, in
    order, but for the short words a language puts between them ("Simbolo caos" names the
    symbol labelled «simbolo del caos», review3-it W10; "Symbole de chaos" «symbole de chaos»)."""
    wanted = [word for word in label.casefold().split() if len(word) > 3 or not word.isalpha()]
    if not wanted:
        return False
    tail = before.rstrip()[-4 * len(label):].casefold().split()
    said = [word for word in tail if len(word) > 3 or not word.isalpha()]
    return said[-len(wanted):] == wanted and bool(tail) and tail[-1] == wanted[-1]


def _words(language: str | Words) -> Words:
    return language if isinstance(language, Words) else shipped_words(language)


def _read_symbols(labels: list[str], before: str, language: str | Words) -> str:
    """Symbols in a row as words, after the text ``before`` them: each by its label, one after the
    other with the language's separator ("2 generic mana, black mana, black mana"), as a screen
    reader says the icons. Put after a name, they tell what it stands for and go in parentheses
    ("Plains (white mana)", "Jack (clubs)"), as after a rank written against them ("7 (hearts)");
    elsewhere the sentence names them ("costs {2}{B}{B}", "for {X}", a Russian {X:gen}), and a
    parenthesis there would read as an aside («pour (X mana générique)», review3-fr SI-4)."""
    # Translators: between two items of a series: the names of symbols drawn one after the other, read out in a link's preview or a tab's title ({2}{B}{B}: "2 generic mana, black mana, black mana"), and, for screen readers, between an example's title and its outcome ("Example 1: Hex, checked").
    read = _words(language).gettext("{item}, {next}", item="", next="").text.join(labels)
    if before[-1:].isalnum():
        return f" ({read})"
    word = before.rstrip().rsplit(None, 1)[-1] if before.strip() else ""
    word = re.split(r"['\u2019]", word)[-1]  # «un'Isola {U}»: the name after the elided article
    shown = before[-1:].isspace() and (word[:1].isupper() or _echoes(word, labels))
    return f"({read})" if shown else read


def _echoes(word: str, labels: list[str]) -> bool:
    """Whether the symbols illustrate the ``word`` before them, which already says what they are:
    «sono vuote {BLANK}» (label «faccia vuota»), «em branco {BLANK}» (review4-it W4-2, pt, es).
    Words echo when they start alike (a stem of four letters or more, all but the endings)."""
    said = word.casefold().strip(".,;:!?»)")
    for label in labels:
        for other in label.casefold().split():
            common = next((n for n, (a, b) in enumerate(zip(said, other, strict=False)) if a != b), min(len(said), len(other)))
            if common >= 4 and common >= min(len(said), len(other)) - 2:
                return True
    return False


def _plain_blocks(blocks: tuple[Block, ...], reader: _Reader) -> str:
    """A text of paragraphs and lists on one line: a list's items one after the other, without
    the list's hyphens (a hyphen is no bullet in running text, review3-it W9), each item that
    ends without punctuation followed by the language's separator ("a; b")."""
    pieces = []
    for block in blocks:
        if isinstance(block, Paragraph):
            pieces.append(reader.plain(block.children))
            continue
        items = [collapse_spacing(reader.plain(item)) for item in block.items]
        between = _words(reader.language).gettext("{item}; {next}", item="", next="").text.rstrip()
        pieces.append(" ".join(item if n == len(items) - 1 or item[-1:] in _ENDS else item + between
                               for n, item in enumerate(items)))
    return " ".join(pieces)


#: What an item of a list may end with for the next to follow it after a space alone.
_ENDS = ".,;:!?…»)\u201d"


def text_to_plain(text: str, language: str | Words = "it", resolve: Resolver | None = None, symbols: SymbolSet | None = None,
                  relabel: Relabel | None = None, lines: Lines | None = None) -> str:
    """A text as plain words, for the page title and search: symbols become their names,
    a cross-reference the number ``resolve`` finds for it (else its id). ``lines``: as :func:`text_to_html`'s.

    >>> text_to_plain("Pianura {W} e **[[casting:601.2f]]**", "it")
    'Pianura (mana bianco) e casting:601.2f'
    """
    if len(text) > MAX_TEXT_CHARS:
        return closed_bidi(collapse_spacing(text))  # never parsed: see text_to_html
    tokens = symbols.tokens if symbols is not None else ()
    reader = _Reader(language, resolve, symbols, relabel, has_bidi(text))
    if "\n" in text:  # paragraphs, a list: a title or an engine's sentence is one line
        return collapse_spacing(_plain_blocks(parse(text, symbols=tokens, lines=lines), reader))
    return collapse_spacing(reader.plain(parse_inline(text, symbols=tokens, lines=lines)))
