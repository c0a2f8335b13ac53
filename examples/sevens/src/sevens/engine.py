"""The reference engine of rules/sevens.yaml: every worked example there runs against it.

Sevens is played with a standard deck of 52 cards. The players lay them out in four rows, one
per suit, each row started by its 7 and grown one rank at a time up to the king and down to
the ace; the first player out of cards wins.

It keeps rulebook's engine contract (its docs/engines.md): a frozen state, one handler per
action in the table at the end of the state class, the deal as an action the caller supplies,
and every change named by the id of the rule that made it. Registered in pyproject.toml as the
engine `sevens`.

Cards are written rank then suit: ``7D`` (seven of diamonds), ``10H``, ``QS``, ``AC``, or with
the suit's symbol, ``7♦``. Everything the engine shows a reader writes them with the symbol,
the notation every language reads alike.

What it says (each change, each refusal, each phase) is a message made with the markers of
`rulebook.messages`, never an f-string: the msgid in English with named placeholders, the values
beside it (a card as :func:`~rulebook.messages.notation`, a suit's name as a message, a list of
cards as a tuple the page joins in its language). The site tells every example's steps in the
page's language from them: the gettext domain ``engine.sevens`` beside this module
(``locale/engine.sevens.cfg`` says what Babel extracts; ``rulebook i18n update`` keeps
``locale/engine.sevens.pot`` and each ``locale/LANG/LC_MESSAGES/engine.sevens.po`` current).

>>> parse_card("10h"), parse_card("7♦"), shown("QS"), rank_name(1), rank_name(12)
('10H', '7D', 'Q♠', 'A', 'Q')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Iterable, Sequence

from rulebook.engines.base import CHANCE, TERMINAL, Fired, State, replace_at
from rulebook.errors import IllegalAction, RulebookError
from rulebook.messages import Notation, code, msg, msg_n, msg_p, notation
from rulebook.symbols import Symbol, define

__all__ = ["SUITS", "DECK", "Phase", "Play", "Pass", "Deal", "Sevens", "ACTIONS", "IllegalAction", "new_game", "parse_card"]

SUITS = "SHDC"  # spades, hearts, diamonds, clubs: the order rows and hands are shown in
#: Each suit's symbol, as a card is shown to a reader (``7♦``): the same in every language.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Each suit's name, a word of every language: a message of its own, told apart by its context.
SUIT_NAMES = {"S": msg_p("suit", "spades"), "H": msg_p("suit", "hearts"), "D": msg_p("suit", "diamonds"),
              "C": msg_p("suit", "clubs")}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # aces low (ruling ace-low)
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
OPENING = "7D"  # rule start
PLAYERS = range(3, 7)  # rule deal
_CARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC♠♥♦♣])$")
_SUIT_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}

Row = tuple[int, int] | None  # the lowest and highest rank of a suit on the table (1 = ace … 13 = king)


def parse_card(text: object) -> str:
    """A card as the engine keeps it, ``7D``, from ``7D`` or ``7♦``; anything else is a
    RulebookError saying how to write one (text the engine cannot read: for the example's author)."""
    found = _CARD_RE.match(text.strip().upper()) if isinstance(text, str) else None
    if not found:
        raise RulebookError(f"{text!r} is not a card: write rank then suit, e.g. 7D, 10H, QS (suits S H D C, or ♠ ♥ ♦ ♣)")
    rank, suit = found.groups()
    return rank + _SUIT_LETTERS.get(suit, suit)


def shown(card: str) -> Notation:
    """A card as a reader sees it, rank and suit symbol (``7♦``): notation, alike in every language."""
    return notation(card[:-1] + SUIT_SYMBOLS[card[-1]])


def shown_all(cards: Sequence[str]) -> tuple[Notation, ...]:
    """Cards as a list the page joins in its own language (never a string joined here)."""
    return tuple(shown(card) for card in cards)


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda card: (SUITS.index(card[-1]), rank_of(card))))


class Phase(Enum):
    DEAL = msg("the cards are being dealt (chance)")
    PLAY = msg("to play or pass")
    OVER = msg("game over")


