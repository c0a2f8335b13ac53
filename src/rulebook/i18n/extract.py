"""The Babel extractor for rulebook YAML (entry point ``babel.extractors: rulebook``).

Every translatable field of the model becomes one message whose msgctxt is
:func:`~rulebook.model.message_context` (ids only, so moving or editing another rule never
changes it) and whose line is the YAML line of that field. Doctests are code and are never
extracted: the model marks which fields are for readers, and a doctest is not one of them.
``pybabel extract -F locales/babel.cfg`` and ``rulebook i18n extract`` both come through here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import IO, Any, Collection, Iterator, Mapping

from ..errors import LoadError, Problem
from ..loader import load_book
from ..model import XREF_RE, Book, message_context, translatable_fields, walk
from ..symbols import TOKEN_RE

# The (context, text) shape Babel's default keywords already know: pgettext(ctxt, msgid).
KEYWORD = "pgettext"

Extracted = tuple[int, str, tuple[str, str], list[str]]


def extract_rulebook(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extractor interface: ``(lineno, funcname, messages, comments)`` per message."""
    name = getattr(fileobj, "name", None) or "rulebook.yaml"
    book = load_bytes(fileobj.read(), str(name))
    yield from messages(book)


def messages(book: Book) -> Iterator[Extracted]:
    for key, node in walk(book):
        for field_name, text in translatable_fields(node):
            line = node.lines.get(field_name, node.line)
            yield line, KEYWORD, (message_context(key, field_name), text), translator_comments(text)


def load_bytes(data: bytes, name: str) -> Book:
    """The strict loader on the bytes Babel hands over; problems name ``name``, not a temp file.

    The loader reads paths, so the bytes go through a private temporary copy.
    """
    with tempfile.TemporaryDirectory(prefix="rulebook-extract-") as folder:
        copy = Path(folder) / (Path(name).name or "rulebook.yaml")
        copy.write_bytes(data)
        try:
            return load_book(copy)
        except LoadError as exc:
            raise LoadError(
                [Problem(name if p.path.endswith(copy.name) else p.path, p.line, p.column, p.message) for p in exc.problems]
            ) from None


def translator_comments(text: str) -> list[str]:
    """What a translator must keep, said only where the text has it."""
    comments = []
    tokens = list(dict.fromkeys(m.group(0) for m in TOKEN_RE.finditer(text)))
    if tokens:
        comments.append(f"Keep the symbols {' '.join(tokens)} exactly as written: the site draws them as icons.")
    refs = list(dict.fromkeys(m.group(0) for m in XREF_RE.finditer(text)))
    if refs:
        comments.append(f"Keep the cross-references {' '.join(refs)} unchanged: the site turns them into links.")
    markup = []
    if "**" in text:
        markup.append("**bold**")
    if "*" in text.replace("**", ""):
        markup.append("*italic*")
    if any(line.lstrip().startswith("- ") for line in text.splitlines()):
        markup.append("list lines starting with '- '")
    if "\n\n" in text.strip():
        markup.append("blank lines between paragraphs")
    if markup:
        comments.append(f"Keep the markup: {', '.join(markup)}.")
    if any(ch.isdigit() for ch in XREF_RE.sub("", TOKEN_RE.sub("", text))):
        comments.append("Write the numbers in digits, as in the source.")
    return comments
