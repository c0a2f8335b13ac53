"""The Babel extractor for rulebook YAML (entry point ``babel.extractors: rulebook``).

Every translatable field of the model becomes one message whose msgctxt is
:func:`~rulebook.model.message_context` (ids only, so moving or editing another rule never
changes it) and whose line is the YAML line of that field. Doctests are code and are never
extracted: the model marks which fields are for readers, and a doctest is not one of them.
``pybabel extract -F locales/babel.cfg`` and ``rulebook i18n extract`` both come through here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from ..loader import load_book_bytes
from ..markup import canonical, markup_counts
from ..model import XREF_RE, Book, message_context, translatable_fields, walk
from ..symbols import TOKEN_RE

__all__ = ["extract_rulebook", "messages", "canonical", "translator_comments"]

# The (context, text) shape Babel's default keywords already know: pgettext(ctxt, msgid).
KEYWORD = "pgettext"

Extracted = tuple[int, str, tuple[str, str], list[str]]


def extract_rulebook(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extractor interface: ``(lineno, funcname, messages, comments)`` per message."""
    name = getattr(fileobj, "name", None) or "rulebook.yaml"
    book = load_book_bytes(fileobj.read(), str(name))
    yield from messages(book)


def messages(book: Book) -> Iterator[Extracted]:
    """In file order, so a translator reads the catalog alongside the rulebook."""
    found = [
        (node.lines.get(field_name, node.line), message_context(key, field_name), canonical(text))
        for key, node in walk(book)
        for field_name, text in translatable_fields(node)
    ]
    for line, context, text in sorted(found, key=lambda item: item[0]):
        yield line, KEYWORD, (context, text), translator_comments(text)


def translator_comments(text: str) -> list[str]:
    """What a translator must keep, said only where the text has it."""
    comments = []
    tokens = list(dict.fromkeys(m.group(0) for m in TOKEN_RE.finditer(text)))
    if tokens:
        comments.append(f"Keep the symbols {' '.join(tokens)} exactly as written: the site draws them as icons.")
    refs = list(dict.fromkeys(m.group(0) for m in XREF_RE.finditer(text)))
    if refs:
        comments.append(f"Keep the cross-references {' '.join(refs)} unchanged: the site turns them into links.")
    counts = markup_counts(text)
    wanted = (("strong", "**bold**"), ("emphasis", "*italic*"), ("list_items", "list lines starting with '- '"),
              ("paragraphs", "blank lines between paragraphs"))
    markup = [shown for name, shown in wanted if counts[name]]
    if markup:
        comments.append(f"Keep the markup: {', '.join(markup)}.")
    if any(ch.isdigit() for ch in XREF_RE.sub("", TOKEN_RE.sub("", text))):
        comments.append("Write the numbers in digits, as in the source.")
    return comments
