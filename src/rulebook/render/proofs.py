"""A worked example's proof told in words: what the engine did, step by step, in the page's language.

The example runner records every action the doctest applied and every one the game refused
(:class:`~rulebook.engines.base.Applied`, :class:`~rulebook.engines.base.Refused`), so these
sentences come from the run that proved the example and cannot disagree with it. Each step
names its rule (a link to it when the book has it) and says what changed; a refusal says which
rule refused and why; a game's set-up that every example shares (``started()``'s mulligans)
is one line, so that the first steps are the ones the example is about. The sentences are the engine's :class:`~rulebook.messages.Message` values,
translated in the engine's domain (then the engines' shared one) and filled with values in the
same language: a nested message translated in turn, a card by its printed name, code as code,
notation as it is written, its symbols (a die face, a mana cost) drawn as the book draws them.
A name or a message in a placeholder is filled in the form the msgstr asks for ({target:à},
{chosen:acc}) and agrees by its gender and number (:mod:`rulebook.i18n.grammar`, docs/grammar.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from markupsafe import Markup, escape

from ..engines.base import Applied, Record, Refused
from ..i18n.domains import SITE
from ..i18n.forms import label_in, notation_term, number_term
from ..i18n.grammar import Grammar, Term, fill, load_grammar
from ..languages import Language
from ..languages import language as parse_language
from ..messages import Code, Message, Name, Notation
from ..symbols import Symbol
from .text import text_to_html, text_to_plain
from .ui import Words

T = TypeVar("T")

_ENGLISH = parse_language("en")  # the language of every msgid (the gettext convention)


class EngineSpeech:
    """An engine's messages in one page language: its own domain's words first, then the shared ones."""

    def __init__(self, domains: Sequence[Words], page: Words, project: Path | None = None):
        self.domains, self.page = tuple(domains), page
        # The language's rules (the site's grammar file), then each domain's names, the engine's
        # last; then the project's own (``project``: its locales folder), which has the last word.
        dirs = (SITE.locale_dir, *reversed([words.domain.locale_dir for words in self.domains]), *((project,) if project else ()))
        self.grammars: dict[str, Grammar] = {}
        self._dirs = tuple(dict.fromkeys(dirs))
        #: Each name a msgstr left in a form its sentence does not take (tests/test_grammar.py).
        self.wrong_forms: list[str] = []
        # What each message said, as HTML and as plain text: a book's proofs say the same sentences
        # over and over (the repository's: 9,600 sentences, 3,990 distinct; 17,784 plain texts, 54).
        self._said: dict[Hashable, Markup] = {}
        self._plain: dict[Hashable, str] = {}

    def grammar(self, language: Language) -> Grammar:
        if language.code not in self.grammars:
            self.grammars[language.code] = load_grammar(language.code, self._dirs)
        return self.grammars[language.code]

    def _template(self, text: Message) -> tuple[str, Language]:
        # Every domain's catalogs before any msgid: on an English page the engine's own domain
        # would otherwise answer with its msgid a message the shared domain translates.
        key = (text.context, text.msgid, text.plural, text.n)
        found = next((f for words in self.domains if (f := words.in_catalogs(*key))), None) or self.domains[-1].find(*key)
        return found or ((text.msgid if text.plural is None or text.n == 1 else text.plural), _ENGLISH)

    def plain(self, text: str) -> str:
        """A message as plain text in the page's language (a board's tooltip, a piece's letter)."""
        if not isinstance(text, Message):
            return str(text)
        return _remembered(self._plain, text, self._plain_made)

    def _plain_made(self, text: Message) -> str:
        template, language = self._template(text)
        values = {key: self._term(value, Markup(escape(self._plain_value(value))), plain=True) for key, value in text.params}
        try:
            return fill(template, values, self.grammar(language)).html.unescape()
        except (KeyError, IndexError, ValueError):
            return str(text)

    def _plain_value(self, value: Any) -> str:
        if isinstance(value, Message):
            return self.plain(value)
        if isinstance(value, Notation):  # a symbol by its name: "(chaos symbol)"
            return text_to_plain(value, self.page)
        return str(self.value(value).striptags())

    def _term(self, value: Any, html: Markup, plain: bool = False) -> Any:
        """A name or a message as a :class:`Term` (its grammar entry by its English name or msgid); other values as they are."""
        if isinstance(value, (tuple, list)):
            # A list tells its number, so that a msgstr agrees with it ("картой"/"картами":
            # {cards.number:sg=картой|pl=картами}); it has no other form, so it is fixed.
            return Term("", html, {"number": "pl" if len(value) > 1 else "sg", "fixed": "yes"})
        if isinstance(value, Notation):
            return self._notation(value, html, plain)
        if type(value) is int:  # a count: a msgstr agrees with it ({hands.plural:one=карты|other=карт}), as ICU's plural
            return number_term(value, html, self.page.language.code)
        key = _grammar_key(value)
        if key is None:
            return html
        own = tuple((k, Markup(escape(self._plain_value(v))) if plain else self.value(v)) for k, v in value.params) if isinstance(value, Message) else ()
        entry = self.grammar(self.page.language).entry(key)
        names = dict(value.names) if isinstance(value, Name) else getattr(value, "names", None)
        code = self.page.language.code
        if isinstance(names, Mapping) and (code not in names or code in getattr(value, "unprinted", ())):
            # Shown by its English name (its data says it was never printed in this language): a
            # language that declines its own names leaves a foreign one as printed, and no article
            # is joined to it. A name printed alike in two languages (Terror, es) is printed: only
            # the data says so, never its spelling.
            entry = {**entry, "fixed": "yes"}
        return Term(key, html, entry, own)

    def _notation(self, value: Notation, html: Markup, plain: bool) -> Term:
        """A notation's symbols, read out in the form a msgstr asks for ({mana:acc}: «синюю ману»)."""
        grammar, page = self.grammar(self.page.language), self.page

        def lookup(context: str | None, msgid: str) -> str:
            return (page.pgettext(context, msgid) if context else page.gettext(msgid)).text

        def render(form: str) -> Markup | None:
            missing: list[str] = []

            def relabel(symbol: Symbol, shown: str) -> str:
                found = label_in(symbol, form, grammar, lookup, shown)
                if found is None:
                    missing.append(symbol.token)
                return shown if found is None else found

            made = Markup(escape(text_to_plain(value, page, relabel=relabel))) if plain else text_to_html(value, language=page, inline=True, relabel=relabel)
            return None if missing else made

        return notation_term(value, html, grammar, render)

    def say(self, text: str) -> Markup:
        """A message as inline HTML in the page's language (marked where it had to fall back)."""
        if not isinstance(text, Message):  # an engine that still writes plain English
            return self.page.mark(escape(text), _ENGLISH)
        return _remembered(self._said, text, self._said_made)

    def _said_made(self, text: Message) -> Markup:
        template, language = self._template(text)
        values = {key: self._term(value, self.value(value)) for key, value in text.params}
        if language != self.page.language:  # a fallback's template cannot ask the page language's forms
            values = {key: replace(value, ask=False) if isinstance(value, Term) else value for key, value in values.items()}
        try:
            filled = fill(template, values, self.grammar(language))
            html = filled.html
            self.wrong_forms.extend(f"{language.code}: {wrong}" for wrong in filled.wrong_forms)
        except (KeyError, IndexError, ValueError):  # a catalog the checks did not see (a project's, unchecked)
            plain = {key: value.html if isinstance(value, Term) else value for key, value in values.items()}
            html, language = escape(text.msgid).format_map(plain), _ENGLISH
        return self.page.mark(html, language)

    def _list_words(self) -> tuple[str | None, str]:
        """What goes before a list's last item (None where the page's language has not said it:
        CLDR's pattern then) and between items that hold commas."""
        # Translators: before the last item of a list in an example's steps ("a3, b3 and c4"): your style sheet's words and spacing (no serial comma in US English: " and ").
        last = self.page.gettext("{item} and {last}", item="", last="")
        semicolon = self.page.gettext("{item}; {next}", item="", next="")
        return (last.text if last.language == self.page.language else None), semicolon.text

    def value(self, value: Any) -> Markup:
        """A placeholder's value in the page's language."""
        if isinstance(value, Message):
            return self.say(value)
        if isinstance(value, Code):
            return Markup("<code>{}</code>").format(value)
        if isinstance(value, Notation):  # {CHAOS}, {2}: the icon and its label in the page's language
            return text_to_html(value, language=self.page, inline=True)
        if isinstance(value, (tuple, list)):
            return listed([self.value(v) for v in value], self.page.language.code, *self._list_words())
        if isinstance(value, Name):
            return escape(dict(value.names).get(self.page.language.code, value.default))
        names = getattr(value, "names", None)
        if isinstance(names, Mapping):  # a card: its printed name in the reader's language
            return escape(names.get(self.page.language.code) or getattr(value, "name", "") or names.get("en", ""))
        return escape(str(value))


