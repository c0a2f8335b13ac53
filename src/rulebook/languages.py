"""Languages: any language Babel knows, described by Babel's locale data (CLDR).

A rulebook names its source language (``book.language``); a site names its languages in its
configuration, the source first. Everything said about a language here comes from Babel:
its own name as a menu shows it, its name in another language, its text direction and its
plural forms. No table of languages lives in this package.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import overload

from babel import Locale, UnknownLocaleError
from babel.core import negotiate_locale

from .errors import RulebookError


@dataclass(frozen=True)
class Language:
    """One language, by its gettext code (``pt_BR``, the name of its ``locales/`` folder)."""

    code: str

    @property
    def locale(self) -> Locale:
        return _locale(self.code)

    @property
    def tag(self) -> str:
        """The BCP 47 tag for ``lang`` and ``hreflang`` attributes (``pt-BR``)."""
        return self.code.replace("_", "-")

    @property
    def name(self) -> str:
        """Its own name as a menu shows it: ``Italiano``, ``Русский``, ``Português (Brasil)``."""
        name = self.name_in(self)
        # A menu entry starts with a capital letter; CLDR gives the name as used mid-sentence.
        return name[:1].upper() + name[1:]

    def name_in(self, other: Language) -> str:
        """Its name in a language, as that language writes it in a sentence (``italien``, ``Italienisch``)."""
        return _display_name(self.code, other.code)

    @property
    def direction(self) -> str:
        """``ltr`` or ``rtl``, for the ``dir`` attribute."""
        return self.locale.text_direction

    def best_of(self, available: Iterable[str]) -> str | None:
        """The closest of ``available`` codes or tags (``pt-BR``, ``pt``), or None.

        >>> language("pt_BR").best_of(["en", "pt"])
        'pt'
        >>> language("de").best_of(["en", "fr"]) is None
        True
        """
        tags = {code.replace("_", "-").lower(): code for code in available}
        found = negotiate_locale([self.tag.lower(), self.locale.language], tags, sep="-")
        return tags[found] if found else None

    def __str__(self) -> str:
        return self.code


@lru_cache(maxsize=None)  # pure: cache.py
def _locale(code: str) -> Locale:
    return Locale.parse(code)


@lru_cache(maxsize=None)  # pure: cache.py (CLDR's names, by two codes; every page's language menu asks, 0.3 ms each)
def _display_name(code: str, other: str) -> str:
    return _locale(code).get_display_name(_locale(other)) or code


def language(code: object) -> Language:
    """The language of a code Babel knows (``de``, ``pt_BR``, ``pt-BR``), else a RulebookError.

    >>> language("pt-BR"), language("it").name, language("ar").direction
    (Language(code='pt_BR'), 'Italiano', 'rtl')
    """
    if not isinstance(code, str) or not code.strip():
        raise RulebookError(f"a language is a code such as de or pt_BR, not {code!r}")
    try:
        locale = Locale.parse(code.strip(), sep="-" if "-" in code else "_")
    except (ValueError, TypeError, UnknownLocaleError):
        raise RulebookError(f"unknown language {code!r}: use a code Babel knows, such as de, pt_BR or ar") from None
    return Language(str(locale))


@dataclass(frozen=True)
class Languages(Sequence[Language]):
    """The languages of a site in menu order; the first is the source, served at the root."""

    all: tuple[Language, ...]

    def __post_init__(self) -> None:
        if not self.all:
            raise RulebookError("a site needs at least one language, its source language")
        seen = [lang.code for lang in self.all]
        if twice := sorted({code for code in seen if seen.count(code) > 1}):
            raise RulebookError(f"language listed twice: {', '.join(twice)}")

    @classmethod
    def parse(cls, codes: Iterable[object]) -> Languages:
        """``[it, en, pt-BR]`` -> Languages; an unknown or repeated code is a RulebookError."""
        if isinstance(codes, (str, bytes)):
            # A string is iterable too: `languages: it` would be read as the languages 'i' and 't'.
            raise RulebookError(f"expected a list of language codes, the source first, e.g. [it, en, pt_BR]; got one text, {codes!r}")
        return cls(tuple(language(code) for code in codes))

    @property
    def source(self) -> Language:
        return self.all[0]

    @property
    def targets(self) -> tuple[Language, ...]:
        """The languages the source is translated into."""
        return self.all[1:]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.all)

    def get(self, code: str) -> Language:
        for lang in self.all:
            if lang.code == code:
                return lang
        raise RulebookError(f"{code!r} is not one of the site's languages ({', '.join(self.codes)})")

    @overload
    def __getitem__(self, index: int) -> Language: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Language, ...]: ...
    def __getitem__(self, index: int | slice) -> Language | tuple[Language, ...]:
        return self.all[index]

    def __len__(self) -> int:
        return len(self.all)

    def __iter__(self) -> Iterator[Language]:
        return iter(self.all)
