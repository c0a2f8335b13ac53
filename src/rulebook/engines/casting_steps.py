"""The steps of casting a spell, 601.2a to 601.2i, as one transaction.

:func:`propose` runs the announcement, the choices, the targets, the division and the total
cost (601.2a–f); :func:`cast` goes on with mana abilities and payment (601.2g–h) and makes
the spell cast (601.2i). Both work on immutable states and raise :class:`IllegalAction` at the
first illegal step, so a refused cast leaves the caller's state exactly as it was (601.2:
the game returns to the moment before the cast was proposed).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from ..errors import IllegalAction, RulebookError
from .base import Fired
from .casting_cards import Card, CostModifier, TargetWord
from .casting_costs import Derivation, modify
from ..symbols import COLOUR_NAMES
from .mana import COLOURS, ZERO, ManaCost

if TYPE_CHECKING:
    from .casting import Cast, Entry, Game, Mana, Obj

PLAYER_IDS = ("p0", "p1")


# --- targets ----------------------------------------------------------------------------


def target_problem(game: Game, target: str, word: TargetWord, caster: int, source: Card, spell_id: str) -> str | None:
    """Why ``target`` cannot be chosen for this "target" word, or None when it can."""
    if target in PLAYER_IDS:
        return None if word.filter == "any" else f"a player is not a {word.filter}"
    if not game.has(target):
        return "there is no such object"
    obj = game.obj(target)
    kind = obj.card
    where = word.filter
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
        raise IllegalAction("601.2c", f"{name} needs {wanted} target(s), got {len(targets)}: {tuple(targets)!r}")
    variable = len(targets) - sum(w.min for w in words)
    groups, at = [], 0
    for word in words:
        take = word.min + min(variable, word.max - word.min)
        variable -= take - word.min
        groups.append((word, tuple(targets[at : at + take])))
        at += take
    return groups


def choose_targets(game: Game, spell: Obj, source: Card, words: Sequence[TargetWord], targets: Sequence[str], caster: int) -> list[Fired]:
    trace = []
    earlier: list[str] = []
    for word, group in split_targets(targets, words, source.name):
        if len(set(group)) != len(group):
            raise IllegalAction(
                "601.2c",
                f"{source.name}: the same object can't be chosen twice for one word \"target\" ({group!r}); "
                "only a second word \"target\" may choose it again",
            )
        for target in group:
            problem = target_problem(game, target, word, caster, source, spell.id)
            if problem:
                raise IllegalAction("601.2c", f"{target!r} can't be a target of {source.name} ({word.filter}): {problem}")
            if word.another and target in earlier:
                raise IllegalAction("601.2c", f"{target!r} is already a target: \"another target\" must be a different one")
        trace.append(Fired("601.2c", f"{word}: {', '.join(group) if group else 'none chosen'}"))
        earlier.extend(group)
    return trace


# --- the total cost ---------------------------------------------------------------------


def applies(modifier: CostModifier, spell: Card, source: Obj, caster: int) -> bool:
    """Whether a cost modifier on the battlefield changes this spell."""
    if modifier.untapped and source.tapped:
        return False
    if modifier.whose == "yours" and source.controller != caster:
        return False
    if modifier.spells == "all":
        return True
    if modifier.spells == "creature":
        return spell.is_type("creature")
    if modifier.spells == "noncreature":
        return not spell.is_type("creature")
    return modifier.spells.lower() in spell.type.lower().replace("—", " ").split()


def exile_permission(game: Game, obj: Obj, player: int) -> tuple[str, str]:
    """What the effect that exiled ``obj`` lets ``player`` do with it: cast, play or ''
    (with why not). "You" on Daxos and Nightveil Specter is their controller; the Specter's
    permission is a static ability, so it lasts only while the Specter is on the battlefield,
    while Daxos's comes from a resolved trigger and outlives Daxos (until end of turn)."""
    if not obj.exiled_by or not game.has(obj.exiled_by):
        return "", ""
    source = game.obj(obj.exiled_by)
    permission = source.card.permission
    if permission == "play" and source.zone != "battlefield":
        return "", f" ({source.card.name} has left the battlefield, and with it its permission)"
    if permission and source.controller != player:
        return "", f" ({source.card.name}'s permission is for its controller, P{source.controller})"
    return permission, ""


