"""Material's own interface labels, reworded by the site's catalogs where a language wants other words.

Material for MkDocs writes a few words of every page itself, from its language partials: the
title of the table of contents, the names a screen reader gives the header and the footer.
Where a language's reviewers prefer other words (Spanish «Índice», not Material's «Tabla de
contenidos»), the site's catalog says so: the message of context ``material:KEY`` (KEY is
Material's own key, :data:`THEME_LABELS` lists the ones a site may reword), translated in the
toolkit's ``site.po`` or a project's ``locales/LANG/LC_MESSAGES/site.po``. The plugin hands the
page language's translations to the theme (the page's ``rulebook.theme_labels``), and the
toolkit's ``partials/language.html`` (Material's documented override of its translations) looks
a key up there first. A label a catalog leaves untranslated, fuzzy or in another language keeps
Material's word.

Material writes its labels as they are, into text and into attributes (``aria-label="…"``), and
escapes some of them itself (the table of contents' ``aria-label``): a label is therefore
never escaped here, and one holding ``< > & "`` (which would need it) is refused, Material's
word kept and the refusal reported. An apostrophe is safe in both places.
"""

from __future__ import annotations

from .ui import Words


def pgettext(context: str, message: str) -> tuple[str, str]:
    """Marks a message with its context for extraction, looked up later (the gettext convention)."""
    return context, message


#: The labels of Material's a site may reword, as (context ``material:KEY``, Material's English).
THEME_LABELS = (
    # Translators: Material's title above a page's table of contents (Material's own word in your language unless you write another: Spanish «Índice»).
    pgettext("material:toc", "Table of contents"),
    # Translators: the name a screen reader gives the page's header (Material's own word in your language unless you write another).
    pgettext("material:header", "Header"),
    # Translators: the name a screen reader gives the page's footer (Material's own word in your language unless you write another).
    pgettext("material:footer", "Footer"),
)

PREFIX = "material:"


#: What a label must not hold: Material writes it unescaped into HTML text and attributes.
UNSAFE = frozenset('<>&"')


def theme_labels(words: Words) -> tuple[dict[str, str], list[str]]:
    """Material's key -> the label the site's catalogs give it in ``words``' language (a key they
    do not translate into that language is left out: Material's own word stays), and what is
    wrong with a label refused."""
    labels: dict[str, str] = {}
    refused: list[str] = []
    for context, message in THEME_LABELS:
        found = words.in_catalogs(context, message, None, 1)
        if found is None or found[1] != words.language:
            continue
        if UNSAFE & set(found[0]):
            refused.append(f"site.po [{words.language.code}]: msgctxt {context!r}: the label {found[0]!r} holds one of "
                           f"< > & \", which Material writes unescaped; its own word is shown instead: write the label without them")
            continue
        labels[context.removeprefix(PREFIX)] = found[0]
    return labels, refused
