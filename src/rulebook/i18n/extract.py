"""The Babel extractor for rulebook YAML (entry point ``babel.extractors: rulebook``).

Every translatable field of the model becomes one message whose msgctxt is
:func:`~rulebook.model.message_context` (ids only, so moving or editing another rule never
changes it) and whose line is the YAML line of that field. Doctests are code and are never
extracted: the model marks which fields are for readers, and a doctest is not one of them.
``pybabel extract -F locales/babel.cfg`` and ``rulebook i18n extract`` both come through here.
"""

from __future__ import annotations

import re
from typing import IO, Any, Collection, Iterator, Mapping

from ..loader import load_book_bytes
from ..model import LIST_ITEM_RE, XREF_RE, Book, message_context, translatable_fields, walk
from ..symbols import TOKEN_RE

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




def canonical(text: str) -> str:
    """The msgid of a text: the YAML's line wrapping undone, as the page shows it.

    Re-wrapping a paragraph in the YAML then changes no msgid (no translation turns fuzzy),
    and translators see sentences, not the source's line breaks. Paragraphs stay apart by a
    blank line and list items stay one per line, so the text renders exactly as before.
    """
    paragraphs = []
    for block in re.split(r"\n[ \t]*\n", text.strip()):
        lines: list[str] = []
        in_item = False
        for line in block.split("\n"):
            if not line.strip():
                continue
            if LIST_ITEM_RE.match(line):
                lines.append(line.strip())
                in_item = True
            elif lines and lines[-1] != "-" and (not in_item or line[:1] in (" ", "\t")):
                # Never onto a bare "-": that would make a list item the page never showed.
                lines[-1] += " " + line.strip()  # a wrapped line, or a list item's continuation
            else:
                lines.append(line.strip())
                in_item = False
        paragraphs.append("\n".join(lines))
    return "\n\n".join(p for p in paragraphs if p)


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
    if LIST_ITEM_RE.search(text):
        markup.append("list lines starting with '- '")
    if "\n\n" in text.strip():
        markup.append("blank lines between paragraphs")
    if markup:
        comments.append(f"Keep the markup: {', '.join(markup)}.")
    if any(ch.isdigit() for ch in XREF_RE.sub("", TOKEN_RE.sub("", text))):
        comments.append("Write the numbers in digits, as in the source.")
    return comments