def propose(game: Game, action: Cast, player: int) -> tuple[Game, list[Fired], Derivation, Entry]:
    """601.2a–f: the state with the card on the stack, the trace, the locked total cost and
    the stack entry that will record the announced choices."""
    from .casting import Entry

    obj = game.obj(action.card, "601.2a")
    c = obj.card
    trace: list[Fired] = []
    pending = game.pending
    offered = pending is not None and pending.kind == "cast-free" and pending.object == obj.id
    if pending is not None and not offered:
        raise IllegalAction("601.2", f"first answer the offer of {pending.source} about {pending.object!r} (cast it or Decline)")
    if c.is_land:
        raise IllegalAction("601.1a", f"{c.name} is a land: a land is played, never cast")
    if obj.zone in ("battlefield", "stack"):
        raise IllegalAction("601.2a", f"{obj.id!r} is on the {obj.zone}; only a card from another zone can be cast")

    alternatives = (action.alternative,) if isinstance(action.alternative, str) else tuple(action.alternative)
    alternatives = tuple(a for a in alternatives if a)
    if len(alternatives) > 1:
        raise IllegalAction("601.2b", f"only one alternative cost can be used for a spell, got {alternatives!r} (118.9a)")
    alt = alternatives[0] if alternatives else ""
    own = {a.id: a for a in c.alternative}

    # 601.3: something must allow casting the card from where it is, and nothing forbid it.
    if offered:
        if alt:
            raise IllegalAction(
                "601.2b",
                f"{pending.source} lets you cast {c.name} without paying its mana cost, which is already an alternative cost; "
                f"{alt!r} would be a second one (118.9a)",
            )
        alt = "free"
    elif obj.zone == "hand":
        if obj.owner != player:
            raise IllegalAction("601.3", f"{obj.id!r} is in another player's hand")
    elif obj.zone == "graveyard":
        if not obj.flashback:
            raise IllegalAction("601.3", f"nothing lets you cast {c.name} from a graveyard")
        if obj.owner != player:
            raise IllegalAction("601.3", f"flashback casts {c.name} from its owner's graveyard, and only its owner may (702.34a)")
        if alt != "flashback":
            chosen = f"the alternative cost {alt!r}" if alt else "its mana cost"
            raise IllegalAction(
                "601.2b",
                f"{c.name} is in the graveyard: only flashback lets you cast it from there, and flashback is itself an "
                f"alternative cost, so it can't be cast with {chosen} instead (118.9a: one alternative cost only)",
            )
    elif obj.zone == "exile":
        permission, why = exile_permission(game, obj, player)
        if permission not in ("cast", "play"):
            raise IllegalAction("601.3", f"nothing lets you cast {c.name} from exile{why}")
    else:
        raise IllegalAction("601.3", f"nothing lets you cast {c.name} from the {obj.zone}")
    if alt == "free" and not offered:
        raise IllegalAction("601.2b", f"alternative cost 'free': nothing lets you cast {c.name} without paying its mana cost")
    if alt and alt not in ("free", "flashback") and alt not in own:
        raise IllegalAction("601.2b", f"{c.name} has no alternative cost {alt!r}; it has {sorted(own) or 'none'}")
    if alt == "flashback" and obj.zone != "graveyard":
        raise IllegalAction("601.2b", "flashback casts a card from its owner's graveyard only")
    if not offered:
        quick = c.is_type("instant") or "flash" in c.keywords
        if not quick and (game.stack or player != game.active):
            raise IllegalAction("601.3", f"{c.name} can be cast only in your main phase while the stack is empty")
    for permanent in game.battlefield():
        if permanent.card.prohibits and permanent.chosen == c.name:
            if permanent.card.prohibits == "named-card" and obj.copy:
                trace.append(Fired("601.3", f"{permanent.id} stops the named card, and this is a copy of {c.name}, not a card"))
            else:
                raise IllegalAction("601.3", f"{permanent.card.name} ({permanent.id}) named {c.name!r}: it can't be cast")

    # 601.2a: the card moves to the stack before anything else is chosen or paid.
    origin = obj.zone
    game = game.move(obj.id, "stack", controlled_by=player)
    trace.append(Fired("601.2a", f"{obj.id} moves from the {origin} to the stack"))

    # 601.2b: modes, additional and alternative costs, X, hybrid and Phyrexian payment.
    choices: list[str] = []
    parts: list[str] = []
    if action.kicked:
        if not c.kicker:
            raise IllegalAction("601.2b", f"{c.name} has no kicker")
        choices.append("kicked")
        parts.extend(c.kicker)
    printed = c.cost or ZERO
    if alt == "free":
        start, label = ZERO, f"{pending.source}: without paying its mana cost"
    elif alt == "flashback":
        start, label = printed, "flashback cost (its mana cost)"
        choices.append("alternative cost: flashback")
    elif alt:
        start, label = own[alt].mana, f"alternative cost {alt}"
        parts.extend(own[alt].parts)
        choices.append(f"alternative cost: {alt}")
    else:
        start, label = printed, "mana cost"
    has_x = printed.x_count > 0
    x = action.x
    if has_x and alt == "free" and x:
        raise IllegalAction("601.2b", f"without paying its mana cost, X must be 0, not {x!r} (107.3b)")
    if has_x and alt == "free":
        x = 0
    if x is not None and not has_x:
        raise IllegalAction("601.2b", f"{c.name} has no X in its cost")
    if x is not None and x < 0:
        raise IllegalAction("601.2b", f"X can't be negative: {x!r}")
    if has_x and x is not None and alt != "free":
        choices.append(f"X={x}")
    if start.open_symbols:
        choices.append("; ".join(f"{{{s}}} paid as {p}" for s, p in zip(start.open_symbols, action.pay_as)))
    if choices:
        trace.append(Fired("601.2b", ", ".join(choices)))

    # 601.2c: targets; 601.2d: division.
    words = [w for w in c.targets if not w.kicked or action.kicked]
    if not words and action.targets:
        raise IllegalAction("601.2c", f"{c.name} has no word \"target\"; got {action.targets!r}")
    if words:
        trace.extend(choose_targets(game, obj, c, words, action.targets, player))
    targets = tuple(action.targets)
    if c.divide == "at-casting":
        amount = int(c.amount)
        division = tuple(action.division) or ((amount,) if len(targets) == 1 else ())
        if len(division) != len(targets) or any(d < 1 for d in division) or sum(division) != amount:
            raise IllegalAction(
                "601.2d",
                f"divide {amount} among the {len(targets)} target(s), at least 1 each: {division!r} does not",
            )
        trace.append(Fired("601.2d", f"{amount} divided: " + ", ".join(f"{t} {d}" for t, d in zip(targets, division))))
    elif action.division:
        when = "on resolution, evenly" if c.divide == "evenly" else "never"
        raise IllegalAction("601.2d", f"{c.name} is divided {when}: nothing to divide now, got {action.division!r}")
    else:
        division = ()
        if c.divide == "evenly":
            trace.append(Fired("601.2d", "divided evenly on resolution: nothing is divided now"))

    # 601.2f: the total cost, then locked.
    modifiers = [
        (p.card.name, m) for p in game.battlefield() for m in p.card.cost_modifiers if m.spells != "self" and applies(m, c, p, player)
    ] + [(c.name, m) for m in c.cost_modifiers if m.spells == "self"]

    def derive(x_value: int) -> Derivation:
        plain, life = start.with_x(x_value).paid_as(*action.pay_as)
        extra = parts + ([f"pay-life-{life}"] if life else [])
        shown = f"{label}, X={x_value}" if has_x and alt != "free" else label
        return modify(plain, shown, modifiers, targets=len(targets), parts=extra)

    if has_x and x is None:
        # Tournament shortcut: an unannounced X is all the mana left after the rest of the cost.
        # The largest X whose total fits the pool: a floor such as Trinisphere's makes the
        # total grow more slowly than X, so "pool minus the cost at X=0" can fall short.
        pool = game.pools[player]
        if derive(0).total.mana_value() > pool.total:
            raise IllegalAction("scorciatoia-x", f"X was not announced and the pool {pool} can't pay even X=0")
        x = 0
        while derive(x + 1).total.mana_value() <= pool.total:
            x += 1
        trace.append(Fired("scorciatoia-x", f"X not announced: X = {x}, all the mana left in the pool {pool}"))
    derivation = derive(x or 0)
    trace.extend(derivation.trace())
    entry = Entry(
        obj.id, player, "spell", obj.id, targets=targets, division=division, x=x or 0,
        kicked=action.kicked, alternative=alt, total=derivation.total,
    )
    return game, trace, derivation, entry


