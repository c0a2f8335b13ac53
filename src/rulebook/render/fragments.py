"""Pieces of a book page that the page repeats hundreds of times, as Python functions returning Markup.

The book template (``templates/book.html.j2``) lays the page out; what it would otherwise do
thousands of times per book, or what is the same in every language, is made here: a Jinja
macro call and ``Markup.format`` (which parses its format string in Python at every call) cost
more than the HTML they make.
"""

from __future__ import annotations

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonConsoleLexer

from ..cache import kind, stored_memoized

HIGHLIGHTED = kind("highlighted", (), "a doctest as highlighted HTML: the same in every language and from one build "
                   "to the next (the code's version names Pygments')", stored=True,
                   entry_inputs=("doctest",))

_FORMATTER = HtmlFormatter(cssclass="highlight", wrapcode=True)


def heading(level: int, anchor: str, number: str, title: Markup | str, permalink_attributes: Markup, number_id: str = "") -> Markup:
    """A section's or rule's heading with its number and its permanent link (the book template's
    ``heading``: a Python function, not a Jinja macro, since a book calls it once per rule; an
    f-string of escaped values, as ``Markup.format`` parses its format string in Python each time).
    ``number_id`` makes the number a permalink too (``#5.8``)."""
    anchor = escape(anchor)
    shown = f" {escape(title)}" if title else ""
    numbered = f' id="{escape(number_id)}"' if number_id else ""
    return Markup(f'<h{level:d} id="{anchor}"><span class="rb-number"{numbered}>{escape(number)}</span>{shown}'
                  f'<a class="headerlink" href="#{anchor}" {escape(permalink_attributes)}>&para;</a></h{level:d}>')


@stored_memoized(HIGHLIGHTED)
def _highlighted(doctest: str) -> str:
    return str(highlight(doctest, PythonConsoleLexer(), _FORMATTER))


def highlight_doctest(doctest: str) -> Markup:
    """A doctest as highlighted HTML; the same in every language, so made once per build's cache
    and kept for the next build (:data:`HIGHLIGHTED`)."""
    return Markup(_highlighted(doctest))  # Pygments' HTML, every text of the doctest escaped by its formatter
