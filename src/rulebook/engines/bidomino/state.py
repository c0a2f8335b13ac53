"""The state of a Bidomino game and its turns: deals, pairs on the rows, the stock, the end.

Rule ids in traces and errors are the ids of ``rules/bidomino.yaml``. Seats are numbered in
playing order: the player at index ``d`` deals deal ``d`` (index 0 deals first) and index d+1
opens it. The indexes count from 0, as Python does; what the engine says and its picture count
seats from 1 ("player 1", "P1"), as a reader does. Every
change makes a new frozen state; a turn's work is a chain of small steps, each taking the
state and returning the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ...errors import IllegalAction
from ...messages import Message, Notation, msg, msg_n, notation
from ..base import CHANCE, TERMINAL, Fired, State, Step, evolve, replace_at
from ..chance import Orders
from ..playing_cards import Card, remove_cards, show, sort_cards
from .pieces import (
    HAND,
    Action,
    Discard,
    Pair,
    Placement,
    Play,
    Result,
    Row,
    Shuffle,
    action,
    can_score,
    full_pack,
    lone_placements,
    pair_placements,
    placed,
    two_pair_plays,
)

NO_ROWS = (Row(), Row())


class Phase(Enum):
    DEAL = msg("deal")  # waits for the shuffle of the whole pack (chance)
    PLAY = msg("play")  # waits for player ``turn``
    RESHUFFLE = msg("reshuffle")  # the stock ran out: waits for the new stock's order (chance)
    OVER = msg("over")


CHANCE_PHASES = (Phase.DEAL, Phase.RESHUFFLE)


def _shown(items: Sequence[Card]) -> Notation:
    """Cards in their notation (``3♥ 6♣ J♠``), written alike in every language."""
    return notation(show(items))


def _player(index: int) -> Message:
    """A player as a sentence names them: by seat, counted from 1 ("player 2"). A msgstr asks
    for the form its words need ({player:def} → "il giocatore 2", {player:gen} → «игрока 2»)."""
    # Translators: a player by seat number, as sentences name them ("player 2 lays 8♦+7♣=15…").
    return msg("player {player}", player=index + 1)


def _by_player(counts: Sequence[int]) -> tuple[Message, ...]:
    """A number for each player, "2 for player 1, 3 for player 2": a list the page joins in its language."""
    # Translators: one player's share in a list of counts ("score cards counted: 2 for player 1, 3 for player 2").
    return tuple(msg("{count} for {player}", count=n, player=_player(i)) for i, n in enumerate(counts))


def _bonus(p: Pair) -> Message:
    """What a pair's bonus is for, one whole sentence for each case."""
    if p.bonus == 2:
        return msg("{pair}: identical cards, 2 bonus points", pair=notation(str(p)))
    if p.second is not None and p.first.suit == p.second.suit:
        return msg("{pair}: same suit, 1 bonus point", pair=notation(str(p)))
    return msg("{pair}: same value, 1 bonus point", pair=notation(str(p)))


