"""Names that carry their grammar, and msgstrs that choose the form (issue 27; docs/grammar.md).

An engine sentence is a template whose placeholders are filled by the site. A name (a card, a
land, a zone, a clan…) arrives as a :class:`Term`: its text in the page's language plus the
grammar a translator wrote for it, so the msgstr asks for the form the sentence needs — the way
Project Fluent's terms carry attributes and ICU MessageFormat selects on a value — while the file
translators see stays a gettext PO with Python brace placeholders:

    {card:acc}                     a form: a case (ru), an article (def, indef), a preposition
                                   joined to the article (fr à/de, es a/de, pt a/de/em)
    {card.gender:m=pris|f=prise}   a select on a feature (gender, number); ``other=`` as default

The forms and features come from ``<locale dir>/LANG/grammar.yaml`` beside each shipped
catalog (read by the strict YAML loader): the language's rules (which forms exist, its
articles, the contractions à+le=au, its elision before a vowel) in the site's file, the names'
gender, number and irregular forms in each engine's. A form the rules can make (an article, a
contraction, English a/an) is made; one they cannot (a Russian case) must be written per name.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.core import Locale, UnknownLocaleError
from markupsafe import Markup, escape

from ..cache import current, kind
from ..errors import LoadError, Problem
from ..loader import display_path
from ..yamlnodes import Mapping as YMapping
from ..yamlnodes import Scalar, YNode, read_yaml
from ..yamlnodes import Sequence as YSequence

#: The file beside a locale dir's catalogs: ``<locale dir>/LANG/grammar.yaml``.
GRAMMAR_FILE = "grammar.yaml"
#: What a select may look at ({card.gender:…}); the values each language allows are its ``features``.
#: ``plural`` is a number's CLDR category (ru: one, few, many), as ICU MessageFormat's ``plural`` chooses.
FEATURES = ("gender", "number", "plural")
#: What a name's entry writes; its ``plural`` is a number's, never written.
_NAME_FEATURES = ("gender", "number")
# yes/no per name: takes an article (definite or indefinite); elides before it; is the same in every case
# (a name printed only in English on a Russian page, a label such as "P0")
_ENTRY_FLAGS = ("article", "elide", "fixed")
_RULE_KEYS = {"as_written", "closes_apposition", "with_article", "forms", "features", "defaults", "articles", "before_vowel", "vowel", "contractions", "prepositions", "governs", "names"}


@dataclass
class Grammar:
    """One language's rules and names, merged from every grammar file it has."""

    language: str
    forms: list[str] = field(default_factory=list)  # form names a msgstr may ask for
    as_written: list[str] = field(default_factory=list)  # forms that are the name as printed (ru nom)
    #: Forms of a name as a sentence's subject: a name with an apposition in it ("Thalia, vigile
    #: de Thraben") is closed by a comma before its verb.
    closes_apposition: list[str] = field(default_factory=list)
    #: Forms that also put the definite article before a name that takes one, as ``def`` does: a
    #: subject that closes its apposition and has its article ("la Plaine part", "Thalia, …, part").
    with_article: list[str] = field(default_factory=list)
    features: dict[str, list[str]] = field(default_factory=dict)  # gender: [m, f], number: [sg, pl]
    defaults: dict[str, str] = field(default_factory=dict)  # a name's gender, number, article when its entry is silent
    articles: dict[str, dict[str, str]] = field(default_factory=dict)  # def: {m: le, f: la, pl: les}
    before_vowel: dict[str, str] = field(default_factory=dict)  # le: l’, a: an, de: d’
    vowel: str = ""  # a regular expression: the name begins with a sound that elides
    contractions: dict[str, str] = field(default_factory=dict)  # "à le": au
    prepositions: list[str] = field(default_factory=list)  # forms that are a preposition joined to the article
    governs: list[str] = field(default_factory=list)  # words after which a bare name is in the wrong form
    names: dict[str, dict[str, str]] = field(default_factory=dict)  # by the English name (or a message's msgid)

    def entry(self, key: str) -> dict[str, str]:
        return {**self.defaults, **self.names.get(key, {})}

    def known(self, form: str) -> bool:
        return form in self.forms

    def made(self, form: str, entry: dict[str, str], plain: str) -> tuple[str, str] | None:
        """The words a rule puts around a name for ``form``: (before, after); None when no rule makes it."""
        gender = entry.get("gender", "")
        slots = [f"{gender}.pl", "pl", "any"] if entry.get("number") == "pl" else [gender, "any"]
        vowel = bool(self.vowel) and entry.get("elide", "yes") != "no" and re.match(self.vowel, plain, re.IGNORECASE) is not None
        if form in self.closes_apposition:
            definite = self.made("def", entry, plain) if form in self.with_article and "def" in self.articles else None
            return (definite[0] if definite else ""), ("," if ", " in plain else "")
        if form in self.as_written:
            return "", ""
        if entry.get("fixed") == "yes":
            # A name left as printed in another language takes no article and no case ending, but
            # the sentence's preposition stays: "objetivo de Counterspell", never "objetivo Counterspell".
            return (_joined(form, vowel, self.before_vowel) if form in self.prepositions else ""), ""
        if form in self.articles:
            if entry.get("article") == "no":  # no article of any kind: "P1 draws Lightning Bolt", never "a Lightning Bolt"
                return "", ""
            return _joined(_slot(self.articles[form], slots), vowel, self.before_vowel), ""
        if form in self.prepositions:
            if entry.get("article") == "no" or "def" not in self.articles:
                return _joined(form, vowel, self.before_vowel), ""
            article = _slot(self.articles["def"], slots)
            article = self.before_vowel.get(article, article) if vowel else article
            phrase = self.contractions.get(f"{form} {article}".strip(), f"{form} {article}".strip())
            return _joined(phrase, False, {}), ""
        return None


