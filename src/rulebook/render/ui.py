"""The site's own words (labels around the rulebooks, symbol text alternatives), from gettext.

Every word is a message of the ``site`` domain (:data:`rulebook.i18n.domains.SITE`): msgids in
English with named placeholders, translated by the package's catalogs and a project's own
``locales/LANG/LC_MESSAGES/site.po``. :class:`Words` speaks one page language: a message its
catalogs lack is shown in the site's source language (then in the English msgid) as a
:class:`Phrase` that says so, marked like an untranslated rulebook text.

Code and templates ask with the gettext names Babel's extractors know: ``words.gettext("…")``,
``ngettext(singular, plural, n, **values)``, ``pgettext(context, "…")``; templates get them
as ``_``, ``gettext``, ``ngettext`` and ``pgettext``. Write ``# Translators: …`` (``{# Translators:
… #}`` in a template) above a message to explain it. After changing a message run
``rulebook i18n update`` in the toolkit's checkout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.numbers import format_percent
from markupsafe import Markup, escape

from ..i18n.domains import SITE, Messages, ShippedDomain, load_messages
from ..i18n.forms import label_in, prose_grammar
from ..languages import Language
from ..languages import language as parse_language
from ..messages import Message
from ..symbols import Symbol
from .bidi import closed_bidi


def N_(message: str) -> str:
    """Marks a message for extraction where it is looked up later (the gettext convention)."""
    return message


# Translators: beside a text shown in another language than the page's; {language} is that language.
FALLBACK_BADGE = N_("not translated yet: shown in {language}")

# What a project configures in mkdocs.yml and the theme shows on every page: translated where the
# site's catalogs have the configured words as a message (:meth:`Words.configured`). The toolkit
# ships these (its own site's); a project translates its own words in its locales/*/site.po.
CONFIGURED = (
    # Translators: the site's name, in its header and the browser's tab (the toolkit's default name).
    N_("Rulebook"),
    # Translators: the button that switches the site to its dark colour scheme.
    N_("Dark"),
    # Translators: the button that switches the site to its light colour scheme.
    N_("Light"),
)
# Translators: the site's footer; {generator} is the name of the theme the site is made with, a link.
MADE_WITH = N_("Made with {generator}")
# Translators: the browser tab's title: the page's title, then the site's name.
# Write the dash your language puts between them (Russian «{page} — {site}»).
TAB_TITLE = N_("{page} - {site}")


def tab_title_parts(words: Words) -> tuple[str, str, str]:
    """The words around a tab's page title and site name: (before, between, after); the English
    ones when a translation names them out of that order or not at all."""
    text = words.gettext(TAB_TITLE, page="\x00", site="\x01").text
    before, page, rest = text.partition("\x00")
    between, site, after = rest.partition("\x01")
    return (before, between, after) if page and site and "\x00" not in rest and "\x01" not in before else ("", " - ", "")


@dataclass(frozen=True)
class Phrase:
    """A message as shown: its text, the language it is in, and a badge when that is not the page's.

    In a template ``{{ phrase }}`` is element content (marked when it fell back) and
    ``{{ phrase.text }}`` an attribute value (``{{ phrase.lang_attribute }}`` on its element).
    """

    text: str
    language: Language  # the language the text is in
    page: Language  # the language of the page it is shown on
    badge: Phrase | None = None  # what the mark says when the two differ, in the page's language if it can

    def __str__(self) -> str:
        return self.text

    def __html__(self) -> Markup:
        if self.badge is None:
            return escape(self.text)
        return untranslated_html("fallback", self.language.tag, self.badge, escape(self.text), inline=True)

    @property
    def lang_attribute(self) -> Markup:
        """`` lang="…"`` for the element whose attribute holds this text, when it is not in the page's language."""
        return Markup(' lang="{}"').format(self.language.tag) if self.language != self.page else Markup("")


def untranslated_html(state: str, language: str, badge: Phrase, html: Markup, *, inline: bool) -> Markup:
    """A text in another language than the page's: its ``lang`` and a badge in the reader's language.

    ``state`` is ``fallback`` (not translated) or ``outdated`` (translated from an older source).
    """
    if inline:
        return Markup(
            '<span class="rb-untranslated rb-untranslated--{0}" data-rb-state="{0}"><span lang="{1}">{3}</span>'
            ' <abbr class="rb-badge rb-badge--{0}" title="{2}"{4}>{1}</abbr></span>'
        ).format(state, language, badge.text, html, badge.lang_attribute)
    return Markup(
        '<div class="rb-untranslated rb-untranslated--{0}" data-rb-state="{0}"><div lang="{1}">{3}</div>'
        '<p class="rb-badge rb-badge--{0}"{4}>{2}</p></div>'
    ).format(state, language, badge.text, html, badge.lang_attribute)


