"""Every sentence an engine says in a worked example can be told in the reader's language (issue 13.1).

The site translates a :class:`~rulebook.messages.Message` and each of its placeholder values: a
message in turn, a card or a piece by its name in the page's language, code as code, notation as
it is. A bare ``str`` in a placeholder is English (or an internal id) that a French page would
print as is; a rule id that the book does not have (as a rule or a ruling) is a step the page
cannot link. Both are
found here by running every book's examples, the same run the site tells.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest

from rulebook.engines.base import Applied, Refused
from rulebook.examples import Outcome, run_books
from rulebook.loader import load_book
from rulebook.messages import Message, msg, msg_n, msg_p, notation, untold

BOOKS = sorted(p.stem for p in Path("rules").glob("*.yaml"))


@lru_cache(maxsize=None)
def _outcomes(book_id: str) -> tuple[Outcome, ...]:
    return tuple(run_books([load_book(f"rules/{book_id}.yaml")]))


def _said(outcome: Outcome) -> Iterator[tuple[str, object]]:
    """(rule id, what was said) for every change and every refusal of one example's run."""
    for record in outcome.records:
        if isinstance(record, Applied):
            yield from ((fired.rule, fired.what) for fired in record.trace)
        elif isinstance(record, Refused):
            yield record.error.rule_id, record.error.message


@pytest.mark.parametrize("book_id", BOOKS)
def test_every_placeholder_is_told_in_the_readers_language(book_id: str) -> None:
    found = sorted({problem for outcome in _outcomes(book_id) for _, said in _said(outcome)
                    for problem in (f"{outcome.example.id}: {p}" for p in untold(said))})
    assert not found, f"{len(found)} placeholder values would stay English:\n" + "\n".join(found)


@pytest.mark.parametrize("book_id", BOOKS)
def test_every_step_names_a_rule_of_its_book(book_id: str) -> None:
    book = load_book(f"rules/{book_id}.yaml")
    known = {rule.id for rule in book.rules()} | {ruling.id for rule in book.rules() for ruling in rule.rulings}
    unlinked = sorted({f"{outcome.example.id}: {rule}" for outcome in _outcomes(book_id) for rule, _ in _said(outcome)
                       if rule not in known})
    assert not unlinked, "steps that name no rule or ruling of the book (the page cannot link them):\n" + "\n".join(unlinked)


@pytest.mark.parametrize("said", [msg("player {player} pays {cost}", player=0, cost=notation("{2}")),
                                  msg_n("{count} card", "{count} cards", 3, count=3), msg_p("clan", "red"), msg("no {{braces}} to fill")])
def test_a_message_copies_and_pickles_as_itself(said: Message) -> None:
    # Made again from its msgid and values: its English text, taken for a msgid, may hold braces of its own.
    for again in (copy.copy(said), copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert type(again) is Message and again == said and vars(again) == vars(said)


#: Engines whose actions tell themselves in words (their ``told``), as a refusal names them on a page
#: (issue 26 point 1), with the options that make a random game reach all of their actions.
TELLING = {"strage": {"magic_rules": True}, "bidomino": {}, "bingomagic": {}}


@pytest.mark.parametrize("engine", sorted(TELLING))
def test_every_action_of_a_game_tells_itself_in_words(engine: str) -> None:
    import importlib
    import random

    from rulebook.engines.base import playout, told

    module = importlib.import_module(f"rulebook.engines.{engine}")
    seen: dict[type, Message] = {}
    for seed in range(4):
        state = module.new_game(random.Random(seed), **TELLING[engine])
        for action, step in playout(state, random.Random(seed), max_actions=3000):
            for candidate in [action, *(step.state.legal_actions() if not step.state.is_over else ())][:40]:
                said = told(candidate)
                assert isinstance(said, Message) and not list(untold(said)), f"{candidate!r:.80} is told as {said!r:.80}"
                seen.setdefault(type(candidate), said)
    # Every kind of action was met (and told), chance outcomes included.
    assert set(module.ACTIONS) <= set(seen), sorted(kind.__name__ for kind in set(module.ACTIONS) - set(seen))
