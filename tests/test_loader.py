"""The strict loader: each rejection names the right file, line and what to do."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.cache import BuildCache, using
from rulebook.errors import LoadError
from rulebook.loader import READ_BOOKS, NodeReader, load_book, load_books, load_library, rulebook_paths
from rulebook.symbols import SYMBOLS, TOKEN_RE, UNKNOWN_TOKEN_RE
from tests.conftest import MINIMAL


def problems(path: Path) -> list[str]:
    with pytest.raises(LoadError) as caught:
        load_book(path)
    return [str(p) for p in caught.value.problems]


def test_minimal_book_loads_with_positions(write_rules):
    book = load_book(write_rules(MINIMAL))
    rule = book.sections[0].rules[0]
    assert (book.id, book.path, rule.id, rule.number, rule.line) == ("demo", "rules/demo.yaml", "r1", "1.1", 11)
    example = rule.examples[0]
    assert example.doctest_line == 17
    assert example.doctest.splitlines()[0] == ">>> len(standard_deck())"


def test_scalars_stay_strings(write_rules):
    # YAML 1.1 would read these as a bool and a float; a rulebook never wants that.
    book = load_book(write_rules(MINIMAL.replace("title: Primo", "title: no").replace("id: r2", "id: r2\n        number: 601.10")))
    assert book.sections[0].title == "no"
    assert book.sections[0].rules[1].number == "601.10"


def test_duplicate_key(write_rules):
    text = MINIMAL.replace("  title: Demo\n", "  title: Demo\n  title: Ancora\n")
    assert problems(write_rules(text)) == ["rules/demo.yaml:4:3: duplicate key 'title' (first at line 3); remove one"]


def test_tab_indentation(write_rules):
    text = MINIMAL.replace("  title: Demo", "\ttitle: Demo")
    assert problems(write_rules(text)) == ["rules/demo.yaml:3:1: tab in indentation; indent with spaces"]


def test_unknown_and_missing_fields_reported_together(write_rules):
    text = MINIMAL.replace("        text: Due {W}.", "        txt: Due {W}.")
    found = problems(write_rules(text))
    assert found[0].startswith("rules/demo.yaml:19:9: missing field 'text' in a rule")
    assert found[1].startswith("rules/demo.yaml:20:9: unknown field 'txt' in a rule; known fields:")


def test_duplicate_ids(write_rules):
    text = MINIMAL.replace("- id: r2", "- id: r1").replace("[[r2]]", "[[r1]]")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:19:13: duplicate id 'r1' (first at line 11); ids must be unique in a book"
    ]


def test_duplicate_id_between_a_section_and_its_rule_points_at_the_rule(write_rules):
    text = MINIMAL.replace("- id: r2", "- id: primo").replace("[[r2]]", "[[primo]]")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:19:13: duplicate id 'primo' (first at line 8); ids must be unique in a book"
    ]


def test_cross_reference_to_missing_rule(write_rules):
    text = MINIMAL.replace("[[r2]]", "[[r9]]")
    assert problems(write_rules(text)) == ["rules/demo.yaml:12:15: cross-reference [[r9]] names no rule in this book"]


def test_a_misspelled_cross_reference_suggests_the_id_it_meant(write_rules):
    text = MINIMAL.replace("- id: r2", "- id: vittoria").replace("[[r2]]", "[[vitoria]]")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:12:15: cross-reference [[vitoria]] names no rule in this book; did you mean 'vittoria'?"]
    write_rules(MINIMAL.replace("[[r2]]", "[[altri:r1]]"))
    write_rules(MINIMAL.replace("id: demo", "id: altro").replace("- id: r2", "- id: vittoria").replace("[[r2]]", "[[demo:r1]]"), name="altro")
    with pytest.raises(LoadError) as caught:
        load_library(rulebook_paths("rules"))
    assert [str(p) for p in caught.value.problems] == [
        "rules/demo.yaml:12:15: cross-reference [[altri:r1]] names an unknown book; did you mean 'altro'?"]
    write_rules(MINIMAL.replace("[[r2]]", "[[altro:vitoria]]"))
    with pytest.raises(LoadError) as caught:
        load_library(rulebook_paths("rules"))
    assert [str(p) for p in caught.value.problems] == [
        "rules/demo.yaml:12:15: cross-reference [[altro:vitoria]] names no rule in rules/altro.yaml; did you mean 'vittoria'?"]


def test_cross_reference_across_books(write_rules):
    write_rules(MINIMAL.replace("[[r2]]", "[[other:x1]]"))
    other = MINIMAL.replace("id: demo", "id: other").replace("[[r2]]", "[[demo:r2]]")
    write_rules(other, name="other")
    with pytest.raises(LoadError) as caught:
        load_library(rulebook_paths("rules"))
    assert [str(p) for p in caught.value.problems] == [
        "rules/demo.yaml:12:15: cross-reference [[other:x1]] names no rule in rules/other.yaml"
    ]
    write_rules(MINIMAL.replace("[[r2]]", "[[other:r1]]"))
    assert sorted(load_library(rulebook_paths("rules"))) == ["demo", "other"]


def test_a_kept_book_holds_neither_its_reader_nor_its_bytes(write_rules):
    # A build keeps each book read (reuse) to the end: what it keeps must not grow with the file's
    # text beyond the Book. A reference into another book, checked after every book is read, held
    # its reader (every line of the file) and the cache held the file's bytes (issue 31.3).
    # In a block scalar, whose positions are worked out from the file's lines.
    write_rules(MINIMAL.replace("text: Vedi [[r2]].", "text: |\n          Vedi [[other:r1]]."))
    write_rules(MINIMAL.replace("id: demo", "id: other").replace("[[r2]]", "[[demo:r2]]"), name="other")
    cache = BuildCache()
    with using(cache):
        books, failed = load_books(rulebook_paths("rules"), reuse=True)
    assert sorted(books) == ["demo", "other"]
    assert not failed
    gc.collect()
    assert [type(o).__name__ for o in gc.get_objects() if isinstance(o, NodeReader)] == []
    for book in books.values():
        made = cache.made_from(READ_BOOKS, (str(Path(book.path).resolve()), book.path))
        assert made is not None
        assert made[1][0] is book
        size = Path(book.path).stat().st_size
        assert all(len(value) < size / 4 for value in made[0].values() if isinstance(value, bytes)), made[0]


def test_unknown_symbol_in_a_block_points_at_its_line(write_rules):
    text = MINIMAL.replace("        text: Due {W}.", "        text: |\n          Due {W}\n          e {Q2}.")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:22:13: unknown symbol {Q2} in text of rule 'r2'; see docs/format.md for the list"
    ]


def test_an_empty_list_item_is_refused(write_rules):
    text = MINIMAL.replace("        text: Due {W}.", "        text: |\n          Due:\n          - \n          - {W}")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:22:11: a line with only '-' in text of rule 'r2'; write the list item after '- ' or remove the dash"
    ]


def test_raw_html_is_refused(write_rules):
    text = MINIMAL.replace("Due {W}.", "Due <b>{W}</b>.")
    assert problems(write_rules(text))[0].startswith("rules/demo.yaml:20:15: raw HTML '<b>'")


@pytest.mark.parametrize(
    "yaml_text, message",
    [
        ("book: &a {id: x}\nsections: *a\n", "1:7: YAML anchor &a is not allowed; write the value out"),
        ("book: !!python/object/apply:os.system ['touch pwned']\nsections: []\n", "1:7: explicit tag"),
        ("book: !custom x\nsections: []\n", "1:7: explicit tag '!custom' is not allowed; remove it"),
    ],
)
def test_anchors_aliases_and_tags_are_refused(write_rules, tmp_path, yaml_text, message):
    found = problems(write_rules(yaml_text))
    assert found[0].startswith(f"rules/demo.yaml:{message}")
    assert not (tmp_path / "pwned").exists()


def test_alias_bomb_is_refused_without_expanding(write_rules):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    found = problems(write_rules("\n".join(lines) + "\n"))
    assert found[0] == "rules/demo.yaml:1:5: YAML anchor &a0 is not allowed; write the value out"
    assert found[-1].endswith("too many problems; stopping")


def test_empty_file(write_rules):
    assert problems(write_rules("# solo un commento\n")) == [
        "rules/demo.yaml:1:1: empty file; a rulebook needs at least a 'book' mapping"
    ]


def test_not_utf8(write_rules):
    data = MINIMAL.lstrip("\n").encode("utf-8").replace(b"Un libro", b"Un libr\xe0")
    assert problems(write_rules(data)) == ["rules/demo.yaml:4:19: byte 0xe0 is not UTF-8; save the file as UTF-8"]


def test_yaml_syntax_error_says_what_to_do(write_rules):
    text = MINIMAL.replace("text: Un mazzo.", "text: Attenzione: un mazzo.")
    (found,) = problems(write_rules(text))
    assert found == ("rules/demo.yaml:15:29: YAML syntax: a ':' here cannot start a value: a text containing ': ' must be "
                     "quoted or written as a '|' block, and a key on the line above needs its own ':'")


def test_doctest_must_be_a_literal_block(write_rules):
    text = MINIMAL.replace("doctest: |\n              >>> len(standard_deck())\n              60", "doctest: '>>> 1'")
    assert problems(write_rules(text)) == [
        "rules/demo.yaml:16:22: a doctest must be a literal block: write 'doctest: |' and indent the lines below"
    ]


@pytest.mark.parametrize("doctest", [
    "no prompt at all",                        # the guard the old substring test kept
    "len(standard_deck())  # >>> 60",           # '>>>' in the middle of a line
    "60\n>>>\n>>> # only a comment",            # prompts that run nothing
])
def test_an_example_with_no_line_to_run_is_refused_at_its_doctest(write_rules, doctest):
    body = "\n".join("              " + line for line in doctest.split("\n"))
    text = MINIMAL.replace("              >>> len(standard_deck())\n              60", body)
    assert text != MINIMAL
    assert problems(write_rules(text)) == ["rules/demo.yaml:16:22: this example has no '>>>' line to run"]


def test_two_documents(write_rules):
    assert problems(write_rules(MINIMAL + "---\nbook: {}\n"))[0].startswith("rules/demo.yaml:22:1: more than one YAML document")


def test_every_rulebook_in_the_repo_loads_and_links():
    from tests.conftest import REPO

    books = load_library(rulebook_paths(REPO / "rules"))
    assert "bingomagic" in books


def test_the_source_language_is_any_language_babel_knows(write_rules):
    assert load_book(write_rules(MINIMAL.replace("language: it", "language: pt-BR"))).language == "pt_BR"
    assert load_book(write_rules(MINIMAL.replace("language: it", "language: ar"))).language == "ar"
    assert problems(write_rules(MINIMAL.replace("language: it", "language: xx-nope"))) == [
        "rules/demo.yaml:5:13: book language: unknown language 'xx-nope': use a code Babel knows, such as de, pt_BR or ar"
    ]


def test_the_site_domain_is_not_a_book_id(write_rules):
    assert problems(write_rules(MINIMAL.replace("id: demo", "id: site"))) == [
        "rules/demo.yaml:2:7: book id 'site' is taken by the catalog of the site's own words; choose another id"
    ]


_RULING = """        text: Due {W}.
        rulings:
          - id: d1
            departs: {departs}
            text: Si decide così.
            reason: Perché sì.
