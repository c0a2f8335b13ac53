"""Symbols asked for in a form: «добавляет {mana:acc}» → «добавляет синюю ману» (issue 27; docs/grammar.md).

A mana cost or a pool in an engine sentence is notation (``{B}{B}``): the page draws its icons,
and each icon's text alternative (what a screen reader reads, what a tooltip shows) is a site
word, «синяя мана». Inside a sentence the label must take the sentence's case, as a name does,
so the value is a :class:`~rulebook.i18n.grammar.Term` whose forms are the labels in that form.

The forms are data a translator edits: in the site's ``LANG/grammar.yaml``, under ``names:``,
each label by its message (``"{colour} mana"``, ``"mana colour|blue"``, ``hearts``), with the
form written out and the label's own placeholders asked in the form it needs:

    "{colour} mana": {acc: "{colour:acc} ману"}
    "mana colour|blue": {acc: синюю}
    "{amount} generic mana": {acc: "{amount} {amount.plural:one=единицу|few=единицы|other=единиц} общей маны"}

A number's ``plural`` is its CLDR category in the language (Babel's), the way ICU MessageFormat's
``plural`` chooses. A language whose labels have no forms (French: «il reste {pool}») never asks,
and its notation is the same in every form.

A book's prose asks the same way, on the symbol itself: a msgstr's ``{1:acc}`` is the symbol
``{1}`` (its icon unchanged) whose label reads «1 единицу общей маны» (:meth:`Words.symbol_label_in
<rulebook.render.ui.Words.symbol_label_in>`), from the same entries; :func:`check_symbol_forms` is
the check that the form is one the language knows and the label has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from babel.core import Locale, UnknownLocaleError
from markupsafe import Markup, escape

from ..errors import LoadError, Problem
from ..loader import display_path
from ..symbols import COLOUR_NAMES, SYMBOLS, TOKEN_RE, Symbol, table
from .glossary import Glossary
from .grammar import Grammar, Term, fill, grammar_files, load_grammar
from .grammar import grammar_problems as file_problems

#: The site words a symbol's label is made of, by token code: its message (``context|msgid``).
_FIXED = {"T": "tap", "Q": "untap", "PW": "planeswalker symbol", "CHAOS": "chaos symbol", "BLANK": "blank face",
          "hearts": "hearts", "diamonds": "diamonds", "clubs": "clubs", "spades": "spades"}
#: Every label message a grammar file may give forms to (what ``labels_decline`` looks for).
LABEL_KEYS = frozenset({*_FIXED.values(), "die showing {n}", "{amount} generic mana", "variable amount|{amount} generic mana",
                        "colourless mana", "{colour} mana", "Phyrexian {colour} mana", "two generic or {colour} mana",
                        "hybrid {a} or {b} mana", *(f"mana colour|{colour}" for colour in COLOUR_NAMES.values())})


def label_parts(symbol: Symbol) -> tuple[str, dict[str, str]] | None:
    """A symbol's label as its message's key and its placeholders: a colour by its message's key
    (``mana colour|blue``), a number as its digits. None for an engine's own symbol (its label is
    the engine's message, which has no forms)."""
    code = symbol.token[1:-1]
    if symbol.kind == "engine":
        return None
    if code in _FIXED:
        return _FIXED[code], {}
    if symbol.kind == "die":
        return "die showing {n}", {"n": code[1:]}
    if symbol.kind == "generic":
        return "{amount} generic mana", {"amount": code}
    if symbol.kind == "variable":
        return "variable amount|{amount} generic mana", {"amount": code}
    if code == "C":
        return "colourless mana", {}
    first, _, second = code.partition("/")
    if code in COLOUR_NAMES:
        return "{colour} mana", {"colour": _colour(code)}
    if second == "P":
        return "Phyrexian {colour} mana", {"colour": _colour(first)}
    if first == "2":
        return "two generic or {colour} mana", {"colour": _colour(second)}
    return "hybrid {a} or {b} mana", {"a": _colour(first), "b": _colour(second)}


def _colour(letter: str) -> str:
    return f"mana colour|{COLOUR_NAMES[letter]}"


@lru_cache(maxsize=4096)  # pure: a page asks the same few numbers thousands of times
def plural_category(language: str, n: int) -> str:
    """``n``'s CLDR plural category in ``language`` (ru: 1 one, 3 few, 5 many); ``other`` for a language Babel does not know."""
    try:
        return str(Locale.parse(language.replace("-", "_")).plural_form(n))
    except (UnknownLocaleError, ValueError):
        return "other"