def _slot(words: dict[str, str], slots: list[str]) -> str:
    return next((words[slot] for slot in slots if slot in words), "")


def _joined(word: str, vowel: bool, before_vowel: dict[str, str]) -> str:
    if not word:
        return ""
    word = before_vowel.get(word, word) if vowel else word
    return word if word.endswith(("’", "'")) else word + " "


# --- reading the files -------------------------------------------------------------------------


def grammar_files(language: str, locale_dirs: Iterable[Path]) -> list[Path]:
    """The files of ``language`` (pt_BR), or of its language without the region (pt) when it has none."""
    dirs = list(locale_dirs)
    for code in dict.fromkeys((language, language.split("_", maxsplit=1)[0])):
        if found := [path for d in dirs if (path := Path(d) / code / GRAMMAR_FILE).is_file()]:
            return found
    return []


def load_grammar(language: str, locale_dirs: tuple[Path, ...]) -> Grammar:
    """``language``'s grammar from the dirs in order: a later file's names replace an earlier's.

    Read again when a file changed (``rulebook serve`` shows a translator's edit on reload)."""
    files = tuple((path, path.stat().st_mtime_ns) for path in grammar_files(language, locale_dirs))
    cache = current()
    return _load((language, files)) if cache is None else cache.memo(GRAMMARS, (language, files), _load)


def grammar_problems(language: str, locale_dirs: tuple[Path, ...]) -> list[Problem]:
    """What is wrong in ``language``'s grammar files, each at its line (``rulebook i18n check``)."""
    try:
        load_grammar(language, locale_dirs)
    except LoadError as error:
        return list(error.problems)
    return []


GRAMMARS = kind("grammar", ("language", "files"), "a language's grammar files read once per build and modification time "
               "(a file that cannot be read raises each time: nothing kept)")


def _load(key: tuple[str, tuple[tuple[Path, int], ...]]) -> Grammar:
    language, files = key
    grammar = Grammar(language)
    problems: list[Problem] = []
    for path, _ in files:
        _read_into(grammar, path, problems)
    if problems:
        raise LoadError(problems)
    return grammar