"""


def test_a_ruling_names_the_passage_it_departs_from(write_rules):
    book = load_book(write_rules(MINIMAL.replace("        text: Due {W}.\n", _RULING.replace("{departs}", "«il turno finisce» (Counter)"))))
    ruling = book.sections[0].rules[1].rulings[0]
    assert ruling.departs == "«il turno finisce» (Counter)"
    plain = load_book(write_rules(MINIMAL))
    assert all(not r.departs for rule in plain.rules() for r in rule.rulings)


@pytest.mark.parametrize("departs", [
    "'sezione «Il dado», dove si legge «il primo tiro è gratuito, il secondo costa un mana»'",
    "“il primo tiro è gratuito e il secondo costa uno”",
    "'\"otto parole: il primo tiro è gratuito, sempre\" (Dado)'",
])
def test_a_departure_quotes_fewer_than_eight_words(write_rules, departs):
    found = problems(write_rules(MINIMAL.replace("        text: Due {W}.\n", _RULING.replace("{departs}", departs))))
    assert len(found) == 1 and found[0].startswith("rules/demo.yaml:23:")
    assert "departs of ruling 'd1' quotes" in found[0] and "quote fewer than 8 or name the passage's section" in found[0]


def test_an_empty_departure_is_refused(write_rules):
    found = problems(write_rules(MINIMAL.replace("        text: Due {W}.\n", _RULING.replace("{departs}", '""'))))
    assert found == ["rules/demo.yaml:23:22: departs of ruling 'd1' is empty; write the text or remove the field"]


def test_a_ruling_says_whose_words_it_departs_from(write_rules):
    # The source's by default; the game's own rules (a Magic book's Comprehensive Rules) when it says so.
    assert load_book(write_rules(MINIMAL.replace("        text: Due {W}.\n", _RULING.replace("{departs}", "«il turno finisce» (Counter)")))).sections[0].rules[1].rulings[0].departs_from == "source"
    ruled = _RULING.replace("{departs}", "regola 608.2d").replace("            text: Si", "            departs_from: rules\n            text: Si")
    assert load_book(write_rules(MINIMAL.replace("        text: Due {W}.\n", ruled))).sections[0].rules[1].rulings[0].departs_from == "rules"


def test_whose_words_a_ruling_departs_from_is_checked(write_rules):
    wrong = _RULING.replace("{departs}", "regola 608.2d").replace("            text: Si", "            departs_from: regole\n            text: Si")
    assert problems(write_rules(MINIMAL.replace("        text: Due {W}.\n", wrong))) == [
        "rules/demo.yaml:24:27: departs_from of ruling 'd1' is 'regole'; write one of: source, rules"]
    alone = _RULING.replace("            departs: {departs}\n", "            departs_from: rules\n")
    assert problems(write_rules(MINIMAL.replace("        text: Due {W}.\n", alone))) == [
        "rules/demo.yaml:23:27: departs_from of ruling 'd1' without departs; name the passage in departs, or remove departs_from"]


def test_seven_quoted_words_are_short_enough(write_rules):
    departs = "«sette parole, il primo tiro è gratuito» (Dado)"
    book = load_book(write_rules(MINIMAL.replace("        text: Due {W}.\n", _RULING.replace("{departs}", departs))))
    assert book.sections[0].rules[1].rulings[0].departs == departs


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(SYMBOLS) + ["{", "}", " ", "W", "CHAOS", "d6", "{x}", "{{W}}", "{W "]), max_size=12))
def test_the_unknown_symbols_the_loader_reports_are_the_tokens_that_are_no_symbol(pieces):
    text = "".join(pieces)
    expected = [(m.start(), m.group(0)) for m in TOKEN_RE.finditer(text) if m.group(0) not in SYMBOLS]
    assert [(m.start(), m.group(0)) for m in UNKNOWN_TOKEN_RE.finditer(text)] == expected


def test_a_key_indented_deeper_than_the_one_above_is_told_to_line_up(write_rules):
    """YAML reads the deeper line as more of the text above, then fails on its ':'; the advice
    to quote a text with ': ' would be wrong there."""
    text = MINIMAL.replace("          - id: e1\n            text: Un mazzo.", "          - id: e1\n              text: Un mazzo.")
    (problem,) = problems(write_rules(text))
    assert problem.startswith("rules/demo.yaml:15:") and ("'text:' is indented deeper than 'id:' on the line above (column 15, not 13), "
                                                          "so YAML reads it as more of that line's text: indent it as 'id:'") in problem, problem
    # A text with ': ' in it still gets the advice to quote it.
    (problem,) = problems(write_rules(MINIMAL.replace("text: Un mazzo.", "text: Nota: un mazzo.")))
    assert "a text containing ': ' must be quoted or written as a '|' block" in problem, problem


def test_a_key_indented_less_than_its_items_key_is_told_to_line_up(write_rules):
    """Between a list item's '-' and its key: the parser says the line does not go on with the
    list, and the advice to start it with '- ' would make a new item of what belongs to this one."""
    text = MINIMAL.replace("          - id: e1\n            text: Un mazzo.", "          - id: e1\n           text: Un mazzo.")
    (problem,) = problems(write_rules(text))
    assert problem.startswith("rules/demo.yaml:15:") and ("'text:' is indented less than 'id:' on the line above (column 12, not 13): "
                                                          "indent it as 'id:' to go on with that item, or start a new item with '- ' at column 11") in problem, problem
