"""601.2g–i: mana abilities, paying the locked total cost, and the spell becoming cast.

:func:`cast` takes what :func:`~.propose.propose` returns and goes on: mana abilities are
activated (601.2g), the cost is paid in every part (601.2h), the spell is cast and its
"when you cast" abilities trigger (601.2i). Any illegal step raises and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import IllegalAction, RulebookError
from ...messages import Code, Name, Notation, code, msg, msg_n, msg_p, notation
from ...symbols import COLOURS
from ..base import Fired, evolve
from .actions import Cast, Mana, Tap
from .cards import Card, filter_words
from .mana import ManaCost
from .propose import propose
from .state import Entry, Obj, Table, zone_name


def check_tap_cost(source: Obj, rule: str) -> None:
    """302.6: a creature's {T} cost can't be paid unless it has been under its controller's
    control since the turn began, or it has haste. Convoke is not a {T} cost."""
    if source.entered and source.card.is_type("creature") and "haste" not in source.card.keywords:
        raise IllegalAction(rule, msg("{source} came under your control this turn: it can't pay a {tap} cost yet (302.6)", source=Name.of(source.card.names, repr(source.id), source.card.unprinted), tap=notation("{T}")))


def activate_mana(game: Table, mana: Mana, player: int, rule: str) -> tuple[Table, list[Fired]]:
    """Activate one mana ability: 601.2g while casting, 605.3a when holding priority."""
    source = game.obj(mana.source, rule)
    if source.card.effect == "add-mana" and source.zone != "battlefield":
        # Dark Ritual: it adds mana as a spell resolving, and no spell is cast in the middle of 601.2g.
        raise IllegalAction(rule, msg("{card} is a spell that adds mana when it resolves, not a mana ability: it can't be cast while another spell is being paid for; cast it earlier, when you have priority", card=source.card)
                            if rule == "601.2g" else
                            msg("{card} is a spell that adds mana when it resolves, not a mana ability: it can't be activated, only cast", card=source.card))
    if source.zone != "battlefield" or source.controller != player:
        raise IllegalAction(rule, msg("{source} is not a permanent you control (it is in the {zone})", source=game.quoted(source.id), zone=zone_name(source.zone)))
    ability = next((a for a in source.card.abilities if a.adds), None)
    other = next((a for a in source.card.abilities if not a.adds), None)
    if ability is None and other is not None:
        # Arbor Elf: its ability helps to make mana (it untaps a Forest) but adds none itself.
        aim = filter_words(other.targets[0].filter) if other.targets else None
        does = {"untap": msg("it untaps target {filter}", filter=aim) if aim else msg("it untaps"),
                "exile": msg("it exiles target {filter}", filter=aim) if aim else msg("it exiles"),
                "cast-copy": msg("it copies the imprinted card")}[other.effect]
        raise IllegalAction(
            "605.1a",
            msg("{card}'s ability adds no mana ({does}), so it is not a mana ability: it can't be activated while a spell is being paid for; activate it earlier, when you have priority", card=source.card, does=does),
        )
    if ability is None:
        raise IllegalAction(rule, msg("{card} has no ability that adds mana", card=source.card))
    if not ability.is_mana_ability:
        raise IllegalAction(
            "605.1a",
            msg("{card}'s ability adds mana but has a target, so it is not a mana ability: it can't be activated while a spell is being paid for", card=source.card),
        )
    paid = []
    if ability.tap:
        check_tap_cost(source, rule)
        if source.tapped:
            raise IllegalAction(rule, msg("{source} is already tapped", source=game.quoted(source.id)))
        game = game.set(source.id, tapped=True)
        paid.append(msg_p("paid by", "tapped"))
    if ability.sacrifice == "self":
        game = game.move(source.id, "graveyard", controlled_by=-1)
        paid.append(msg_p("paid by", "sacrificed"))
    elif ability.sacrifice == "creature":
        if not mana.sacrifice or not game.has(mana.sacrifice):
            raise IllegalAction(rule, msg("{card} needs a creature to sacrifice: {action}", card=source.card, action=Code(f"Mana({source.id!r}, sacrifice=...)")))
        victim = game.obj(mana.sacrifice)
        if victim.zone != "battlefield" or victim.controller != player or not victim.card.is_type("creature"):
            raise IllegalAction(rule, msg("{player} is not a creature you control", player=game.quoted(victim.id)))
        game = game.move(victim.id, "graveyard", controlled_by=-1)
        paid.append(msg("{creature} sacrificed", creature=game.named(victim.id)))
    if ability.adds == "any":
        if mana.colour not in tuple(COLOURS):
            raise IllegalAction(rule, msg("{card} adds one mana of any colour: say which, e.g. {action}", card=source.card, action=Code(f"Mana({source.id!r}, 'G')")))
        produced = mana.colour
    else:
        produced = ability.adds
    pool = game.pools[player]
    for letter in produced:
        pool = pool.add(letter)
    game = game.with_pool(player, pool)
    shown = notation("".join("{" + m + "}" for m in produced))
    return game, [Fired(rule, msg("{source} ({join}) adds {shown}", source=game.named(source.id), join=tuple(paid), shown=shown))]


def _tapped_to_pay(game: Table, spell: Card, taps: Sequence[str | Tap], remaining: ManaCost, player: int,
                   keyword: str) -> tuple[Table, ManaCost, list[Fired]]:
    """601.2h: creatures tapped for convoke (702.51a) or artifacts for improvise (702.126a), each
    paying the symbol the caster names, or by default the one ruling convocare-colore says."""
    trace = []
    for tap in taps:
        tap = tap if isinstance(tap, Tap) else Tap(tap)
        if keyword not in spell.keywords:
            raise IllegalAction("601.2h", msg("{spell} has no convoke", spell=spell) if keyword == "convoke"
                                else msg("{spell} has no improvise", spell=spell))
        if not game.has(tap.source):
            raise IllegalAction("601.2h", msg("there is no object {object_id} to tap for convoke", object_id=code(tap.source)) if keyword == "convoke"
                                else msg("there is no object {object_id} to tap for improvise", object_id=code(tap.source)))
        permanent = game.obj(tap.source)
        if permanent.zone != "battlefield":
            raise IllegalAction("601.2h", msg("{creature_id} is in the {where}, no longer on the battlefield, so it can't be tapped for convoke", creature_id=game.quoted(tap.source), where=zone_name(permanent.zone))
                                if keyword == "convoke" else
                                msg("{artifact} is in the {where}, not on the battlefield, so it can't be tapped for improvise", artifact=game.quoted(tap.source), where=zone_name(permanent.zone)))
        if keyword == "convoke":
            if permanent.controller != player or not permanent.card.is_type("creature") or permanent.tapped:
                raise IllegalAction("601.2h", msg("{creature_id} is not an untapped creature you control", creature_id=game.quoted(tap.source)))
            paid, remaining = _convoked(game, permanent, tap.pays, remaining)
        else:
            if permanent.controller != player or not permanent.card.is_type("artifact") or permanent.tapped:
                raise IllegalAction("601.2h", msg("{artifact} is not an untapped artifact you control", artifact=game.quoted(tap.source)))
            paid, remaining = _improvised(game, permanent, tap.pays, remaining)
        game = game.set(tap.source, tapped=True)
        trace.append(Fired("601.2h", msg("convoke: {creature_id} tapped, pays {paid}", creature_id=game.named(tap.source), paid=notation(paid)) if keyword == "convoke"
                           else msg("improvise: {artifact} tapped, pays {paid}", artifact=game.named(tap.source), paid=notation(paid))))
    return game, remaining, trace


def _convoked(game: Table, creature: Obj, pays: str, remaining: ManaCost) -> tuple[str, ManaCost]:
    """The symbol a creature tapped for convoke pays, and what is left: {1} or one mana of one of
    its colours, whichever the caster chooses (702.51a)."""
    symbols = list(remaining.symbols)
    if pays == "":  # the default (ruling convocare-colore): its colour while one is left, else {1}
        pays = next((s for s in symbols if s in creature.card.colours), "1")
    if pays == "1":
        if not remaining.generic:
            raise IllegalAction("601.2h", msg("nothing left that {creature_id} could pay by convoke", creature_id=game.quoted(creature.id)) if not any(s in creature.card.colours for s in symbols)
                                else msg("no generic mana is left to pay: {creature_id} can pay a symbol of its colour instead", creature_id=game.quoted(creature.id)))
        return "{1}", ManaCost.of(remaining.generic - 1, symbols)
    if pays not in COLOURS:
        raise IllegalAction("601.2h", msg("convoke pays {one} or one mana of a colour, not {pays}", one=notation("{1}"), pays=_paid_with(pays)))
    if pays not in creature.card.colours:
        raise IllegalAction("601.2h", msg("{creature_id} is not {colour}: a creature tapped for convoke pays {one} or one mana of its own colours (702.51a)",
                                          creature_id=game.quoted(creature.id), colour=notation("{" + pays + "}"), one=notation("{1}")))
    if pays not in symbols:
        raise IllegalAction("601.2h", msg("no {colour} is left to pay in {remaining}", colour=notation("{" + pays + "}"), remaining=notation(remaining)))
    symbols.remove(pays)
    return "{" + pays + "}", ManaCost.of(remaining.generic, symbols)


def _paid_with(pays: str) -> Notation | Code:
    """What a tapped permanent was told to pay, for a refusal: a mana symbol as the cards print it
    ({R}, drawn on the page), anything else as typed (code: no symbol to draw)."""
    return notation("{" + pays + "}") if pays in COLOURS or pays == "C" or pays.isdigit() else code(pays)


def _improvised(game: Table, artifact: Obj, pays: str, remaining: ManaCost) -> tuple[str, ManaCost]:
    """An artifact tapped for improvise pays {1} and nothing else (702.126a)."""
    if pays not in ("", "1"):
        raise IllegalAction("601.2h", msg("an artifact tapped for improvise pays {one}, never {pays} (702.126a)", one=notation("{1}"), pays=_paid_with(pays)))
    if not remaining.generic:
        raise IllegalAction("601.2h", msg("no generic mana is left that {artifact} could pay by improvise (702.126a)", artifact=game.quoted(artifact.id)))
    return "{1}", ManaCost.of(remaining.generic - 1, remaining.symbols)


def _other_parts(game: Table, action: Cast, parts: Sequence[str], player: int) -> tuple[Table, list[Fired]]:
    trace = []
    exile, sacrifice = list(action.exile), list(action.sacrifice)
    for part in parts:
        if part.startswith("pay-life-"):
            amount = int(part.rsplit("-", 1)[1])
            if game.life[player] < amount:
                raise IllegalAction("601.2h", msg_n("can't pay {amount} life with {life} life", "can't pay {amount} life with {life} life", amount, amount=amount, life=game.life[player]))
            game = game.with_life(player, game.life[player] - amount)
            trace.append(Fired("601.2h", msg_n("pays {amount} life", "pays {amount} life", amount, amount=amount)))
        elif part == "exile-blue-card-from-hand":
            if not exile:
                raise IllegalAction("601.2h", msg("say which blue card of your hand to exile"))
            chosen = exile.pop(0)
            if not game.has(chosen):
                raise IllegalAction("601.2h", msg("there is no object {object_id} to exile", object_id=code(chosen)))
            where = game.obj(chosen).zone
            if where == "stack":
                raise IllegalAction("601.2h", msg("{chosen} is on the stack (it moved there in 601.2a), not in your hand: it can't be exiled to pay", chosen=game.quoted(chosen)))
            if where != "hand" or game.obj(chosen).owner != player:
                raise IllegalAction("601.2h", msg("{chosen} is not in your hand: it can't be exiled to pay", chosen=game.quoted(chosen)))
            if "U" not in game.obj(chosen).card.colours:
                raise IllegalAction("601.2h", msg("{chosen} is not blue", chosen=game.quoted(chosen)))
            game = game.move(chosen, "exile")
            trace.append(Fired("601.2h", msg("exiles {chosen} from the hand", chosen=game.named(chosen))))
        elif part == "sacrifice-land":
            if not sacrifice:
                raise IllegalAction("601.2h", msg("say which land to sacrifice"))
            chosen = sacrifice.pop(0)
            land = game.obj(chosen, "601.2h")
            if land.zone != "battlefield" or land.controller != player or not land.card.is_land:
                raise IllegalAction("601.2h", msg("{chosen} is not a land you control", chosen=game.quoted(chosen)))
            game = game.move(chosen, "graveyard", controlled_by=-1)
            trace.append(Fired("601.2h", msg("sacrifices {chosen}", chosen=game.named(chosen))))
        else:
            # card files are checked on load (cards.is_cost_part): a part that gets
            # here is known there and not paid here, a bug of the engine, not of the data.
            raise RulebookError(f"cost part {part!r} is known to the card reader but not paid in 601.2h")
    if exile or sacrifice:
        raise IllegalAction("601.2h", msg("nothing in the cost asks to exile or sacrifice {tuple}", tuple=tuple(map(game.quoted, exile + sacrifice))))
    return game, trace


def cast(game: Table, action: Cast, player: int) -> tuple[Table, list[Fired]]:
    """The whole of 601.2; raises IllegalAction (and changes nothing) when a step is illegal."""
    pending = game.pending
    game, trace, derivation, entry = propose(game, action, player)
    spell = game.obj(action.card).card
    for mana in action.mana:  # 601.2g
        game, fired = activate_mana(game, mana, player, "601.2g")
        trace.extend(fired)
    game, remaining, fired = _tapped_to_pay(game, spell, action.convoke, derivation.total, player, "convoke")  # 601.2h
    trace.extend(fired)
    game, remaining, fired = _tapped_to_pay(game, spell, action.improvise, remaining, player, "improvise")
    trace.extend(fired)
    try:
        pool = game.pools[player].pay(remaining, action.generic)
    except IllegalAction as exc:
        raise IllegalAction("601.2h", msg("the total cost {total} is locked; {message}", total=notation(derivation.total), message=exc.message)) from None
    game = game.with_pool(player, pool)
    trace.append(Fired("601.2h", msg("pays {cost} from the mana pool, {pool} left", cost=notation(remaining), pool=notation(pool)) if pool.total
                       else msg("pays {cost} from the mana pool", cost=notation(remaining))))
    game, fired = _other_parts(game, action, derivation.parts, player)
    trace.extend(fired)

    # 601.2i: the spell is cast; "when you cast" abilities trigger; the caster gets priority.
    game = evolve(game, stack=game.stack + (entry,), priority=player, passes=0)
    trace.append(Fired("601.2i", msg("{entry} has been cast (total cost {total})", entry=game.named(entry.id), total=notation(derivation.total))))
    if pending is not None:
        for revealed in pending.revealed:
            game = game.move(revealed, "library")
        game = evolve(game, pending=None)
    if "cascade" in spell.keywords:
        trigger = Entry(f"{entry.id}-cascade", player, "trigger", entry.id, effect="cascade")
        game = evolve(game, stack=game.stack + (trigger,))
        trace.append(Fired("601.2i", msg("cascade triggers and goes on the stack above {entry}", entry=game.named(entry.id))))
    trace.append(Fired("601.2i", msg("P{player} receives priority", player=player + 1)))
    return game, trace

