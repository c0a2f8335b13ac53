"""The text mini-markup, parsed once: the renderer, the extractor and the checks all read this tree.

A rulebook text (and a translation of one) may hold ``{symbols}``, ``[[cross-references]]``,
``**bold**``, ``*italic*``, ``- `` list lines and blank lines between paragraphs; nothing else is
markup. :func:`parse` turns a text into :class:`Paragraph` and :class:`BulletList` blocks of
inline nodes (:class:`Text`, :class:`Strong`, :class:`Emphasis`, :class:`Symbol`, :class:`Ref`);
:func:`parse_inline` does the same for a title (one line, no blocks); :func:`canonical` is the
text with the YAML's line wrapping undone (the msgid); :func:`markup_counts` says how much of
each markup a text has (what a translation must keep).

Every step is one pass, or a pass and a pointer that only moves forward: linear in the length
of the text, whatever it holds (the regular expressions this replaces took minutes on 100 kB of
``**a ``). markdown-it-py was tried first: with HTML off it renders all 4,110 real texts the
same, but its CommonMark rules would bring ordered lists (a line ``1986. Un anno``), ``*`` and
``+`` bullets, ``_`` emphasis, lazy list continuation and loose lists into text that
translators type; switching those off means replacing its list and emphasis rules with ours,
which is this module.

The rules, as the pages have always shown them:

- blocks are separated by blank lines (lines of whitespace only); a line starting ``- `` with
  text after it is a list item, an indented line after an item continues it, any other line
  belongs to a paragraph, and a paragraph's lines are joined with a space;
- ``**`` opens bold before a non-space character and closes at the first later ``**`` that
  follows a non-space character, with at least one character between;
- inside and outside bold, ``*`` opens italic when not preceded by a word character or ``*``
  and followed by a character that is neither space nor ``*``; it closes at the next ``*`` if
  that one follows a non-space character and is not followed by a word character or ``*``;
- a ``{token}`` known in :data:`~rulebook.symbols.SYMBOLS` (or among the book engine's own) is a symbol, a ``[[rule-id]]`` or
  ``[[book:rule-id]]`` a cross-reference; anything else is text. A translation may ask a symbol's
  label in a form (``{1:acc}``, docs/grammar.md): the same symbol, its label read in that form.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

from .errors import RulebookError
from .limits import MAX_TEXT_CHARS
from .model import LIST_ITEM_RE, XREF_RE, XRef
from .symbols import SYMBOLS, TOKEN_RE


@dataclass(frozen=True)
class Text:
    value: str


@dataclass(frozen=True)
class Symbol:
    token: str  # a key of SYMBOLS, e.g. "{W}"
    #: The form a translation asks its label in (``{1:acc}``: read «1 единицу общей маны»); "" as shown.
    form: str = ""


@dataclass(frozen=True)
class Ref:
    ref: XRef


@dataclass(frozen=True)
class Strong:
    children: tuple[Inline, ...]


@dataclass(frozen=True)
class Emphasis:
    children: tuple[Inline, ...]


Inline = Text | Symbol | Ref | Strong | Emphasis


@dataclass(frozen=True)
class Paragraph:
    children: tuple[Inline, ...]


@dataclass(frozen=True)
class BulletList:
    items: tuple[tuple[Inline, ...], ...]


Block = Paragraph | BulletList


# --- blocks -----------------------------------------------------------------------------------


def _groups(text: str) -> Iterator[list[str]]:
    """The non-blank lines of each blank-line-separated group of a stripped text."""
    group: list[str] = []
    for line in text.strip().split("\n"):
        if line.strip():
            group.append(line)
        elif group:
            yield group
            group = []
    if group:
        yield group


def block_lines(text: str) -> Iterator[tuple[str, list[str]]]:
    """("paragraph", [line, ...]) and ("list", [item, ...]) in order, each line already joined.

    A paragraph's lines are its source lines, stripped; a list's entries are its items'
    texts after the marker, continuation lines joined with a space.
    """
    if "\n" not in text:  # one line (most texts of a book): one paragraph or one list item, no groups to find
        line = text.strip()
        if line:
            marker = LIST_ITEM_RE.match(line)
            yield ("list", [line[marker.end():].strip()]) if marker else ("paragraph", [line])
        return
    for group in _groups(text):
        yield from _group_blocks(group)


def _group_blocks(group: list[str]) -> Iterator[tuple[str, list[str]]]:
    """The blocks of one blank-line-separated group, as :func:`block_lines` yields them."""
    run: list[str] = []
    items: list[str] = []
    for line in group:
        marker = LIST_ITEM_RE.match(line)
        if marker:
            if run:
                yield "paragraph", run
                run = []
            items.append(line[marker.end():].strip())
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()  # a list item wrapped onto the next line
        else:
            if items:
                yield "list", items
                items = []
            run.append(line.strip())
    if run:
        yield "paragraph", run
    if items:
        yield "list", items


def _within(text: str, limit: int | None) -> None:
    # The loader and the length check keep longer texts out; this bounds the work (a tree of a
    # megabyte of symbols takes seconds to build) for any caller that skipped them.
    if limit is not None and len(text) > limit:
        raise RulebookError(f"a text of {len(text):,} characters is longer than the limit of {limit:,}; split it")


#: Each line's nodes, kept by a caller that parses the same texts twice with the same symbols (a
#: book page's HTML and its plain words, render.pages): read and written by :func:`parse` and
#: :func:`parse_inline`, so that each line is parsed once.
Lines = dict[str, tuple[Inline, ...]]


def parse(text: str, *, limit: int | None = MAX_TEXT_CHARS, symbols: Collection[str] = (), lines: Lines | None = None) -> tuple[Block, ...]:
    """A text field as blocks of inline nodes; RulebookError past ``limit`` characters.
    ``symbols``: the tokens the book's engine adds to the toolkit's (``{knock}``); ``lines``: see :data:`Lines`."""
    _within(text, limit)
    atoms = _atoms_knowing(tuple(symbols)) if symbols else _atoms
    return tuple(
        Paragraph(_line(" ".join(found), atoms, lines)) if kind == "paragraph" else BulletList(tuple(_line(item, atoms, lines) for item in found))
        for kind, found in block_lines(text)
    )


def canonical(text: str) -> str:
    """The msgid of a text: the YAML's line wrapping undone, as the page shows it.

    Re-wrapping a paragraph in the YAML then changes no msgid (no translation turns fuzzy),
    and translators see sentences, not the source's line breaks. Paragraphs stay apart by a
    blank line and list items stay one per line, so the text parses exactly as before.
    """
    if "\n" not in text:
        # One line (half the texts of a book, every title): one group of that line, stripped.
        return text.strip()
    paragraphs = []
    for group in _groups(text):
        # Each line as its pieces, joined once at the end: adding every wrapped line to one
        # growing string copied it each time (quadratic on a long paragraph).
        lines: list[list[str]] = []
        in_item = False
        for line in group:
            if LIST_ITEM_RE.match(line):
                lines.append([line.strip()])
                in_item = True
            elif lines and lines[-1] != ["-"] and (not in_item or line[:1] in (" ", "\t")):
                # Never onto a bare "-": that would make a list item the page never showed.
                lines[-1].append(line.strip())  # a wrapped line, or a list item's continuation
            else:
                lines.append([line.strip()])
                in_item = False
        paragraphs.append("\n".join(" ".join(pieces) for pieces in lines))
    return "\n\n".join(paragraphs)


# --- inline -----------------------------------------------------------------------------------

# A closing "**" is a "*" that follows a non-space and is followed by another "*".
_BOLD_CLOSE_RE = re.compile(r"(?<=\S)\*(?=\*)")


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"  # what \w matches in a str pattern


#: The spacing a text may collapse: ASCII whitespace only. A no-break space (U+00A0, U+202F) is a
#: translator's typography (French «Exemple\u00a0:»), never layout, and str.split() would take it
#: for a space (review4-fr RN-1: every French heading and tooltip lost it).
_SPACING = re.compile(r"[ \t\n\r\f\v]+")
#: The runs of :data:`_SPACING` that are not one space already: replacing only those leaves a line
#: of single spaces as it is (most texts' lines), where replacing each space by a space made it anew.
_LOOSE_SPACING = re.compile(r"[\t\n\r\f\v][ \t\n\r\f\v]*| [ \t\n\r\f\v]+")
_ASCII_SPACE = " \t\n\r\f\v"


def collapse_spacing(text: str) -> str:
    r"""``text`` on one line: each run of ASCII spacing one space, no-break spaces kept.

    >>> collapse_spacing("  Exemple\u00a01\u00a0:\n  la\tpile ")
    'Exemple\xa01\xa0: la pile'
    """
    return _LOOSE_SPACING.sub(" ", text).strip(_ASCII_SPACE)


def parse_inline(text: str, *, joined: bool = False, limit: int | None = MAX_TEXT_CHARS,
                 symbols: Collection[str] = (), lines: Lines | None = None) -> tuple[Inline, ...]:
    """One line of text (a title, a paragraph, a list item) as inline nodes.

    Unless ``joined``, every run of whitespace first becomes one space, as in a title.
    ``symbols``: the tokens the book's engine adds to the toolkit's; ``lines``: see :data:`Lines`.
    """
    _within(text, limit)
    return _line(text if joined else collapse_spacing(text), _atoms_knowing(tuple(symbols)) if symbols else _atoms, lines)


def _line(line: str, atoms: Callable[[str], list[Inline]], lines: Lines | None = None) -> tuple[Inline, ...]:
    """The nodes of one line (kept in ``lines``, when given)."""
    if lines is not None:
        found = lines.get(line)
        if found is None:
            found = lines[line] = _line(line, atoms)
        return found
    if "*" in line or "[[" in line or "{" in line:
        return tuple(_inline(line, atoms))
    return (Text(line),) if line else ()  # no markup at all (half the lines of a book): one text


@lru_cache(maxsize=None)  # pure: cache.py (a site's engines add a few sets of symbols)
def _atoms_knowing(tokens: tuple[str, ...]) -> Callable[[str], list[Inline]]:
    """:func:`_atoms` that also knows an engine's own ``tokens``: one table of them, made once."""
    return partial(_atoms, nodes={**_SYMBOL_NODES, **{token[1:-1]: Symbol(token) for token in tokens}})


