"""Plural rules: a catalog's own Plural-Forms decides when it is a rule of its language, under
every supported Babel; counts of forms follow the catalog's header; moving a catalog to another
rule keeps every translation.

The rules below are written out as gettext, Babel 2.16 and Babel 2.19 write them (not asked of
the installed Babel), so each test says the same under every Babel the package supports.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.cli import main
from rulebook.i18n.catalogs import read_catalog, serialize
from rulebook.i18n.domains import SITE, load_messages
from rulebook.i18n.plurals import TRADITIONAL, parse_rule, rule_problem
from rulebook.languages import language
from rulebook.render.ui import Words
from tests.conftest import demo_book

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: pesca
        text: Il giocatore pesca una carta dal mazzo.
""")

FR_GETTEXT = "nplurals=2; plural=(n > 1);"
FR_CLDR = "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"  # Babel 2.19
RU_GETTEXT = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"  # Babel 2.16
RU_CLDR = "nplurals=3; plural=n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2;"  # 2.19
RU_TWO = "nplurals=2; plural=(n != 1);"
RU_WRONG_11_14 = "nplurals=3; plural=(n%10==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2);"  # right but for 11-14 (and 111-114 …)

#: The rule each Babel writes into a new catalog: 2.16 and 2.19 (CLDR's, with a form for millions).
BABEL_RULES = {
    "en": ("nplurals=2; plural=(n != 1);", "nplurals=2; plural=(n != 1);"),
    "it": ("nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"),
    "es": ("nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"),
    "fr": (FR_GETTEXT, FR_CLDR),
    "pt": ("nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"),
    "ru": (RU_GETTEXT, RU_CLDR),
    "pl": ("nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
           "nplurals=3; plural=n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2;"),
    "he": ("nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);"),
    "ar": ("nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=0 && n%100<=2 ? 4 : 5);",
           "nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 && n % 100 <= 99 ? 4 : 5);"),
    # CLDR itself changed in between: one form in 2.16's data, two in 2.19's (whose table still writes one).
    "vi": ("nplurals=1; plural=0;", "nplurals=2; plural=(n > 1);"),
}


@pytest.mark.parametrize(("lang", "rule"), [(lang, rule) for lang, rules in BABEL_RULES.items() for rule in rules])
def test_the_rule_of_every_supported_babel_is_a_rule_of_its_language(lang, rule):
    assert rule_problem(rule, lang) is None


@pytest.mark.parametrize(("lang", "rule"), [
    ("fr", FR_GETTEXT), ("fr", FR_CLDR), ("fr", "nplurals=2; plural=n>1;"),
    ("fr", "nplurals=2; plural=(n <= 1 ? 1 : 0);"),  # the forms in another order: the catalog's business
    ("ru", RU_GETTEXT), ("ru", RU_CLDR), ("pt", "nplurals=2; plural=(n != 1);"), ("pt_BR", FR_GETTEXT),
    # A class of the language split in two: the same words written twice, never wrong words.
    ("ja", "nplurals=2; plural=(n != 1);"), ("de", "nplurals=3; plural=(n == 1 ? 0 : n % 1000000 == 0 && n != 0 ? 1 : 2);"),
])
def test_gettexts_traditional_rule_and_cldrs_both_pass(lang, rule):
    assert rule_problem(rule, lang) is None


@pytest.mark.parametrize(("lang", "rule", "why"), [
    ("ru", RU_TWO, "it gives 0 and 2 the same form"),
    ("fr", "nplurals=2; plural=(n != 1);", "it gives 0 and 2 the same form"),
    ("ru", RU_WRONG_11_14, "it gives 1 and 11 the same form"),
    ("fr", "nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);", "it gives 0 and 3 the same form"),
    ("fr", "nplurals=2; plural=(n > 1 ? 2 : 0);", "gives 2 the form 2, but nplurals=2"),
    ("fr", "nplurals=2; plural=n >;", "is not a C expression"),
])
def test_a_rule_wrong_for_the_language_fails_and_says_where(lang, rule, why):
    problem = rule_problem(rule, lang)
    assert problem is not None and problem.startswith(f"Plural-Forms {rule!r}") and why in problem, problem