def _read_into(grammar: Grammar, path: Path, problems: list[Problem]) -> None:
    shown = display_path(path)
    root = read_yaml(path, shown, "a grammar file needs a mapping, e.g. 'names:'")

    def fail(node: YNode, message: str) -> None:
        problems.append(Problem(shown, node.line, node.column, message))

    if not isinstance(root, YMapping):
        fail(root, "a grammar file is a mapping of forms, features, articles … and names")
        return
    for key, (key_node, node) in root.items.items():
        if key not in _RULE_KEYS:
            fail(key_node, f"unknown key {key!r}; a grammar file has {', '.join(sorted(_RULE_KEYS))}")
        elif key in ("forms", "as_written", "closes_apposition", "with_article", "prepositions", "governs"):
            getattr(grammar, key).extend(_strings(node, key, fail))
        elif key == "vowel":
            if isinstance(node, Scalar):
                grammar.vowel = node.value
            else:
                fail(node, "vowel is a regular expression, e.g. '[aeiouh]'")
        elif key == "features":
            for name, values in _mapping(node, key, fail).items():
                grammar.features[name] = _strings(values, f"features.{name}", fail) if isinstance(values, YNode) else []
        elif key == "articles":
            for name, slots in _mapping(node, key, fail).items():
                grammar.articles[name] = _scalars(slots, f"articles.{name}", fail)
        elif key in ("defaults", "before_vowel", "contractions"):
            getattr(grammar, key).update(_scalars(node, key, fail))
    names = root.items.get("names")
    if names is not None:
        for name, entry in _mapping(names[1], "names", fail).items():
            fields = _scalars(entry, f"names.{name}", fail)
            for form, value in fields.items():
                where = entry.items[form][0] if isinstance(entry, YMapping) else entry
                if form in _NAME_FEATURES:
                    if value not in grammar.features.get(form, []):
                        fail(where, f"{name}: {form} {value!r} is not one of {grammar.language}'s: {', '.join(grammar.features.get(form, []))}")
                elif form in _ENTRY_FLAGS:
                    if value not in ("yes", "no"):
                        fail(where, f"{name}: {form} is yes or no, not {value!r}")
                elif not grammar.known(form):
                    fail(where, f"{name}: {form!r} is not a form of {grammar.language} (its forms: {', '.join(grammar.forms)}); "
                                "add it to 'forms' in the language's grammar file or correct the name")
            grammar.names[name] = {**grammar.names.get(name, {}), **fields}


#: How a reader reports a problem at a node of the grammar file.
Fail = Callable[[YNode, str], None]


def _mapping(node: YNode, what: str, fail: Fail) -> dict[str, YNode]:
    if not isinstance(node, YMapping):
        fail(node, f"{what} must be a mapping")
        return {}
    return {key: value for key, (_, value) in node.items.items()}


def _scalars(node: YNode, what: str, fail: Fail) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in _mapping(node, what, fail).items():
        if isinstance(value, Scalar):
            found[key] = value.value
        else:
            fail(value, f"{what}.{key} must be a single word or phrase")
    return found


def _strings(node: YNode, what: str, fail: Fail) -> list[str]:
    if not isinstance(node, YSequence) or not all(isinstance(item, Scalar) for item in node.items):
        fail(node, f"{what} must be a list of words, e.g. [def, indef]")
        return []
    return [item.value for item in node.items]  # type: ignore[union-attr]  # all Scalars (the all() above)


# --- filling a msgstr ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """A placeholder's value that has grammar: its text (HTML) in the page's language and its entry."""

    key: str  # the English name or the message's msgid: what its entry in a grammar file is called
    html: Markup
    entry: dict[str, str]
    #: A message's own placeholders, filled: a form written for it may use them ("альтернативную стоимость ({asks})").
    values: tuple[tuple[str, Any], ...] = ()
    #: Forms made by drawing the value again (a mana notation, its labels in a case: i18n/forms.py);
    #: None for a form it lacks.
    forms: Callable[[str], Markup | None] | None = field(default=None, compare=False)
    #: The language tells its forms apart and the value has them: a msgstr must ask for one
    #: ({mana:nom} for the nominative), never leave it to the engine's base form.
    ask: bool = False

    @property
    def gender(self) -> str:
        return self.entry.get("gender", "")

    @property
    def number(self) -> str:
        return self.entry.get("number", "sg")

    @property
    def plural(self) -> str:
        return self.entry.get("plural", "other")


def plural_categories(language: str) -> set[str]:
    """The plural categories a ``{amount.plural:…}`` select may name in ``language`` (Babel's CLDR data)."""
    try:
        return set(Locale.parse(language.replace("-", "_")).plural_form.tags) | {"other"}
    except (UnknownLocaleError, ValueError):
        return {"other"}


def fields(template: str) -> list[tuple[str, str, str]]:
    """A msgstr's placeholders as (name, attribute, spec): ``{card.gender:m=le|f=la}`` is ('card', 'gender', 'm=le|f=la')."""
    found = []
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            root, _, attribute = name.partition(".")
            found.append((root, attribute, spec or ""))
    return found


def select(spec: str) -> dict[str, str] | None:
    """A select's options (``m=le|f=la|other=les``); None when ``spec`` is a form name."""
    if "=" not in spec:
        return None
    options = {}
    for option in spec.split("|"):
        key, equals, text = option.partition("=")
        if not equals:
            return None
        options[key.strip()] = text
    return options


