"""The Babel adapter: each use of Babel's internals it makes, checked against the installed Babel.

Written for Babel 2.16 to 2.19 (``WRITTEN_FOR``) and run under both ends of that range (see
docs/testing.md). A newer Babel fails the first test on purpose: check each reliance the
adapter's docstring lists (the tests below do most of it), then widen ``WRITTEN_FOR``.
"""

from __future__ import annotations

import re
from pathlib import Path

import babel
import pytest
from babel.messages.catalog import Catalog, Message

from rulebook.adapters import babel as babel_adapter
from rulebook.adapters.babel import (DERIVED_FLAGS, WORD_SEP, WRITTEN_FOR, HeaderHookCatalog, PoSyntaxError, babel_word_sep,
                                         copy_catalog, linear_wrapping, parse_po, set_plural_forms)

SRC = Path(__file__).resolve().parent.parent / "src" / "rulebook"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2])


def test_the_installed_babel_is_one_the_adapter_was_written_for():
    oldest, newest = (_version(v) for v in WRITTEN_FOR)
    assert WRITTEN_FOR == ("2.16", "2.19")
    assert oldest <= _version(babel.__version__) <= newest, (
        f"Babel {babel.__version__} is not one of {WRITTEN_FOR[0]}-{WRITTEN_FOR[1]}: check what rulebook/adapters/babel.py "
        "relies on (its docstring), then widen WRITTEN_FOR")


def test_a_refused_line_is_reported_at_its_line_from_1():
    lines = ['msgid ""', 'msgstr ""', '"Language: fr\\n"', "", 'msgid "a"', 'msgstri "b"', ""]
    with pytest.raises(PoSyntaxError) as refused:
        parse_po(Catalog(), lines)
    assert refused.value.line == 6
    assert refused.value.detail and not refused.value.detail.endswith(" on 5")  # Babel's own " on N" is cut


def test_an_entry_without_msgstr_is_refused_at_its_msgid_under_every_babel():
    lines = ['msgid ""', 'msgstr ""', '"Language: fr\\n"', "", 'msgid "a"', "", 'msgid "b"', 'msgstr "c"', ""]
    with pytest.raises(PoSyntaxError) as refused:
        parse_po(Catalog(), lines)
    assert refused.value.line == 5


def test_too_many_forms_for_the_header_are_refused_at_their_line():
    lines = ['msgid ""', 'msgstr ""', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', "",
             'msgid "a"', 'msgid_plural "as"', 'msgstr[0] "x"', 'msgstr[1] "y"', 'msgstr[2] "z"', ""]
    with pytest.raises(PoSyntaxError) as refused:
        parse_po(Catalog(), lines)
    assert refused.value.line == 5  # the entry's first line


def test_the_header_hook_sees_every_field_and_keeps_those_babel_forgets():
    seen = []

    class Hooked(HeaderHookCatalog):
        def check_headers(self, headers):
            seen.extend(name for name, _ in headers)

    catalog = Hooked()
    parse_po(catalog, ['msgid ""', 'msgstr ""', '"Language: fr\\n"', '"X-Poedit-Basepath: ..\\n"', "", 'msgid "a"', 'msgstr "b"', ""])
    assert seen == ["Language", "X-Poedit-Basepath"]
    assert str(catalog.locale) == "fr" and catalog.extra_headers == [("X-Poedit-Basepath", "..")]
    assert ("X-Poedit-Basepath", "..") in catalog.mime_headers
    assert catalog.mime_headers[-1][0] == "Generated-By"  # Babel's last header stays last


def test_a_copied_catalog_changes_alone():
    catalog = Catalog(locale="fr")
    catalog.add("a", "b", context="x")
    copied = copy_catalog(catalog)
    copied.get("a", "x").string = "changed"
    copied.add("new", "n")
    assert catalog.get("a", "x").string == "b" and catalog.get("new") is None
    assert [m.id for m in copied if m.id] == ["a", "new"]


def test_setting_the_plural_rule_keeps_the_rest_of_the_header():
    catalog = HeaderHookCatalog(locale="fr", project="P")
    catalog.extra_headers = [("X-Generator", "Poedit")]
    set_plural_forms(catalog, "nplurals=2; plural=(n > 1);")
    assert (catalog.num_plurals, catalog.plural_expr) == (2, "(n > 1)")
    assert catalog.plural_forms == "nplurals=2; plural=(n > 1);"
    assert catalog.project == "P" and catalog.extra_headers == [("X-Generator", "Poedit")] and str(catalog.locale) == "fr"


def test_linear_wrapping_swaps_babels_expression_only_within_the_block():
    original = babel_word_sep()
    assert original is not WORD_SEP
    with linear_wrapping():
        assert babel_word_sep() is WORD_SEP
    assert babel_word_sep() is original


def test_the_flags_babel_sets_by_itself_are_those_it_derives_from_the_msgid():
    assert Message("{count} cards").flags <= DERIVED_FLAGS
    assert Message("%(count)d cards").flags <= DERIVED_FLAGS
    assert Message("plain words").flags == set()


def test_no_other_module_uses_babels_internals():
    """What the adapter wraps is imported or touched nowhere else in the package."""
    internal = re.compile(r"PoFileParser|PoFileError|babel\.messages\.pofile import|pofile as babel|WORD_SEP\s*=|_num_plurals|_plural_expr"
                          r"|catalog\._messages|_set_mime_headers|_get_mime_headers|parse_separated_header\b.*import|from babel\.messages\.catalog import .*parse_")
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in SRC.rglob("*.py") if path.relative_to(SRC).as_posix() != "adapters/babel.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if internal.search(line)]
    assert found == []
    assert babel_adapter.__doc__ and "2.16" in babel_adapter.__doc__ and "2.19" in babel_adapter.__doc__
