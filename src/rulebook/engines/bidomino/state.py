"""The state of a Bidomino game and its turns: deals, pairs on the rows, the stock, the end.

Rule ids in traces and errors are the ids of ``rules/bidomino.yaml``. Seats are numbered in
playing order: player ``d`` deals deal ``d`` (P0 deals first) and P(d+1) opens it. Every
change makes a new frozen state; a turn's work is a chain of small steps, each taking the
state and returning the next.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from typing import Sequence

from ...errors import IllegalAction
from ..base import CHANCE, TERMINAL, Fired, State, Step, replace_at
from ..playing_cards import remove_cards, show, sort_cards
from .pieces import (
    HAND, Action, Card, Discard, Placement, Play, Result, Row, Shuffle, action, can_score,
    full_pack, lone_placements, pair_placements, placed, two_pair_plays,
)

NO_ROWS = (Row(), Row())


class Phase(Enum):
    DEAL = "deal"  # waits for the shuffle of the whole pack (chance)
    PLAY = "play"  # waits for player ``turn``
    RESHUFFLE = "reshuffle"  # the stock ran out: waits for the new stock's order (chance)
    OVER = "over"


CHANCE_PHASES = (Phase.DEAL, Phase.RESHUFFLE)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True)
class Bidomino(State):
    """One moment of a game."""

    players: int
    deal: int = 0  # 0-based; the dealer of deal d is P(d)
    phase: Phase = Phase.DEAL
    turn: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    rows: tuple[Row, Row] = NO_ROWS
    stock: tuple[Card, ...] = ()  # top first; in phase DEAL the unshuffled pack
    discards: tuple[Card, ...] = ()
    score_piles: tuple[tuple[Card, ...], ...] = ()
    noted: tuple[int, ...] = ()  # points written on the score sheet, all deals so far
    exhausted: int = 0  # how many times the stock has run out in this deal
    pending: tuple[int, int, int] | None = None  # interrupted draw: (player, score cards, hand cards)

    unknown_action_rule = "turno"
    actions_are = "a Bidomino action"

    @property
    def dealer(self) -> int:
        return self.deal % self.players

    @property
    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        return CHANCE if self.phase in CHANCE_PHASES else self.turn

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far: those noted on the sheet plus the score cards in front of each player."""
        return tuple(n + len(pile) for n, pile in zip(self.noted, self.score_piles))

    @property
    def outcome(self) -> Result | None:
        if self.phase is not Phase.OVER:
            return None
        best = max(self.scores)
        return Result(self.scores, tuple(i for i, s in enumerate(self.scores) if s == best))

    def to_shuffle(self) -> tuple[Card, ...]:
        """The cards the pending chance outcome must order."""
        if self.phase is Phase.DEAL:
            return self.stock
        if self.phase is Phase.RESHUFFLE:
            return tuple(c for pile in self.score_piles for c in pile) + self.discards
        return ()

    def sample_chance(self, rng: random.Random) -> Shuffle:
        gathered = list(self.to_shuffle())
        rng.shuffle(gathered)
        return Shuffle(tuple(gathered))

    def legal_actions(self) -> list[Action]:
        if self.phase is not Phase.PLAY:
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

    # --- what every action passes first -------------------------------------------------------

    def _admit(self, act: Action) -> None:
        if self.phase is Phase.OVER:
            raise IllegalAction("vincitore", f"the game is over; {str(act)!r} cannot be played")
        if self.phase in CHANCE_PHASES and not isinstance(act, Shuffle):
            raise IllegalAction(self._shuffle_rule(), f"the cards must be shuffled first, not {str(act)!r}")
        if self.phase is Phase.PLAY and isinstance(act, Shuffle):
            raise IllegalAction("turno", f"P{self.turn} must play or discard, not {str(act)!r}")

    def _shuffle_rule(self) -> str:
        return "mazziere" if self.phase is Phase.DEAL else "rimescolata"

    # --- chance -------------------------------------------------------------------------------

    def _apply_shuffle(self, act: Shuffle, trace: list[Fired]) -> Bidomino:
        expected = self.to_shuffle()
        if Counter(act.order) != Counter(expected):
            raise IllegalAction(self._shuffle_rule(), f"a shuffle must order exactly the {len(expected)} gathered cards, not {show(act.order)!r}")
        return self._deal_out(act.order, trace) if self.phase is Phase.DEAL else self._reshuffle(act.order, trace)

    def _deal_out(self, order: Sequence[Card], trace: list[Fired]) -> Bidomino:
        n, first = self.players, (self.dealer + 1) % self.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        # One card at a time, starting at the dealer's right, as cards are usually dealt.
        for i in range(HAND * n):
            hands[(first + i) % n].append(order[i])
        stock = tuple(order[HAND * n:])
        trace.append(Fired("mazziere", f"P{self.dealer} deals {HAND} cards to each player, starting with P{first}; {len(stock)} cards form the stock"))
        return replace(self, hands=tuple(sort_cards(h) for h in hands), stock=stock, rows=NO_ROWS, discards=(),
                       score_piles=((),) * n, exhausted=0, phase=Phase.PLAY, turn=first, pending=None)

    def _reshuffle(self, order: Sequence[Card], trace: list[Fired]) -> Bidomino:
        counted = [len(p) for p in self.score_piles]
        board = ", ".join(f"P{i} {c}" for i, c in enumerate(counted))
        trace.append(Fired("rimescolata", f"P{self.dealer} notes the score cards ({board}) and shuffles them with "
                           f"{_plural(len(self.discards), 'discard', 'discards')} into a new stock of {len(order)}"))
        player, score, hand = self.pending or (self.turn, 0, 0)
        state = replace(self, noted=tuple(n + c for n, c in zip(self.noted, counted)), stock=tuple(order),
                        score_piles=((),) * self.players, discards=(), phase=Phase.PLAY, pending=None)
        if score or hand:
            trace.append(Fired("pesca-interrotta", f"P{player} first completes the interrupted draw"))
            state = state._draw(player, score, hand, "pesca-interrotta", trace)
        return state._finish_turn(player, trace)

    # --- a player's turn ----------------------------------------------------------------------

    def _apply_play(self, act: Play, trace: list[Fired]) -> Bidomino:
        p = self.turn
        last_phase = self.exhausted == 2
        rest = self._check_play(act)
        lone = any(pl.pair.second is None for pl in act.placements)
        count = len(act.placements)
        state = self
        for pl in act.placements:
            state = state._place(p, pl, trace)
        state = replace(state, hands=replace_at(state.hands, p, sort_cards(rest)))
        bonus = sum(pl.pair.bonus for pl in act.placements)
        score, draws = bonus, 0
        if lone:
            state = state._note(p, 1)
            trace.append(Fired("carta-singola", f"P{p} plays the last card as a pair: 1 point noted on the score sheet"))
        elif count == 2:
            score, draws = 2 + bonus, 4
            trace.append(Fired("due-coppie", f"two pairs: 2 points for P{p}, taken as score cards from the stock"))
        elif rest:
            point = act.point
            assert point is not None
            state = replace(state, hands=replace_at(state.hands, p, remove_cards(state.hands[p], (point,))),
                            score_piles=replace_at(state.score_piles, p, state.score_piles[p] + (point,)))
            trace.append(Fired("una-coppia", f"P{p} sets {point} aside face down as 1 point"))
            draws = 3
        else:
            state = state._note(p, 1)
            trace.append(Fired("ultime-due-carte", f"P{p} has laid the last two cards: 1 point noted on the score sheet"))
        state = state._draw(p, score, 0 if last_phase else draws, "due-coppie" if count == 2 else "una-coppia", trace)
        return state._finish_turn(p, trace)

    def _check_play(self, act: Play) -> tuple[Card, ...]:
        """The hand left after the pairs of ``act``, or the rule the play breaks."""
        p, hand = self.turn, self.hands[self.turn]
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
        return rest

    def _place(self, p: int, pl: Placement, trace: list[Fired]) -> Bidomino:
        if pl.row not in (1, 2):
            raise IllegalAction("file", f"there are two rows, 1 and 2, not {pl.row!r}")
        row = self.rows[pl.row - 1]
        end = row.end_for(pl.pair.value)
        if end is None and not row.pairs:
            raise IllegalAction("apertura", f"row {pl.row} is still empty and opens only with 15, not {str(pl.pair)!r}")
        if end is None:
            wanted = " or ".join(str(v) for v in row.wanted()) or "nothing more"
            raise IllegalAction("file", f"{str(pl.pair)!r} does not fit row {pl.row} ({row.values[0]}..{row.values[-1]}): it takes {wanted}")
        if end == "open":
            trace.append(Fired("apertura", f"P{p} opens row {pl.row} with {pl.pair}"))
        else:
            trace.append(Fired("file", f"P{p} lays {pl.pair} at the {end} end of row {pl.row}"))
        if pl.pair.bonus:
            assert pl.pair.second is not None
            why = "identical cards" if pl.pair.bonus == 2 else ("same suit" if pl.pair.first.suit == pl.pair.second.suit else "same value")
            trace.append(Fired("bonus", f"{pl.pair}: {why}, {_plural(pl.pair.bonus, 'bonus point', 'bonus points')}"))
        return replace(self, rows=placed(self.rows, pl))

    def _apply_discard(self, act: Discard, trace: list[Fired]) -> Bidomino:
        p, c = self.turn, act.card
        left = remove_cards(self.hands[p], (c,))
        if left is None:
            raise IllegalAction("nessuna-coppia", f"P{p} cannot discard {str(c)!r}: the hand is {show(self.hands[p])}")
        state = replace(self, hands=replace_at(self.hands, p, left), discards=self.discards + (c,))
        if self.exhausted == 2:
            trace.append(Fired("scarto-senza-ricambio", f"P{p} discards {c} face down and draws nothing"))
        else:
            trace.append(Fired("nessuna-coppia", f"P{p} discards {c} face down"))
            state = state._draw(p, 0, 1, "nessuna-coppia", trace)
        return state._finish_turn(p, trace)

    # --- the stock ----------------------------------------------------------------------------

    def _note(self, p: int, points: int) -> Bidomino:
        return replace(self, noted=replace_at(self.noted, p, self.noted[p] + points))

    def _draw(self, p: int, score: int, hand: int, rule: str, trace: list[Fired]) -> Bidomino:
        """Score cards first, then replacement cards; stop at the first exhaustion (the draw
        resumes after the reshuffle), note what is missing at the second."""
        taken = min(score + hand, len(self.stock))
        to_pile = min(score, taken)
        got_score, got_hand = self.stock[:to_pile], self.stock[to_pile:taken]
        state = replace(self, stock=self.stock[taken:],
                        score_piles=replace_at(self.score_piles, p, self.score_piles[p] + got_score),
                        hands=replace_at(self.hands, p, sort_cards(self.hands[p] + got_hand)))
        score, hand = score - len(got_score), hand - len(got_hand)
        if got_score:
            trace.append(Fired("segnapunti", f"P{p} takes {_plural(len(got_score), 'score card', 'score cards')} from the stock ({show(got_score)})"))
        if got_hand:
            trace.append(Fired(rule, f"P{p} draws {show(got_hand)}"))
        if taken and not state.stock:
            state = replace(state, exhausted=state.exhausted + 1)
            if state.exhausted == 1:
                trace.append(Fired("rimescolata", "the stock has run out: score cards and discards are gathered to be reshuffled"))
                return replace(state, phase=Phase.RESHUFFLE, pending=(p, score, hand))
            trace.append(Fired("secondo-esaurimento", "the stock has run out a second time: no more reshuffles"))
        if score:
            state = state._note(p, score)
            trace.append(Fired("secondo-esaurimento", f"no stock: {_plural(score, 'point', 'points')} noted on the score sheet for P{p}"))
        if hand:
            trace.append(Fired("secondo-esaurimento", f"P{p} is {_plural(hand, 'card', 'cards')} short and plays on with {len(state.hands[p])}"))
        return state

    # --- after each turn ----------------------------------------------------------------------

    def _finish_turn(self, p: int, trace: list[Fired]) -> Bidomino:
        if self.phase is Phase.RESHUFFLE:
            return replace(self, turn=p)  # the turn passes once the interrupted draw is complete
        if self.exhausted == 2 and not any(can_score(h, self.rows) for h in self.hands):
            return self._end_deal(trace)
        n = self.players
        for step in range(1, n + 1):
            # After the second exhaustion a player with no cards left has no more turns.
            if self.hands[(p + step) % n]:
                return replace(self, turn=(p + step) % n)
        return self._end_deal(trace)  # unreachable while someone can score; kept for safety

    def _end_deal(self, trace: list[Fired]) -> Bidomino:
        counted = [len(pile) for pile in self.score_piles]
        noted = tuple(n + c for n, c in zip(self.noted, counted))
        trace.append(Fired("fine-smazzata", f"no player can score any more: deal {self.deal + 1} ends; score cards counted: "
                           + ", ".join(f"P{i} {c}" for i, c in enumerate(counted))))
        n = self.players
        # Every card of both decks comes back for the next deal: in a game they are all on the
        # table now; a position() names only some of them, and the others were elsewhere.
        state = replace(self, hands=((),) * n, score_piles=((),) * n, rows=NO_ROWS, stock=full_pack(), discards=(),
                        exhausted=0, pending=None, deal=self.deal + 1, noted=noted)
        totals = ", ".join(f"P{i} {s}" for i, s in enumerate(noted))
        if state.deal == n:
            trace.append(Fired("vincitore", f"after {n} deals: {totals}; highest total wins"))
            return replace(state, phase=Phase.OVER)
        trace.append(Fired("smazzate", f"totals {totals}; P{state.dealer} deals next"))
        return replace(state, phase=Phase.DEAL)

    def __str__(self) -> str:
        head = f"deal {self.deal + 1}/{self.players} · dealer P{self.dealer}"
        if self.phase is Phase.OVER:
            return f"game over after {self.players} deals · " + " · ".join(f"P{i} {s}" for i, s in enumerate(self.scores))
        if self.phase is Phase.DEAL:
            return f"{head} · a pack of {len(self.stock)} cards to shuffle · " + " · ".join(
                f"P{i} noted {n}" for i, n in enumerate(self.noted)
            )
        who = "reshuffle the stock" if self.phase is Phase.RESHUFFLE else f"P{self.turn} to play"
        lines = [
            f"{head} · {who} · stock {len(self.stock)} · discards {len(self.discards)} · stock ran out {('never', 'once', 'twice')[self.exhausted]}",
            f"row 1: {self.rows[0]}",
            f"row 2: {self.rows[1]}",
        ]
        for i, hand in enumerate(self.hands):
            lines.append(f"P{i}: {show(hand)} · score cards {len(self.score_piles[i])} · noted {self.noted[i]}")
        return "\n".join(lines)

    #: Which method applies each action class: the dispatch table ``apply`` reads.
    handlers = {Shuffle: _apply_shuffle, Play: _apply_play, Discard: _apply_discard}