def test_the_rule_wrong_only_for_11_to_14_is_caught_on_those_numbers():
    """The classes differ only where the teens are: the rule agrees with Russian on 0-10, 15-110 …"""
    wrong, right = parse_rule(RU_WRONG_11_14), parse_rule(RU_GETTEXT)
    differ = sorted({n % 100 for n, a, b in zip(range(1000), wrong.forms, right.forms) if a != b})
    assert differ == [11, 12, 13, 14]
    assert rule_problem(RU_WRONG_11_14, "ru") is not None


def test_a_catalogs_content_reads_its_rule_by_meaning_with_the_one_reader():
    """Weblate's spelling and Babel's of one rule are one content; a rule wrong only for 11-14 is
    another (content compares the same probes that the checks use, through parse_rule)."""
    from rulebook.i18n.content import plural_rule

    weblate = RU_GETTEXT.replace("plural=(", "plural=").replace(");", ";").replace("  ", " ")
    assert plural_rule(weblate) == plural_rule(RU_GETTEXT) == (3, parse_rule(RU_GETTEXT).forms)
    assert plural_rule(RU_WRONG_11_14) != plural_rule(RU_GETTEXT)
    assert plural_rule("nplurals=x;  plural=?") == "nplurals=x; plural=?"  # unreadable: compared as written


def test_every_traditional_rule_reads():
    for lang, rules in TRADITIONAL.items():
        for rule in rules:
            assert rule_problem(rule, lang) is None, (lang, rule)



def test_the_flags_babel_derives_from_the_msgid_are_no_content():
    """Babel 2.17 on sets python-brace-format on every msgid with a {field}, 2.16 never: a file
    written by either is the same catalog."""
    from rulebook.i18n.content import content

    def made(flagged: bool) -> Catalog:
        catalog = Catalog(locale="fr")
        message = catalog.add("{count} cards", "{count} cartes", context="demo:x")
        message.flags.discard("python-brace-format")
        if flagged:
            message.flags.add("python-brace-format")
        return catalog

    assert content(made(True)) == content(made(False))
    fuzzy = made(True)
    fuzzy.get("{count} cards", "demo:x").flags.add("fuzzy")
    assert content(fuzzy) != content(made(True))  # a flag someone wrote is content


# --- in a project -----------------------------------------------------------------------------

LANGUAGES = ["it", "en", "fr", "es", "pt", "ru"]


@pytest.fixture
def project(write_rules, tmp_path: Path) -> Path:
    write_rules(BOOK)
    (tmp_path / "mkdocs.yml").write_text(f"site_name: Test\nplugins:\n  - rulebook:\n      languages: [{', '.join(LANGUAGES)}]\n",
                                         encoding="utf-8")
    assert main(["i18n", "update"]) == 0
    return tmp_path


def po(root: Path, lang: str, domain: str = "demo") -> Path:
    return root / "locales" / lang / "LC_MESSAGES" / f"{domain}.po"


def with_rule(path: Path, rule: str) -> int:
    """Write ``rule`` as the catalog's Plural-Forms; the header's line it is on."""
    text = re.sub(r'"Plural-Forms: [^"]*"', lambda _: f'"Plural-Forms: {rule}\\\\n"', path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith('"Plural-Forms:'))