# --- mana abilities and payment ---------------------------------------------------------


def check_tap_cost(source: Obj, rule: str) -> None:
    """302.6: a creature's {T} cost can't be paid unless it has been under its controller's
    control since the turn began, or it has haste. Convoke is not a {T} cost."""
    if source.entered and source.card.is_type("creature") and "haste" not in source.card.keywords:
        raise IllegalAction(rule, f"{source.id!r} came under your control this turn: it can't pay a {{T}} cost yet (302.6)")


def activate_mana(game: Game, mana: Mana, player: int, rule: str) -> tuple[Game, list[Fired]]:
    """Activate one mana ability: 601.2g while casting, 605.3a when holding priority."""
    source = game.obj(mana.source, rule)
    if source.zone != "battlefield" or source.controller != player:
        raise IllegalAction(rule, f"{source.id!r} is not a permanent you control (it is in the {source.zone})")
    ability = next((a for a in source.card.abilities if a.adds), None)
    if ability is None:
        raise IllegalAction(rule, f"{source.card.name} has no ability that adds mana")
    if not ability.is_mana_ability:
        raise IllegalAction(
            "605.1a",
            f"{source.card.name}'s ability adds mana but has a target, so it is not a mana ability: "
            "it can't be activated while a spell is being paid for",
        )
    paid = []
    if ability.tap:
        check_tap_cost(source, rule)
        if source.tapped:
            raise IllegalAction(rule, f"{source.id!r} is already tapped")
        game = game.set(source.id, tapped=True)
        paid.append("tapped")
    if ability.sacrifice == "self":
        game = game.move(source.id, "graveyard", controlled_by=-1)
        paid.append("sacrificed")
    elif ability.sacrifice == "creature":
        if not mana.sacrifice or not game.has(mana.sacrifice):
            raise IllegalAction(rule, f"{source.card.name} needs a creature to sacrifice: Mana({source.id!r}, sacrifice=...)")
        victim = game.obj(mana.sacrifice)
        if victim.zone != "battlefield" or victim.controller != player or not victim.card.is_type("creature"):
            raise IllegalAction(rule, f"{victim.id!r} is not a creature you control")
        game = game.move(victim.id, "graveyard", controlled_by=-1)
        paid.append(f"{victim.id} sacrificed")
    if ability.adds == "any":
        if mana.colour not in tuple(COLOURS):
            raise IllegalAction(rule, f"{source.card.name} adds one mana of any colour: say which, e.g. Mana({source.id!r}, 'G')")
        produced = mana.colour
    else:
        produced = ability.adds
    pool = game.pools[player]
    for letter in produced:
        pool = pool.add(letter)
    game = game.with_pool(player, pool)
    shown = "".join("{" + m + "}" for m in produced)
    return game, [Fired(rule, f"{source.id} ({', '.join(paid)}) adds {shown}")]