class Words:
    """A domain's words in one page language; a missing one comes from the source language, marked.

    ``messages(code)`` gives the domain's messages in a language. The site's words are the
    domain :data:`SITE`; another shipped domain (an engine's) gets its own Words and borrows
    the site's for the badge (``badges``).
    """

    def __init__(self, language: Language, source: Language, messages: Callable[[str], Messages],
                 domain: ShippedDomain = SITE, badges: Words | None = None, project: Path | None = None):
        self.language = language
        #: The project's locales folder: its ``LANG/grammar.yaml`` adds label forms (symbol_label_in).
        self.project = project
        self.domain = domain
        chain = [language] if source == language else [language, source]
        self._chain = [(lang, messages(lang.code)) for lang in chain]
        self._msgid_language = parse_language(domain.source)
        self._badges = badges or self
        self._symbols: dict[str, Phrase] = {}
        self._asked: dict[tuple[str, str], Phrase] = {}
        self._phrases: dict[tuple[object, ...], Phrase] = {}
        #: Each symbol's icon HTML in this language, made once (render.text; a book shows thousands).
        self.icons: dict[str, str] = {}

    def _lookup(self, context: str | None, singular: str, plural: str | None = None, n: int = 1) -> tuple[str, Language]:
        for lang, found in self._chain:
            if found.has(context, singular):
                return found.translate(context, singular, plural, n), lang
        # Nobody translated it: the msgid itself, with the English plural rule.
        return (singular if plural is None or n == 1 else plural), self._msgid_language

    @staticmethod
    def _fill(text: str, language: Language, values: dict[str, Any]) -> str:
        # A language in a sentence is named in the sentence's own language ("italien", "Italian").
        return text.format(**{k: v.name_in(language) if isinstance(v, Language) else v for k, v in values.items()})

    def _phrase(self, text: str, language: Language, values: dict[str, Any]) -> Phrase:
        phrase = Phrase(closed_bidi(self._fill(text, language, values)), language, self.language)
        if language == self.language:
            return phrase
        # The badge is marked by its lang only: a badge beside the badge would never end.
        badge, badge_language = self._badges._lookup(None, FALLBACK_BADGE)
        return replace(phrase, badge=Phrase(self._fill(badge, badge_language, {"language": language}), badge_language, self.language))

    def find(self, context: str | None, singular: str, plural: str | None = None, n: int = 1) -> tuple[str, Language] | None:
        """The translation and its language, if the page's language or the source has one; the
        msgid itself when the page is in the msgids' language; else None (a later domain may have it)."""
        found = self.in_catalogs(context, singular, plural, n)
        if found is None and self.language == self._msgid_language:
            return (singular if plural is None or n == 1 else plural), self.language
        return found

    def in_catalogs(self, context: str | None, singular: str, plural: str | None, n: int) -> tuple[str, Language] | None:
        """The translation and its language from the catalogs alone, never the msgid."""
        for lang, found in self._chain:
            if found.has(context, singular):
                return found.translate(context, singular, plural, n), lang
            if lang == self._msgid_language:
                break  # the page is in the msgids' language: no need to borrow the source's
        return None

    def told(self, message: Message, *, last: bool = False) -> Phrase | None:
        """An engine's message (a symbol's label) as a Phrase, when this domain's catalogs have it
        (or the page is in the msgids' language); else None, for the next domain to try, or
        with ``last`` the English msgid, marked as such."""
        # The catalogs only, even on a page in the msgids' language: an English page takes an
        # engine's shared message from the English engine.base catalog ("isn't possible now"),
        # not from the engine's own domain's msgid.
        found = self.in_catalogs(message.context, message.msgid, message.plural, message.n)
        if found is None:
            if not last:
                return None
            found = (message.msgid if message.plural is None or message.n == 1 else message.plural), self._msgid_language
        return self._phrase(found[0], found[1], message.values)

    def configured(self, text: str) -> str:
        """A text the project configured (the site's name, a colour scheme's button), in the page's
        language where the site's catalogs translate it; else as configured (a name of its own)."""
        found = self.find(None, text)
        return found[0] if found and found[1] == self.language else text

    def mark(self, html: Markup, language: Language) -> Markup:
        """``html`` (inline, in ``language``) marked as not in the page's language, with the badge."""
        if language == self.language:
            return html
        badge_text, badge_language = self._badges._lookup(None, FALLBACK_BADGE)
        badge = Phrase(self._fill(badge_text, badge_language, {"language": language}), badge_language, self.language)
        return untranslated_html("fallback", language.tag, badge, html, inline=True)

    def _said(self, context: str | None, singular: str, plural: str | None, n: int, values: dict[str, Any]) -> Phrase:
        """A message as a Phrase, made once per message and values: a book page asks for the
        same few ("Reason", "Example {n}") thousands of times, and a Phrase is frozen."""
        # The values' types are in the key: 1 and 1.0 are equal keys but fill "{n}" differently.
        key = (context, singular, plural, n, type(n), *((name, type(value), value) for name, value in values.items()))
        try:
            return self._phrases[key]
        except KeyError:
            phrase = self._phrases[key] = self._phrase(*self._lookup(context, singular, plural, n), values)
            return phrase
        except TypeError:  # a value that cannot be a key (a list): made each time
            return self._phrase(*self._lookup(context, singular, plural, n), values)

    def gettext(self, message: str, **values: Any) -> Phrase:
        return self._said(None, message, None, 1, values)

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> Phrase:
        return self._said(None, singular, plural, n, values)

    def pgettext(self, context: str, message: str, **values: Any) -> Phrase:
        return self._said(context, message, None, 1, values)

    def symbol_label(self, symbol: Symbol) -> Phrase:
        """The text alternative of a symbol: a few messages composed by kind, made once per page language."""
        if symbol.token not in self._symbols:
            self._symbols[symbol.token] = self._compose_symbol_label(symbol)
        return self._symbols[symbol.token]

    def symbol_label_in(self, symbol: Symbol, form: str) -> Phrase:
        """A symbol's label in the form a book's translation asked for (``{1:acc}``: «1 единицу
        общей маны»), from the label forms of the language's grammar files (i18n/forms.py); as
        shown when they give none (the check reports it) or the label fell back to another language."""
        key = (symbol.token, form)
        if key not in self._asked:
            label = self.symbol_label(symbol)
            found = None
            if label.language == self.language:

                def lookup(context: str | None, msgid: str) -> str:
                    return (self.pgettext(context, msgid) if context else self.gettext(msgid)).text

                found = label_in(symbol, form, prose_grammar(self.language.code, self.project), lookup, label.text)
            self._asked[key] = label if found is None else replace(label, text=found)
        return self._asked[key]

    def _compose_symbol_label(self, symbol: Symbol) -> Phrase:
        code = symbol.token[1:-1]
        fixed = {
            "T": self.gettext("tap"),
            "Q": self.gettext("untap"),
            "PW": self.gettext("planeswalker symbol"),
            "CHAOS": self.gettext("chaos symbol"),
            "BLANK": self.gettext("blank face"),
            "hearts": self.gettext("hearts"),
            "diamonds": self.gettext("diamonds"),
            "clubs": self.gettext("clubs"),
            "spades": self.gettext("spades"),
        }
        if code in fixed:
            return fixed[code]
        if symbol.kind == "die":
            return self.gettext("die showing {n}", n=code[1:])
        if symbol.kind == "generic":
            # Translators: {amount} is a number of generic mana ("2 manas génériques").
            return self.ngettext("{amount} generic mana", "{amount} generic mana", int(code), amount=code)
        if symbol.kind == "variable":
            # Translators: {amount} is a letter such as X, a number of generic mana chosen on casting.
            return self.pgettext("variable amount", "{amount} generic mana", amount=code)
        if code == "C":
            return self.gettext("colourless mana")
        colours = {
            # Translators: a colour of mana, as it reads in "{colour} mana" (agreeing with "mana").
            "W": self.pgettext("mana colour", "white"),
            "U": self.pgettext("mana colour", "blue"),
            "B": self.pgettext("mana colour", "black"),
            "R": self.pgettext("mana colour", "red"),
            "G": self.pgettext("mana colour", "green"),
        }
        first, _, second = code.partition("/")
        if code in colours:
            return self.gettext("{colour} mana", colour=colours[code])
        if second == "P":
            return self.gettext("Phyrexian {colour} mana", colour=colours[first])
        if first == "2":
            return self.gettext("two generic or {colour} mana", colour=colours[second])
        return self.gettext("hybrid {a} or {b} mana", a=colours[first], b=colours[second])

    def template_globals(self) -> dict[str, Callable[..., Phrase | str]]:
        """The gettext names a template calls (the ones Babel's Jinja2 extractor finds), and ``percent``."""
        return {"_": self.gettext, "gettext": self.gettext, "ngettext": self.ngettext, "pgettext": self.pgettext,
                "percent": self.percent}

    def percent(self, part: int, whole: int) -> str:
        """``part`` of ``whole`` as a whole percentage written the page language's way (CLDR, by Babel):
        French puts a no-break space before the sign («100 %»), English none («100%»). Nothing of
        nothing is all done (100)."""
        return format_percent(part / whole if whole else 1, locale=self.language.locale)


@lru_cache(maxsize=None)  # pure: cache.py
def shipped_words(code: str) -> Words:
    """A language's words from the package's catalogs alone (no project, no other source)."""
    lang = parse_language(code)
    return Words(lang, lang, lambda found: load_messages(SITE, found))


def symbol_label(symbol: Symbol, language: str | Words) -> Phrase:
    """The text alternative of a symbol in a language (a code, or a page's :class:`Words`)."""
    words = language if isinstance(language, Words) else shipped_words(language)
    return words.symbol_label(symbol)
