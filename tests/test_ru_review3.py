"""The third Russian review's engine sentences (docs/reviews/2026-11-29-ru-3.md), each as it now reads on the page.

Each was an agreement slip or a log-style line the reviewer heard on the built ru pages; the test
reads the sentences the engine says in Russian (tests/test_grammar.py's ``_sentences``), so a
msgstr that slips back fails here.
"""
from __future__ import annotations

import pytest

from tests.test_grammar import _sentences


@pytest.mark.parametrize("book_id, expected, gone", [
    # CA1: the letter X is a masculine noun, as the book's prose writes it («{X} равен нулю»)
    ("casting", "X не объявлен, поэтому X равен 5", "X равно"),
    # CA2: a refusal says what was chosen, in a sentence, with the participle agreeing with the count
    ("casting", "нужно ровно 6 целей, а выбрано 5:", "получено"),
    ("casting", "нужно ровно 2 цели, а выбрана 1:", "получено"),
    # CA4: a creature that dies is the subject of its verbs
    ("casting", "Белый Рыцарь получает смертельное повреждение и уничтожается (704.5g)", "получено смертельное"),
    # ... and a name with an apposition closes it before the verb ({dead:subj})
    ("casting", "Талия, Страж Трейбена, получает смертельное повреждение", "Трейбена получает"),
    # PL2: the quoted trigger is whole, as the book's prose quotes it
    ("planechase", "«когда вы путешествуете на этот план» не срабатывают", "путешествуете на» "),
    # ST2: one clan's two numbers are not separated by the comma that separates the clans
    ("strage", "(красный: 4 спасённые феи и 2 полуэльфа на поле; зелёный:", "спасено фей —"),
    # ST4: the moved orc's line says where it goes
    ("strage", "орка с h8 переносят в клетку превращения", "перемещён"),
])
def test_the_third_russian_review_sentences_read_as_russian(book_id: str, expected: str, gone: str) -> None:
    sentences = _sentences(book_id, "ru")
    assert any(expected in s for s in sentences), f"no ru sentence has {expected!r}"
    assert not any(gone in s for s in sentences), f"a ru sentence still has {gone!r}"
