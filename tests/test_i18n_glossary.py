"""The committed glossary: every term sourced and in every language, no form matching a stranger.

The terms are checked against words they must NOT catch (a pattern like ``sort*`` once matched
French "sortir"), and against inflections they must catch; the planes the Planechase book names
carry their printed names like the cards do.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.engines.planechase import PLANES, Plane
from rulebook.engines.planes import NOT_PRINTED
from rulebook.i18n.glossary import Glossary, Term, load_glossary
from rulebook.project import read_project
from tests.thorough import examples

REPO = Path(__file__).resolve().parent.parent
LANGUAGES = read_project(REPO / "mkdocs.yml").languages
SOURCE = LANGUAGES.source.code
ALL = [lang.code for lang in LANGUAGES]
GLOSSARY = load_glossary(REPO / "locales", source=SOURCE)
TERMS = [t for t in GLOSSARY.terms if not t.card]


def test_every_term_has_a_form_in_every_language_and_says_where_it_comes_from():
    assert TERMS
    for term in TERMS:
        assert set(term.forms) == set(ALL), f"{term.origin}: forms for {sorted(term.forms)}, the site has {sorted(ALL)}"
        assert term.source.strip(), f"{term.origin}: say where the official forms were read, or that no card prints them"


# Ordinary words that once matched a term's pattern, or easily could: none may count as a term.
STRANGERS = [
    ("fr", "sortir"), ("fr", "sortie"), ("fr", "sorte"), ("fr", "ciblage"), ("fr", "engagement"),
    ("ru", "целый"), ("ru", "целиком"), ("ru", "Чародей"), ("ru", "чарующий"), ("ru", "землетрясение"),
    ("ru", "существовать"), ("ru", "существенный"), ("ru", "мгновенно"), ("ru", "разрешить"), ("ru", "разрешает"),
    ("en", "landing"), ("en", "instantly"), ("en", "permanently"), ("en", "sorcerer"), ("en", "tapestry"),
    ("pt", "alvorada"), ("pt", "feitiçaria"), ("pt", "virtude"), ("es", "girasol"), ("es", "tierral"),
    ("it", "tappa"), ("it", "tappe"), ("it", "danno"), ("it", "Lanciorapido"), ("it", "piattaforma"),
]


@pytest.mark.parametrize(("language", "word"), STRANGERS, ids=[f"{lang}-{w}" for lang, w in STRANGERS])
def test_no_term_matches_an_ordinary_word(language, word):
    caught = [t.origin for t in TERMS if t.found_in(language, word, source=language == SOURCE)]
    assert caught == [], f"{word!r} is caught by {caught}"


# Inflected forms the books really use: each must count as its term.
INFLECTIONS = [
    ("ru", "повёрнутую землю", "поверн*"), ("ru", "в хранилище маны", "хранилище маны"),
    ("ru", "с мановой ценностью 1", "мановая ценность"), ("ru", "благодаря выкапыванию", "выкапывание"),
    ("fr", "vous vous transplanez", "transplaner"), ("fr", "dans la réserve de\nmana", "réserve de mana"),
    ("pt", "a permanente alvo", "alvo"), ("es", "caminas por los planos", "caminar"),
    ("en", "two bonus points", "bonus point"), ("it", "si è risolta", "risolvere"),
]


@pytest.mark.parametrize(("language", "text", "first_form"), INFLECTIONS, ids=[f"{i[0]}-{i[2]}" for i in INFLECTIONS])
def test_the_inflections_the_books_use_count(language, text, first_form):
    (term,) = [t for t in TERMS if first_form in t.forms[language]]
    assert term.found_in(language, text, source=language == SOURCE)


def test_every_plane_the_planechase_book_names_has_its_printed_name_in_every_language():
    """The planes' names come from the engine (planechase's names(), from planes.py), as the cards'
    do: each plane the book names binds its translations, in every language of the site."""
    book = (REPO / "rules" / "planechase.yaml").read_text(encoding="utf-8")
    named = {plane for plane in PLANES if re.search(rf"\b{re.escape(plane)}\b", book)}
    assert named, "the book names no plane of the engine"
    by_english = {t.forms["en"][0]: t for t in GLOSSARY.terms if t.card and "planes.py:" in t.origin}
    for plane in sorted(named):
        term = by_english.get(plane)
        assert term is not None, f"{plane}: the planechase engine's names() should give it"
        assert "planechase" in term.books, plane
        # Planechase (HOP) was printed in en, it, fr, es only: elsewhere the name stays the English one.
        assert all(term.forms[language] == (plane,) for language in NOT_PRINTED), plane
        assert set(term.forms) >= {"it", "en", "fr", "es", "pt", "ru"}, plane
        # The glossary and the engine (which names planes in its proofs) print the same names.
        assert all(term.forms[language] == (printed,) for language, printed in Plane(plane, 0).names.items()), plane


def test_a_spelling_convention_flags_the_other_spelling_where_it_stands(tmp_path):
    from rulebook.i18n.checks import check_translation

    (tmp_path / "glossary.yaml").write_text(
        "spelling:\n"
        "  - language: en\n    avoid: [colour*]\n    use: color\n    note: US English\n"
        "  - language: ru\n    avoid: [еще]\n    use: ещё\n"
        "terms: []\n", encoding="utf-8")
    glossary = load_glossary(tmp_path, (), source="it")
    assert glossary.problems == ()
    problems = check_translation("Mana incolore.", "Colourless mana, any colour.", "en", glossary)
    assert [name for name, _ in problems] == ["spelling", "spelling"]
    assert "'Colourless'" in problems[0][1] and "'color'" in problems[0][1] and "glossary.yaml:2" in problems[0][1]
    assert check_translation("Mana incolore.", "Colorless mana.", "en", glossary) == []
    assert check_translation("Vedi [[colour-rule]].", "See [[colour-rule]].", "en", glossary) == []
    assert check_translation("Mana incolore.", "Mana incolore, colour.", "fr", glossary) == []
    # Letter for letter: the Russian convention tells е from ё, which terms do not.
    assert [name for name, _ in check_translation("Ancora.", "Еще раз.", "ru", glossary)] == ["spelling"]
    assert check_translation("Ancora.", "Ещё раз.", "ru", glossary) == []


def test_a_malformed_spelling_entry_is_reported_at_its_line(tmp_path):
    (tmp_path / "glossary.yaml").write_text(
        "spelling:\n  - language: en\n    avoid: [colour]\n  - language: xx-nowhere\n    avoid: a\n    use: b\n"
        "terms: []\n", encoding="utf-8")
    glossary = load_glossary(tmp_path, (), source="it")
    assert [(p.line, "spelling entry" in p.message) for p in glossary.problems] == [(2, True), (4, True)]
    assert glossary.spellings == ()


def test_every_term_is_named_by_a_whole_word_in_every_language():
    """The glossary pages name each entry by its headword (review3-it W7/W8, ru SW1/SW2, fr SI-3):
    never a prefix form («заклинани…»), never a plural where the language has a singular («danni»)."""
    assert GLOSSARY.problems == ()
    for term in TERMS:
        for language in ALL:
            headword = term.headword(language)
            assert headword and not headword.endswith(("*", "…")), f"{term.origin}: {language} headword {headword!r}"
    heads = {(t.headword("it"), t.headword("ru")) for t in TERMS}
    assert {("danno", "повреждение"), ("magia", "заклинание"), ("incolore", "бесцветный"), ("generico", "общая мана"),
            ("istantaneo", "мгновенное заклинание")} <= heads


def test_a_headword_is_data_and_a_prefix_is_never_one(tmp_path):
    (tmp_path / "glossary.yaml").write_text(
        "terms:\n"
        "  - it: [danni, il danno]\n    headword: {it: danno}\n    ru: [заклинани*]\n"  # line 4: a prefix first, no headword
        "  - it: carta\n    ru: [карт*]\n    headword: {ru: карта}\n"                   # given: fine
        "  - it: mana\n    headword: {it: man*, en: mana}\n"                              # 9: a prefix headword; no en forms
        "  - it: terra\n    headword: terra\n",                                           # 11: not a mapping
        encoding="utf-8")
    glossary = load_glossary(tmp_path, (), source="it")
    assert [(p.line, p.message.split(":")[0]) for p in glossary.problems] == [
        (4, "the first ru form 'заклинани*' is a prefix, and the first form names the term's glossary entry"),
        (9, "the it headword 'man*' is a prefix"),
        (9, "a headword for 'en', but the term has no 'en' forms"),
        (11, "headword"),
    ], glossary.problems
    danni, carta, mana, terra = glossary.terms
    assert (danni.headword("it"), danni.headword("ru")) == ("danno", "заклинани")  # reported above; never shown with its *
    assert carta.headword("ru") == "карта" and carta.headword("en") == ""
    assert mana.headword("it") == "mana" and terra.headword("it") == "terra"


# The one-pass scanner must say exactly what searching each term on its own says: texts made
# of pieces of the forms (a card name inside another, terms starting alike, a word at a word's
# edge, capitals), over the real glossary and over one whose terms overlap on purpose.
OVERLAPPING = Glossary(tuple(Term({"it": forms, "en": forms}, f"made-up:{n}", card=card) for n, (forms, card) in enumerate([
    (("Sentiero",), True), (("Sentiero dell'Esilio",), True), (("Palude",), True), (("esilia*",), False),
    (("esilio",), False), (("sentiero",), False), (("cart*",), False), (("carta", "carte"), False), (("palude",), False),
])), source="it")
# The same scan over a source in Russian: е and ё are one letter, a card name takes case endings.
RUSSIAN = Glossary(tuple(Term({"ru": forms, "it": forms}, f"made-up:{n}", card=card) for n, (forms, card) in enumerate([
    (("Ёж",), True), (("Ежевика",), True), (("ёлка",), False), (("ель*",), False), (("елка",), False), (("земля",), False),
])), source="ru")


def _without_longer(term: Term, found: list[Term], source: str, text: str) -> str:
    """``text`` with every found card name longer than ``term``'s longest form blanked."""
    def longest(t: Term) -> int:
        return max(len(form) for form in t.forms[source])
    for other in found:
        if longest(other) > longest(term):
            text = other.blanked(source, text)
    return text