def _refused_fit(pl: Placement, row: Row) -> Message:
    """Why a pair does not fit a row: the values the row takes now, if any."""
    said = {"pair": notation(str(pl.pair)), "row": pl.row, "values": row.values[0], "values2": row.values[-1]}
    wanted = row.wanted()
    if len(wanted) == 2:
        return msg("{pair} does not fit row {row} (from {values} to {values2}): it takes {wanted} or {wanted2}", **said, wanted=wanted[0], wanted2=wanted[1])
    if wanted:
        return msg("{pair} does not fit row {row} (from {values} to {values2}): it takes {wanted}", **said, wanted=wanted[0])
    return msg("{pair} does not fit row {row} (from {values} to {values2}): it takes nothing more", **said)


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
    actions_are = msg("a Bidomino action")

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

    def chance_outcomes(self) -> Orders | tuple[()]:
        """Every order of the cards to shuffle, equally likely."""
        return Orders(self.to_shuffle(), Shuffle) if self.phase in CHANCE_PHASES else ()

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
                for point in sort_cards(set(rest or ())) or (None,):
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
            raise IllegalAction("vincitore", msg("{action}: the game is over", action=act.told))
        if self.phase in CHANCE_PHASES and not isinstance(act, Shuffle):
            raise IllegalAction(self._shuffle_rule(), msg("{action}: the cards must be shuffled first", action=act.told))
        if self.phase is Phase.PLAY and isinstance(act, Shuffle):
            raise IllegalAction("turno", msg("{action}: {player} must play or discard", action=act.told, player=_player(self.turn)))

    def _shuffle_rule(self) -> str:
        return "mazziere" if self.phase is Phase.DEAL else "rimescolata"

    # --- chance -------------------------------------------------------------------------------

    def _apply_shuffle(self, act: Shuffle, trace: list[Fired]) -> Bidomino:
        expected = self.to_shuffle()
        if Counter(act.order) != Counter(expected):
            raise IllegalAction(self._shuffle_rule(), msg("{action}: a shuffle must order exactly the {count} gathered cards", action=act.told, count=len(expected)))
        return self._deal_out(act.order, trace) if self.phase is Phase.DEAL else self._reshuffle(act.order, trace)

    def _deal_out(self, order: Sequence[Card], trace: list[Fired]) -> Bidomino:
        n, first = self.players, (self.dealer + 1) % self.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        # One card at a time, starting at the dealer's right, as cards are usually dealt.
        for i in range(HAND * n):
            hands[(first + i) % n].append(order[i])
        stock = tuple(order[HAND * n:])
        # Translators: {HAND} is always 4 (the cards each player is dealt); {count} varies.
        trace.append(Fired("mazziere", msg_n("{dealer} deals {HAND} cards to each player, starting with {first}; {count} card forms the stock",
                                             "{dealer} deals {HAND} cards to each player, starting with {first}; {count} cards form the stock", len(stock),
                                             dealer=_player(self.dealer), HAND=HAND, first=_player(first), count=len(stock))))
        return evolve(self, hands=tuple(sort_cards(h) for h in hands), stock=stock, rows=NO_ROWS, discards=(),
                       score_piles=((),) * n, exhausted=0, phase=Phase.PLAY, turn=first, pending=None)

    def _reshuffle(self, order: Sequence[Card], trace: list[Fired]) -> Bidomino:
        counted = [len(p) for p in self.score_piles]
        discards = len(self.discards)
        # The plural follows the new stock's size (a noun every language counts: «di 5 carte»);
        # each catalog agrees the discards' word with {discards.plural:…}.
        trace.append(Fired("rimescolata", msg_n("{dealer} notes the score cards ({board}) and shuffles them with the discards ({discards}) into a new stock of {count} card",
                                                "{dealer} notes the score cards ({board}) and shuffles them with the discards ({discards}) into a new stock of {count} cards",
                                                len(order), dealer=_player(self.dealer), board=_by_player(counted), discards=discards, count=len(order))))
        player, score, hand = self.pending or (self.turn, 0, 0)
        state = evolve(self, noted=tuple(n + c for n, c in zip(self.noted, counted)), stock=tuple(order),
                        score_piles=((),) * self.players, discards=(), phase=Phase.PLAY, pending=None)
        if score or hand:
            trace.append(Fired("pesca-interrotta", msg("{player} first completes the interrupted draw", player=_player(player))))
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
        state = evolve(state, hands=replace_at(state.hands, p, sort_cards(rest)))
        bonus = sum(pl.pair.bonus for pl in act.placements)
        score, draws = bonus, 0
        if lone:
            state = state._note(p, 1)
            trace.append(Fired("carta-singola", msg("{player} plays the last card as a pair: 1 point noted on the score sheet", player=_player(p))))
        elif count == 2:
            score, draws = 2 + bonus, 4
            trace.append(Fired("due-coppie", msg("two pairs: 2 points for {player}, taken as score cards from the stock", player=_player(p))))
        elif rest:
            point = act.point
            assert point is not None
            state = evolve(state, hands=replace_at(state.hands, p, remove_cards(state.hands[p], (point,))),
                            score_piles=replace_at(state.score_piles, p, state.score_piles[p] + (point,)))
            trace.append(Fired("una-coppia", msg("{player} sets {point} aside face down as 1 point", player=_player(p), point=notation(str(point)))))
            draws = 3
        else:
            state = state._note(p, 1)
            trace.append(Fired("ultime-due-carte", msg("{player} has laid the last two cards: 1 point noted on the score sheet", player=_player(p))))
        state = state._draw(p, score, 0 if last_phase else draws, "due-coppie" if count == 2 else "una-coppia", trace)
        return state._finish_turn(p, trace)

    def _check_play(self, act: Play) -> tuple[Card, ...]:
        """The hand left after the pairs of ``act``, or the rule the play breaks."""
        p, hand = self.turn, self.hands[self.turn]
        count = len(act.placements)
        if count not in (1, 2):
            raise IllegalAction("turno", msg("{action}: a turn lays one or two pairs, not {count}", action=act.told, count=count))
        used = [c for pl in act.placements for c in pl.pair.cards]
        rest = remove_cards(hand, used)
        if rest is None:
            raise IllegalAction("turno", msg("{player} does not hold {show}; the hand is {show2}", player=_player(p), show=_shown(used), show2=_shown(hand)))
        lone = any(pl.pair.second is None for pl in act.placements)
        if lone and len(hand) != 1:
            raise IllegalAction("carta-singola", msg("only a last card may be played alone; {player} holds {show}, not just {show2}", player=_player(p), show=_shown(hand), show2=_shown(used)))
        if count == 1 and not lone and rest:
            if act.point not in rest:
                raise IllegalAction("una-coppia", msg("{action}: after one pair {player} sets aside one of {show} as the point", action=act.told, player=_player(p), show=_shown(rest)))
        elif act.point is not None:
            rule = "due-coppie" if count == 2 else "ultime-due-carte"
            raise IllegalAction(rule, msg("{action}: no hand card is set aside here", action=act.told))
        return rest

    def _place(self, p: int, pl: Placement, trace: list[Fired]) -> Bidomino:
        if pl.row not in (1, 2):
            raise IllegalAction("file", msg("there are two rows, 1 and 2, not {row}", row=pl.row))
        row = self.rows[pl.row - 1]
        end = row.end_for(pl.pair.value)
        if end is None and not row.pairs:
            raise IllegalAction("apertura", msg("row {row} is still empty and opens only with 15, not {pair}", row=pl.row, pair=notation(str(pl.pair))))
        if end is None:
            raise IllegalAction("file", _refused_fit(pl, row))
        laid = notation(str(pl.pair))
        if end == "open":
            trace.append(Fired("apertura", msg("{player} opens row {row} with {pair}", player=_player(p), row=pl.row, pair=laid)))
        elif end == "left":
            trace.append(Fired("file", msg("{player} lays {pair} at the left end of row {row}", player=_player(p), pair=laid, row=pl.row)))
        else:
            trace.append(Fired("file", msg("{player} lays {pair} at the right end of row {row}", player=_player(p), pair=laid, row=pl.row)))
        if pl.pair.bonus:
            trace.append(Fired("bonus", _bonus(pl.pair)))
        return evolve(self, rows=placed(self.rows, pl))

    def _apply_discard(self, act: Discard, trace: list[Fired]) -> Bidomino:
        p, c = self.turn, act.card
        left = remove_cards(self.hands[p], (c,))
        if left is None:
            raise IllegalAction("nessuna-coppia", msg("{player} cannot discard {card}: the hand is {show}", player=_player(p), card=notation(str(c)), show=_shown(self.hands[p])))
        state = evolve(self, hands=replace_at(self.hands, p, left), discards=self.discards + (c,))
        if self.exhausted == 2:
            trace.append(Fired("scarto-senza-ricambio", msg("{player} discards {c} face down and draws nothing", player=_player(p), c=notation(str(c)))))
        else:
            trace.append(Fired("nessuna-coppia", msg("{player} discards {c} face down", player=_player(p), c=notation(str(c)))))
            state = state._draw(p, 0, 1, "nessuna-coppia", trace)
        return state._finish_turn(p, trace)

    # --- the stock ----------------------------------------------------------------------------

    def _note(self, p: int, points: int) -> Bidomino:
        return evolve(self, noted=replace_at(self.noted, p, self.noted[p] + points))

    def _draw(self, p: int, score: int, hand: int, rule: str, trace: list[Fired]) -> Bidomino:
        """Score cards first, then replacement cards; stop at the first exhaustion (the draw
        resumes after the reshuffle), note what is missing at the second."""
        taken = min(score + hand, len(self.stock))
        to_pile = min(score, taken)
        got_score, got_hand = self.stock[:to_pile], self.stock[to_pile:taken]
        state = evolve(self, stock=self.stock[taken:],
                        score_piles=replace_at(self.score_piles, p, self.score_piles[p] + got_score),
                        hands=replace_at(self.hands, p, sort_cards(self.hands[p] + got_hand)))
        score, hand = score - len(got_score), hand - len(got_hand)
        if got_score:
            trace.append(Fired("segnapunti", msg_n("{player} takes {count} score card from the stock ({show})", "{player} takes {count} score cards from the stock ({show})",
                                                   len(got_score), player=_player(p), count=len(got_score), show=_shown(got_score))))
        if got_hand:
            trace.append(Fired(rule, msg("{player} draws {show}", player=_player(p), show=_shown(got_hand))))
        if taken and not state.stock:
            state = evolve(state, exhausted=state.exhausted + 1)
            if state.exhausted == 1:
                trace.append(Fired("rimescolata", msg("the stock has run out: score cards and discards are gathered to be reshuffled")))
                return evolve(state, phase=Phase.RESHUFFLE, pending=(p, score, hand))
            trace.append(Fired("secondo-esaurimento", msg("the stock has run out a second time: no more reshuffles")))
        if score:
            state = state._note(p, score)
            trace.append(Fired("secondo-esaurimento", msg_n("no stock: {points} point noted on the score sheet for {player}", "no stock: {points} points noted on the score sheet for {player}",
                                                            score, points=score, player=_player(p))))
        if hand:
            trace.append(Fired("secondo-esaurimento", msg_n("{player} is {short} card short and plays on with {count}", "{player} is {short} cards short and plays on with {count}",
                                                            hand, player=_player(p), short=hand, count=len(state.hands[p]))))
        return state

    # --- after each turn ----------------------------------------------------------------------

    def _finish_turn(self, p: int, trace: list[Fired]) -> Bidomino:
        if self.phase is Phase.RESHUFFLE:
            return evolve(self, turn=p)  # the turn passes once the interrupted draw is complete
        if self.exhausted == 2 and not any(can_score(h, self.rows) for h in self.hands):
            return self._end_deal(trace)
        n = self.players
        for step in range(1, n + 1):
            # After the second exhaustion a player with no cards left has no more turns.
            if self.hands[(p + step) % n]:
                return evolve(self, turn=(p + step) % n)
        return self._end_deal(trace)  # unreachable while someone can score; kept for safety

    def _end_deal(self, trace: list[Fired]) -> Bidomino:
        counted = [len(pile) for pile in self.score_piles]
        noted = tuple(n + c for n, c in zip(self.noted, counted))
        trace.append(Fired("fine-smazzata", msg("no player can score any more: deal {deal} ends; score cards counted: {counts}",
                                                deal=self.deal + 1, counts=_by_player(counted))))
        n = self.players
        # Every card of both decks comes back for the next deal: in a game they are all on the
        # table now; a position() names only some of them, and the others were elsewhere.
        state = evolve(self, hands=((),) * n, score_piles=((),) * n, rows=NO_ROWS, stock=full_pack(), discards=(),
                        exhausted=0, pending=None, deal=self.deal + 1, noted=noted)
        totals = _by_player(noted)
        if state.deal == n:
            trace.append(Fired("vincitore", msg_n("after {n} deal: {totals}; highest total wins", "after {n} deals: {totals}; highest total wins", n, n=n, totals=totals)))
            return evolve(state, phase=Phase.OVER)
        trace.append(Fired("smazzate", msg("totals {totals}; {dealer} deals next", totals=totals, dealer=_player(state.dealer))))
        return evolve(state, phase=Phase.DEAL)

    def __str__(self) -> str:
        head = f"deal {self.deal + 1}/{self.players} · dealer P{self.dealer + 1}"
        if self.phase is Phase.OVER:
            return f"game over after {self.players} deals · " + " · ".join(f"P{i} {s}" for i, s in enumerate(self.scores, start=1))
        if self.phase is Phase.DEAL:
            return f"{head} · a pack of {len(self.stock)} cards to shuffle · " + " · ".join(
                f"P{i} noted {n}" for i, n in enumerate(self.noted, start=1)
            )
        who = "reshuffle the stock" if self.phase is Phase.RESHUFFLE else f"P{self.turn + 1} to play"
        lines = [
            f"{head} · {who} · stock {len(self.stock)} · discards {len(self.discards)} · stock ran out {('never', 'once', 'twice')[self.exhausted]}",
            f"row 1: {self.rows[0]}",
            f"row 2: {self.rows[1]}",
        ]
        for i, hand in enumerate(self.hands):
            lines.append(f"P{i + 1}: {show(hand)} · score cards {len(self.score_piles[i])} · noted {self.noted[i]}")
        return "\n".join(lines)

    #: Which method applies each action class: the dispatch table ``apply`` reads.
    handlers = {Shuffle: _apply_shuffle, Play: _apply_play, Discard: _apply_discard}  # noqa: RUF012 - a ClassVar: engines.base.State declares it so
