"""Plural rules: a catalog's own ``Plural-Forms`` decides, when it is a rule of its language.

Every catalog says in its header how many plural forms its messages have and which form each
number takes (``nplurals=2; plural=(n > 1);``). That rule is what gettext, Babel and the site
apply to the catalog's ``msgstr[N]`` lines, so it is the one every count of forms is judged
against, never the rule of whichever Babel is installed: Babel's data changes between releases
(Babel 2.19 gives French, Italian, Spanish and Portuguese a third form, for exact millions), and
a catalog is not wrong because a library was upgraded.

**A correct rule for a language.** A rule sorts the numbers into classes, one per form: for
the integers 0 to 999 and a few millions (:data:`PROBES`), which numbers take the same form.
Which index each class gets is the catalog's own business. Before comparing, on both sides, a
class whose members are all 1,000,000 or more is merged into the class of the number after its
smallest member: CLDR's separate form for exact millions in Romance languages ("un million
*de* …") is a refinement that the traditional rules leave out, and both are right. A rule is
right for a language when none of its classes holds two numbers that the language's rule puts
in different classes: then a translator can write the right words for every form. It may split
a class of the language in two (a form for exact millions; two forms for a language that has
one): the translator writes the same words twice, and nothing shows wrong. It may never join
numbers the language keeps apart (0 and 2 in Russian, 0 and 2 in French, 1 and 11 in Russian):
one of them would show the wrong words. The language's rule is any of:

- the CLDR rule of the language, as the installed Babel gives it (``Locale.plural_form``);
- GNU gettext's traditional formula for the language (:data:`TRADITIONAL`, from the gettext
  manual's list of plural forms: ``n != 1`` for Portuguese, ``n > 1`` for French);
- the CLDR rule of the language as another supported Babel gives it, for the few languages
  whose CLDR rule changed between Babel 2.16 and 2.19 (also in :data:`TRADITIONAL`);
- the rule the installed Babel writes into a new catalog, so that a catalog Babel makes passes.
  This one alone depends on the installed Babel: Babel 2.16 wrote ``n != 1`` for the languages
  its table lacked (Amharic, Hindi …), where CLDR puts 0 with 1; such a catalog passes under
  2.16 and is reported after an upgrade, with the rule to write and the command that moves it.

So French passes with ``n > 1`` and with CLDR's three forms, under every Babel from 2.16 to
2.19; Russian with two forms, French with ``n != 1`` or a Russian rule that forgets 11 to 14
fail, and the problem names the header's line and two numbers the rule gets wrong. A rule must also
give every number a form below its ``nplurals``.

**Moving a catalog to another rule** (``rulebook i18n plural-forms``, :func:`move`): each form
of the new rule takes the text of the form the old rule gave its smallest number (its
representative); where a new form's numbers are not exactly the numbers of one old form (a form
split in two, or two merged), the entry is marked fuzzy for a translator to look at. Nothing
translated is lost.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from ..adapters.babel import set_plural_forms
from ..errors import Problem
from .pofile import missing_forms

MILLION = 1_000_000
#: The numbers two rules are compared on: every rule of CLDR's and gettext's tables differs from
#: another somewhere below 1,000; the millions (each with the numbers just after it) are where
#: the Romance rules of CLDR add their form.
PROBES: tuple[int, ...] = (*range(1000), *(m * MILLION + d for m in (1, 2, 3, 5, 10, 11, 21, 100, 1000) for d in (0, 1, 2, 11)))

_ONE_FORM = "nplurals=1; plural=0;"
_N_NOT_1 = "nplurals=2; plural=(n != 1);"
_N_GT_1 = "nplurals=2; plural=(n > 1);"
_EAST_SLAVIC = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"

#: Rules right for a language besides the CLDR rule of the installed Babel, by language code:
#: GNU gettext's traditional formulas (the gettext manual, "Plural forms"), and, for the
#: languages whose CLDR rule changed between Babel 2.16 (CLDR 45) and 2.19, both versions' rules.
TRADITIONAL: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("ja", "ko", "th"), (_ONE_FORM,)),
    **dict.fromkeys(("en", "de", "nl", "sv", "da", "no", "nb", "nn", "fo", "es", "pt", "it", "bg", "el", "fi", "et",
                     "hu", "he", "eo", "tr"), (_N_NOT_1,)),
    **dict.fromkeys(("fr", "pt_BR"), (_N_GT_1,)),
    **dict.fromkeys(("ru", "uk", "be", "sr", "hr", "bs"), (_EAST_SLAVIC,)),
    "lv": ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",),
    "ga": ("nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);",),
    "ro": ("nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",),
    "lt": ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",),
    **dict.fromkeys(("cs", "sk"), ("nplurals=3; plural=((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2);",)),
    "pl": ("nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",),
    "sl": ("nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",),
    "ar": ("nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",),
    # CLDR 45 (Babel 2.16) had one form for these; CLDR 47 (Babel 2.19) has these rules.
    **dict.fromkeys(("csw", "kok", "tg", "vi"), (_ONE_FORM, _N_GT_1)),
    "cv": (_ONE_FORM, "nplurals=3; plural=(n==0 ? 0 : n==1 ? 1 : 2);"),
    "ie": (_ONE_FORM, _N_NOT_1),
}


@dataclass(frozen=True)
class PluralRule:
    """A Plural-Forms header, read: how many forms, and the form of each of :data:`PROBES`."""

    text: str
    count: int
    forms: tuple[int, ...]

    @cached_property  # a rule is read once (parse_rule) and compared for every catalog
    def classes(self) -> tuple[int, ...]:
        """Which numbers take one form, as :func:`classes` compares them."""
        return classes(self.forms)


_PROBE_INDEX = frozenset(PROBES)


class RuleError(ValueError):
    """A Plural-Forms header that is no rule at all (the message says why)."""


def _fields(plural_forms: str) -> dict[str, str]:
    fields = {}
    for part in plural_forms.split(";"):
        name, _, value = part.partition("=")
        fields[name.strip().lower()] = value.strip()
    return fields


@lru_cache(maxsize=64)  # pure: cache.py
def _compiled(plural_forms: str) -> Callable[[int], int]:
    return gettext.c2py(_fields(plural_forms).get("plural", ""))  # the standard library's reader of C plural rules


@lru_cache(maxsize=256)  # pure: cache.py; a handful of rules, each asked for by every catalog read
def parse_rule(plural_forms: str) -> PluralRule:
    """A Plural-Forms header as a :class:`PluralRule`; :class:`RuleError` if it is none."""
    fields = _fields(plural_forms)
    count = fields.get("nplurals", "")
    if not count.isdigit() or int(count) < 1:
        raise RuleError(f"nplurals={count!r} is not a number of forms")
    try:
        choose = _compiled(plural_forms)
        forms = tuple(choose(n) for n in PROBES)
    except (ValueError, RecursionError, TypeError, OverflowError, ZeroDivisionError):
        raise RuleError(f"plural={fields.get('plural', '')!r} is not a C expression of n") from None
    for n, form in zip(PROBES, forms):
        if not 0 <= form < int(count):
            raise RuleError(f"plural= gives {n} the form {form}, but nplurals={count} (forms 0 to {int(count) - 1})")
    return PluralRule(" ".join(plural_forms.split()), int(count), forms)


def classes(forms: tuple[int, ...]) -> tuple[int, ...]:
    """The partition that a form for each of :data:`PROBES` makes, each class named by the order
    of its first number, after merging a class of millions only into the class of the number
    after its smallest member (see the module's docstring)."""
    by_form: dict[int, list[int]] = {}
    for n, form in zip(PROBES, forms):
        by_form.setdefault(form, []).append(n)
    label = dict(zip(PROBES, forms))
    for members in by_form.values():
        if members[0] >= MILLION and members[0] + 1 in _PROBE_INDEX and label[members[0] + 1] != label[members[0]]:
            target = label[members[0] + 1]
            for n in members:
                label[n] = target
    named: dict[int, int] = {}
    return tuple(named.setdefault(label[n], len(named)) for n in PROBES)


@lru_cache(maxsize=64)  # pure: cache.py
def _cldr_forms(language: str) -> tuple[int, ...] | None:
    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return None
    category: dict[str, int] = {}
    return tuple(category.setdefault(locale.plural_form(n), len(category)) for n in PROBES)


def babel_rule(language: str) -> str:
    """The rule the installed Babel writes into a new catalog of ``language``."""
    return Catalog(locale=language.replace("-", "_")).plural_forms


@lru_cache(maxsize=64)  # pure: cache.py
def references(language: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(what, classes) of every rule right for ``language``: its CLDR rule, its traditional ones."""
    code = language.replace("-", "_")
    found = []
    if (cldr := _cldr_forms(code)) is not None:
        found.append(("CLDR", classes(cldr)))
    base = code.split("_")[0]
    for text in TRADITIONAL.get(code, TRADITIONAL.get(base, ())):
        found.append(("GNU gettext", parse_rule(text).classes))
    with contextlib.suppress(RuleError, ValueError, UnknownLocaleError):
        found.append(("Babel", parse_rule(babel_rule(code)).classes))
    return tuple(found)


def _within(have: tuple[int, ...], wanted: tuple[int, ...]) -> bool:
    """Whether every class of ``have`` lies within one class of ``wanted``."""
    class_of: dict[int, int] = {}
    return all(class_of.setdefault(h, w) == w for h, w in zip(have, wanted))


def rule_problem(plural_forms: str, language: str) -> str | None:
    """Why ``plural_forms`` is not a rule of ``language`` (None: it is one)."""
    try:
        rule = parse_rule(plural_forms)
    except RuleError as exc:
        return f"Plural-Forms {plural_forms!r}: {exc}; write {babel_rule(language)!r} (Babel's rule for {language})"
    known = references(language)
    if not known or any(_within(rule.classes, wanted) for _, wanted in known):
        return None  # a language nobody has rules for: its catalog's word stands
    return (f"Plural-Forms {plural_forms!r} is not a plural rule of {language}: {_difference(rule.classes, known[0][1])}; "
            f"write {babel_rule(language)!r} (Babel's rule for {language}) or move the catalog with "
            f"`rulebook i18n plural-forms {language}`")


def _difference(have: tuple[int, ...], wanted: tuple[int, ...]) -> str:
    """Two numbers the rule gives one form and the language keeps apart, in words (the first)."""
    first: dict[int, int] = {}
    for i, n in enumerate(PROBES):
        j = first.setdefault(have[i], i)
        if wanted[j] != wanted[i]:
            return f"it gives {PROBES[j]} and {n} the same form, the language does not"
    return "it names the classes of numbers in another way"


# --- moving a catalog to another rule -------------------------------------------------------


@dataclass(frozen=True)
class FormMap:
    """For each form of the new rule: the old form whose text it takes, and whether the numbers
    of the two forms are exactly the same (if not, a translator has to look)."""

    old: tuple[int, ...]
    exact: tuple[bool, ...]


def form_map(old: PluralRule, new: PluralRule) -> FormMap:
    taken, exact = [], []
    for form in range(new.count):
        numbers = [i for i, f in enumerate(new.forms) if f == form]
        if not numbers:  # a form the new rule never gives: keep the old first form's text
            taken.append(0)
            exact.append(False)
            continue
        chosen = old.forms[numbers[0]]  # the form the old rule gave the representative
        taken.append(chosen)
        old_numbers = [i for i, f in enumerate(old.forms) if f == chosen]
        exact.append(old_numbers == numbers)
    return FormMap(tuple(taken), tuple(exact))


def moved_strings(strings: tuple[str, ...] | list[str], mapping: FormMap) -> tuple[str, ...]:
    return tuple(strings[old] if old < len(strings) else "" for old in mapping.old)


@dataclass(frozen=True)
class Moved:
    messages: int  # plural messages whose forms were rearranged
    fuzzy: tuple[str, ...]  # msgctxts (or msgids) marked fuzzy: a new form has no exact old one


def move(catalog: Catalog, plural_forms: str) -> Moved:
    """Move ``catalog`` (in place) to the rule ``plural_forms``: every translation kept."""
    old, new = parse_rule(catalog.plural_forms), parse_rule(plural_forms)
    mapping = form_map(old, new)
    moved, fuzzy = 0, []
    for message in [*catalog, *catalog.obsolete.values()]:
        if not message.id or isinstance(message.id, str):
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string or "",)
        message.string = moved_strings(strings, mapping)
        moved += 1
        if any(strings) and not all(mapping.exact):
            message.flags.add("fuzzy")
            fuzzy.append(message.context or _shown(message))
    set_plural_forms(catalog, new.text)
    return Moved(moved, tuple(fuzzy))


def _shown(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


# --- the forms of each message ----------------------------------------------------------------


def form_problems(catalog: Catalog, path: str) -> list[Problem]:
    """Each plural message of a catalog as read that lacks a ``msgstr[N]`` its own header's
    ``nplurals`` asks for (Babel fills it in with '' as it reads: the page would show the
    source text for the numbers that take it)."""
    problems = []
    for message in catalog:
        if message.id and (lacking := missing_forms(catalog, message)):
            shown = ", ".join(f"msgstr[{n}]" for n in lacking)
            problems.append(Problem(path, message.lineno or 1, 1,
                                    f"{message.context or _shown(message)}: [plurals] no {shown}: the header says nplurals={catalog.num_plurals}; "
                                    "write every form (a PO editor shows them all)"))
    return problems