def _remembered(table: dict[Hashable, T], text: Message, make: Callable[[Message], T]) -> T:
    """What ``make`` said of ``text`` the first time, from ``table`` by :func:`said_key` (a message
    that cannot be a key is said again each time)."""
    key = said_key(text)
    if key is None:
        return make(text)
    if key not in table:
        table[key] = make(text)
    return table[key]


def said_key(value: Any) -> Hashable | None:
    """What a message says, as a key: its msgid, plural, count, context and every placeholder's
    value with its type, a nested message's the same way (a Message *is* its English text, so two
    messages with one English text, a context apart, are equal as strings; ``True == 1``).
    None: a value cannot be a key (unhashable), so the message is said again each time.

    >>> said_key(Message("Cast", context="verb")) == said_key(Message("Cast", context="noun"))
    False
    >>> said_key(Message("{n}", (("n", True),))) == said_key(Message("{n}", (("n", 1),)))
    False
    """
    try:
        return _key(value)
    except TypeError:
        return None


def _key(value: Any) -> Hashable:
    if isinstance(value, Message):
        return (Message, str(value), value.msgid, value.plural, value.n, value.context, tuple((k, _key(v)) for k, v in value.params))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(_key(v) for v in value))
    hash(value)  # TypeError: not a key
    return (type(value), value)