def _pieces(glossary: Glossary) -> list[str]:
    return sorted({form.rstrip("*") for t in glossary.terms for form in t.forms.get(glossary.source, ())})


_GLUE = [" ", "", "-", "l'", ", ", "\n", "s ", "i ", "a", "е", "ё"]


# Each piece as written, in lower case or in capitals: card names match only capitalised in the
# source, the other terms in any case.
_CASES = [str, str.lower, str.upper]


# 100 examples a glossary catch every change to the scanner that 300 caught, each tried (the
# other forms matching at a place not looked for, or one form skipped; е and ё told apart in
# the grouping or the letter test; card names not blanked first; the letter tests or the
# scanner's own test of case; forms in another order); THOROUGH=1 runs 300 (tests/thorough.py).
@pytest.mark.parametrize("glossary", [GLOSSARY, OVERLAPPING, RUSSIAN], ids=["real", "overlapping", "russian"])
@settings(max_examples=examples(100, 300), deadline=None)
@given(data=st.data())
def test_the_terms_a_source_uses_are_those_each_term_finds_on_its_own(glossary, data):
    parts = data.draw(st.lists(st.tuples(st.sampled_from(_pieces(glossary)), st.sampled_from(_GLUE), st.sampled_from(_CASES)), max_size=6))
    text = "".join(case(piece) + glue for piece, glue, case in parts)
    source = glossary.source
    found = [t for t in glossary.terms if t.card and t.found_in(source, text, source=True)]
    # A card name only inside a longer one ("Sentiero" in "Sentiero dell'Esilio") is not named.
    named = tuple(t for t in found if t.found_in(source, _without_longer(t, found, source, text), source=True))
    rest = text
    for term in named:
        rest = term.blanked(source, rest)
    others = tuple(t for t in glossary.terms if not t.card and t.found_in(source, rest, source=True))
    assert glossary.used(text) == (named, others)


