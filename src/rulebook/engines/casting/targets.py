"""601.2c: the word "target" — who or what each instance may take, and the sets a spell may choose."""

from __future__ import annotations

import itertools
from typing import Sequence

from ...messages import code, msg
from ...errors import IllegalAction
from ...symbols import COLOUR_NAMES
from ..base import Fired
from .cards import Card, TargetWord
from .state import PLAYER_IDS, Obj, Table


def target_problem(game: Table, target: str, word: TargetWord, caster: int, source: Card, spell_id: str) -> str | None:
    """Why ``target`` cannot be chosen for this "target" word, or None when it can."""
    if target in PLAYER_IDS:
        return None if word.filter in ("any", "player") else f"a player is not a {word.filter}"
    if not game.has(target):
        return "there is no such object"
    obj = game.obj(target)
    kind = obj.card
    where = word.filter
    if where == "player":
        return "it is not a player"
    if where == "spell":
        entry = game.entry(target)
        if entry is None or entry.kind != "spell" or target == spell_id:
            return "it is not a spell on the stack"
        return None
    if where.endswith("in your graveyard") or where.endswith("in a graveyard"):
        if obj.zone != "graveyard" or (where.endswith("your graveyard") and obj.owner != caster):
            return f"it is not in {'your' if 'your' in where else 'a'} graveyard"
        wanted = where.split(" card")[0].split(" or ")
        if not any(kind.is_type(w) for w in wanted):
            return f"it is not a {where.split(' card')[0]} card"
        return None
    if obj.zone != "battlefield":
        return f"it is in the {obj.zone}, not on the battlefield"
    words = where.split()
    if where[:1].isupper() and where not in kind.type.partition("—")[2].split():
        return f"it is not a {where}"  # a subtype, such as Arbor Elf's "target Forest"
    if "creature" in words or where == "any":
        if not kind.is_type("creature"):
            return "it is not a creature"
    if "nonartifact" in words and kind.is_type("artifact"):
        return "it is an artifact"
    if "nonblack" in words and "B" in kind.colours:
        return "it is black"
    if "nonland" in words and kind.is_land:
        return "it is a land"
    if where.endswith("you control") and obj.controller != caster:
        return "you do not control it"
    if kind.protection and kind.protection in source.colours:
        colour = COLOUR_NAMES[kind.protection]
        return f"it has protection from {colour} and {source.name} is {colour} (702.16b)"
    return None


def split_targets(targets: Sequence[str], words: Sequence[TargetWord], name: str) -> list[tuple[TargetWord, tuple[str, ...]]]:
    """Share a flat list of targets among the "target" words, in printed order.

    Words with a fixed count take exactly that many; the one word with a range takes the rest.
    """
    low, high = sum(w.min for w in words), sum(w.max for w in words)
    if not low <= len(targets) <= high:
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        raise IllegalAction("601.2c", msg("{name} needs {wanted} target(s), got {count}: {tuple}", name=name, wanted=wanted, count=len(targets), tuple=code(tuple(targets))))
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
    for word, group in split_targets(targets, words, source.name):
        if len(set(group)) != len(group):
            raise IllegalAction(
                "601.2c",
                msg('{source}: the same object can\'t be chosen twice for one word "target" ({group}); only a second word "target" may choose it again', source=source, group=code(group)),
            )
        for target in group:
            problem = target_problem(game, target, word, caster, source, spell.id)
            if problem:
                raise IllegalAction("601.2c", msg("{target} can't be a target of {source} ({filter}): {problem}", target=code(target), source=source, filter=word.filter, problem=problem))
            if word.another and target in earlier:
                raise IllegalAction("601.2c", msg('{target} is already a target: "another target" must be a different one', target=code(target)))
        trace.append(Fired("601.2c", msg("{word}: {value}", word=word, value=', '.join(group) if group else 'none chosen')))
        earlier.extend(group)
    return trace


def target_sets(game: Table, obj, words, player: int) -> list[tuple[str, ...]]:
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
        sizes = [len(group) for _, group in split_targets(range(n), words, obj.card.name)]
        choices = [itertools.combinations(candidates, size) for candidates, size in zip(legal, sizes)]
        found.extend(tuple(t for group in chosen for t in group) for chosen in itertools.product(*choices))
    return found
