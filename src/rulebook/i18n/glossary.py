"""The glossary: official game terms and card names per language.

``locales/glossary.yaml`` lists game terms; printed names (cards, pieces, lands, planes…) come
from the engines, each registered engine's ``names()`` (:func:`rulebook.engines.printed_names`,
docs/engines.md: the casting engine's are the cards of its ``data/cards.yaml``), so no name is
written twice and no engine is imported here. In ``glossary.yaml`` a form ending in ``*``
matches any word that starts with it; any other form must match a whole word, and a form of
several words matches them across any spacing or line break; case is ignored, and in Russian
so is the difference between е and ё. Card names are proper names: in the source they match
only capitalised (an Italian source also with its plural: Palude, Paludi); in a translation a
plural ending (Swamps, Llanuras) and, for Russian, any case ending of each word (Белого
Рыцаря) is accepted. A card name in the source is not a use of the terms inside it
("Sentiero dell'Esilio" does not ask for the word "exile"). Every term needs its form in the
source language of the books; ``note:`` and ``source:`` (the printed evidence) are for people.

``spelling:`` holds each language's conventions (one spelling across the books): a
translation must not use an ``avoid:`` form; ``use:`` and ``note:`` tell the translator what
to write instead and why. The forms match like a term's forms.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from ..cache import current, kind
from ..engines import printed_names
from ..engines.base import PrintedName
from ..errors import LoadError, Problem, RulebookError
from ..languages import language
from ..limits import MAX_FILE_BYTES, MAX_GLOSSARY_BYTES, MAX_GLOSSARY_VALUES, read_limited
from ..loader import display_path
from ..yamlnodes import Mapping, Scalar, Sequence, YNode, building_tree, decode, parse


@dataclass(frozen=True)
class Term:
    forms: dict[str, tuple[str, ...]]  # language -> accepted forms
    origin: str  # "FILE:LINE" of the entry, so a translator can find and fix it
    note: str = ""
    card: bool = False
    source: str = ""  # where the official form was read (a printed card, a rules document)
    books: frozenset[str] = frozenset()  # the books it binds; empty: every book
    headwords: dict[str, str] = field(default_factory=dict)  # language -> the entry's name, where not the first form

    def headword(self, language: str) -> str:
        """The word a reader looks the term up by in ``language`` (its ``headword:``, else its
        first form; the reader refuses a prefix form there); empty: no form in that language."""
        if language in self.headwords:
            return self.headwords[language]
        forms = self.forms.get(language, ())
        return forms[0].removesuffix("*") if forms else ""

    def found_in(self, language: str, text: str, *, source: bool = False) -> bool:
        pattern = self._any.get((language, source))
        if pattern is None:
            pattern = self._any[language, source] = _letter_first(
                _any_of(_form_re(form, language, self.card, source) for form in self.forms.get(language, ())))
        return pattern.search(text) is not None

    @cached_property
    def _any(self) -> dict[tuple[str, bool], re.Pattern[str]]:
        """(language, source) -> any of the term's forms: one search where a check asked every form."""
        return {}

    def blanked(self, language: str, text: str) -> str:
        """``text`` with every occurrence of this term replaced by spaces."""
        for form in self.forms.get(language, ()):
            text = _form_re(form, language, self.card, True).sub(lambda m: " " * len(m.group(0)), text)
        return text

    def shown(self, language: str) -> str:
        return " / ".join(f.rstrip("*") for f in self.forms.get(language, ()))

    def pattern(self, language: str) -> str:
        """Any of the term's forms in ``language`` as a regular expression (case-insensitive, as
        the checks match them), a ``*`` form running on to its word's end: the glossary page
        links a term where a text uses it. Empty: no form in that language. (Made once per
        language: every text of a page asks for the patterns of the terms it uses.)"""
        made = self._patterns.get(language)
        if made is None:
            whole, rest = r"(?!\w)", r"\w*"
            found = [_form_re(form, language, self.card).pattern for form in self.forms.get(language, ())]
            made = self._patterns[language] = "|".join(f"(?i:{p}{'' if p.endswith(whole) else rest})" for p in found)
        return made

    @cached_property
    def _patterns(self) -> dict[str, str]:
        return {}