@pytest.mark.parametrize("text", ["Вмешивающейся Волшебнице", "Вмешивающуюся Волшебницу", "Вмешивающаяся Волшебница"])
def test_a_russian_card_name_with_a_reflexive_participle_inflects(text):
    (meddling,) = [t for t in GLOSSARY.terms if t.card and t.forms.get("en") == ("Meddling Mage",)]
    assert meddling.found_in("ru", text)
    assert not meddling.found_in("ru", "Вмешивающий Волшебник")


def _avoided_on_its_own(form: str) -> re.Pattern[str]:
    """One avoided form as the glossary's header says it matches, written out independently: a
    whole word (``*``: any word starting so), any spacing between words, case ignored, е ≠ ё."""
    body = r"\s+".join(map(re.escape, form.rstrip("*").split()))
    return re.compile(rf"(?<!\w){body}" + ("" if form.endswith("*") else r"(?!\w)"), re.IGNORECASE)


_SPELLING_LANGUAGES = sorted({s.language for s in GLOSSARY.spellings})


# A language's spellings are looked for in one search (their forms grouped by first letter); it
# must find something exactly when one of the forms, searched on its own, does.
@settings(max_examples=100, deadline=None)
@given(language=st.sampled_from(_SPELLING_LANGUAGES), data=st.data())
def test_one_search_for_a_languages_spellings_finds_what_each_form_finds(language, data):
    spellings, anywhere = GLOSSARY.spelling_rules(language)
    assert spellings and all(s.language == language for s in spellings)
    forms = [form for s in spellings for form in s.avoid]
    pieces = sorted({f.rstrip("*") for f in forms} | {"colour", "ещё", "еще"})
    parts = data.draw(st.lists(st.tuples(st.sampled_from(pieces), st.sampled_from(_GLUE + ["x", "ed "]), st.sampled_from(["", "up", "cap"])), max_size=5))
    text = "".join({"": p, "up": p.upper(), "cap": p.capitalize()}[case] + glue for p, glue, case in parts)
    assert (anywhere.search(text) is not None) == any(_avoided_on_its_own(f).search(text) for f in forms)


