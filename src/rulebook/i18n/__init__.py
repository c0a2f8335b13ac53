"""Translations: rulebook YAML -> gettext catalogs (Babel) -> translated model.

One module per stage, as in ``babel.messages``: :mod:`.extract` (the Babel extractor),
:mod:`.catalogs` (templates, catalogs and their update), :mod:`.checks` (what a translation
must keep), :mod:`.glossary`, :mod:`.translate` (catalogs -> model at render time) and
:mod:`.frontend` (the ``rulebook i18n`` commands). Nothing here runs at import time.
"""

from __future__ import annotations

from pathlib import Path

from ..model import SOURCE_LANGUAGE

__all__ = ["SOURCE_LANGUAGE", "LANGUAGES", "template_path", "catalog_path"]

#: The languages a catalog is created for by ``rulebook i18n update``.
LANGUAGES: tuple[str, ...] = ("en", "fr", "es", "pt", "ru")


def template_path(locales: Path, book_id: str) -> Path:
    return Path(locales) / "templates" / f"{book_id}.pot"


def catalog_path(locales: Path, language: str, book_id: str) -> Path:
    """One gettext domain per rulebook, in the layout gettext and Babel expect."""
    return Path(locales) / language / "LC_MESSAGES" / f"{book_id}.po"