@dataclass(frozen=True)
class Spelling:
    """A spelling the project does not use in one language (US "color", not "colour")."""

    language: str
    avoid: tuple[str, ...]
    use: str
    origin: str  # "FILE:LINE" of the entry
    note: str = ""

    def found_in(self, text: str) -> Iterator[str]:
        """The avoided forms as written in ``text``."""
        if not self.anywhere.search(text):
            return  # the common case, in one search instead of one per form
        for form in self.avoid:
            # Matched letter for letter: a spelling convention may be the very difference that
            # terms ignore (Russian "еще" where the project writes "ещё").
            yield from (m.group(0) for m in _whole_word_re(form).finditer(text))

    @cached_property
    def anywhere(self) -> re.Pattern[str]:
        """Searches for any avoided form (a test of presence: :meth:`found_in` tells which)."""
        return _any_of(_whole_word_re(form) for form in self.avoid)


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...] = ()
    spellings: tuple[Spelling, ...] = ()
    problems: tuple[Problem, ...] = field(default=(), compare=False)
    source: str = ""  # the language of the books' text, whose forms are looked for in a msgid

    # Per instance, filled on use (a glossary is shared by every book and language of a build):
    _books: dict[str, Glossary] = field(default_factory=dict, init=False, compare=False, repr=False)
    _used: dict[str, tuple[tuple[Term, ...], tuple[Term, ...]]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _spelling_rules: dict[str, tuple[tuple[Spelling, ...], re.Pattern[str]]] = field(default_factory=dict, init=False, compare=False, repr=False)
    #: The glossary a book's was taken from (for_book), whose scanners it shares.
    _whole: Glossary | None = field(default=None, compare=False, repr=False)

    def for_book(self, book_id: str) -> Glossary:
        """The terms that bind one book: Magic's official terms must not bind a board game."""
        if book_id not in self._books:
            whole = self._whole or self
            self._books[book_id] = replace(self, terms=tuple(t for t in self.terms if not t.books or book_id in t.books), _whole=whole)
        return self._books[book_id]

    def spelling_rules(self, language: str) -> tuple[tuple[Spelling, ...], re.Pattern[str]]:
        """The spellings of ``language`` in glossary order, and one search for any of their avoided
        forms: a translation that has none (nearly all) costs one search, not one per spelling."""
        rules = self._spelling_rules.get(language)
        if rules is None:
            spellings = tuple(s for s in self.spellings if s.language == language)
            rules = self._spelling_rules[language] = (spellings, _any_of(_whole_word_re(form) for s in spellings for form in s.avoid))
        return rules

    def required(self, source: str, language: str) -> Iterator[Term]:
        """The terms the source uses that have an official form in ``language``."""
        named, used = self.used(source)
        yield from (t for t in named if t.forms.get(language))
        yield from (t for t in used if t.forms.get(language))

    def used(self, source: str) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
        """The card names and the other terms a source text uses, in glossary order.

        The same for every language, so found once per text: a site checks each source text
        against its translation in every language."""
        found = self._used.get(source)
        if found is None:
            cards, others = self._scanners
            named = _outermost(self._own(cards.terms_in(source)), self.source, source)
            # A card's name is not a use of the words it is made of: Corda della Convocazione
            # does not ask a translation for the word "convoke".
            rest = source
            for term in named:
                rest = term.blanked(self.source, rest)
            found = (named, self._own(others.terms_in(rest)))
            if len(self._used) >= _MAX_REMEMBERED:
                self._used.clear()
            self._used[source] = found
        return found

    @cached_property
    def fingerprint(self) -> str:
        """A digest of everything a check reads of the glossary (its terms with their origins and
        notes, its spellings, its source language), the same in every process."""
        data = [self.source,
                # The headwords too: a check reads none, but the glossary page made from this glossary does.
                [[sorted(t.forms.items()), t.origin, t.note, t.card, t.source, sorted(t.books), sorted(t.headwords.items())]
                 for t in self.terms],
                [[s.language, s.avoid, s.use, s.origin, s.note] for s in self.spellings]]
        return hashlib.blake2b(json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    def _own(self, found: tuple[Term, ...]) -> tuple[Term, ...]:
        """Of the terms the whole glossary's scanner found, this one's (a book's)."""
        return found if self._whole is None else tuple(t for t in found if id(t) in self._ids)

    @cached_property
    def _ids(self) -> frozenset[int]:
        return frozenset(map(id, self.terms))

    @cached_property
    def _scanners(self) -> tuple[_Scanner, _Scanner]:
        """One scan for the card names in a source text, one for the other terms. A book's
        glossary uses the whole one's and keeps its own terms of what they find: a scanner
        tells exactly which of its terms occur, each term alone, so the result is the same, and
        one scanner's pattern of every form is compiled once, not once per book (0.3 s for the
        4,000 terms the limits allow, each time)."""
        if self._whole is not None:
            return self._whole._scanners
        return (_Scanner([t for t in self.terms if t.card], self.source, source=True),
                _Scanner([t for t in self.terms if not t.card], self.source, source=True))


def _outermost(named: tuple[Term, ...], language: str, text: str) -> tuple[Term, ...]:
    """The names ``text`` uses, without those it holds only inside a longer name: "Elfi di
    Llanowar" (a card) does not name Llanowar (a plane)."""
    if len(named) < 2:
        return named
    longest = {id(t): max(map(len, t.forms.get(language, ("",)))) for t in named}
    kept = []
    for term in named:
        rest = text
        for other in named:
            if longest[id(other)] > longest[id(term)]:
                rest = other.blanked(language, rest)
        if term.found_in(language, rest, source=True):
            kept.append(term)
    return tuple(kept)


#: Source texts whose terms a glossary remembers (a site has a few thousand).
_MAX_REMEMBERED = 100_000
#: What each form's pattern tests first, a word start (render.glossary looks for a term without it, then matches it whole).
WORD_START = r"(?<!\w)"


class _Scanner:
    """Which of many terms occur in a text: exactly what searching each form's pattern says,
    in one pass over the text instead of one per form.

    Every form's pattern is an alternative inside one lookahead, tried at each position; the
    first alternative that matches there is reported. The other forms that also match at that
    position are each tried there, only the later ones that can start with the character there
    (those of its letter's group), so no match is hidden behind another (a card "Sentiero"
    inside "Sentiero dell'Esilio"). Trying a dozen forms at the few places a term starts costs
    less than compiling a lookahead over them for each form and letter (0.3 s per process).
    """

    def __init__(self, terms: list[Term], language: str, *, source: bool):
        # Forms in the order of their first letter, so that the alternatives starting alike sit
        # together behind one test of that letter (either case, as IGNORECASE folds it; е or ё).
        forms = sorted(((_first(form, language), _form_re(form, language, t.card, source), index)
                        for index, t in enumerate(terms) for form in t.forms.get(language, ())), key=lambda f: f[0])
        self.firsts = [first for first, _, _ in forms]
        self.patterns = [pattern for _, pattern, _ in forms]
        self.owners = [owner for _, _, owner in forms]
        self.terms = terms
        # Every pattern starts at a word start (else: no first-letter grouping, plain alternatives).
        self.grouped = all(p.pattern.startswith(WORD_START) and first for p, first in zip(self.patterns, self.firsts))
        self._spelled = {letter: "её" if letter == "е" else re.escape(letter) for letter in dict.fromkeys(self.firsts)} if self.grouped else {}
        self._letter_tests = {letter: re.compile(f"(?i:[{spelled}])") for letter, spelled in self._spelled.items()}
        self._opening: dict[str, frozenset[str]] = {}
        self._after: dict[tuple[int, frozenset[str] | None, frozenset[str] | None], tuple[int, ...]] = {}
        # Sorted by first letter, each letter's forms are one run of indices.
        self._runs: dict[str, range] = {}
        for position, first in enumerate(self.firsts):
            run = self._runs.get(first)
            self._runs[first] = range(run.start if run else position, position + 1)
        # The second letter of each form, when its pattern spells it plainly (None: any): with
        # thousands of forms (the limits allow 4,000 terms), a letter's run is hundreds long, and
        # trying each at every place where a word starts with that letter cost 30 s a check.
        self.seconds = [_second(p) if self.grouped else None for p in self.patterns]
        self._second_tests = {letter: re.compile(f"(?i:[{'её' if letter == 'е' else re.escape(letter)}])")
                              for letter in dict.fromkeys(x for x in self.seconds if x)}
        self._seconding: dict[str, frozenset[str]] = {}

    def _later(self, index: int, text: str, start: int) -> tuple[int, ...]:
        """The patterns other than ``index`` that may match at ``start``: those whose first
        letter's test accepts the character there and whose second letter (if plain) the next
        one (every later one when the forms are not grouped: :attr:`_all` reports the first
        pattern that matches in their order; grouped, it tries them by first and second letter,
        so the one it reports need not be the first)."""
        opening: frozenset[str] | None = None
        seconds: frozenset[str] | None = None
        if self.grouped:
            char, after = text[start:start + 1], text[start + 1:start + 2]
            opening = self._opening.get(char)
            if opening is None:
                opening = self._opening[char] = frozenset(letter for letter, test in self._letter_tests.items() if test.match(char))
            seconds = self._seconding.get(after)
            if seconds is None:
                seconds = self._seconding[after] = frozenset(letter for letter, test in self._second_tests.items() if test.match(after))
        key = (index, opening, seconds)
        found = self._after.get(key)
        if found is None:
            if opening is None:
                found = tuple(range(index + 1, len(self.patterns)))
            else:
                assert seconds is not None  # made with opening
                found = tuple(i for letter in opening if letter in self._runs
                              for i in self._runs[letter] if i != index and (self.seconds[i] is None or self.seconds[i] in seconds))
            if len(self._after) >= 200_000:
                self._after.clear()
            self._after[key] = found
        return found

    @cached_property
    def _all(self) -> tuple[re.Pattern[str], tuple[int, ...]]:
        """A lookahead over every pattern, and the pattern each of its groups is (group k: the
        (k - 1)th), one of those that match there.

        Grouped by first letter, then within a letter by second letter (the forms whose second
        letter is not plain tried whatever it is): a place where a word starts tries only the
        forms that start with its two letters, where re would try each of the letter's forms
        in turn (the scan of a source was most of the glossary check, issue 30.4)."""
        bodies = [f"({_inline(pattern)})" for pattern in self.patterns]
        if not self.grouped:
            return _compiled("(?=" + "|".join(bodies) + ")"), tuple(range(len(bodies)))
        letters: dict[str, dict[str | None, list[int]]] = {}
        for index, first in enumerate(self.firsts):
            letters.setdefault(self._spelled[first], {}).setdefault(self.seconds[index], []).append(index)
        order: list[int] = []
        groups: dict[str, list[str]] = {}
        for opening, by_second in letters.items():
            for second, indices in by_second.items():
                order.extend(indices)
                body = "|".join(bodies[i] for i in indices)
                test = "" if second is None else f"(?=.(?i:[{'её' if second == 'е' else re.escape(second)}]))"
                groups.setdefault(opening, []).append(f"{test}(?:{body})")
        opened, tried = _by_first_letter(groups)
        return _compiled(f"{WORD_START}(?=(?i:[{opened}]))(?={tried})"), tuple(order)

    def terms_in(self, text: str) -> tuple[Term, ...]:
        """The terms whose forms occur in ``text``: every pattern that matches at a place where
        one of them does (a form matches only where a word starts, so nowhere else)."""
        if not self.patterns:
            return ()
        found: set[int] = set()
        scan, order = self._all
        for match in scan.finditer(text):
            assert match.lastindex is not None  # one group for each pattern: one of them matched
            index, start = order[match.lastindex - 1], match.start()
            found.add(self.owners[index])
            found.update(self.owners[i] for i in self._later(index, text, start) if self.patterns[i].match(text, start))
        return tuple(self.terms[i] for i in sorted(found))


def _second(pattern: re.Pattern[str]) -> str | None:
    """The second letter of a form whose pattern starts plainly with two letters (a word start,
    then a letter or [её], twice), lower case; None when the pattern says anything else there."""
    rest = pattern.pattern[len(WORD_START):] if pattern.pattern.startswith(WORD_START) else ""
    rest = rest[4:] if rest.startswith("[её]") else rest[1:] if rest[:1].isalpha() else ""
    if rest.startswith("[её]"):
        return "е"
    return rest[0].lower() if rest[:1].isalpha() and len(rest[0].lower()) == 1 else None


def _inline(pattern: re.Pattern[str]) -> str:
    """``pattern`` as a part of a longer one, its case-folding kept (the only flag our forms use)."""
    return f"{'(?i:' if pattern.flags & re.IGNORECASE else '(?:'}{pattern.pattern})"


def _any_of(patterns: Iterable[re.Pattern[str]]) -> re.Pattern[str]:
    """One pattern that matches somewhere exactly when one of ``patterns`` does (none: nowhere);
    for a test of presence only, where it matches may differ.

    When each starts at a word start with a plain letter, one test of those letters comes first,
    then only the alternatives that start with the letter there: re tries every alternative at
    every position otherwise, four times slower on our catalogs (and four times again for a
    language's 80 avoided spellings in one pattern)."""
    patterns = list(patterns)
    if len(patterns) == 1:
        # A term of one form (nearly all): its own compiled pattern, not a second compile of it
        # (0.2 ms each: 3 s for the 4,000 terms x 4 languages the limits allow).
        return patterns[0]
    openings = [_opening(pattern) for pattern in patterns]
    if not patterns or None in openings:
        return _compiled("|".join(map(_inline, patterns)) or "(?!)")
    groups: dict[str, list[str]] = {}
    for opening, pattern in zip([o for o in openings if o is not None], patterns):  # none is None (above)
        groups.setdefault(opening, []).append(_inline(pattern))
    letters, tried = _by_first_letter(groups)
    return _compiled(f"{WORD_START}(?=(?i:[{letters}]))(?:{tried})")


def _by_first_letter(groups: dict[str, list[str]]) -> tuple[str, str]:
    """Alternatives grouped by the letters they start with (a character class's content: "a",
    "её"): those letters, for one test that skips a position no alternative can start at (a
    space, most letters), and the alternatives, each group behind a test of its own letters."""
    letters = "".join(dict.fromkeys("".join(groups)))
    tried = "|".join(f"(?=(?i:[{opening}]))(?:{'|'.join(group)})" for opening, group in groups.items())
    return letters, tried


def _opening(pattern: re.Pattern[str]) -> str | None:
    """The letters a match of ``pattern`` may start with (either case), when the pattern says so
    plainly: a word start, then a letter or [её]; else None."""
    rest = pattern.pattern[len(WORD_START):] if pattern.pattern.startswith(WORD_START) else ""
    if rest.startswith("[её]"):
        return "её"
    return rest[0] if rest[:1].isalpha() else None


def _letter_first(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern``, which starts at a word start with a plain letter, as a search that tries the
    letter before the word start (the same matches: no word character before the letter): re
    then fails at once where the letter is not, where it tried the word start at every place of
    the text first (a term's search in a translation, 2x faster). Any other pattern as it is."""
    opening = _opening(pattern)
    if opening is None:
        return pattern
    rest = pattern.pattern[len(WORD_START):]
    first, rest = ("[её]", rest[4:]) if rest.startswith("[её]") else (rest[0], rest[1:])
    return _compiled(f"{first}(?<!\\w[\\s\\S]){rest}", pattern.flags)


@lru_cache(maxsize=4096)  # pure: cache.py
def _compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """The glossary's joined patterns (a scanner's alternatives, a term's or a spelling's forms),
    compiled once per process: every glossary object with the same terms (each test's, each
    reload's) asks for the same long patterns, more of them than the 512 ``re`` keeps in its own cache."""
    return re.compile(pattern, flags)


_RUSSIAN_ENDINGS = "аяоеёыийьуюэ"


def _first(form: str, language: str) -> str:
    """The letter a form starts with, as the scanner groups it (lower case; ё counts as е)."""
    letter = form[:1].lower()
    return "е" if letter == "ё" else letter


def _words(text: str, language: str) -> str:
    """A form of one or more words as a pattern: any spacing between words; in Russian, е = ё."""
    body = r"\s+".join(map(re.escape, text.split()))
    return re.sub("[её]", "[её]", body) if language == "ru" else body


def _russian_word(word: str) -> str:
    """One word of a Russian card name with any case ending: its stem, then any letters; a
    reflexive participle keeps its -ся after the ending (Вмешивающаяся -> Вмешивающейся)."""
    word = word.strip(",")
    if word[-2:].lower() in ("ся", "сь") and len(word) > 4:
        return _words(word[:-2].rstrip(_RUSSIAN_ENDINGS), "ru") + r"\w*с[яь]"
    return _words(word.rstrip(_RUSSIAN_ENDINGS) or word, "ru") + r"\w*"


@lru_cache(maxsize=None)  # pure: cache.py
def _whole_word_re(form: str) -> re.Pattern[str]:
    """A spelling form matched letter for letter (no е/ё folding) and quoted whole: the match
    runs on to the end of its word, so a message quotes "Colourless", not "Colour"."""
    pattern = _form_re(form, "", False)
    return re.compile(pattern.pattern + r"\w*", pattern.flags)


@lru_cache(maxsize=None)  # pure: cache.py
def _form_re(form: str, language: str, card: bool, source: bool = False) -> re.Pattern[str]:
    if not card:
        if form.endswith("*"):
            return re.compile(rf"(?<!\w){_words(form[:-1], language)}", re.IGNORECASE)
        return re.compile(rf"(?<!\w){_words(form, language)}(?!\w)", re.IGNORECASE)
    words = form.split()
    # In the source a card name is capitalised: "Palude" is the card, "palude" a marsh.
    case = 0 if source else re.IGNORECASE
    if language == "it":
        # Italian plurals change the final vowel: Palude -> Paludi, Pianura -> Pianure.
        last = words[-1]
        stem = last[:-1] if last[-1:].lower() in "aeio" else last
        body = r"\s+".join(map(re.escape, words[:-1] + [stem])) + (r"[aeio]" if stem != last else "")
        return re.compile(rf"(?<!\w){body}(?!\w)", case)
    if language == "ru":
        # Any case ending on each word ("Талии, Стража Трейбена"), е or ё alike.
        return re.compile(r"(?<!\w)" + r",?\s+".join(map(_russian_word, words)), case)
    body = r"\s+".join(map(re.escape, words))
    return re.compile(rf"(?<!\w){body}\w{{0,2}}(?!\w)", case)


#: Where a glossary's printed names come from: the names themselves, or a function that gives
#: them with the problems of their data (default: every registered engine's, :func:`printed_names`).
NameSource = Iterable[PrintedName] | Callable[[], tuple[tuple[PrintedName, ...], tuple[Problem, ...]]]


def load_glossary(locales: Path, names: NameSource | None = None, *, source: str) -> Glossary:
    """Game terms from ``locales/glossary.yaml`` plus the engines' printed names; problems are
    kept, not raised.

    ``source`` is the language the books are written in: every term needs its form in it.
    ``names``: the printed names to bind (a test's own; ``()`` for none).
    """
    path = Path(locales) / "glossary.yaml"
    reads = (
        # a dangling link is a glossary that cannot be read, not no glossary
        *((_read_cached(path, _read_terms, source),) if os.path.lexists(path) else ()),
        _read_names(names if names is not None else printed_names, source),
    )
    # The same files give the same glossary object, so what it remembers (the terms each source
    # text uses) serves every book and language of a build.
    cache = current()
    return _made((reads, source)) if cache is None else cache.memo(GLOSSARIES, (reads, source), _made)


def _made(key: tuple[tuple[_Read, ...], str]) -> Glossary:
    reads, source = key
    terms = [t for found in reads for t in found.terms]
    card_books = frozenset().union(*(found.card_books for found in reads))
    # Card names bind the books glossary.yaml names in `card_books` (none named: every book).
    terms = [replace(t, books=card_books) if t.card else t for t in terms]
    spellings = tuple(s for found in reads for s in found.spellings)
    return Glossary(tuple(terms), spellings, tuple(p for found in reads for p in found.problems), source)


@dataclass(frozen=True, eq=False)  # compared by identity: a key of GLOSSARIES
class _Read:
    terms: tuple[Term, ...]
    problems: tuple[Problem, ...]
    card_books: frozenset[str] = frozenset()
    spellings: tuple[Spelling, ...] = ()


#: A glossary file read, by its reader, shown path, source language and content digest.
GLOSSARY_FILES = kind("glossary file", ("reader", "shown_path", "source", "content"),
                      "a glossary file parsed once per content, not once per book and language")
#: The glossary made of those reads (each by identity), so one object serves every book.
GLOSSARIES = kind("glossary", ("reads", "source"), "one glossary object per build and files: what it remembers of each "
                  "source text serves every book and language")
#: The engines' printed names made into card terms, by the names, their data's problems and the
#: source language: the same names give the same read, so the same glossary object.
PRINTED_NAMES = kind("printed names", ("names", "problems", "source"), "the engines' printed names made into card terms "
                     "once per build, not once per book and language")


#: A glossary file's reader: its terms and spellings into the list, its problems into the other;
#: the ids of the books whose card names it covers, if it says.
_Reader = Callable[[Path, bytes, list[Term | Spelling], list[Problem], str], frozenset[str] | None]


def _read_cached(path: Path, read: _Reader, source: str) -> _Read:
    # The site translates every book into every language; the card file is parsed once per
    # content of the file, not once per call. By content, not by place and time: a copy of the
    # project (a preview, a test's) shown under the same path gives the same terms, so the same
    # glossary object, with what it remembers of each source text. The file is read once, through
    # the limited reader (a FIFO or a link to /dev/zero is refused), and those bytes are parsed.
    shown = display_path(path)
    try:
        data = read_limited(path, shown, MAX_GLOSSARY_BYTES if read is _read_terms else MAX_FILE_BYTES)
    except LoadError as exc:
        data, unreadable = None, tuple(Problem(p.path, p.line, p.column, f"{p.message} (the glossary is ignored)") for p in exc.problems)
    content = hashlib.blake2b(data, digest_size=16).hexdigest() if data is not None else repr(unreadable)

    def parsed(key: tuple[str, str, str, str]) -> _Read:
        terms: list[Term | Spelling] = []
        problems: list[Problem] = []
        card_books = (read(path, data, terms, problems, source) or frozenset()) if data is not None else frozenset()
        if data is None:
            problems.extend(unreadable)
        return _Read(tuple(t for t in terms if isinstance(t, Term)), tuple(problems), card_books,
                     tuple(t for t in terms if isinstance(t, Spelling)))

    key = (read.__name__, shown, source, content)
    cache = current()
    return parsed(key) if cache is None else cache.memo(GLOSSARY_FILES, key, parsed)


def _node_words(node: YNode | None) -> tuple[str, ...] | None:
    """One non-empty word, or a list of them; None for anything else."""
    if isinstance(node, Scalar) and node.value.strip():
        return (node.value.strip(),)
    if isinstance(node, Sequence) and all(isinstance(n, Scalar) and n.value.strip() for n in node.items):
        return tuple(n.value.strip() for n in node.items)  # type: ignore[union-attr]  # all Scalars (the all() above)
    return None


def _read_terms(path: Path, data: bytes, terms: list[Term | Spelling], problems: list[Problem], source: str) -> frozenset[str]:
    # Through the strict reader: positions, duplicate keys and tags refused, no object built.
    shown = display_path(path)
    try:
        with building_tree():
            root = parse(decode(data, shown), shown, "the glossary needs a 'terms:' list", MAX_GLOSSARY_VALUES)
    except LoadError as exc:
        problems.extend(Problem(p.path, p.line, p.column, f"{p.message} (the glossary is ignored)") for p in exc.problems)
        return frozenset()
    top = {name: value for name, (_, value) in root.items.items()} if isinstance(root, Mapping) else {}
    card_books = top.get("card_books")
    card_scope = frozenset(_node_words(card_books) or ()) if card_books is not None else frozenset()
    if card_books is not None and _node_words(card_books) is None:
        problems.append(Problem(shown, card_books.line, card_books.column, "card_books must be a list of book ids"))
    if "spelling" in top:
        _read_spellings(top["spelling"], shown, terms, problems)
    entries = top.get("terms")
    if not isinstance(entries, Sequence):
        where = entries or root
        problems.append(Problem(shown, where.line, where.column, "the glossary needs a 'terms:' list"))
        return card_scope
    for entry in entries.items:
        if not isinstance(entry, Mapping):
            problems.append(Problem(shown, entry.line, entry.column, "a term is a mapping language -> form(s)"))
            continue
        forms: dict[str, tuple[str, ...]] = {}
        note = evidence = ""
        books: frozenset[str] = frozenset()
        headwords: Mapping | None = None
        for name, (key, value) in entry.items.items():
            if name in ("note", "source") and isinstance(value, Scalar):
                note, evidence = (value.value, evidence) if name == "note" else (note, value.value)
                continue
            if name == "headword":
                if isinstance(value, Mapping):
                    headwords = value
                else:
                    problems.append(Problem(shown, value.line, value.column,
                                            "headword: maps a language to its entry's name (headword: {ru: заклинание})"))
                continue
            if name not in ("books", "note", "source") and not _is_language(name):
                problems.append(Problem(shown, key.line, key.column,
                                        f"{name!r} is neither a language code (it, pt_BR) nor note, source, books or headword"))
                continue
            found = _node_words(value)
            if name == "books":
                if found is None:
                    problems.append(Problem(shown, value.line, value.column, "books must be a list of book ids"))
                books = frozenset(found or ())
            elif found is None:
                problems.append(Problem(shown, value.line, value.column, f"forms of {name!r} must be a word or a list of words"))
            else:
                forms[name] = found
        if source not in forms:
            problems.append(Problem(shown, entry.line, entry.column, f"a term needs its form in the source language ('{source}:')"))
            continue
        terms.append(Term(forms, f"{shown}:{entry.line}", note, books=books, source=evidence,
                          headwords=_headwords(headwords, forms, shown, entry, problems)))
    return card_scope


def _headwords(given: Mapping | None, forms: dict[str, tuple[str, ...]], shown: str, entry: Mapping,
               problems: list[Problem]) -> dict[str, str]:
    """A term's ``headword:`` entries, each a whole word of a language the term has forms in;
    a problem for each one that is not, and for a language whose first form is a prefix with
    no headword given: the glossary page would name the entry by a cut-off word («заклинани…»)."""
    headwords: dict[str, str] = {}
    for code, (key, value) in (given.items.items() if given is not None else ()):
        word = value.value.strip() if isinstance(value, Scalar) else ""
        if not word or "\n" in word:
            problems.append(Problem(shown, value.line, value.column, f"the headword of {code!r} must be one word or phrase"))
        elif code not in forms:
            problems.append(Problem(shown, key.line, key.column,
                                    f"a headword for {code!r}, but the term has no {code!r} forms: add them, or remove the headword"))
        elif word.endswith("*"):
            problems.append(Problem(shown, value.line, value.column,
                                    f"the {code} headword {word!r} is a prefix: a reader looks up a whole word; write its dictionary form"))
        else:
            headwords[code] = word
    for code, listed in forms.items():
        if listed[0].endswith("*") and code not in headwords:
            where = next((value for name, (_, value) in entry.items.items() if name == code), entry)
            problems.append(Problem(shown, where.line, where.column,
                                    f"the first {code} form {listed[0]!r} is a prefix, and the first form names the term's "
                                    f"glossary entry: list its dictionary form first, or give it as headword: {{{code}: …}}"))
    return headwords


def _read_spellings(entries: YNode, shown: str, spellings: list[Term | Spelling], problems: list[Problem]) -> None:
    """``spelling:`` entries: ``{language: en, avoid: [colour*], use: color, note: ...}``."""
    if not isinstance(entries, Sequence):
        problems.append(Problem(shown, entries.line, entries.column, "spelling: must be a list of entries"))
        return
    for entry in entries.items:
        fields = {name: value for name, (_, value) in entry.items.items()} if isinstance(entry, Mapping) else {}
        code, avoid, use = fields.get("language"), _node_words(fields.get("avoid")), fields.get("use")
        note = fields.get("note")
        unknown = set(fields) - {"language", "avoid", "use", "note"}
        if (not isinstance(code, Scalar) or not _is_language(code.value) or avoid is None
                or not isinstance(use, Scalar) or unknown or (note is not None and not isinstance(note, Scalar))):
            problems.append(Problem(shown, entry.line, entry.column,
                                    "a spelling entry needs language (a code), avoid (a form or a list), use (text) "
                                    "and may have note; nothing else"))
            continue
        spellings.append(Spelling(code.value, avoid, use.value, f"{shown}:{entry.line}", note.value if note else ""))


def _is_language(code: str) -> bool:
    try:
        language(code)
    except RulebookError:
        return False
    return True


def _read_names(names: NameSource, source: str) -> _Read:
    """The printed names as card terms (a name printed in the source language and another); the
    same names give the same object, so the glossary made of them is the same one too."""
    found, problems = names() if callable(names) else (tuple(names), ())

    def made(key: tuple[tuple[PrintedName, ...], tuple[Problem, ...], str]) -> _Read:
        terms: list[Term] = []
        for name in key[0]:
            forms: dict[str, tuple[str, ...]] = {language: (text,) for language, text in name.names if text.strip()}
            if source in forms and len(forms) > 1:
                terms.append(Term(forms, name.origin, f"{name.kind} name", card=True))
        return _Read(tuple(terms), key[1])

    key = (tuple(found), tuple(problems), source)
    cache = current()
    return made(key) if cache is None else cache.memo(PRINTED_NAMES, key, made)