def labels_decline(grammar: Grammar) -> bool:
    """Whether the language's symbol labels have forms: then a msgstr must say which one it wants."""
    return any(set(grammar.names.get(key, {})) & set(grammar.forms) for key in LABEL_KEYS)


#: How a label's words are found in the page's language: (context, msgid) -> text.
Lookup = Callable[[str | None, str], str]


def label_in(symbol: Symbol, form: str, grammar: Grammar, lookup: Lookup, plain: str) -> str | None:
    """``symbol``'s label in ``form`` (``plain``: the label as shown); None when no entry writes that form."""
    if form in grammar.as_written:
        return plain
    parts = label_parts(symbol)
    if parts is None:
        return None
    key, params = parts
    template = grammar.entry(key).get(form)
    if template is None:
        return None
    values: dict[str, object] = {}
    for name, param in params.items():
        if param.isdigit() or len(param) == 1:  # a number (or X): it agrees by its plural category
            values[name] = Term("", escape(param), {"fixed": "yes", "plural": plural_category(grammar.language, int(param)) if param.isdigit() else "other"})
        else:
            context, _, msgid = param.partition("|")
            values[name] = Term(param, escape(lookup(context, msgid)), grammar.entry(param))
    filled = fill(template, values, grammar)
    return None if filled.wrong_forms else filled.html.unescape()


def mana_number(notation: str) -> str:
    """``sg`` when a notation is one mana or one symbol ({R}, {1}), else ``pl`` ({B}{B}, {2}); a notation without symbols (a square, a card) is one thing."""
    count, drawn = 0, False
    for match in TOKEN_RE.finditer(notation):
        code = match.group(1)
        count, drawn = count + (int(code) if code.isdigit() else 1), True
    return "sg" if count == 1 or not drawn else "pl"


def notation_term(notation: str, html: Markup, grammar: Grammar, render: Callable[[str], Markup | None],
                  symbols: dict[str, Symbol] | None = None) -> Term:
    """A notation as a :class:`Term`: its number (``{pool.number:sg=resta|pl=restam}``) and, where
    the language's labels decline and it draws symbols, its forms (``render(form)``, None for a
    form a label lacks); a msgstr must then ask for one (tests/test_grammar.py)."""
    known = symbols or table()
    drawn = [known[m.group(0)] for m in TOKEN_RE.finditer(notation) if m.group(0) in known]
    if not drawn or not labels_decline(grammar):
        # The same in every form; a square is no word to elide before («de e4», never «d'e4»).
        return Term("", html, {"number": mana_number(notation), "fixed": "yes", "elide": "no"})
    return Term("", html, {"number": mana_number(notation)}, forms=render, ask=True)


def grammar_problems(language: str, locale_dirs: tuple[Path, ...]) -> list[Problem]:
    """What is wrong in ``language``'s grammar files (``rulebook i18n check``): each file at its
    line, then each symbol label that lacks a form another label has."""
    if problems := file_problems(language, locale_dirs):
        return problems
    return label_problems(load_grammar(language, locale_dirs), grammar_files(language, locale_dirs))


def label_problems(grammar: Grammar, files: list[Path]) -> list[Problem]:
    """Each symbol's label that lacks a form another label has (``rulebook i18n check``): a msgstr
    that asks ``{mana:acc}`` may be filled with any mana, so every label must give ``acc``; a
    written form that asks one of its own placeholders in a form that placeholder lacks
    (``{colour:acc}`` with no ``acc`` for a colour) is the same fault."""
    declined = sorted({form for key in LABEL_KEYS for form in grammar.names.get(key, {}) if form in grammar.forms and form not in grammar.as_written})
    if not declined:
        return []
    problems: list[Problem] = []
    reported: set[tuple[str, str]] = set()
    for symbol in SYMBOLS.values():
        parts = label_parts(symbol)
        if parts is None:
            continue
        for form in declined:
            if label_in(symbol, form, grammar, _as_msgid, symbol.name) is None and (parts[0], form) not in reported:
                reported.add((parts[0], form))
                where, line = _entry_line(files, parts[0])
                problems.append(Problem(where, line, 1, f"the symbol label {parts[0]!r} ({symbol.token}) has no {form!r} form, which other labels have: "
                                                        f"a msgstr asking {{mana:{form}}} could not read it; write it under 'names:' (docs/grammar.md)"))
    return problems


