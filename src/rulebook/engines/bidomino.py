"""Bidomino: 2 to 6 players, two 52-card decks, pairs whose sum or difference extends two rows.

Rule ids in traces and errors are the ids of ``rules/bidomino.yaml``. Seats are numbered in
playing order: player ``d`` deals deal ``d`` (P0 deals first) and P(d+1) opens it.

>>> state = position(hands=["K♥ 4♣ 9♦ 9♠", "7♣ 8♦ 2♠ 5♥"], stock="3♥ 6♣ J♠ Q♦")
>>> step = state.play("7♣+8♦=15 on row 1, point 2♠")
>>> step.rules()
['apertura', 'una-coppia']
>>> print(step.state)
deal 1/2 · dealer P0 · P0 to play · stock 1 · discards 0 · stock ran out never
row 1: 8♦+7♣=15
row 2: -
P0: 4♣ 9♦ 9♠ K♥ · score cards 0 · noted 0
P1: 3♥ 5♥ 6♣ J♠ · score cards 1 · noted 0
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

from ..errors import IllegalAction, RulebookError
from .base import CHANCE, TERMINAL, Fired, State, Step
from .bidomino_pieces import (
    HAND, MAX_PLAYERS, MIN_PLAYERS, START, Action, Card, Discard, Pair, Placement, Play, Result, Row,
    Shuffle, action, can_score, card, card_values, cards, full_pack, lone_placements, pair, pairs_of,
    pair_placements, placed, two_pair_plays,
)
from .playing_cards import remove_cards, show, sort_cards

__all__ = [
    "Card", "card", "cards", "card_values", "Pair", "pair", "pairs_of", "Row", "Placement",
    "Play", "Discard", "Shuffle", "action", "Bidomino", "Result", "position", "new_game",
    "full_pack", "log", "IllegalAction",
]


def log(step: Step) -> None:
    """Print a step's trace, one fired rule a line (for the worked examples)."""
    for fired in step.trace:
        print(fired)


@dataclass(frozen=True)
class Bidomino(State):
    """One moment of a game. ``phase``: 'deal' and 'reshuffle' wait for a Shuffle (chance),
    'play' waits for player ``turn``, 'over' is the end."""

    players: int
    deal: int = 0  # 0-based; the dealer of deal d is P(d)
    phase: str = "deal"
    turn: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    rows: tuple[Row, Row] = (Row(), Row())
    stock: tuple[Card, ...] = ()  # top first; in phase 'deal' the unshuffled pack
    discards: tuple[Card, ...] = ()
    score_piles: tuple[tuple[Card, ...], ...] = ()
    noted: tuple[int, ...] = ()  # points written on the score sheet, all deals so far
    exhausted: int = 0  # how many times the stock has run out in this deal
    pending: tuple[int, int, int] | None = None  # interrupted draw: (player, score cards, hand cards)

    @property
    def dealer(self) -> int:
        return self.deal % self.players

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase in ("deal", "reshuffle") else self.turn

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far: those noted on the sheet plus the score cards in front of each player."""
        return tuple(n + len(pile) for n, pile in zip(self.noted, self.score_piles))

    @property
    def outcome(self) -> Result | None:
        if self.phase != "over":
            return None
        best = max(self.scores)
        return Result(self.scores, tuple(i for i, s in enumerate(self.scores) if s == best))

    def to_shuffle(self) -> tuple[Card, ...]:
        """The cards the pending chance outcome must order."""
        if self.phase == "deal":
            return self.stock
        if self.phase == "reshuffle":
            return tuple(c for pile in self.score_piles for c in pile) + self.discards
        return ()

    def sample_chance(self, rng: random.Random) -> Shuffle:
        gathered = list(self.to_shuffle())
        rng.shuffle(gathered)
        return Shuffle(tuple(gathered))

    def legal_actions(self) -> list[Action]:
        if self.phase != "play":
            return []
        hand = self.hands[self.turn]
        found: dict[Action, None] = {}
        if len(hand) == 1:
            for p in lone_placements(hand[0], self.rows):
                found[Play((p,))] = None
        else:
            for first in pair_placements(hand, self.rows):
                rest = remove_cards(hand, first.pair.cards)
                for point in sort_cards(set(rest)) or (None,):
                    found[Play((first,), point)] = None
            if len(hand) == HAND:
                found.update(dict.fromkeys(two_pair_plays(hand, self.rows)))
        for c in sort_cards(set(hand)):
            found[Discard(c)] = None
        return list(found)

    def play(self, text: str) -> Step[Bidomino]:
        """``apply`` an action written in its notation, e.g. ``state.play("discard 2♠")``."""
        return self.apply(action(text))

    def apply(self, act: Action) -> Step[Bidomino]:
        table = _Table(self)
        table.apply(act)
        return Step(table.freeze(), tuple(table.trace))

    def __str__(self) -> str:
        head = f"deal {self.deal + 1}/{self.players} · dealer P{self.dealer}"
        if self.phase == "over":
            return f"game over after {self.players} deals · " + " · ".join(f"P{i} {s}" for i, s in enumerate(self.scores))
        if self.phase == "deal":
            return f"{head} · a pack of {len(self.stock)} cards to shuffle · " + " · ".join(
                f"P{i} noted {n}" for i, n in enumerate(self.noted)
            )
        who = "reshuffle the stock" if self.phase == "reshuffle" else f"P{self.turn} to play"
        lines = [
            f"{head} · {who} · stock {len(self.stock)} · discards {len(self.discards)} · stock ran out {('never', 'once', 'twice')[self.exhausted]}",
            f"row 1: {self.rows[0]}",
            f"row 2: {self.rows[1]}",
        ]
        for i, hand in enumerate(self.hands):
            lines.append(f"P{i}: {show(hand)} · score cards {len(self.score_piles[i])} · noted {self.noted[i]}")
        return "\n".join(lines)


def new_game(rng: random.Random | None = None, players: int = 2) -> Bidomino:
    """A game waiting for its first shuffle (a chance outcome); P0 deals first.

    ``rng`` is not used: the shuffles are chance outcomes that playouts sample.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("giocatori", f"Bidomino is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    return Bidomino(players=players, stock=full_pack(), noted=(0,) * players, score_piles=((),) * players,
                    hands=((),) * players)