def _inline(line: str, atoms: Callable[[str], list[Inline]]) -> list[Inline]:
    """The nodes of one line; ``atoms`` makes the nodes of the text outside bold and italic markers."""
    if "*" not in line:  # the common case: no emphasis to look for
        return atoms(line)
    nodes: list[Inline] = []
    closings = [m.start() for m in _BOLD_CLOSE_RE.finditer(line)]
    next_closing = 0
    position = 0
    start = line.find("**")
    while start != -1:
        if start + 2 >= len(line) or line[start + 2].isspace():
            start = line.find("**", start + 1)
            continue
        while next_closing < len(closings) and closings[next_closing] < start + 3:
            next_closing += 1
        if next_closing == len(closings):
            break  # no closing after this opening, so none after any later one either
        end = closings[next_closing]
        nodes.extend(_emphasis(line[position:start], atoms))
        nodes.append(Strong(tuple(_emphasis(line[start + 2 : end], atoms))))
        position = end + 2
        start = line.find("**", position)
    nodes.extend(_emphasis(line[position:], atoms))
    return nodes


def _emphasis(segment: str, atoms: Callable[[str], list[Inline]]) -> list[Inline]:
    """Italic within one segment; its ends count as neither a word character nor ``*``."""
    nodes: list[Inline] = []
    position = 0
    star = segment.find("*")
    while star != -1:
        after = star + 1
        opens = (star == 0 or not (_is_word(segment[star - 1]) or segment[star - 1] == "*")) and (
            after < len(segment) and not segment[after].isspace() and segment[after] != "*"
        )
        if not opens:
            star = segment.find("*", after)
            continue
        end = segment.find("*", after)
        if end == -1:
            break  # no "*" after this one: nothing later can close either
        closes = not segment[end - 1].isspace() and (end + 1 == len(segment) or not (_is_word(segment[end + 1]) or segment[end + 1] == "*"))
        if closes:
            nodes.extend(atoms(segment[position:star]))
            nodes.append(Emphasis(tuple(atoms(segment[after:end]))))
            position = end + 1
            star = segment.find("*", position)
        else:
            star = end  # the closing candidate may open the next italic
    nodes.extend(atoms(segment[position:]))
    return nodes