def _entry_line(files: list[Path], key: str) -> tuple[str, int]:
    """The file and line where ``key``'s entry is written (the last file that names it), else the first file's top."""
    for path in reversed(files):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip().startswith((f'"{key}":', f"{key}:")):
                return display_path(path), number
    return (display_path(files[0]), 1) if files else ("grammar.yaml", 1)


def number_term(n: int, html: Markup, language: str) -> Term:
    """A number in a sentence as a :class:`Term`: the same in every form, its CLDR plural category
    and number told, so a msgstr that is not a plural entry can still agree with a count
    («руку из {hands} {hands.plural:one=карты|other=карт}»: «из 7 карт», «из 1 карты»)."""
    return Term("", html, {"fixed": "yes", "elide": "no", "number": "sg" if n == 1 else "pl", "plural": plural_category(language, n)})


#: The site's locale folder, whose grammar files hold each language's label forms (domains.SITE's,
#: which this module cannot import without a cycle; checks.py's too).
SITE_LOCALE = Path(__file__).resolve().parent.parent / "locale"


def prose_grammar(language: str, project: Path | None = None) -> Grammar:
    """The rules of ``language`` a msgstr's forms are read and checked against (a book's prose
    symbols and every catalog's placeholders): the site's grammar file, then the project's
    ``locales/LANG/grammar.yaml`` (``project``: its locales folder)."""
    return load_grammar(language, (SITE_LOCALE, *((project,) if project is not None else ())))


def asked_symbols(text: str) -> Iterator[tuple[str, str, str]]:
    """Each symbol a translation asks in a form: ``{1:acc}`` -> ('{1:acc}', '{1}', 'acc')."""
    if ":" not in text:
        return
    for match in TOKEN_RE.finditer(text):
        code, colon, form = match.group(1).partition(":")
        if colon:
            yield match.group(0), "{" + code + "}", form


def as_shown(text: str) -> str:
    """``text`` with each symbol asked in a form written plain (``{1:acc}`` -> ``{1}``): its labels
    as the site shows them alone, for whoever counts the words a book uses (the glossary page
    names a term by its nominative, never by a case a sentence asked of a label)."""
    return TOKEN_RE.sub(lambda m: "{" + m.group(1).partition(":")[0] + "}", text) if ":" in text else text


def check_symbol_forms(source: str, translation: str, language: str, glossary: Glossary, *, project: Path | None = None) -> Iterable[str]:
    """A symbol of the prose asked in a form (``{1:acc}``, docs/grammar.md): a form the language's
    grammar knows, which the symbol's label has (its entry under ``names:`` writes it). A symbol
    that is none (``{1x:acc}``) is the tokens check's to report."""
    if ":" not in translation:
        return ()  # no form asked: most texts
    asked = [(written, token, form) for written, token, form in asked_symbols(translation) if token in SYMBOLS or token in source]
    return _form_details(language, project, asked) if asked else ()


def _form_details(language: str, project: Path | None, asked: list[tuple[str, str, str]]) -> Iterator[str]:
    try:
        grammar = prose_grammar(language, project)
    except LoadError as error:  # its own problems are reported at the grammar file's lines
        yield f"the forms cannot be checked: {error.problems[0]}"
        return
    for written, token, form in dict.fromkeys(asked):
        symbol = SYMBOLS.get(token)
        if not grammar.known(form):
            known = ", ".join(grammar.forms) or "none: its grammar file lists no forms"
            yield f"{written}: {form!r} is not a form {language} knows ({known}); see docs/grammar.md"
        elif symbol is None or label_in(symbol, form, grammar, _as_msgid, symbol.name) is None:
            has = [f for f in grammar.forms if symbol is not None and label_in(symbol, f, grammar, _as_msgid, symbol.name) is not None]
            yield (f"{written}: the label of {token} has no {form!r} form in {language}'s grammar files"
                   f" ({'its forms: ' + ', '.join(has) if has else 'it has none'}); write it under 'names:' there (docs/grammar.md)")


def _as_msgid(_context: str | None, msgid: str) -> str:
    """A label's words as their msgids: whether a form exists does not depend on them."""
    return msgid