def _convoke(game: Game, spell: Card, creature_ids: Sequence[str], remaining: ManaCost, player: int) -> tuple[Game, ManaCost, list[Fired]]:
    trace = []
    for creature_id in creature_ids:
        if "convoke" not in spell.keywords:
            raise IllegalAction("601.2h", f"{spell.name} has no convoke")
        where = game.obj(creature_id).zone if game.has(creature_id) else "nowhere"
        if where != "battlefield":
            raise IllegalAction(
                "601.2h", f"{creature_id!r} is in the {where}, no longer on the battlefield, so it can't be tapped for convoke"
            )
        creature = game.obj(creature_id)
        if creature.controller != player or not creature.card.is_type("creature") or creature.tapped:
            raise IllegalAction("601.2h", f"{creature_id!r} is not an untapped creature you control")
        symbols = list(remaining.symbols)
        colour = next((s for s in symbols if s in creature.card.colours), None)
        if colour:
            symbols.remove(colour)
            remaining, paid = ManaCost.of(remaining.generic, symbols), "{" + colour + "}"
        elif remaining.generic:
            remaining, paid = ManaCost.of(remaining.generic - 1, symbols), "{1}"
        else:
            raise IllegalAction("601.2h", f"nothing left that {creature_id!r} could pay by convoke")
        game = game.set(creature_id, tapped=True)
        trace.append(Fired("601.2h", f"convoke: {creature_id} tapped, pays {paid}"))
    return game, remaining, trace