def test_a_books_glossary_finds_what_its_own_terms_find_with_the_whole_ones_scanner():
    """The 4,000 terms the limits allow compiled one scanner per book (0.3 s each, issue 30.4):
    a book's glossary uses the whole one's and keeps its own terms of what it finds."""
    terms = tuple(Term({"it": (form,), "en": (form,)}, f"made-up:{n}", card=card, books=books)
                  for n, (form, card, books) in enumerate([("Palude", True, frozenset({"a"})), ("palude", False, frozenset()),
                                                           ("mazzo", False, frozenset({"b"})), ("carta", False, frozenset({"a"}))]))
    whole = Glossary(terms, source="it")
    text = "La Palude, una palude, un mazzo e una carta."
    for book in ("a", "b"):
        own = whole.for_book(book)
        assert own._scanners is whole._scanners
        alone = Glossary(own.terms, source="it")
        assert own.used(text) == alone.used(text) and own.used(text) != whole.used(text)


def test_a_place_in_the_text_tries_only_the_forms_spelled_like_it():
    """Thousands of forms starting with one letter: at a word, only those with its second letter
    too are tried (each of hundreds was, at every word starting with the letter: issue 30.4)."""
    letters = "abcdefghilmnoprstuvz"
    forms = [f"a{x}{y}{z}" for x in letters for y in letters for z in "aeio"]  # 1,600
    glossary = Glossary(tuple(Term({"it": (form,)}, f"made-up:{n}") for n, form in enumerate(forms)), source="it")
    scanner = glossary._scanners[1]
    tried = scanner._later(0, "una abete", 4)
    assert tried and all(scanner.patterns[i].pattern.startswith(r"(?<!\w)ab") for i in tried)
    assert [t.forms["it"] for t in glossary.used("abba, ciao; amio e azio")[1]] == [("abba",), ("amio",), ("azio",)]


def test_every_form_that_matches_at_a_place_is_found_whichever_the_scan_reports():
    """The scan tries a letter's forms by second letter ("ab" and "ab*" before "a*"), so the form
    it reports at a place need not be the first in glossary order: the others that match there
    are found all the same, earlier ones too."""
    forms = ["ab", "a*", "ab*", "ac"]
    glossary = Glossary(tuple(Term({"it": (form,)}, f"made-up:{n}") for n, form in enumerate(forms)), source="it")
    assert [t.forms["it"] for t in glossary.used("abx")[1]] == [("a*",), ("ab*",)]
    assert [t.forms["it"] for t in glossary.used("ab, ac")[1]] == [("ab",), ("a*",), ("ab*",), ("ac",)]
    for text in ("abx", "ab, ac", "x ac", "acab", "Ab AC"):
        assert {t.forms["it"][0] for t in glossary.used(text)[1]} == {
            f for f in forms if Term({"it": (f,)}, "x").found_in("it", text, source=True)}


def test_a_name_inside_a_longer_name_is_not_a_use_of_it():
    """"Elfi di Llanowar" (a card) does not name Llanowar (a plane): a translation writes the
    card's printed name, which need not hold the plane's ("Лановарские Эльфы")."""
    glossary = Glossary((Term({"it": ("Elfi di Llanowar",), "ru": ("Лановарские Эльфы",)}, "cards.yaml:1", card=True),
                         Term({"it": ("Llanowar",), "ru": ("Llanowar",)}, "planes.py:1", card=True)), source="it")
    named, _ = glossary.used("Tappa gli Elfi di Llanowar.")
    assert [t.origin for t in named] == ["cards.yaml:1"]
    named, _ = glossary.used("Llanowar e gli Elfi di Llanowar.")  # the plane named on its own too
    assert [t.origin for t in named] == ["cards.yaml:1", "planes.py:1"]
