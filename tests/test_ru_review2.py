"""The second Russian review's engine sentences (issue 27 point 5), each as it now reads on the page.

Each line was a meaning or data-field error the reviewer found on the built ru pages; the test
reads the sentence the engine says in Russian (tests/test_grammar.py's ``_sentences``), so a
msgstr that slips back fails here.
"""
from __future__ import annotations

import pytest

from tests.test_grammar import _sentences


@pytest.mark.parametrize("book_id, expected", [
    ("strage", "красный: 4 спасённые феи и 2 полуэльфа на поле"),  # T1: was «спасено 4 и 2 полуэльфа»; ru-3 ST2: no comma inside a clan's score
    ("strage", "а на e4 нет ни того ни другого"),  # T2: was «а не e4»
    ("strage", "орк на d5 выбывает с поля"),  # T3 (R2-S3): was «убирается с поля»
    ("strage", "вне поля ещё 7 орков — нужно выставить одного из них"),  # T4: was «орков вне поля: 7»
    ("casting", "из стоимости "),  # K1: the cost named as a cost, not read as a second pool
    ("casting", "нужно распределить 3 между 3 целями"),  # K4: was «между целями (3)»
    ("casting", "Огненный Шар делит поровну при разрешении"),  # K3: was «распределяется … получено:»
    ("planechase", "игрок 2 берёт карту, теперь в руке 8 карт"),  # N3: was «(карт в руке: 8)»
    ("planechase", "2-й муллиган игрока 1"),  # N4: was «муллиган номер 2»
])
def test_the_second_russian_review_sentences_read_as_russian(book_id: str, expected: str) -> None:
    sentences = _sentences(book_id, "ru")
    assert any(expected in s for s in sentences), f"no ru sentence has {expected!r}"
