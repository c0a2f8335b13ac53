"""What the engine says, in the reader's language: every trace and refusal is a gettext message
of the domain engine.sevens (src/sevens/locale/), and the Italian and French pages tell the
worked examples' steps in Italian and French, a card as 7♦ in every language.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulebook.engines.base import Applied, Refused, playout
from rulebook.examples import run_books
from rulebook.loader import load_book
from rulebook.messages import Message, Notation, messages_in, untold
from rulebook.render import Site
from sevens import engine
from sevens.engine import DECK, SUITS, Deal, IllegalAction, Pass, Phase, Play, Sevens, new_game

PROJECT = Path(__file__).resolve().parent.parent
LOCALE = Path(engine.__file__).resolve().parent / "locale"


def _ids(path: Path) -> set[tuple[str | None, str]]:
    """(context, msgid) of every message of a template or catalog."""
    with path.open("rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f) if m.id}


def _refusals(state: Sevens) -> Iterator[Message]:
    """Every refusal the player to act would get now: each card of the deck they may not play,
    and passing while they can play."""
    for card in DECK:
        if Play(card) not in state.legal_actions():
            with pytest.raises(IllegalAction) as refused:
                state.apply(Play(card))
            yield refused.value.message
    if state.playable():
        with pytest.raises(IllegalAction) as refused:
            state.apply(Pass())
        yield refused.value.message


@pytest.mark.parametrize("seed", range(6))
def test_everything_a_random_game_says_is_a_message_of_the_template(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(rng, players=3 + seed % 4)
    said: list[Message] = [Phase.DEAL.value, Phase.PLAY.value, Phase.OVER.value, Sevens.actions_are]
    for number, (_, step) in enumerate(playout(state, rng, 2_000)):
        said += [fired.what for fired in step.trace]
        if number % 7 == 1 and not step.state.is_over:  # some positions along the way, to keep it quick
            said += list(_refusals(step.state))
        state = step.state
    assert state.is_over
    problems = sorted({problem for s in said for problem in untold(s)})
    assert not problems, "\n".join(problems)
    template = _ids(LOCALE / "engine.sevens.pot")
    missing = sorted({(m.context, m.msgid) for s in said for m in messages_in(s)} - template)
    assert not missing, f"said but not in the template (run rulebook i18n update): {missing}"
    # The refusals ran into every kind a game meets: a row not started, a card that does not fit, must-play.
    kinds = {m.msgid for m in said}
    assert {"{card} cannot be played: the row of {suit} has no 7 yet", "player {player} can play {cards}, and a player who can play must",
            "{card} does not fit the row of {suit} ({row}): it takes {below} or {above}"} <= kinds


@pytest.mark.parametrize("refuse", [
    lambda: Sevens.setup(hands=("7D", "8D")),
    lambda: Sevens.setup(hands=("7D 8D 9D", "8D 9D", "10D")),
    lambda: Sevens.setup(hands=("7D 8D", "9D", "10D"), table="8D"),
    lambda: Sevens.setup(hands=("8D", "9D", "10D")),
    lambda: Sevens.setup(hands=("8D", "9D", "10D"), table="7D", active=5),
    lambda: Sevens.setup(hands=("2C", "3C", "4C"), table="7H 9H"),
    lambda: Sevens.setup(hands=("AH 2S", "3C", "4C"), table="7H 8H 9H 10H JH QH KH").apply(Play("AH")),
    lambda: Sevens.setup(hands=("5S", "3C", "4C"), table="7H 7S 6S").apply(Play("KH")),
    lambda: Sevens.setup(hands=("2S", "3C", "4C"), table=" ".join(r + "H" for r in "7 8 9 10 J Q K".split())).apply(Play("5H")),
    lambda: new_game(random.Random(0), players=4).apply(Deal(("7D", "8D", "9D"))),
    lambda: new_game(random.Random(0), players=4).apply(Deal.from_deck(DECK[1:], 4)),
    lambda: new_game(random.Random(0), players=2),
], ids=["players", "twice", "table-and-hand", "no-opener", "no-such-player", "broken-row", "ace-low", "not-held", "one-end",
        "hands", "missing", "new-game"])
def test_every_refusal_is_a_message_told_in_the_readers_language(refuse) -> None:  # noqa: ANN001
    with pytest.raises(IllegalAction) as refused:
        refuse()
    said = refused.value.message
    assert not list(untold(said)), list(untold(said))
    assert {(m.context, m.msgid) for m in messages_in(said)} <= _ids(LOCALE / "engine.sevens.pot")


def test_a_card_is_notation_and_a_suit_a_message_of_its_own() -> None:
    step = Sevens.setup(hands=("6H 2C", "8H KS", "5D QH"), table="7H 7D").apply(Play("6H"))
    (fired,) = step.trace
    values = fired.what.values
    assert isinstance(values["card"], Notation) and values["card"] == "6♥"
    assert isinstance(values["suit"], Message) and (values["suit"].context, values["suit"].msgid) == ("suit", "hearts")
    assert isinstance(values["row"], Notation) and values["row"] == "6♥–7♥"
    assert str(fired.what) == "player 0 plays 6♥: the row of hearts is now 6♥–7♥"
    assert len({engine.SUIT_NAMES[suit].msgid for suit in SUITS}) == 4


@pytest.mark.parametrize("language", ["it", "fr"])
def test_the_catalogs_translate_every_message_of_the_template(language: str) -> None:
    template = _ids(LOCALE / "engine.sevens.pot")
    with (LOCALE / language / "LC_MESSAGES" / "engine.sevens.po").open("rb") as f:
        catalog = read_po(f)
    translated = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog
                  if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string) and not m.fuzzy}
    assert template <= translated, sorted(template - translated)


@lru_cache(maxsize=None)
def _site() -> Site:
    book = load_book(PROJECT / "rules" / "sevens.yaml")
    return Site({book.id: book}, tuple(run_books([book])), locales=PROJECT / "locales", languages=["en", "it", "fr"])


def _steps(language: str, example_id: str) -> str:
    site = _site()
    outcome = next(o for o in site.outcomes if o.example.id == example_id)
    proof = site.book_view("sevens", language).proof(outcome.example.id, outcome.example.doctest)
    return "".join(str(step) for step in proof["steps"])


def test_every_step_of_every_worked_example_is_told_and_names_a_rule_of_the_book() -> None:
    book = next(iter(_site().books.values()))
    known = {rule.id for rule in book.rules()} | {ruling.id for rule in book.rules() for ruling in rule.rulings}
    steps = [(fired.rule, fired.what) for outcome in _site().outcomes for record in outcome.records if isinstance(record, Applied)
             for fired in record.trace]
    steps += [(record.error.rule_id, record.error.message) for outcome in _site().outcomes for record in outcome.records
              if isinstance(record, Refused)]
    assert len(steps) >= 10 and len(_site().outcomes) == 4
    problems = {problem for _, said in steps for problem in untold(said)}
    problems |= {f"names no rule or ruling of the book: {rule!r}" for rule, _ in steps if rule not in known}
    assert not problems, "\n".join(sorted(problems))


@pytest.mark.parametrize(("language", "told"), [
    ("en", ["9♥ does not fit the row of hearts (7♥): it takes 6♥ or 8♥",
            "player 0 plays 6♥: the row of hearts is now 6♥–7♥"]),
    ("it", ["9♥ non va nella fila di cuori (7♥): ci vanno 6♥ o 8♥",
            "il giocatore 0 gioca 6♥: ora la fila di cuori è 6♥–7♥"]),
    ("fr", ["9♥ ne se place pas dans la rangée de cœur (7♥) : elle attend 6♥ ou 8♥",
            "le joueur 0 joue 6♥ : la rangée de cœur est maintenant 6♥–7♥"]),
])
def test_each_page_tells_the_steps_in_its_language(language: str, told: list[str]) -> None:
    steps = _steps(language, "up-and-down")
    words = html.unescape(re.sub(r"<[^>]+>", "", steps))
    for sentence in told:
        assert sentence.replace(" :", "\u00a0:") in words, words
    if language != "en":  # nothing fell back to the English msgids (marked lang="en")
        assert 'lang="en"' not in steps, steps