def listed(items: Sequence[Markup], language: str, last: str | None = None, semicolon: str = "; ") -> Markup:
    """Items as a list in ``language``'s words: "a3, b3 and c4", «a3, b3 et c4», «a3, b3 и c4» (a
    bare comma read as an unfinished list, review4-en/fr/pt). The words before the last item are
    ``last`` (the site word a language's style sheet sets: US English has no serial comma), else
    CLDR's list pattern as Babel ships it. Items that hold a comma or that word themselves are
    joined by ``semicolon``, with no conjunction, when they are three or more («rosso: 4 e 2;
    verde: 3 e 1; blu: 1 e 0»: another «e» would read as part of an item, review5-it E5-1).

    >>> listed([Markup("a3"), Markup("b3"), Markup("<b>c4</b>")], "fr")
    Markup('a3, b3 et <b>c4</b>')
    >>> listed([Markup(""), Markup("pagare 1 punto vita"), Markup("esiliare una carta")], "it")
    Markup('pagare 1 punto vita ed esiliare una carta')
    >>> listed([Markup("red: 4 and 2"), Markup("green: 3 and 1"), Markup("blue: 1 and 0")], "en", last=" and ")
    Markup('red: 4 and 2; green: 3 and 1; blue: 1 and 0')
    >>> listed([Markup("flashback"), Markup("its own cost (pay 1 life and exile a card)")], "en", last=" and ")
    Markup('flashback and its own cost (pay 1 life and exile a card)')
    """
    items = [item for item in items if item]  # an empty part (a cost with no mana) says nothing
    if len(items) < 2:
        return Markup("").join(items)
    patterns = _list_patterns(language)
    if last is not None:
        patterns = {**patterns, "2": "{0}" + last + "{1}", "end": "{0}" + last + "{1}"}
    conjunction = patterns["2"].replace("{0}", "").replace("{1}", "").strip()
    if len(items) > 2 and any(_compound(item.striptags(), conjunction) for item in items):
        return Markup(escape(semicolon)).join(items)
    if len(items) == 2:
        return _euphonic(Markup(escape(patterns["2"])).format(*items), items[-1], language)
    said = Markup(escape(patterns["start"])).format(items[0], items[1])
    for item in items[2:-1]:
        said = Markup(escape(patterns["middle"])).format(said, item)
    return _euphonic(Markup(escape(patterns["end"])).format(said, items[-1]), items[-1], language)