def spec_problems(translation: str, grammar: Grammar) -> list[str]:
    """What in a msgstr's placeholders the language's grammar does not know (``rulebook i18n check``)."""
    try:
        found = fields(translation)
    except ValueError:
        return []  # a lone brace: the placeholder check says so
    problems = []
    for root, attribute, spec in found:
        options = select(spec)
        if attribute:
            if attribute not in FEATURES:
                problems.append(f"{{{root}.{attribute}}}: a placeholder tells only its {' and '.join(FEATURES)}")
            elif options is None:
                problems.append(f"{{{root}.{attribute}:{spec}}}: a select is written {{{root}.{attribute}:a=…|b=…|other=…}}")
            else:
                allowed = (plural_categories(grammar.language) if attribute == "plural" else set(grammar.features.get(attribute, []))) | {"other"}
                if unknown := set(options) - allowed:
                    problems.append(f"{{{root}.{attribute}}}: {', '.join(sorted(unknown))} is not a {grammar.language} {attribute} "
                                    f"(one of {', '.join(sorted(allowed))})")
        elif spec and not grammar.known(spec):
            known = ", ".join(grammar.forms) or "none: its grammar file lists no forms"
            problems.append(f"{{{root}:{spec}}}: {spec!r} is not a form {grammar.language} knows ({known}); see docs/grammar.md")
    return problems


@dataclass
class Filled:
    """A filled msgstr and what went wrong with a name's form in it (tests/test_grammar.py reads them)."""

    html: Markup
    wrong_forms: list[str]


def fill(template: str, values: dict[str, Any], grammar: Grammar) -> Filled:
    """``template`` with its placeholders filled: plain values as they are (Markup), terms in the form asked."""
    out: list[Markup] = []
    wrong: list[str] = []
    for literal, name, spec, _conversion in string.Formatter().parse(template):
        out.append(escape(literal))
        if name is None:
            continue
        root, _, attribute = name.partition(".")
        value = values[root]
        if attribute:
            if attribute not in FEATURES:
                raise KeyError(name)
            feature = getattr(value, attribute, "") if isinstance(value, Term) else ""
            options = select(spec or "") or {}
            out.append(escape(options.get(feature, options.get("other", ""))))
            continue
        if not isinstance(value, Term):
            out.append(escape(value))
            continue
        if spec:
            made = _form(value, spec, grammar)
            if made is None:
                wrong.append(f"{template!r}: {{{root}:{spec}}} asks for a form {value.key!r} has no entry for in {grammar.language}")
                made = value.html
            elif spec in grammar.prepositions and spec not in value.entry and made == value.html:
                # Rules that made nothing around the name lost the sentence's preposition ("objetivo Terror").
                wrong.append(f"{template!r}: {{{root}:{spec}}} is filled with {value.key!r} without its preposition {spec!r}")
            out.append(made)
        elif value.ask:
            wrong.append(f"{template!r}: {{{root}}} is filled with symbols whose labels decline in {grammar.language}; "
                         f"ask for the form the sentence needs: {{{root}:{'|'.join(grammar.forms)}}}")
            out.append(value.html)
        else:
            before = literal.rstrip().rsplit(" ", 1)[-1].lower() if literal.strip() else ""
            if before in grammar.governs and _needs_form(value, before, grammar):
                wrong.append(f"{template!r}: {{{root}}} after {before!r} is filled with {value.key!r} in its base form; "
                             f"ask for the form the word needs: {{{root}:{_suggest(before, grammar)}}}")
            out.append(value.html)
    return Filled(Markup("").join(out), wrong)


def _form(term: Term, form: str, grammar: Grammar) -> Markup | None:
    if term.forms is not None:
        return term.forms(form)
    if form in term.entry:
        return fill(term.entry[form], dict(term.values), grammar).html
    made = grammar.made(form, term.entry, term.html.striptags())
    if made is None:
        return None
    return escape(made[0]) + term.html + escape(made[1])


def _needs_form(term: Term, word: str, grammar: Grammar) -> bool:
    # A governed word wants a form whenever the language makes one for this name: in Russian
    # every case but the nominative; in French "à"/"de" only before a name with an article or a vowel.
    if word in grammar.prepositions:  # a name left as printed too: the preposition is joined or not
        made = grammar.made(word, term.entry, term.html.striptags())
        return made is not None and made[0].strip() != word
    return term.entry.get("fixed") != "yes"


def _suggest(word: str, grammar: Grammar) -> str:
    if word in grammar.prepositions:
        return word
    return "|".join(f for f in grammar.forms if f not in grammar.as_written)
