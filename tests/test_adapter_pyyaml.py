"""adapters/pyyaml.py against the installed PyYAML: every parser error the loader meets gets our
message, at the right position, from libyaml and from the pure-Python parser alike.

The adapter was written for PyYAML 6.0.0-6.0.4 (``WRITTEN_FOR``); a release that words an error
differently, or stops at another place, fails here with the case, both versions and what to teach
the adapter. No test asserts the parsers' own words: only ours.
"""

from __future__ import annotations

import pytest
import yaml

from rulebook.adapters import pyyaml as adapter
from rulebook.errors import LoadError
from rulebook.limits import MAX_DEPTH
from rulebook.yamlnodes import parse

DEPTH = f"nested more than {MAX_DEPTH} levels deep; flatten the structure"

#: (name, YAML text, line, column, our message after "YAML syntax: " or the depth limit's).
CASES = [
    ("colon in a plain text", "book:\n  text: Attenzione: un mazzo.\n", 2, 19, "a ':' here cannot start a value"),
    ("unclosed flow list", "a:\n  b: [1, 2\nc: 1\n", 3, 2, "the '[' list opened at line 2 is not closed here"),
    ("unclosed flow mapping", "a: {b: c\n", 2, 1, "the '{' mapping opened at line 1 is not closed here"),
    ("unclosed quote", "a: 'x\n", 1, 4, "this quoted text is never closed: add its closing quote"),
    ("unknown escape", 'a: "\\q"\n', 1, None, "a backslash escape YAML does not know"),
    ("bad indentation in a mapping", "a:\n  - b\n c: d\n", 3, 2, "this line does not continue the mapping that starts at line 1"),
    ("list item after a mapping", "a: b\n- c\n", 2, 1, "this line does not continue the mapping that starts at line 1"),
    ("at sign", "a: @x\n", 1, 4, "a value cannot start with this character"),
    ("block scalar header", "a: |x\n  b\n", 1, 5, "after '|' or '>' only"),
    ("text after the document", "a: b\n...\nc\n", 3, 1, "text after the end of the YAML document"),
    ("missing value in a flow list", "a: [b, ]]\n", 1, None, None),
    ("deep flow nesting", "[" * 100_000, 1, MAX_DEPTH + 1, DEPTH),
    ("deep flow mappings", "{a: " * 50_000, 1, 4 * MAX_DEPTH + 1, DEPTH),
    ("deep one-line block lists", "- " * 50_000 + "x\n", 1, 2 * MAX_DEPTH + 1, DEPTH),
]

PARSERS = {"libyaml": getattr(yaml, "CSafeLoader", None), "python": yaml.SafeLoader}


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize(("name", "text", "line", "column", "message"), CASES, ids=[case[0] for case in CASES])
def test_every_parser_error_gets_our_message_at_its_position(monkeypatch, parser, name, text, line, column, message):
    if PARSERS[parser] is None:
        pytest.skip("this PyYAML was built without libyaml")
    monkeypatch.setattr(adapter, "Loader", PARSERS[parser])
    with pytest.raises(LoadError) as caught:
        parse(text, "x.yaml")
    (problem,) = caught.value.problems
    where = f"adapters/pyyaml.py was written for {adapter.WRITTEN_FOR}; PyYAML {yaml.__version__} ({parser}) gives {problem}"
    assert problem.line == line, where
    if column is not None:
        assert problem.column == column, where
    if message is None:
        assert problem.message.startswith("YAML syntax: ") and adapter.UNKNOWN not in problem.message, where
    elif message == DEPTH:
        assert problem.message == DEPTH, where
    else:
        assert problem.message.startswith(f"YAML syntax: {message}"), where


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("text", [case[1] for case in CASES if case[4] != DEPTH])
def test_every_error_of_the_cases_is_recognised_not_guessed(parser, text):
    # A parser's words the adapter does not know get UNKNOWN, a message of ours but a vague one:
    # each case above must be told apart by its words, with either parser.
    if PARSERS[parser] is None:
        pytest.skip("this PyYAML was built without libyaml")
    loader = PARSERS[parser](text)
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        for _ in iter(loader.get_event, None):
            pass
    found = adapter.syntax(caught.value)
    assert found.recognised, (f"adapters/pyyaml.py was written for {adapter.WRITTEN_FOR}; PyYAML {yaml.__version__} ({parser}) "
                              f"says {caught.value.context!r} {caught.value.problem!r}: add its words to _KINDS")


def test_words_the_adapter_does_not_know_still_get_our_message_at_the_parsers_position():
    error = yaml.MarkedYAMLError(problem="a message no release has", problem_mark=yaml.Mark("x", 0, 4, 2, None, None))
    assert adapter.syntax(error) == adapter.Syntax(5, 3, adapter.UNKNOWN, False)
