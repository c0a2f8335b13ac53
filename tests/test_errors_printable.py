"""Terminal reports show every control, formatting (bidi) and separator character as an escape.

A report quotes its input, and the input may be hostile: an ESC sequence would drive the
terminal, a direction override would make a path or message read as something it is not
("Trojan Source"), a line separator would split one problem over two lines.
"""

from __future__ import annotations

import sys
import unicodedata

from rulebook.errors import LoadError, Problem, printable

#: Unicode's categories of what must not reach a terminal raw: controls, formatting characters
#: (every bidi mark, embedding, override and isolate among them), separators, lone surrogates.
HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs"}
EVERY_HIDDEN = [chr(code) for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code)) in HIDDEN]
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_every_control_bidi_and_separator_character_is_written_as_an_escape() -> None:
    assert set(BIDI) <= set(EVERY_HIDDEN) and "\x1b" in EVERY_HIDDEN and "\u2028" in EVERY_HIDDEN
    shown = printable("".join(f"<{char}>" for char in EVERY_HIDDEN))
    assert shown.isascii() and shown.isprintable(), [c for c in shown if not (c.isascii() and c.isprintable())][:5]
    # Each one readable as its code, so a reader can find it in the file.
    named = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
    for char in EVERY_HIDDEN:
        escaped = printable(char)
        assert escaped == named.get(char) or int(escaped.lstrip("\\xuU"), 16) == ord(char), (hex(ord(char)), escaped)


def test_what_is_printable_is_left_as_it_is() -> None:
    text = "rules/strage.yaml:3:7: «Ход» — maná, l'arène, ё, 漢字, 🂡 {W} \u00a0"
    assert printable(text) == text


def test_a_problem_and_a_load_error_print_on_one_line_with_their_input_escaped() -> None:
    problem = Problem("rules/\u202eexe.yaml", 1, 2, "bad \x1b[2J value\u2028next \u2067x\u2069")
    assert str(problem) == "rules/\\u202eexe.yaml:1:2: bad \\x1b[2J value\\u2028next \\u2067x\\u2069"
    assert str(LoadError([problem, problem])).count("\n") == 1