@dataclass(frozen=True)
class Play:
    """The player to act plays a card from their hand (rules start and build)."""

    card: str


@dataclass(frozen=True)
class Pass:
    """The player to act cannot play and passes (rule pass)."""


@dataclass(frozen=True)
class Deal:
    """Chance: the hands as dealt, one card at a time from player 0 on (rule deal)."""

    hands: tuple[str, ...]  # each hand as cards separated by spaces

    @classmethod
    def from_deck(cls, order: Sequence[str], players: int) -> Deal:
        """The deal of a deck in this order: card i goes to player i mod players."""
        return cls(tuple(" ".join(order[seat::players]) for seat in range(players)))


ACTIONS = (Play, Pass, Deal)


def _hands(hands: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Hands written as text, each a space-separated list of cards; no card twice, 3 to 6 players."""
    parsed = tuple(_sorted([parse_card(card) for card in hand.split()]) for hand in hands)
    if len(parsed) not in PLAYERS:
        raise _wrong_player_count(len(parsed))
    cards = [card for hand in parsed for card in hand]
    if twice := _sorted({card for card in cards if cards.count(card) > 1}):
        raise IllegalAction("deal", msg_n("a card dealt twice: {cards}", "cards dealt twice: {cards}", len(twice),
                                          cards=shown_all(twice)))
    return parsed


def _wrong_player_count(players: object) -> IllegalAction:
    # The game's name is inside the sentence, so that each language gives it its own article.
    return IllegalAction("deal", msg("Sevens is for {least} to {most} players, not {players}",
                                     least=PLAYERS.start, most=PLAYERS.stop - 1, players=code(players)))


@dataclass(frozen=True)
class Sevens(State):
    hands: tuple[tuple[str, ...], ...] = ()
    rows: tuple[Row, ...] = (None, None, None, None)  # by suit, in SUITS order
    active: int = 0
    phase: Phase = Phase.DEAL

    unknown_action_rule = "build"
    actions_are = msg("an action of Sevens")

    @classmethod
    def setup(cls, hands: Sequence[str], table: str = "", active: int | None = None) -> Sevens:
        """A game in progress: the hands, the cards already on the table, who is to play.

        Without ``table`` nothing has been played and the holder of the 7D is to open; with it,
        player 0 is to play unless ``active`` says otherwise.
        """
        held = _hands(hands)
        on_table = [parse_card(card) for card in table.split()]
        if overlap := _sorted(set(on_table) & {card for hand in held for card in hand}):
            raise IllegalAction("deal", msg_n("{cards} is both on the table and in a hand", "{cards} are both on the table and in a hand",
                                              len(overlap), cards=shown_all(overlap)))
        rows = tuple(_row([rank_of(card) for card in on_table if card[-1] == suit], suit) for suit in SUITS)
        if active is None:
            active = 0 if on_table else next((seat for seat, hand in enumerate(held) if OPENING in hand), None)
            if active is None:
                raise IllegalAction("start", msg("nobody holds the {card}, which opens the game", card=shown(OPENING)))
        if active not in range(len(held)):
            raise IllegalAction("deal", msg("there is no player {player} among {count}", player=code(active), count=len(held)))
        return cls(held, rows, active, Phase.PLAY)

    @property
    def current_player(self) -> int:
        return {Phase.OVER: TERMINAL, Phase.DEAL: CHANCE}.get(self.phase, self.active)

    @property
    def outcome(self) -> int | None:
        """The winner, the first player out of cards."""
        return self.active if self.phase is Phase.OVER else None

    @property
    def opening(self) -> bool:
        return all(row is None for row in self.rows)

    def fits(self, card: str) -> bool:
        """Whether ``card`` may go on the table now (rules start and build)."""
        if self.opening:
            return card == OPENING
        row, rank = self.rows[SUITS.index(card[-1])], rank_of(card)
        return rank == 7 if row is None else rank in (row[0] - 1, row[1] + 1)

    def playable(self) -> list[str]:
        return [card for card in self.hands[self.active] if self.fits(card)] if self.phase is Phase.PLAY else []

    def legal_actions(self) -> list[Play | Pass]:
        if self.phase is not Phase.PLAY:
            return []
        return [Play(card) for card in self.playable()] or [Pass()]

    def sample_chance(self, rng: random.Random) -> Deal:
        order = list(DECK)
        rng.shuffle(order)
        return Deal.from_deck(order, len(self.hands))

    def _deal(self, action: Deal, trace: list[Fired]) -> Sevens:
        self._expect(Phase.DEAL, action, "deal")
        hands = _hands(action.hands)
        if len(hands) != len(self.hands):
            raise IllegalAction("deal", msg_n("this game has {players} players, the deal {count} hand",
                                              "this game has {players} players, the deal {count} hands", len(hands),
                                              players=len(self.hands), count=len(hands)))
        if missing := [card for card in DECK if not any(card in hand for hand in hands)]:
            raise IllegalAction("deal", msg("the whole deck is dealt; missing: {cards}", cards=shown_all(missing)))
        sizes = [len(hand) for hand in hands]
        fair = [len(DECK[seat::len(hands)]) for seat in range(len(hands))]
        if sizes != fair:
            raise IllegalAction("deal", msg("one card at a time from player 0 gives hands of {fair} cards, not {sizes}",
                                            fair=_sizes(fair), sizes=_sizes(sizes)))
        opener = next(seat for seat, hand in enumerate(hands) if OPENING in hand)
        trace.append(Fired("deal", msg_n("{count} hand of {sizes} cards; player {player} holds the {card}",
                                         "{count} hands of {sizes} cards; player {player} holds the {card}", len(hands),
                                         count=len(hands), sizes=_sizes(sizes), player=opener, card=shown(OPENING))))
        return replace(self, hands=hands, active=opener, phase=Phase.PLAY)

    def _play(self, action: Play, trace: list[Fired]) -> Sevens:
        self._expect(Phase.PLAY, action, "build")
        card, hand = parse_card(action.card), self.hands[self.active]
        if card not in hand:
            raise IllegalAction("build", msg("player {player} does not hold {card}: their hand is {hand}", player=self.active,
                                             card=shown(card), hand=shown_all(hand)) if hand else
                                msg("player {player} does not hold {card}: their hand is empty", player=self.active, card=shown(card)))
        suit, rank = card[-1], rank_of(card)
        row = self.rows[SUITS.index(suit)]
        if not self.fits(card):
            raise self._refusal(card, row)
        grown = (min(rank, row[0]), max(rank, row[1])) if row else (rank, rank)
        rows = replace_at(self.rows, SUITS.index(suit), grown)
        rule = "start" if self.opening else "build"
        if row is None:
            said = msg("player {player} plays {card} and starts the row of {suit}", player=self.active, card=shown(card),
                       suit=SUIT_NAMES[suit])
        else:
            said = msg("player {player} plays {card}: the row of {suit} is now {row}", player=self.active, card=shown(card),
                       suit=SUIT_NAMES[suit], row=_row_shown(grown, suit))
        trace.append(Fired(rule, said))
        hands = replace_at(self.hands, self.active, tuple(c for c in hand if c != card))
        if not hands[self.active]:
            trace.append(Fired("win", msg("player {player} has played their last card and wins", player=self.active)))
            return replace(self, hands=hands, rows=rows, phase=Phase.OVER)
        return replace(self, hands=hands, rows=rows, active=(self.active + 1) % len(hands))

    def _refusal(self, card: str, row: Row) -> IllegalAction:
        suit, said = card[-1], {"card": shown(card), "suit": SUIT_NAMES[card[-1]]}
        if self.opening:
            # Translators: {opening} is always the seven of diamonds, 7♦; {card} another card.
            return IllegalAction("start", msg("the game opens with the {opening}, not {card}", opening=shown(OPENING), card=shown(card)))
        if row is None:
            return IllegalAction("build", msg("{card} cannot be played: the row of {suit} has no 7 yet", **said))
        said["row"] = _row_shown(row, suit)
        if rank_of(card) == 1 and row[1] == 13:
            return IllegalAction("ace-low", msg("the ace goes below the 2, never after the king: the row of {suit} is {row}", **said))
        # One whole sentence for each number of open ends, so that every language words its own.
        ends = [shown(rank_name(r) + suit) for r in (row[0] - 1, row[1] + 1) if 1 <= r <= 13]
        if len(ends) == 2:
            return IllegalAction("build", msg("{card} does not fit the row of {suit} ({row}): it takes {below} or {above}",
                                              below=ends[0], above=ends[1], **said))
        # One end open (a row closed at both ends holds its whole suit: no card of it is left to refuse).
        return IllegalAction("build", msg("{card} does not fit the row of {suit} ({row}): it takes only {end}", end=ends[0], **said))

    def _pass(self, action: Pass, trace: list[Fired]) -> Sevens:
        self._expect(Phase.PLAY, action, "pass")
        if playable := self.playable():
            raise IllegalAction("must-play", msg("player {player} can play {cards}, and a player who can play must",
                                                 player=self.active, cards=shown_all(playable)))
        trace.append(Fired("pass", msg("player {player} cannot play and passes", player=self.active)))
        return replace(self, active=(self.active + 1) % len(self.hands))

    def __str__(self) -> str:
        table = "  ".join(f"{SUIT_SYMBOLS[suit]} {_shown(row)}" for suit, row in zip(SUITS, self.rows))
        hands = "  ".join(f"{seat}: {' '.join(shown_all(hand)) or '-'}" for seat, hand in enumerate(self.hands))
        return f"table: {table}\nhands: {hands}\n{self._now()}"

    handlers = {Play: _play, Pass: _pass, Deal: _deal}


def _row(ranks: list[int], suit: str) -> Row:
    """The row the cards of one suit on the table make: none, or a run through the 7."""
    if not ranks:
        return None
    low, high = min(ranks), max(ranks)
    if not low <= 7 <= high or sorted(ranks) != list(range(low, high + 1)):
        cards = shown_all([rank_name(r) + suit for r in sorted(ranks)])
        # Translators: {cards} is one card or several (the plural forms say which).
        raise IllegalAction("build", msg_n("{cards} cannot be on the table: a row is an unbroken run through its 7",
                                           "{cards} cannot be on the table: a row is an unbroken run through its 7",
                                           len(cards), cards=cards))
    return low, high


def _shown(row: Row) -> str:
    """A row in the state's picture: ``-``, ``7``, ``6-8``."""
    if row is None:
        return "-"
    return rank_name(row[0]) if row[0] == row[1] else f"{rank_name(row[0])}-{rank_name(row[1])}"


def _row_shown(row: tuple[int, int], suit: str) -> Notation:
    """A row in a message, its lowest and highest card: ``7♥``, ``6♥–8♥``."""
    low, high = (shown(rank_name(rank) + suit) for rank in row)
    return low if row[0] == row[1] else notation(f"{low}–{high}")


def _sizes(sizes: Sequence[int]) -> Notation:
    """How many cards each hand holds, from player 0 on: ``13/13/13/13``."""
    return notation("/".join(map(str, sizes)))


def new_game(rng: random.Random, players: int = 4) -> Sevens:
    """A game waiting for its deal, for `rulebook play sevens`; the caller deals (a chance action)."""
    if players not in PLAYERS:
        raise _wrong_player_count(players)
    return Sevens(hands=((),) * players)


def symbols() -> tuple[Symbol, ...]:
    """The symbols this engine adds to its rulebook's texts (rulebook's engine interface, its
    docs/engines.md): ``{knock}``, the knock on the table that says "I cannot play, I pass",
    drawn as a fist and read out in the page's language.

    >>> [(symbol.token, symbol.glyph, str(symbol.label)) for symbol in symbols()]
    [('{knock}', '✊', 'a knock on the table: the player passes')]
    """
    # Translators: what a screen reader says for the fist drawn where the rules write {knock}.
    return (define("knock", "\u270a", msg_p("symbol", "a knock on the table: the player passes")),)
