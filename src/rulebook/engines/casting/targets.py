"""601.2c: the word "target" — who or what each instance may take, and the sets a spell may choose."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TypeVar

from ...errors import IllegalAction
from ...messages import Message, code, msg, msg_n, msg_p
from ..base import Fired
from .cards import Card, TargetWord, filter_words
from .state import PLAYER_IDS, Obj, Table, zone_name

#: A target as split_targets shares them: an id, or a position when only the counts matter.
T = TypeVar("T")

#: A colour as "protection from {colour}" says it (702.16b); the context lets a language decline it.
PROTECTION_FROM = {
    "W": msg_p("protection from", "white"), "U": msg_p("protection from", "blue"), "B": msg_p("protection from", "black"),
    "R": msg_p("protection from", "red"), "G": msg_p("protection from", "green"),
}


def target_problem(game: Table, target: str, word: TargetWord, caster: int, source: Card, spell_id: str) -> Message | None:
    """Why ``target`` cannot be chosen for this "target" word, or None when it can."""
    if target in PLAYER_IDS:
        return None if word.filter in ("any", "player") else msg("a player is not a {filter}", filter=filter_words(word.filter))
    if not game.has(target):
        return msg("there is no such object")
    obj = game.obj(target)
    kind = obj.card
    where = word.filter
    if where == "player":
        return msg("it is not a player")
    if where == "spell":
        entry = game.entry(target)
        if entry is None or entry.kind != "spell" or target == spell_id:
            return msg("it is not a spell on the stack")
        return None
    if where.endswith(("in your graveyard", "in a graveyard")):
        yours = where.endswith("your graveyard")
        if obj.zone != "graveyard" or (yours and obj.owner != caster):
            return msg("it is not in your graveyard") if yours else msg("it is not in a graveyard")
        wanted = where.split(" card")[0].split(" or ")
        if not any(kind.is_type(w) for w in wanted):
            return msg("it is not a {filter}", filter=filter_words(where))
        return None
    if obj.zone != "battlefield":
        return msg("it is in the {zone}, not on the battlefield", zone=zone_name(obj.zone))
    words = where.split()
    if where[:1].isupper() and where not in kind.type.partition("—")[2].split():
        return msg("it is not a {filter}", filter=filter_words(where))  # a subtype, such as Arbor Elf's "target Forest"
    if ("creature" in words or where == "any") and not kind.is_type("creature"):
        return msg("it is not a creature")
    if "nonartifact" in words and kind.is_type("artifact"):
        return msg("it is an artifact")
    if "nonblack" in words and "B" in kind.colours:
        return msg("it is black")
    if "nonland" in words and kind.is_land:
        return msg("it is a land")
    if where.endswith("you control") and obj.controller != caster:
        return msg("you do not control it")
    if kind.protection and kind.protection in source.colours:
        return msg("it has protection from {colour} and {card} is {colour} (702.16b)", colour=PROTECTION_FROM[kind.protection], card=source)
    return None


def split_targets(targets: Sequence[T], words: Sequence[TargetWord], source: Card,
                  quoted: Callable[[T], object] = code) -> list[tuple[TargetWord, tuple[T, ...]]]:
    """Share a flat list of targets among the "target" words, in printed order.

    Words with a fixed count take exactly that many; the one word with a range takes the rest.
    A refusal quotes the targets with ``quoted`` (``Table.quoted``: each by its card's name).
    """
    low, high = sum(w.min for w in words), sum(w.max for w in words)
    if not low <= len(targets) <= high:
        got = {"card": source, "count": len(targets), "targets": tuple(map(quoted, targets))}
        raise IllegalAction("601.2c", msg_n("{card} needs exactly {wanted} target, got {count}: {targets}", "{card} needs exactly {wanted} targets, got {count}: {targets}",
                                            low, wanted=low, **got) if low == high
                            else msg("{card} needs {low} to {high} targets, got {count}: {targets}", low=low, high=high, **got))
    variable = len(targets) - sum(w.min for w in words)
    groups, at = [], 0
    for word in words:
        take = word.min + min(variable, word.max - word.min)
        variable -= take - word.min
        groups.append((word, tuple(targets[at : at + take])))
        at += take
    return groups


def choose_targets(game: Table, spell: Obj, source: Card, words: Sequence[TargetWord], targets: Sequence[str], caster: int) -> list[Fired]:
    trace = []
    earlier: list[str] = []
    for word, group in split_targets(targets, words, source, game.quoted):
        if len(set(group)) != len(group):
            raise IllegalAction(
                "601.2c",
                msg('{source}: the same object can\'t be chosen twice for one word "target" ({group}); only a second word "target" may choose it again', source=source, group=tuple(map(game.quoted, group))),
            )
        for target in group:
            problem = target_problem(game, target, word, caster, source, spell.id)
            if problem:
                raise IllegalAction("601.2c", msg("{target} can't be a target of {source} ({filter}): {problem}", target=game.quoted(target), source=source, filter=filter_words(word.filter), problem=problem))
            if word.another and target in earlier:
                raise IllegalAction("601.2c", msg('{target} is already a target: "another target" must be a different one', target=game.quoted(target)))
        chosen = tuple(game.named(t) for t in group) if group else msg("none chosen")
        trace.append(Fired("601.2c", msg("{word}: {value}", word=word.said(), value=chosen)))
        earlier.extend(group)
    return trace


def target_sets(game: Table, obj: Obj, words: Sequence[TargetWord], player: int) -> list[tuple[str, ...]]:
    """Every choice of targets for the words "target" of ``obj``, as one flat list each.

    Each word takes a set (601.2c), listed once in the order of ``game.objects`` then the
    players, from the objects and players that word can target now: the card moving to the
    stack (601.2a) changes no other object, so this is what :func:`choose_targets` will
    accept, except "another target" which the cast itself checks. The counts per word are
    those :func:`split_targets` gives a flat list of each length.
    """
    if not words:
        return [()]
    ids = [o.id for o in game.objects if o.id != obj.id] + list(PLAYER_IDS)
    legal = [[t for t in ids if target_problem(game, t, word, player, obj.card, obj.id) is None] for word in words]
    low, high = sum(w.min for w in words), min(sum(w.max for w in words), sum(map(len, legal)))
    found: list[tuple[str, ...]] = []
    for n in range(low, high + 1):
        sizes = [len(group) for _, group in split_targets(range(n), words, obj.card)]
        choices = [itertools.combinations(candidates, size) for candidates, size in zip(legal, sizes)]
        found.extend(tuple(t for group in chosen for t in group) for chosen in itertools.product(*choices))
    return found