def _other_parts(game: Game, action: Cast, parts: Sequence[str], player: int) -> tuple[Game, list[Fired]]:
    trace = []
    exile, sacrifice = list(action.exile), list(action.sacrifice)
    for part in parts:
        if part.startswith("pay-life-"):
            amount = int(part.rsplit("-", 1)[1])
            if game.life[player] < amount:
                raise IllegalAction("601.2h", f"can't pay {amount} life with {game.life[player]}")
            game = game.with_life(player, game.life[player] - amount)
            trace.append(Fired("601.2h", f"pays {amount} life"))
        elif part == "exile-blue-card-from-hand":
            if not exile:
                raise IllegalAction("601.2h", "say which blue card of your hand to exile: exile=(...)")
            chosen = exile.pop(0)
            where = game.obj(chosen).zone if game.has(chosen) else "nowhere"
            if where != "hand" or game.obj(chosen).owner != player:
                why = " (it moved there in 601.2a)" if where == "stack" else ""
                raise IllegalAction("601.2h", f"{chosen!r} is on the {where}{why}, not in your hand: it can't be exiled to pay")
            if "U" not in game.obj(chosen).card.colours:
                raise IllegalAction("601.2h", f"{chosen!r} is not blue")
            game = game.move(chosen, "exile")
            trace.append(Fired("601.2h", f"exiles {chosen} from the hand"))
        elif part == "sacrifice-land":
            if not sacrifice:
                raise IllegalAction("601.2h", "say which land to sacrifice: sacrifice=(...)")
            chosen = sacrifice.pop(0)
            land = game.obj(chosen, "601.2h")
            if land.zone != "battlefield" or land.controller != player or not land.card.is_land:
                raise IllegalAction("601.2h", f"{chosen!r} is not a land you control")
            game = game.move(chosen, "graveyard", controlled_by=-1)
            trace.append(Fired("601.2h", f"sacrifices {chosen}"))
        else:
            # cards.yaml is checked on load (casting_cards.is_cost_part): a part that gets
            # here is known there and not paid here, a bug of the engine, not of the data.
            raise RulebookError(f"cost part {part!r} is known to casting_cards but not paid in 601.2h")
    if exile or sacrifice:
        raise IllegalAction("601.2h", f"nothing in the cost asks to exile or sacrifice {tuple(exile + sacrifice)!r}")
    return game, trace


def cast(game: Game, action: Cast, player: int) -> tuple[Game, list[Fired]]:
    """The whole of 601.2; raises IllegalAction (and changes nothing) when a step is illegal."""
    from .casting import Entry

    pending = game.pending
    game, trace, derivation, entry = propose(game, action, player)
    spell = game.obj(action.card).card
    for mana in action.mana:  # 601.2g
        game, fired = activate_mana(game, mana, player, "601.2g")
        trace.extend(fired)
    game, remaining, fired = _convoke(game, spell, action.convoke, derivation.total, player)  # 601.2h
    trace.extend(fired)
    try:
        pool = game.pools[player].pay(remaining)
    except IllegalAction as exc:
        raise IllegalAction("601.2h", f"the total cost {derivation.total} is locked; {exc.message}") from None
    game = game.with_pool(player, pool)
    trace.append(Fired("601.2h", f"pays {remaining} from the mana pool" + (f", {pool} left" if pool.total else "")))
    game, fired = _other_parts(game, action, derivation.parts, player)
    trace.extend(fired)

    # 601.2i: the spell is cast; "when you cast" abilities trigger; the caster gets priority.
    game = replace(game, stack=game.stack + (entry,), priority=player, passes=0)
    trace.append(Fired("601.2i", f"{entry.id} has been cast (total cost {derivation.total})"))
    if pending is not None:
        for revealed in pending.revealed:
            game = game.move(revealed, "library")
        game = replace(game, pending=None)
    if "cascade" in spell.keywords:
        trigger = Entry(f"{entry.id}-cascade", player, "trigger", entry.id, effect="cascade")
        game = replace(game, stack=game.stack + (trigger,))
        trace.append(Fired("601.2i", f"cascade triggers and goes on the stack above {entry.id}"))
    trace.append(Fired("601.2i", f"P{player} receives priority"))
    return game, trace