def position(
    hands: Sequence[str],
    rows: Sequence[str] = ("", ""),
    stock: str = "",
    discards: str = "",
    score_piles: Sequence[str] | None = None,
    noted: Sequence[int] | None = None,
    turn: int | None = None,
    deal: int = 0,
    exhausted: int = 0,
) -> Bidomino:
    """A position in the middle of a deal, written in card notation (for examples and tests).

    ``rows`` lists each row's pairs left to right, e.g. ``"6♣+8♥=14 7♣+8♦=15"``.
    """
    players = len(hands)
    built = []
    for number, text in enumerate(rows, start=1):
        laid = tuple(pair(word) for word in text.split())
        values = [p.value for p in laid]
        if laid and (START not in values or values != list(range(values[0], values[0] + len(values)))):
            raise RulebookError(f"row {number} {text!r}: the values must run one by one, left to right, through 15")
        built.append(Row(laid))
    state = new_game(players=players)
    return replace(
        state,
        deal=deal,
        phase="play",
        turn=(deal + 1) % players if turn is None else turn,
        hands=tuple(sort_cards(cards(h)) for h in hands),
        rows=(built[0], built[1]),
        stock=cards(stock),
        discards=cards(discards),
        score_piles=tuple(cards(s) for s in score_piles) if score_piles else state.score_piles,
        noted=tuple(noted) if noted else state.noted,
        exhausted=exhausted,
    )


