"""The one markup parser: the same pages as the regular expressions it replaced, in linear time."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from rulebook.markup import BulletList, Emphasis, Lines, Paragraph, Ref, Strong, Symbol, Text, canonical, markup_counts, parse, parse_inline
from rulebook.model import XRef
from rulebook.symbols import SYMBOLS
from rulebook.render.text import text_to_html
from tests.linear import assert_grows_linearly
from tests.thorough import every_text, examples

# The emphasis rules as they were written before the parser: the oracle for the differential
# test below (quadratic on long texts, exact on short ones).
_OLD_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_OLD_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*<>]+?)(?<=[^\s*])\*(?![\w*])")


def old_emphasis(line: str) -> str:
    return _OLD_ITALIC.sub(r"<em>\1</em>", _OLD_BOLD.sub(r"<strong>\1</strong>", str(escape(line))))


def emphasis_html(nodes) -> str:
    out = []
    for node in nodes:
        if isinstance(node, Text):
            out.append(str(escape(node.value)))
        elif isinstance(node, (Strong, Emphasis)):
            tag = "strong" if isinstance(node, Strong) else "em"
            out.append(f"<{tag}>{emphasis_html(node.children)}</{tag}>")
        else:
            raise AssertionError(node)
    return "".join(out)


_EMPHASIS_PIECES = ["*", "**", "***", " ", "a", "b", "é", "_", "<", ">", "&", "'", "1"]
#: The kinds of character the emphasis rules tell apart: the star, a space, a letter, the word
#: character that is no letter or digit ("_"), and one the escaping changes ("<"). Every line of
#: up to six of them (19,531) holds every way two markers can open and close around a word.
_EMPHASIS_KINDS = ["*", " ", "a", "_", "<"]


def test_emphasis_of_every_short_line_is_what_the_old_expressions_made():
    differ = [line for line in every_text(_EMPHASIS_KINDS, 6) if emphasis_html(parse_inline(line, joined=True)) != old_emphasis(line)]
    assert not differ, differ[:10]


# The longer lines of every piece. The loop above catches every change to _inline and
# _emphasis that 3,000 examples here alone caught ("*a *a*", a closing candidate that opens
# the next italic, needs six pieces, and 500 examples missed it), so 500 remain, in a fifth of
# the time; THOROUGH=1 runs the 3,000 (tests/thorough.py).
@pytest.mark.slow
@settings(max_examples=examples(500, 3000))
@example("***a**")
@example("**a***b*")
@example("**a *b** c*")
@example("*a&b*")
@given(st.lists(st.sampled_from(_EMPHASIS_PIECES), max_size=16).map("".join))
def test_emphasis_is_what_the_old_expressions_made(line):
    assert emphasis_html(parse_inline(line, joined=True)) == old_emphasis(line)


def test_the_tree_of_a_text():
    assert parse("Paga **{W}** e vedi [[casting:601.2f]].\n\n- uno *x*\n- due\n  segue") == (
        Paragraph((Text("Paga "), Strong((Symbol("{W}"),)), Text(" e vedi "), Ref(XRef("casting", "601.2f")), Text("."))),
        BulletList(((Text("uno "), Emphasis((Text("x"),))), (Text("due segue"),))),
    )
    assert parse_inline("{nope} {W}") == (Text("{nope} "), Symbol("{W}"))  # an unknown token is text


def test_canonical_undoes_wrapping_only():
    assert canonical("Uno\ndue.\n\n- a\n  segue\n- b\ndopo\n \nFine.") == "Uno due.\n\n- a segue\n- b\ndopo\n\nFine."


def test_a_blank_line_is_any_whitespace_for_render_and_canonical_alike():
    # canonical once split paragraphs on spaces and tabs only, the renderer on any whitespace:
    # a line holding U+3000 made a msgid whose page differed from the source's page.
    text = "Uno.\n\u3000\nDue."
    assert canonical(text) == "Uno.\n\nDue."
    assert text_to_html(canonical(text)) == text_to_html(text) == "<p>Uno.</p>\n<p>Due.</p>"


def test_markup_counts():
    counts = markup_counts("**a** *b* 2 * 3\n\n- x\n- y")
    assert (counts["strong"], counts["emphasis"], counts["list_items"], counts["paragraphs"], counts["stray_stars"]) == (1, 1, 2, 1, 1)


def tree_counts(text: str) -> Counter[str]:
    """markup_counts as the parsed tree says it: every node walked, the stars of Text nodes counted."""
    def walk(nodes):
        for node in nodes:
            yield node
            if isinstance(node, (Strong, Emphasis)):
                yield from walk(node.children)

    blocks = parse(text)
    counts: Counter[str] = Counter(paragraphs=max(len([b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]) - 1, 0),
                                   list_items=sum(len(b.items) for b in blocks if isinstance(b, BulletList)))
    for block in blocks:
        for children in (block.children,) if isinstance(block, Paragraph) else block.items:
            for node in walk(children):
                kind = {Strong: "strong", Emphasis: "emphasis"}.get(type(node))
                if kind:
                    counts[kind] += 1
                elif isinstance(node, Text):
                    counts["stray_stars"] += node.value.count("*")
    return counts


MARKUP_PIECES = ["*", "**", "***", " ", "\n", "\n\n", "\n \n", "- ", "-", "  ", "a", "é", "_", "1", ".", "{W}", "{*}", "[[a-1]]", "[[x:y]]", "\t"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(MARKUP_PIECES), max_size=30).map("".join))
@example("**a** *b* 2 * 3\n\n- x\n- y\n  *c*")
def test_markup_counts_are_the_trees(text):
    # markup_counts skips the atoms between the markers and reads the stray stars as the ones
    # no marker took: the same numbers as walking the whole tree.
    assert markup_counts(text) == tree_counts(text)


def test_no_symbol_holds_a_star():
    # markup_counts takes every '*' outside a marker for plain text (a symbol's would not be).
    assert not [token for token in SYMBOLS if "*" in token]


def test_a_text_past_the_length_limit_is_refused_not_parsed():
    import pytest

    from rulebook.errors import RulebookError
    from rulebook.limits import MAX_TEXT_CHARS

    with pytest.raises(RulebookError, match=f"a text of 60,000 characters is longer than the limit of {MAX_TEXT_CHARS:,}; split it"):
        parse("{W}" * 20_000)
    # The renderer shows such a text escaped, unparsed, instead of failing a build.
    assert text_to_html("**<b>** " * 3_000) == "<p>" + "**&lt;b&gt;** " * 2_999 + "**&lt;b&gt;**</p>"
    assert parse("{W}" * 20_000, limit=None)[0].children[-1] == Symbol("{W}")


def test_a_cross_book_title_with_a_symbol_stays_an_attribute():
    # Symbols were substituted in the whole HTML string, so a target title holding {W} put an
    # <i> tag inside the link's title attribute and broke it.
    from rulebook.render.text import Target

    html = text_to_html("Vedi [[altro:fine]].", lambda ref: Target("../altro/#fine", "1.1", "Libro {W} 1.1"))
    assert html == '<p>Vedi <a class="rb-xref" href="../altro/#fine" title="Libro {W} 1.1">1.1</a>.</p>'


ADVERSARIAL = ["**a ", "*a ", "a*", "** ", "[[a", "[[a:", "{W", "- ", " ", "\n", "\n \n", "*", "**", "<a", "&a", "1.", "a.", "_*"]


@settings(max_examples=4, deadline=None)
@given(st.lists(st.sampled_from(ADVERSARIAL), min_size=1, max_size=3))
def test_adversarial_markup_parses_in_linear_time(pieces):
    # A quarter of a megabyte against its first quarter (tests/linear.py: linear grows 4x,
    # quadratic 16x), where a budget against one read needed the whole megabyte.
    text = ("".join(pieces) * (250_000 // len("".join(pieces)) + 1))[:250_000]
    # limit=None: the algorithm itself, past the 20,000 characters any caller may hand it.
    assert_grows_linearly(lambda t: parse(t, limit=None), text, f"parse {pieces!r}")
    assert_grows_linearly(lambda t: parse_inline(t, limit=None), text, f"parse_inline {pieces!r}")
    assert_grows_linearly(canonical, text, f"canonical {pieces!r}")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="*-\n"), max_size=80))
def test_a_text_without_star_dash_or_line_break_has_no_markup_to_count(text):
    # check_markup skips parsing such a text (most translations): its counts must all be zero.
    assert not +markup_counts(text)


def test_a_line_kept_by_the_caller_is_parsed_once_for_its_blocks_and_its_inline_use():
    lines: Lines = {}
    text = "Paga {W} e **vedi** [[regola]]\n\n- uno *due*\n- tre"
    blocks = parse(text, lines=lines)
    assert blocks == parse(text)  # the same tree as without the caller's lines
    assert set(lines) == {"Paga {W} e **vedi** [[regola]]", "uno *due*", "tre"}
    # The plain words of the text read the same lines: the nodes already made, not made again.
    assert parse(text, lines=lines)[0].children is blocks[0].children
    assert parse_inline("  Paga {W} e **vedi** [[regola]] ", lines=lines) is blocks[0].children