def _compound(item: str, conjunction: str) -> bool:
    """Whether a list item is itself a series (a comma or the conjunction outside its brackets and
    quotes): «rosso: 4 e 2» is, «il suo costo alternativo (…, pagare 1 punto vita ed esiliare …)»
    and «rosso (7♥ e A♠)» are not (review6: a semicolon there cut a refusal in two)."""
    bare = _ASIDES.sub("", item)
    return ", " in bare or (bool(conjunction) and f" {conjunction} " in f" {bare} ")


_ASIDES = re.compile(r"\([^()]*\)|«[^«»]*»|“[^“”]*”|\"[^\"]*\"")


#: The conjunction that changes before a sound, which CLDR's patterns leave out: Italian «ed»
#: before e- («pagare 1 punto vita ed esiliare»), Spanish «e» before an i- sound («Bosques e Islas»).
_EUPHONY: dict[str, tuple[str, tuple[str, ...], str]] = {"it": (" e ", ("e", "é", "è"), " ed "), "es": (" y ", ("i", "hi", "í"), " e ")}


def _euphonic(said: Markup, last: Markup, language: str) -> Markup:
    rule = _EUPHONY.get(language.split("-", maxsplit=1)[0])
    word = last.striptags().casefold()
    if rule is None or not word.startswith(rule[1]) or word.startswith(("hie", "hia", "hio")):
        return said
    joined = rule[0] + last
    return Markup(said[:len(said) - len(joined)] + rule[2] + last) if said.endswith(joined) else said


@functools.cache
def _list_patterns(language: str) -> Mapping[str, str]:
    try:
        return dict(parse_language(language).locale.list_patterns["standard"])
    except ValueError:  # a language CLDR lacks (RulebookError): commas, as before
        return {"2": "{0}, {1}", "start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0}, {1}"}


def _grammar_key(value: Any) -> str | None:
    """What a value's entry in a grammar file is called: a card or a name by its English name, a
    message by its msgid (``context|msgid`` when it has a context); None for a value without grammar."""
    if isinstance(value, Message):
        return f"{value.context}|{value.msgid}" if value.context else value.msgid
    if isinstance(value, Name):
        return dict(value.names).get("en", value.default)
    names = getattr(value, "names", None)
    if isinstance(names, Mapping):
        return names.get("en") or str(getattr(value, "name", ""))
    return None


def proof_steps(records: Sequence[Record], speech: EngineSpeech, rule_link: Callable[[str], Markup]) -> list[Markup]:
    """One list item per rule that fired and per refusal, in the order of the run."""
    words = speech.page
    items: list[Markup] = []
    for record in records:
        if isinstance(record, Applied) and record.summary is not None:
            # A game's set-up, the same opening in every example: one line, its steps left to the doctest.
            fired = record.summary
            items.append(Markup(f'<li class="rb-step rb-step--setup"><span class="rb-step-rule">{escape(rule_link(fired.rule))}</span> '
                                f'{escape(speech.say(fired.what))}</li>'))
        elif isinstance(record, Applied):
            for fired in record.trace:
                # An f-string of escaped values: Markup.format parses its format string in Python, per step.
                items.append(Markup(f'<li class="rb-step"><span class="rb-step-rule">{escape(rule_link(fired.rule))}</span> '
                                    f'{escape(speech.say(fired.what))}</li>'))
        elif isinstance(record, Refused):
            # Translators: a worked example's step the game refused; {rule} is the number of the rule that refused it.
            refused = words.gettext("Refused by rule {rule}:", rule="\x00")
            head = escape(refused).replace("\x00", rule_link(record.error.rule_id)) if "\x00" in refused.text else (
                escape(refused) + Markup(" ") + rule_link(record.error.rule_id))
            items.append(Markup('<li class="rb-step rb-step--refused"><strong>{}</strong> {}</li>').format(
                head, speech.say(record.error.message)))
    return items