def _check_pack(state: Bidomino, order: Sequence[Card]) -> None:
    expected = state.to_shuffle()
    if Counter(order) != Counter(expected):
        rule = "mazziere" if state.phase == "deal" else "rimescolata"
        raise IllegalAction(rule, f"a shuffle must order exactly the {len(expected)} gathered cards, not {show(order)!r}")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class _Table:
    """A mutable working copy of one state for the length of one ``apply``."""

    def __init__(self, s: Bidomino):
        self.s = s
        self.hands = [list(h) for h in s.hands]
        self.rows = s.rows
        self.stock = list(s.stock)
        self.discards = list(s.discards)
        self.piles = [list(p) for p in s.score_piles]
        self.noted = list(s.noted)
        self.exhausted, self.phase, self.turn, self.deal = s.exhausted, s.phase, s.turn, s.deal
        self.pending: tuple[int, int, int] | None = None
        self.trace: list[Fired] = []

    def fire(self, rule: str, what: str) -> None:
        self.trace.append(Fired(rule, what))

    def freeze(self) -> Bidomino:
        return replace(
            self.s,
            deal=self.deal,
            phase=self.phase,
            turn=self.turn,
            hands=tuple(sort_cards(h) for h in self.hands),
            rows=self.rows,
            stock=tuple(self.stock),
            discards=tuple(self.discards),
            score_piles=tuple(tuple(p) for p in self.piles),
            noted=tuple(self.noted),
            exhausted=self.exhausted,
            pending=self.pending,
        )

    @property
    def dealer(self) -> int:
        return self.deal % self.s.players

    # --- dispatch ----------------------------------------------------------------------

    def apply(self, act: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("vincitore", f"the game is over; {str(act)!r} cannot be played")
        if self.phase in ("deal", "reshuffle"):
            rule = "mazziere" if self.phase == "deal" else "rimescolata"
            if not isinstance(act, Shuffle):
                raise IllegalAction(rule, f"the cards must be shuffled first, not {str(act)!r}")
            _check_pack(self.s, act.order)
            (self.deal_out if self.phase == "deal" else self.reshuffle)(act.order)
        elif isinstance(act, Play):
            self.play(act)
        elif isinstance(act, Discard):
            self.discard(act.card)
        else:
            raise IllegalAction("turno", f"P{self.turn} must play or discard, not {str(act)!r}")

    # --- chance ------------------------------------------------------------------------

    def deal_out(self, order: Sequence[Card]) -> None:
        n, first = self.s.players, (self.dealer + 1) % self.s.players
        self.hands = [[] for _ in range(n)]
        # One card at a time, starting at the dealer's right, as cards are usually dealt.
        for i in range(HAND * n):
            self.hands[(first + i) % n].append(order[i])
        self.stock = list(order[HAND * n:])
        self.rows, self.discards, self.piles = (Row(), Row()), [], [[] for _ in range(n)]
        self.exhausted, self.phase, self.turn = 0, "play", first
        self.fire("mazziere", f"P{self.dealer} deals {HAND} cards to each player, starting with P{first}; {len(self.stock)} cards form the stock")

    def reshuffle(self, order: Sequence[Card]) -> None:
        counted = [len(p) for p in self.piles]
        self.noted = [n + c for n, c in zip(self.noted, counted)]
        board = ", ".join(f"P{i} {c}" for i, c in enumerate(counted))
        self.fire("rimescolata", f"P{self.dealer} notes the score cards ({board}) and shuffles them with "
                  f"{_plural(len(self.discards), 'discard', 'discards')} into a new stock of {len(order)}")
        self.stock, self.piles, self.discards = list(order), [[] for _ in self.piles], []
        self.phase = "play"
        player, score, hand = self.s.pending or (self.turn, 0, 0)
        if score or hand:
            self.fire("pesca-interrotta", f"P{player} first completes the interrupted draw")
            self.draw(player, score, hand, "pesca-interrotta")
        self.finish_turn(player)

    # --- a player's turn -----------------------------------------------------------------

    def play(self, act: Play) -> None:
        p, hand, last_phase = self.turn, self.hands[self.turn], self.exhausted == 2
        count = len(act.placements)
        if count not in (1, 2):
            raise IllegalAction("turno", f"a turn lays one or two pairs, not {count}: {str(act)!r}")
        used = [c for pl in act.placements for c in pl.pair.cards]
        rest = remove_cards(hand, used)
        if rest is None:
            raise IllegalAction("turno", f"P{p} does not hold {show(used)!r}; the hand is {show(hand)}")
        lone = any(pl.pair.second is None for pl in act.placements)
        if lone and len(hand) != 1:
            raise IllegalAction("carta-singola", f"only a last card may be played alone; P{p} holds {show(hand)}, not just {show(used)!r}")
        if count == 1 and not lone and rest:
            if act.point not in rest:
                raise IllegalAction("una-coppia", f"after one pair P{p} sets aside one of {show(rest)} as the point, not {str(act.point)!r}")
        elif act.point is not None:
            rule = "due-coppie" if count == 2 else "ultime-due-carte"
            raise IllegalAction(rule, f"no hand card is set aside here: {str(act)!r}")
        for pl in act.placements:
            self.place(p, pl)
        self.hands[p] = list(rest)
        bonus = sum(pl.pair.bonus for pl in act.placements)
        score, draws = bonus, 0
        if lone:
            self.noted[p] += 1
            self.fire("carta-singola", f"P{p} plays the last card as a pair: 1 point noted on the score sheet")
        elif count == 2:
            score, draws = 2 + bonus, 4
            self.fire("due-coppie", f"two pairs: 2 points for P{p}, taken as score cards from the stock")
        elif rest:
            self.hands[p].remove(act.point)
            self.piles[p].append(act.point)
            self.fire("una-coppia", f"P{p} sets {act.point} aside face down as 1 point")
            draws = 3
        else:
            self.noted[p] += 1
            self.fire("ultime-due-carte", f"P{p} has laid the last two cards: 1 point noted on the score sheet")
        self.draw(p, score, 0 if last_phase else draws, "due-coppie" if count == 2 else "una-coppia")
        self.finish_turn(p)

    def place(self, p: int, pl: Placement) -> None:
        if pl.row not in (1, 2):
            raise IllegalAction("file", f"there are two rows, 1 and 2, not {pl.row!r}")
        row = self.rows[pl.row - 1]
        end = row.end_for(pl.pair.value)
        if end is None and not row.pairs:
            raise IllegalAction("apertura", f"row {pl.row} is still empty and opens only with 15, not {str(pl.pair)!r}")
        if end is None:
            wanted = " or ".join(str(v) for v in row.wanted()) or "nothing more"
            raise IllegalAction("file", f"{str(pl.pair)!r} does not fit row {pl.row} ({row.values[0]}..{row.values[-1]}): it takes {wanted}")
        self.rows = placed(self.rows, pl)
        if end == "open":
            self.fire("apertura", f"P{p} opens row {pl.row} with {pl.pair}")
        else:
            self.fire("file", f"P{p} lays {pl.pair} at the {end} end of row {pl.row}")
        if pl.pair.bonus:
            why = "identical cards" if pl.pair.bonus == 2 else ("same suit" if pl.pair.first.suit == pl.pair.second.suit else "same value")
            self.fire("bonus", f"{pl.pair}: {why}, {_plural(pl.pair.bonus, 'bonus point', 'bonus points')}")

    def discard(self, c: Card) -> None:
        p = self.turn
        if c not in self.hands[p]:
            raise IllegalAction("nessuna-coppia", f"P{p} cannot discard {str(c)!r}: the hand is {show(self.hands[p])}")
        self.hands[p].remove(c)
        self.discards.append(c)
        if self.exhausted == 2:
            self.fire("scarto-senza-ricambio", f"P{p} discards {c} face down and draws nothing")
        else:
            self.fire("nessuna-coppia", f"P{p} discards {c} face down")
            self.draw(p, 0, 1, "nessuna-coppia")
        self.finish_turn(p)

    # --- the stock -----------------------------------------------------------------------

    def draw(self, p: int, score: int, hand: int, rule: str) -> None:
        """Score cards first, then replacement cards; stop at the first exhaustion (the draw
        resumes after the reshuffle), note what is missing at the second."""
        got_score: list[Card] = []
        got_hand: list[Card] = []

        def report() -> None:
            if got_score:
                self.fire("segnapunti", f"P{p} takes {_plural(len(got_score), 'score card', 'score cards')} from the stock ({show(got_score)})")
            if got_hand:
                self.fire(rule, f"P{p} draws {show(got_hand)}")
            got_score.clear()
            got_hand.clear()

        while (score or hand) and self.stock:
            c = self.stock.pop(0)
            if score:
                self.piles[p].append(c)
                got_score.append(c)
                score -= 1
            else:
                self.hands[p].append(c)
                got_hand.append(c)
                hand -= 1
            if not self.stock:
                report()
                self.exhausted += 1
                if self.exhausted == 1:
                    self.phase, self.pending = "reshuffle", (p, score, hand)
                    self.fire("rimescolata", "the stock has run out: score cards and discards are gathered to be reshuffled")
                    return
                self.fire("secondo-esaurimento", "the stock has run out a second time: no more reshuffles")
        report()
        if score:
            self.noted[p] += score
            self.fire("secondo-esaurimento", f"no stock: {_plural(score, 'point', 'points')} noted on the score sheet for P{p}")
        if hand:
            self.fire("secondo-esaurimento", f"P{p} is {_plural(hand, 'card', 'cards')} short and plays on with {len(self.hands[p])}")

    # --- after each turn -----------------------------------------------------------------

    def finish_turn(self, p: int) -> None:
        if self.phase == "reshuffle":
            self.turn = p  # the turn passes once the interrupted draw is complete
            return
        if self.exhausted == 2 and not any(can_score(h, self.rows) for h in self.hands):
            self.end_deal()
            return
        n = self.s.players
        for step in range(1, n + 1):
            # After the second exhaustion a player with no cards left has no more turns.
            if self.hands[(p + step) % n]:
                self.turn = (p + step) % n
                return
        self.end_deal()  # unreachable while someone can score; kept for safety

    def end_deal(self) -> None:
        counted = [len(pile) for pile in self.piles]
        self.noted = [n + c for n, c in zip(self.noted, counted)]
        self.fire("fine-smazzata", f"no player can score any more: deal {self.deal + 1} ends; score cards counted: "
                  + ", ".join(f"P{i} {c}" for i, c in enumerate(counted)))
        pack = [c for h in self.hands for c in h] + [c for r in self.rows for pr in r.pairs for c in pr.cards]
        pack += self.stock + self.discards + [c for pile in self.piles for c in pile]
        n = self.s.players
        self.hands, self.piles = [[] for _ in range(n)], [[] for _ in range(n)]
        self.rows, self.stock, self.discards = (Row(), Row()), list(sort_cards(pack)), []
        self.exhausted, self.pending, self.deal = 0, None, self.deal + 1
        totals = ", ".join(f"P{i} {s}" for i, s in enumerate(self.noted))
        if self.deal == n:
            self.phase = "over"
            self.fire("vincitore", f"after {n} deals: {totals}; highest total wins")
        else:
            self.phase = "deal"
            self.fire("smazzate", f"totals {totals}; P{self.dealer} deals next")
