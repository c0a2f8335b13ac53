"""The page a rulebook that cannot be loaded gets instead of its rules, in each language.

A broken book is a failed book, not a failed site: the other books are published, and the
address of this one says what to fix (every problem at its ``FILE:LINE:COL``), so a reader who
follows a link to it learns why it is missing and its author sees the list on the site too.
"""

from __future__ import annotations

from ..errors import LoadError, printable
from .ui import Words


def broken_book_markdown(words: Words, error: LoadError) -> tuple[str, str]:
    """(title, Markdown body) of a book's page while its file cannot be loaded.

    The problems go in an indented code block: Markdown shows them as written, escaped."""
    title = words.gettext("This rulebook cannot be shown").text
    intro = words.gettext("Its file has mistakes to fix before its rules can be published. "
                          "Each line below names the place and what to do.").text
    lines = "\n".join(f"    {printable(line)}" for problem in error.problems for line in str(problem).splitlines())
    return title, f"# {title}\n\n{intro}\n\n{lines}\n"