def test_i18n_check_names_the_line_of_a_wrong_rule_and_passes_either_right_one(project, capsys):
    line = with_rule(po(project, "ru"), RU_TWO)
    with_rule(po(project, "fr"), FR_GETTEXT)
    with_rule(po(project, "pt"), BABEL_RULES["pt"][1])
    capsys.readouterr()
    assert main(["i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert f"locales/ru/LC_MESSAGES/demo.po:{line}:1: Plural-Forms {RU_TWO!r} is not a plural rule of ru" in out
    assert "rulebook i18n check: 1 problem" in out, out
    with_rule(po(project, "ru"), RU_WRONG_11_14)
    assert main(["i18n", "check", "-l", "ru"]) == 1
    with_rule(po(project, "ru"), RU_CLDR)
    with_rule(po(project, "fr"), FR_CLDR)
    assert main(["i18n", "check"]) == 0


def test_update_keeps_each_catalogs_rule_and_writes_nothing(project, capsys):
    """Whichever Babel is installed: one catalog has its 2.16 rule, another its 2.19 rule."""
    for lang, (old, new) in BABEL_RULES.items():
        if po(project, lang).exists():
            with_rule(po(project, lang), old if lang in ("fr", "ru", "it") else new)
    # As Babel 2.16 writes a file: no python-brace-format flag (2.17 on derive it from the msgid).
    for path in [*project.glob("locales/**/*.po"), *project.glob("locales/**/*.pot")]:
        path.write_text(path.read_text(encoding="utf-8").replace("#, python-brace-format\n", ""), encoding="utf-8")
    before = {path: path.read_bytes() for path in project.glob("locales/**/*.po*")}
    capsys.readouterr()
    assert main(["i18n", "update", "--check"]) == 0, capsys.readouterr().out
    assert main(["i18n", "update"]) == 0
    assert {path: path.read_bytes() for path in project.glob("locales/**/*.po*")} == before
    assert read_catalog(po(project, "fr"))[0].plural_forms == BABEL_RULES["fr"][0]
    # A new catalog gets the installed Babel's rule.
    assert main(["i18n", "update", "-l", "pl"]) == 0
    assert read_catalog(po(project, "pl"))[0].plural_forms == Catalog(locale="pl").plural_forms


RU_SITE = """msgid ""
msgstr ""
"Project-Id-Version: Test site\\n"
"Language: ru\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: {rule}\\n"

msgid "{{passed}}/{{total}} example passed"
msgid_plural "{{passed}}/{{total}} examples passed"
msgstr[0] "{{passed}}/{{total}} пример пройден"
msgstr[1] "{{passed}}/{{total}} примера пройдено"
"""


def test_a_plural_message_missing_a_form_its_header_asks_for_is_reported(project, capsys):
    path = po(project, "ru", "site")
    path.write_text(RU_SITE.format(rule=RU_GETTEXT), encoding="utf-8")
    capsys.readouterr()
    assert main(["i18n", "check", "-l", "ru"]) == 1
    out = capsys.readouterr().out
    assert "locales/ru/LC_MESSAGES/site.po:10:1: {passed}/{total} example passed: [plurals] no msgstr[2]: the header says nplurals=3" in out
    messages = load_messages(SITE, "ru", project / "locales")
    assert any("[plurals] no msgstr[2]" in p.message and p.line == 10 for p in messages.problems)
    # The shipped Russian words are shown, in all three forms.
    said = Words(language("ru"), language("it"), lambda code: load_messages(SITE, code, project / "locales"))
    assert said.ngettext("{passed}/{total} example passed", "{passed}/{total} examples passed", 5, passed=5, total=5).text == "5/5 примеров проверено"
    # Two forms are all a two-form header asks for (and that rule is wrong for Russian: said once).
    path.write_text(RU_SITE.format(rule=RU_TWO), encoding="utf-8")
    assert main(["i18n", "check", "-l", "ru"]) == 1
    out = capsys.readouterr().out
    assert "no msgstr" not in out and "is not a plural rule of ru" in out


FR_SITE = """msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: {rule}\\n"

msgid "{{passed}}/{{total}} example passed"
msgid_plural "{{passed}}/{{total}} examples passed"
{forms}
"""


def test_a_project_catalog_in_another_rule_of_the_language_shows_the_right_forms(project):
    """The shipped French words have two forms (n > 1); a project's override has CLDR's three."""
    forms = 'msgstr[0] "{passed}/{total} réussi"\nmsgstr[1] "{passed}/{total} millions réussis"\nmsgstr[2] "{passed}/{total} réussis"'
    po(project, "fr", "site").write_text(FR_SITE.format(rule=FR_CLDR, forms=forms), encoding="utf-8")
    messages = load_messages(SITE, "fr", project / "locales")
    assert messages.problems == ()
    said = {n: messages.translate(None, "{passed}/{total} example passed", "{passed}/{total} examples passed", n) for n in (0, 1, 2, 5)}
    assert said == {0: "{passed}/{total} réussi", 1: "{passed}/{total} réussi", 2: "{passed}/{total} réussis", 5: "{passed}/{total} réussis"}


# --- moving a catalog to another rule ---------------------------------------------------------

DE_MILLIONS = "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"


def _translate_plurals(path: Path) -> dict[str, tuple[str, ...]]:
    """Fill every plural message as a translator would ('one …', 'other …'); their forms."""
    found, _ = read_catalog(path)
    for message in found:
        if message.id and not isinstance(message.id, str):
            message.string = (f"one {message.id[0]}", f"other {message.id[1]}")
    path.write_bytes(serialize(found))
    return plural_strings(path)


def _unfuzzy(path: Path) -> None:
    found, _ = read_catalog(path)
    for message in found:
        message.flags.discard("fuzzy")
    path.write_bytes(serialize(found))


def plural_strings(path: Path) -> dict[str, tuple[str, ...]]:
    found, problems = read_catalog(path)
    assert problems == []
    return {m.id[0]: tuple(m.string) for m in found if m.id and not isinstance(m.id, str)}


def test_moving_a_catalog_keeps_every_translation_and_marks_split_forms_fuzzy(project, capsys):
    assert main(["i18n", "update", "-l", "de"]) == 0
    site = po(project, "de", "site")
    before = _translate_plurals(site)
    assert len(before) >= 2 and all(all(forms) for forms in before.values())
    capsys.readouterr()

    # To a rule with a form for exact millions: the old 'other' text goes to both new forms, fuzzy.
    assert main(["i18n", "plural-forms", "de", "--domain", "site", "--rule", DE_MILLIONS]) == 0
    assert f"moved locales/de/LC_MESSAGES/site.po to {DE_MILLIONS!r} ({len(before)} plural messages, {len(before)} marked fuzzy" in (
        capsys.readouterr().out)
    moved, problems = read_catalog(site)
    assert problems == [] and moved.plural_forms == DE_MILLIONS
    assert plural_strings(site) == {msgid: (one, other, other) for msgid, (one, other) in before.items()}
    assert all(m.fuzzy for m in moved if m.id and not isinstance(m.id, str))
    assert not any(m.fuzzy for m in moved if isinstance(m.id, str) and m.id)  # the singular messages untouched
    assert po(project, "de", "demo").read_text(encoding="utf-8").count("nplurals=2") == 1  # only the domain asked for
    assert main(["i18n", "check", "-l", "de"]) == 0

    # The same classes in another order: an exact move, nothing fuzzy.
    _unfuzzy(site)
    swapped = "nplurals=3; plural=(n == 1 ? 2 : n != 0 && n % 1000000 == 0 ? 1 : 0);"
    assert main(["i18n", "plural-forms", "de", "--domain", "site", "--rule", swapped]) == 0
    assert plural_strings(site) == {msgid: (other, other, one) for msgid, (one, other) in before.items()}
    assert not any(m.fuzzy for m in read_catalog(site)[0] if m.id)

    # Back to Babel's rule (the default): the two old texts again.
    assert main(["i18n", "plural-forms", "de", "--domain", "site"]) == 0
    assert plural_strings(site) == before
    assert read_catalog(site)[0].plural_forms == Catalog(locale="de").plural_forms
    assert main(["i18n", "plural-forms", "de", "--domain", "site"]) == 0
    assert "unchanged locales/de/LC_MESSAGES/site.po" in capsys.readouterr().out


def test_a_rule_wrong_for_the_language_is_refused_and_nothing_moves(project, capsys):
    before = {path: path.read_bytes() for path in project.glob("locales/**/*.po")}
    assert main(["i18n", "plural-forms", "ru", "--rule", RU_TWO]) == 2
    assert f"Plural-Forms {RU_TWO!r} is not a plural rule of ru" in capsys.readouterr().out
    assert {path: path.read_bytes() for path in project.glob("locales/**/*.po")} == before


def test_stats_fails_on_an_unreadable_catalog_of_the_sites_words(project, capsys):
    path = po(project, "fr", "site")
    path.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "Ruling"\nmsgstri "Décision"\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["i18n", "stats"]) == 1
    assert "locales/fr/LC_MESSAGES/site.po:6:1: not a valid PO file" in capsys.readouterr().out

