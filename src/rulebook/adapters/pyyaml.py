"""PyYAML and libyaml: the event parser, and its errors put in the project's own words.

Written for PyYAML 6.0.0 to 6.0.4, with the libyaml its wheels bundle (0.2.5, and the newer one of
6.0.4, which stops at 1,000 levels of nesting), and for its pure-Python parser where libyaml is
missing. tests/test_adapter_pyyaml.py checks every assumption below against the installed PyYAML.

The parsers say what went wrong in their own words, which differ between libyaml and the Python
parser and may change in any release; our messages say what to do. The parsers' words are read
here and nowhere else, and only to choose one of our messages: an error we do not recognise
still gets a message of ours, at the parser's position.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

# libyaml's loader is much faster; the pure-Python one reads the same YAML. PyYAML defines
# CSafeLoader only when it was built with libyaml.
Loader: type[yaml.CSafeLoader | yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The releases this module was written for (tests/test_adapter_pyyaml.py names them).
WRITTEN_FOR = "PyYAML 6.0.0-6.0.4 (libyaml 0.2.5 and the libyaml of the 6.0.4 wheels; the pure-Python parser)"

SCALAR, ALIAS = yaml.ScalarEvent, yaml.AliasEvent
START_SEQUENCE, START_MAPPING = yaml.SequenceStartEvent, yaml.MappingStartEvent
END_SEQUENCE, END_MAPPING = yaml.SequenceEndEvent, yaml.MappingEndEvent
Event = yaml.Event
SyntaxError_ = yaml.MarkedYAMLError  # a parse error with a position
Error = yaml.YAMLError

#: Our message when the parser stops at its own nesting limit (libyaml's 1,000 levels, from the
#: libyaml of the PyYAML 6.0.4 wheels); the loader's lower limit normally speaks first.
NESTING = "nesting"

# (words of the parser's text, libyaml's or the Python parser's, all of which must be there;
#  which position to report, the problem's or its context's; our message). The first match wins.
_KINDS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("exceeded maximum nesting depth",), "problem", NESTING),
    (("mapping values are not allowed",), "problem",
     ("a ':' here cannot start a value: a text containing ': ' must be quoted or written as a '|' block, "
     "and a key on the line above needs its own ':'")),
    (("sequence entries are not allowed",), "problem",
     "a '- ' list item where a text was expected: start the list on the next line, indented under its key"),
    (("mapping keys are not allowed",), "problem", "'? ' starts a YAML complex key: quote the text"),
    (("simple key",), "context", "a key without its ':' (a line that is neither 'key: value' nor '- item'): add the ':' or quote the text"),
    (("tab character",), "problem", "a tab where YAML needs spaces: indent with spaces"),
    (("quoted scalar", "end of stream"), "context", "this quoted text is never closed: add its closing quote"),
    (("quoted scalar", "document"), "problem", "a line starting with '---' or '...' inside a quoted text: indent it"),
    (("quoted scalar", "escape"), "problem",
     "a backslash escape YAML does not know, in a double-quoted text: write \\\\ for a backslash, or quote the text with ' instead"),
    (("quoted scalar",), "context", "this quoted text is not valid YAML: check its quotes (a ' inside '…' is written '')"),
    (("block scalar",), "problem",
     "after '|' or '>' only '-', '+' or an indentation digit may follow on the line: write the text on the lines below, indented"),
    (("anchor",), "context", "'&' at the start of a value starts a YAML anchor: quote the text"),
    (("alias",), "context", "'*' at the start of a value starts a YAML alias: quote the text"),
    (("directive",), "context", "'%' at the start of a line starts a YAML directive: remove it, or indent or quote the line"),
    (("tag",), "problem", "'!' at the start of a value starts a YAML tag: quote the text"),
    (("yaml document",), "problem", "'%YAML' names a YAML version other than 1.1 or 1.2: remove the line"),
    (("cannot start any token",), "problem", "a value cannot start with this character ('@', '`' or a tab): quote the text"),
    (("block mapping",), "problem",
     ("this line does not continue the mapping that starts at line {context}: indent it as that mapping's keys "
     "(or as an outer mapping's), and check the ': ' after its key")),
    (("block collection",), "problem",
     "this line does not continue the list that starts at line {context}: start it with '- ' at the list's indentation"),
    (("flow sequence",), "problem",
     ("the '[' list opened at line {context} is not closed here: separate its items with ', ' and end it with ']', "
     "or quote a text that starts with '['")),
    (("flow mapping",), "problem",
     ("the '{{' mapping opened at line {context} is not closed here: separate its entries with ', ' and end it with '}}', "
     "or quote a text that starts with '{{'")),
    (("node content",), "problem", "a value is missing here: write it, or quote a text that starts with one of , [ ] {{ }} # & * ! | > ' \" % @ `"),
    (("document start",), "problem", "text after the end of the YAML document: indent it under its key, or remove it"),
    (("document separator",), "problem", "text after the end of the YAML document: indent it under its key, or remove it"),
)

#: Our message for an error none of the above names (a parser release with new words).
UNKNOWN = "not valid YAML here: check the quotes, the indentation and the ': ' after each key"


@dataclass(frozen=True)
class Syntax:
    """A parse error in our words: a 1-based line and column, and what to do (or :data:`NESTING`)."""

    line: int
    column: int
    message: str
    recognised: bool  # False: none of _KINDS matched (tests/test_adapter_pyyaml.py wants none)


def syntax(error: yaml.MarkedYAMLError) -> Syntax:
    """The position and our message for a parser's error."""
    said = " ".join(str(part) for part in (error.context, error.problem) if part).lower()
    for words, where, message in _KINDS:
        if all(word in said for word in words):
            mark = (error.context_mark if where == "context" else error.problem_mark) or error.problem_mark or error.context_mark
            context = error.context_mark.line + 1 if error.context_mark else 1
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            return Syntax(line, column, message.format(context=context), True)
    mark = error.problem_mark or error.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Syntax(line, column, UNKNOWN, False)
