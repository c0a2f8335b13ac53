"""Translations: rulebook YAML -> gettext catalogs (Babel) -> translated model.

One module per stage, as in ``babel.messages``: :mod:`.extract` (the Babel extractor),
:mod:`.catalogs` (templates, catalogs and their update), :mod:`.checks` (what a translation
must keep), :mod:`.glossary`, :mod:`.translate` (catalogs -> model at render time),
:mod:`.domains` (the site's own words: a domain shipped with the package, overridable by a
project) and :mod:`.frontend` (the ``rulebook i18n`` commands). Nothing runs at import time.

No language is named here: a project's languages are its configuration (see
:mod:`rulebook.project`) and the folders under its ``locales/``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["template_path", "catalog_path", "domain_of"]


def template_path(locales: Path, domain: str) -> Path:
    return Path(locales) / "templates" / f"{domain}.pot"


def catalog_path(locales: Path, language: str, domain: str) -> Path:
    """One gettext domain per rulebook (and one for the site), in the layout gettext and Babel expect."""
    return Path(locales) / language / "LC_MESSAGES" / f"{domain}.po"


def domain_of(path: Path) -> str:
    """The domain a catalog belongs to: its name, or its folder's for a book's section catalog
    (``LC_MESSAGES/BOOK/SECTION.po``, :mod:`.parts`)."""
    path = Path(path)
    return path.stem if path.parent.name == "LC_MESSAGES" else path.parent.name