def _atoms(text: str, nodes: Mapping[str, Symbol] | None = None) -> list[Inline]:
    """Cross-references and known symbols in plain text; everything else stays text.
    ``nodes``: the known symbols by name (default: the toolkit's)."""
    if "[[" not in text:
        if "{" in text:
            return _symbols(text, nodes)
        return [Text(text)] if text else []  # nothing to find: one text (most atoms of a book)
    # Split at C speed into text, book, target, text, ...: no match object per reference.
    parts = XREF_RE.split(text)
    found = _symbols(parts[0], nodes)
    # One node per reference written alike, shared: a text may hold thousands of the same few.
    refs: dict[tuple[str | None, str], Ref] = {}
    for index in range(1, len(parts), 3):
        written = (parts[index], parts[index + 1])
        node = refs.get(written)
        if node is None:
            node = refs[written] = Ref(XRef(*written))
        found.append(node)
        after = parts[index + 2]
        if "{" in after:
            found.extend(_symbols(after, nodes))
        elif after:
            found.append(Text(after))
    return found


# One node per symbol, shared: a text may hold thousands of the same few. By the token's
# name (what TOKEN_RE's group holds): "W" -> Symbol("{W}").
_SYMBOL_NODES = {token[1:-1]: Symbol(token) for token in SYMBOLS}


