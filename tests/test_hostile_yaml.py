"""Issue 16, YAML side: every crash, hang and silent case found by fuzzing, kept as a test.

Each input here once gave a traceback or took minutes; now each is refused at FILE:LINE:COL
with what to do, within a time budget that is a ratio to reading the same characters.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.errors import LoadError
from rulebook.i18n.glossary import load_glossary
from rulebook.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_PROBLEMS, MAX_TEXT_CHARS
from rulebook.loader import load_book, load_book_bytes
from tests.conftest import MINIMAL
from tests.linear import assert_linear

# YAML 1.1 forbids C0 controls but tab/LF/CR, DEL, C1 controls but NEL, U+FFFE and U+FFFF.
FORBIDDEN = [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, *range(0x80, 0x85), *range(0x86, 0xA0), 0xFFFE, 0xFFFF]


def test_the_issue_counts_63_forbidden_code_points():
    assert len(FORBIDDEN) == 63


@pytest.mark.parametrize("code", FORBIDDEN, ids=lambda c: f"U+{c:04X}")
def test_a_forbidden_character_is_refused_at_its_position(code):
    data = f"book:\n  id: ab{chr(code)}\n".encode("utf-8")
    with pytest.raises(LoadError) as caught:
        load_book_bytes(data, "rules/x.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"rules/x.yaml:2:9: invisible character U+{code:04X} is not allowed in YAML; delete it"
    ]


def test_the_issue_repro_gives_a_clear_error_and_no_traceback(write_rules, capsys):
    write_rules(b"book:\n  id: a\x00\n", name="x")
    assert main(["check", "rules/x.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rules/x.yaml:2:8: invisible character U+0000 is not allowed in YAML; delete it")
    assert "Traceback" not in err


def test_a_position_after_wide_characters_counts_characters_not_bytes():
    data = "book:\n  title: «èé» \x07\n".encode("utf-8")
    with pytest.raises(LoadError) as caught:
        load_book_bytes(data, "x.yaml")
    assert str(caught.value.problems[0]).startswith("x.yaml:2:15: invisible character U+0007")


def test_line_separators_that_only_yaml_counts_are_refused():
    # libyaml counts U+2028 as a line break, editors do not: every later line number would lie.
    with pytest.raises(LoadError, match="x.yaml:1:8: invisible character U\\+2028"):
        load_book_bytes("book: a\u2028b\n".encode("utf-8"), "x.yaml")


def test_deep_flow_nesting_is_refused_at_the_limit_in_linear_time():
    text = "[" * 100_000
    with pytest.raises(LoadError) as caught:
        load_book_bytes(text.encode(), "x.yaml")
    assert str(caught.value) == f"x.yaml:1:{MAX_DEPTH + 1}: nested more than {MAX_DEPTH} levels deep; flatten the structure"
    assert_linear(lambda: pytest.raises(LoadError, load_book_bytes, text.encode(), "x.yaml"), text, "deep nesting")


def test_deep_block_nesting_is_refused():
    text = "".join(f"{'  ' * depth}k{depth}:\n" for depth in range(MAX_DEPTH + 5))
    with pytest.raises(LoadError, match=f"nested more than {MAX_DEPTH} levels deep"):
        load_book_bytes(text.encode(), "x.yaml")


def test_a_file_over_the_size_limit_is_refused_unread(write_rules):
    path = write_rules(MINIMAL + "#" + "x" * MAX_FILE_BYTES + "\n")
    with pytest.raises(LoadError) as caught:
        load_book(path)
    assert str(caught.value) == f"rules/demo.yaml:1:1: the file is larger than the limit of {MAX_FILE_BYTES:,} bytes; split it or remove what does not belong"


def test_a_fifo_is_refused_instead_of_blocking(write_rules, tmp_path):
    import os

    fifo = tmp_path / "rules" / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="not a regular file"):
        load_book(fifo)


def test_a_text_over_the_length_limit_is_refused(write_rules):
    long = "parola " * (MAX_TEXT_CHARS // 7 + 1)
    path = write_rules(MINIMAL.replace("text: Due {W}.", f"text: {long}"))
    with pytest.raises(LoadError, match=f"text of rule 'r2' is [0-9,]+ characters, more than the limit of {MAX_TEXT_CHARS:,}; split it"):
        load_book(path)


def test_many_cross_references_load_in_linear_time():
    # 8,000 [[r1]] in one text cost 34 s (a list membership test per reference).
    refs = "[[r1]] " * 2_800
    text = MINIMAL.lstrip().replace("text: Due {W}.", f"text: '{refs}'")
    assert load_book_bytes(text.encode(), "x.yaml").sections[0].rules[1].text.count("[[r1]]") == 2_800
    assert_linear(lambda: load_book_bytes(text.encode(), "x.yaml"), text, "references")


def test_positions_in_a_long_block_are_found_in_linear_time():
    # _position sliced the whole text for each match: quadratic in the number of matches.
    body = "\n".join(["          {Q9} [[nowhere]]"] * 700)
    text = MINIMAL.lstrip().replace("        text: Due {W}.", "        text: |\n" + body)
    with pytest.raises(LoadError) as caught:
        load_book_bytes(text.encode(), "x.yaml")
    problems = caught.value.problems
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1].message == "too many problems; stopping"
    assert (problems[0].line, problems[0].column) == (21, 11)
    assert (problems[1].line, problems[1].column) == (21, 16)
    assert (problems[2].line, problems[2].column) == (22, 11)
    assert_linear(lambda: pytest.raises(LoadError, load_book_bytes, text.encode(), "x.yaml"), text, "positions")


def test_raw_html_scan_is_linear_on_unclosed_tags():
    text = MINIMAL.lstrip().replace("text: Due {W}.", "text: '" + "<a" * 9_000 + "'")
    assert load_book_bytes(text.encode(), "x.yaml").sections[0].rules[1].text.startswith("<a<a")  # no tag: text
    assert_linear(lambda: load_book_bytes(text.encode(), "x.yaml"), text, "raw html")


# --- the glossary, which translators edit, goes through the same strict reader ----------------


def _glossary(tmp_path: Path, data: bytes):
    (tmp_path / "glossary.yaml").write_bytes(data)
    return load_glossary(tmp_path, names=(), source="it")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"terms:\n  - it: terra\x00\n", "glossary.yaml:2:14: invisible character U+0000 is not allowed in YAML; delete it (the glossary is ignored)"),
        (b"terms:\n  - ? [a]\n    : x\n", "glossary.yaml:2:7: a mapping key must be a plain string (the glossary is ignored)"),
        (b"terms:\n  - it: terra\n    it: suolo\n", "glossary.yaml:3:5: duplicate key 'it' (first at line 2); remove one (the glossary is ignored)"),
        (b"terms: !!python/object/apply:os.system ['true']\n", "glossary.yaml:1:8: explicit tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed; remove it (the glossary is ignored)"),
        (b"terms: &x [a]\nother: *x\n", "glossary.yaml:1:8: YAML anchor &x is not allowed; write the value out (the glossary is ignored)"),
        (b"", "glossary.yaml:1:1: empty file; the glossary needs a 'terms:' list (the glossary is ignored)"),
        (b"terms: 3\n", "glossary.yaml:1:8: the glossary needs a 'terms:' list"),
        (b"- a\n", "glossary.yaml:1:1: the glossary needs a 'terms:' list"),
    ],
    ids=["nul", "unhashable-key", "duplicate-key", "tag", "anchor", "empty", "terms-not-a-list", "not-a-mapping"],
)
def test_a_broken_glossary_is_a_problem_not_a_crash(tmp_path, monkeypatch, data, expected):
    monkeypatch.chdir(tmp_path)
    glossary = _glossary(tmp_path, data)
    assert glossary.terms == ()
    assert str(glossary.problems[0]) == expected


def test_a_file_of_too_many_values_is_refused_at_the_first_one_past_the_limit():
    # A megabyte of tiny scalars made 150,000 events: 4 s in the event loop, linear but past 2 s.
    from rulebook.limits import MAX_VALUES

    text = "[" + "a, " * (MAX_VALUES + 10) + "]"
    with pytest.raises(LoadError) as caught:
        load_book_bytes(text.encode(), "x.yaml")
    assert str(caught.value) == f"x.yaml:1:{2 + 3 * (MAX_VALUES - 1)}: more than {MAX_VALUES:,} values in one file; split it"


def test_the_glossary_has_lower_limits_than_a_rulebook(tmp_path, monkeypatch):
    # Every term is looked for in every message: the glossary's size multiplies the checks' work,
    # a rulebook's adds to it. The same number of values is refused in one and read in the other.
    from rulebook.limits import MAX_GLOSSARY_BYTES, MAX_GLOSSARY_VALUES, MAX_VALUES

    assert MAX_GLOSSARY_VALUES < MAX_VALUES and MAX_GLOSSARY_BYTES < MAX_FILE_BYTES
    monkeypatch.chdir(tmp_path)
    values = "[" + "a, " * (MAX_GLOSSARY_VALUES + 10) + "]"
    glossary = _glossary(tmp_path, f"terms: []\nspare: {values}\n".encode())
    assert [p.message for p in glossary.problems] == [f"more than {MAX_GLOSSARY_VALUES:,} values in one file; split it (the glossary is ignored)"]
    with pytest.raises(LoadError) as caught:  # the rulebook is refused for what it is, not for its size
        load_book_bytes(f"book: {values}\n".encode(), "x.yaml")
    assert "values in one file" not in str(caught.value)
    glossary = _glossary(tmp_path, b"terms: []\n#" + b"x" * MAX_GLOSSARY_BYTES + b"\n")
    assert [p.message for p in glossary.problems] == [
        f"the file is larger than the limit of {MAX_GLOSSARY_BYTES:,} bytes; split it or remove what does not belong (the glossary is ignored)"]


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  id: demo", "  id: ../../evil", "book id '../../evil' must be lower-case letters, digits or '-'"),
    ("  id: demo", "  id: demo/x", "book id 'demo/x' must be lower-case letters, digits or '-'"),
    ("      - id: r1", "      - id: ../r1", "rule id '../r1' must be lower-case letters, digits, '.' or '-'"),
    ("  - id: primo", "  - id: /etc", "section id '/etc' must be lower-case letters, digits, '.' or '-'"),
])
def test_ids_that_look_like_paths_are_refused(write_rules, old, new, message):
    # Book ids name files (catalogs, pages); nothing a YAML says may lead outside the output.
    with pytest.raises(LoadError, match=re.escape(message)):
        load_book(write_rules(MINIMAL.replace(old, new, 1)))


def test_thousands_of_duplicate_keys_are_reported_up_to_the_cap():
    """5,000 duplicate keys were 4,999 lines of report, past the cap every other problem keeps."""
    data = ("book:\n" + "  id: x\n" * 5000).encode()
    with pytest.raises(LoadError) as caught:
        load_book_bytes(data, "rules/d.yaml")
    problems = caught.value.problems
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1].message == "too many problems; stopping"
    assert problems[0].line == 3 and "duplicate key 'id' (first at line 2)" in problems[0].message


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("bad", ["\x07", "\udcff"], ids=["control", "not-utf8"])
def test_a_problem_is_at_its_line_whatever_ends_the_lines(ends, bad):
    """YAML ends a line at CR LF, LF or a CR alone; a CR-only file had these problems on line 1."""
    text = textwrap.dedent(MINIMAL).lstrip().replace("Un mazzo.", f"Un {bad}mazzo.")
    with pytest.raises(LoadError) as caught:
        load_book_bytes(text.replace("\n", ends).encode("utf-8", "surrogateescape"), "rules/demo.yaml")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column) == (15, 22)
