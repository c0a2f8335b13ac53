"""Casting a spell (Comprehensive Rules 601.2): the reference engine of ``rules/casting.yaml``.

The modules follow the rule, bottom to top: :mod:`.mana` and :mod:`.cards` (values and card
data), :mod:`.state` (the table), :mod:`.actions`, :mod:`.targets` and :mod:`.costs`,
:mod:`.propose` (601.2a–f), :mod:`.pay` (601.2g–i), :mod:`.resolve` and :mod:`.moves`, and
:mod:`.game`, the face. This package gives the worked examples their names (:func:`namespace`).

>>> game = setup(hand=["Lightning Bolt"], battlefield=["Mountain"], their_battlefield=["White Knight"])
>>> step = game.apply(Cast("lightning-bolt", targets="white-knight", mana="mountain"))
>>> step.rules()
['601.2a', '601.2c', '601.2f', '601.2g', '601.2h', '601.2i']
>>> print(step.state)
P1 life 20 | battlefield: mountain (T)
P2 life 20 | battlefield: white-knight
stack: lightning-bolt -> white-knight
"""

from __future__ import annotations

import functools
from typing import Any

from ...errors import IllegalAction
from ...model import Book
from ..base import PrintedName
from .actions import ACTIONS, Activate, Cast, Choose, Concede, Decline, Mana, Pass, PlayLand, Resolve, Tap
from .cards import Card, card, define, for_files, packaged
from .costs import Derivation
from .game import Game, new_game, setup
from .mana import ManaCost, Pool
from .state import ZONES, Entry, Obj, Offer, Pending, Phase

__all__ = [
    "Game", "Obj", "Entry", "Pending", "Offer", "Phase", "setup", "card", "define", "Card", "ManaCost", "Pool",
    "Derivation", "Cast", "Tap", "Mana", "Activate", "PlayLand", "Pass", "Resolve", "Decline", "Choose", "Concede",
    "IllegalAction", "ZONES", "ACTIONS", "new_game",
]


def namespace(book: Book) -> dict[str, Any]:
    """The globals of the book's worked examples: the public names, with ``setup`` and
    ``card`` knowing the cards of the book's ``engine_data`` files besides the packaged ones."""
    names: dict[str, Any] = {name: globals()[name] for name in __all__}
    if book.engine_data:
        catalogue = for_files(book.data_paths())
        names["setup"] = functools.wraps(setup)(functools.partial(setup, catalogue=catalogue))
        names["card"] = catalogue.__getitem__
    return names


def names() -> tuple[PrintedName, ...]:
    """The printed names of the packaged cards (``data/cards.yaml``, each card's ``names:``): the
    translation glossary binds every translation to them (docs/engines.md)."""
    return tuple(PrintedName.of(found.names, found.origin) for found in packaged().cards.values())