def _symbols(text: str, known: Mapping[str, Symbol] | None = None) -> list[Inline]:
    if "{" not in text:
        return [Text(text)] if text else []
    known = _SYMBOL_NODES if known is None else known
    parts = TOKEN_RE.split(text)  # text, name, text, name, ..., text
    nodes: list[Inline] = []
    pending = [parts[0]]  # the text since the last symbol; an unknown token stays in it
    for index in range(1, len(parts), 2):
        node = known.get(parts[index])
        if node is None and ":" in parts[index]:
            node = _asked(parts[index], known)
        if node is None:
            pending += ("{", parts[index], "}", parts[index + 1])
            continue
        if any(pending):
            nodes.append(Text("".join(pending)))
        nodes.append(node)
        pending = [parts[index + 1]]
    if any(pending):
        nodes.append(Text("".join(pending)))
    return nodes


#: What a form's name may be (``acc``, ``à``): letters, as a grammar file's ``forms`` lists them.
_FORM_RE = re.compile(r"[^\W\d_]+")


def _asked(name: str, known: Mapping[str, Symbol]) -> Symbol | None:
    """``1:acc`` -> the symbol ``{1}`` asked in the form ``acc``; None when the code is no symbol."""
    code, _, form = name.partition(":")
    node = known.get(code)
    return Symbol(node.token, form) if node is not None and _FORM_RE.fullmatch(form) else None


# --- what a translation must keep ---------------------------------------------------------------


def markup_counts(text: str, *, limit: int | None = MAX_TEXT_CHARS) -> Counter[str]:
    """How much of each markup a text has, and the ``*`` left over as plain text.

    Counted on the bold and italic nodes alone: the text between them is not split into
    atoms (a check counts every translation). Every ``*`` of a text is in one of its lines,
    and never inside a symbol or a cross-reference (tests/test_markup.py holds the symbols to
    that), so the ones that are not markers are the text's count less two per italic and four per bold.
    """
    _within(text, limit)
    groups = list(_groups(text))
    counts: Counter[str] = Counter(paragraphs=max(len(groups) - 1, 0), list_items=0)
    if "*" not in text and "-" not in text:
        return counts  # no list marker, no emphasis: no line to look at
    strong = emphasis = 0
    for group in groups:
        for kind, lines in _group_blocks(group):
            if kind == "list":
                counts["list_items"] += len(lines)
            for line in lines if kind == "list" else [" ".join(lines)]:
                for node in _inline(line, _no_atoms):
                    if isinstance(node, Strong):
                        strong += 1
                        emphasis += len(node.children)  # italic only: no atoms
                    else:
                        emphasis += 1
    if strong:
        counts["strong"] = strong
    if emphasis:
        counts["emphasis"] = emphasis
    counts["stray_stars"] = text.count("*") - 4 * strong - 2 * emphasis
    return counts


def _no_atoms(text: str) -> list[Inline]:
    return []
