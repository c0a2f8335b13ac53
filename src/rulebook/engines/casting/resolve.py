"""Resolving what is on the stack: just enough of 608 for the worked examples to finish.

A spell whose targets have all become illegal does not resolve (608.2b). Damage "divided
evenly" is split among the targets still legal now, rounded down; damage divided as the
caster chose was fixed in 601.2d. After each resolution, lethal damage destroys a creature.
"""

from __future__ import annotations

from collections.abc import Callable

from ...messages import Message, msg, msg_n, notation
from ..base import Fired, evolve
from .cards import Card, TargetWord
from .mana import ManaCost
from .state import CASCADE, PLAYER_IDS, Entry, Obj, Offer, Pending, Table, zone_name
from .targets import split_targets, target_problem


def _legal(game: Table, entry: Entry, words: list[TargetWord]) -> list[str]:
    source = game.obj(entry.source).card
    groups = split_targets(entry.targets, words, source)
    return [t for word, group in groups for t in group if target_problem(game, t, word, entry.controller, source, entry.id) is None]


def resolve_entry(game: Table, entry: Entry) -> tuple[Table, list[Fired]]:
    if entry.kind == "spell":
        return _spell(game, entry)
    if entry.effect == "cascade":
        return _cascade(game, entry)
    if entry.effect == "grant-flashback":
        target = entry.targets[0]
        if game.has(target) and game.obj(target).zone == "graveyard":
            return game.set(target, flashback=True), [Fired("608.2", msg("{target} gains flashback until end of turn", target=game.named(target)))]
        return game, [Fired("608.2", msg("the target is gone: the ability does nothing"))]
    if entry.effect == "cast-copy":
        return _scepter(game, entry)
    return _ability(game, entry)


def _damage(game: Table, target: str, amount: int) -> Table:
    if target in PLAYER_IDS:
        player = PLAYER_IDS.index(target)
        return game.with_life(player, game.life[player] - amount)
    return game.set(target, damage=game.obj(target).damage + amount)


def _spell(game: Table, entry: Entry) -> tuple[Table, list[Fired]]:
    c = game.obj(entry.id).card
    trace: list[Fired] = []
    words = [w for w in c.targets if not w.kicked or entry.kicked]
    legal = _legal(game, entry, words) if words else []
    if entry.targets and not legal:
        trace.append(Fired("608.2", msg("every target of {entry} is illegal now: it does not resolve (608.2b)", entry=game.named(entry.id))))
    elif c.effect in EFFECTS:
        game = EFFECTS[c.effect](game, entry, c, legal, trace)
    return _leave_stack(game, entry, trace)


# --- what a spell does, one function per ``effect`` of the card data ----------------------------

def _deal_damage(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    if c.divide == "at-casting":
        shares = [(t, d) for t, d in zip(entry.targets, entry.division) if t in legal]
    elif c.divide == "evenly":
        each = entry.x // len(legal)
        shares = [(t, each) for t in legal]
        # One target left takes it all: "divided evenly among 1 target" is no sentence (reviews R27, E16).
        trace.append(Fired("608.2", msg("all {x} damage goes to the only target", x=entry.x) if len(legal) == 1 else
                           msg_n("{x} damage divided evenly among {count} target: {each} each", "{x} damage divided evenly among {count} targets: {each} each",
                                 len(legal), x=entry.x, count=len(legal), each=each)))
    else:
        shares = [(t, int(c.amount)) for t in legal]
    for target, amount in shares:
        game = _damage(game, target, amount)
        trace.append(Fired("608.2", msg_n("{entry} deals {amount} damage to {target}", "{entry} deals {amount} damage to {target}", amount,
                                              entry=game.named(entry.id), amount=amount, target=game.named(target))))
    return game


def _to_zone(zone: str) -> Callable[[Table, Entry, Card, list[str], list[Fired]], Table]:
    def move(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
        for target in legal:
            game = game.move(target, zone, controlled_by=-1)
            # Exile has no owner: "goes to its owner's exile" would make one up.
            trace.append(Fired("608.2", msg("{target} is exiled", target=game.named(target)) if zone == "exile"
                               else msg("{target} goes to its owner's {zone}", target=game.named(target), zone=zone_name(zone))))
        return game

    return move


def _tap(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    for target in legal:
        game = game.set(target, tapped=True)
        trace.append(Fired("608.2", msg("{target} is tapped", target=game.named(target))))
    return game


def _put_counters(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    for target in [t for t in entry.targets if t in legal]:  # once per word "target"
        game = game.set(target, counters=game.obj(target).counters + int(c.amount))
        trace.append(Fired("608.2", msg("{target} gets a +1/+1 counter", target=game.named(target))))
    return game


def _counter(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    for target in legal:
        countered = game.obj(target)
        flashback = any(e.id == target and e.alternative == "flashback" for e in game.stack)
        game = evolve(game, stack=tuple(e for e in game.stack if e.id != target))
        if countered.copy:
            game = game.remove(target)
        elif flashback:  # 702.34a: exiled instead of going anywhere else
            game = game.move(target, "exile", controlled_by=-1)
            trace.append(Fired("608.2", msg("{target} is countered; it was cast with flashback: it is exiled instead", target=game.named(target))))
            continue
        else:
            game = game.move(target, "graveyard", controlled_by=-1)
        trace.append(Fired("608.2", msg("{target} is countered", target=game.named(target))))
    return game


def _search_creature(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    found = next(
        (o for o in game.zone(entry.controller, "library") if o.card.is_type("creature") and o.card.mana_value() <= entry.x),
        None,
    )
    if found:
        game = game.move(found.id, "battlefield")
    trace.append(Fired("608.2", msg("search for a creature card with mana value {x} or less: {value}", x=entry.x, value=game.named(found.id)) if found
                       else msg("search for a creature card with mana value {x} or less: none", x=entry.x)))
    return game


def _add_mana(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    """A spell that adds mana (Dark Ritual): it does so as it resolves, so it is no mana ability."""
    pool = game.pools[entry.controller]
    for symbol in ManaCost(c.amount).symbols:
        pool = pool.add(symbol)
    trace.append(Fired("608.2", msg("{entry} adds {amount} to P{controller}'s mana pool", entry=game.named(entry.id), amount=notation(c.amount), controller=entry.controller + 1)))
    return game.with_pool(entry.controller, pool)


def _draw(game: Table, entry: Entry, c: Card, legal: list[str], trace: list[Fired]) -> Table:
    """Look at the target player's hand (Gitaxian Probe), then draw a card."""
    for target in legal:
        seen = game.zone(PLAYER_IDS.index(target), "hand")
        trace.append(Fired("608.2", msg("P{controller} looks at {target}'s hand: {value}", controller=entry.controller + 1, target=game.named(target),
                                        value=tuple(game.named(o.id) for o in seen)) if seen
                           else msg("P{controller} looks at {target}'s hand: it is empty", controller=entry.controller + 1, target=game.named(target))))
    library = game.zone(entry.controller, "library")
    if library:
        game = game.move(library[0].id, "hand")
    trace.append(Fired("608.2", msg("P{controller} draws {value}", controller=entry.controller + 1, value=game.named(library[0].id)) if library
                       else msg("P{controller} draws nothing: the library is empty", controller=entry.controller + 1)))
    return game


EFFECTS = {
    "damage": _deal_damage, "destroy": _to_zone("graveyard"), "exile": _to_zone("exile"), "bounce": _to_zone("hand"),
    "tap": _tap, "counters": _put_counters, "counter": _counter, "search-creature": _search_creature,
    "add-mana": _add_mana, "draw": _draw,
}


def _leave_stack(game: Table, entry: Entry, trace: list[Fired]) -> tuple[Table, list[Fired]]:
    obj = game.obj(entry.id)
    c = obj.card
    if obj.copy:
        game = game.remove(obj.id)  # a copy of a card ceases to exist once it leaves the stack
    elif c.is_type("instant") or c.is_type("sorcery"):
        zone = "exile" if entry.alternative == "flashback" else "graveyard"
        game = game.move(obj.id, zone, controlled_by=-1)
        if zone == "exile":
            trace.append(Fired("608.2", msg("{obj} was cast with flashback: it is exiled instead", obj=game.named(obj.id))))
    else:
        game = game.move(obj.id, "battlefield")
        trace.append(Fired("608.2", msg("{obj} enters the battlefield", obj=game.named(obj.id))))
        if c.grants == "flashback" and any(
            o.card.is_type("instant") or o.card.is_type("sorcery") for o in game.zone(entry.controller, "graveyard")
        ):
            game = evolve(game, pending=Pending(Offer.TARGET, entry.controller, obj.id, obj.id))
            trace.append(Fired("601.2c", msg("{obj}'s ability triggers: choose its target", obj=game.named(obj.id))))
    # 704.5g: lethal damage destroys a creature.
    for dead in [o for o in game.battlefield() if o.card.is_type("creature") and o.damage >= max(o.toughness, 1)]:
        game = game.move(dead.id, "graveyard", controlled_by=-1)
        trace.append(Fired("608.2", msg("{dead} has lethal damage and is destroyed (704.5g)", dead=game.named(dead.id))))
    return game, trace


def _cascade(game: Table, entry: Entry) -> tuple[Table, list[Fired]]:
    limit = game.obj(entry.source).card.mana_value()
    revealed = []
    hit = None
    for card in game.zone(entry.controller, "library"):
        game = game.move(card.id, "exile")
        if not card.card.is_land and card.card.mana_value() < limit:
            hit = card.id
            break
        revealed.append(card.id)
    if hit is None:
        for card_id in revealed:
            game = game.move(card_id, "library")
        return game, [Fired("702.85a", msg("cascade exiles {value}: no card to cast", value=tuple(map(game.named, revealed))) if revealed
                            else msg("cascade exiles nothing: no card to cast"))]
    game = evolve(game, pending=Pending(Offer.CAST_FREE, entry.controller, hit, CASCADE, tuple(revealed)))
    shown = tuple(map(game.named, revealed + [hit]))
    return game, [Fired("702.85a", msg("cascade exiles {shown}; {hit} may be cast without paying its mana cost", shown=shown, hit=game.named(hit)))]


def _scepter(game: Table, entry: Entry) -> tuple[Table, list[Fired]]:
    scepter = game.obj(entry.source)
    if not scepter.imprinted or not game.has(scepter.imprinted):
        return game, [Fired("608.2", msg("no card is imprinted: nothing to copy"))]
    original = game.obj(scepter.imprinted)
    copy = Obj(f"{original.id}-copy", original.name, entry.controller, "exile", copy=True, card=original.card)
    game = evolve(game, objects=game.objects + (copy,), pending=Pending(Offer.CAST_FREE, entry.controller, copy.id, scepter.card.name))
    return game, [Fired("608.2", msg("{scepter} copies {original}: {copy} may be cast without paying its mana cost", scepter=game.named(scepter.id), original=game.named(original.id), copy=game.named(copy.id)))]


def _untap(game: Table, target: str) -> tuple[Table, Message]:
    return game.set(target, tapped=False), msg("{target} is untapped", target=game.named(target))


def _exile(game: Table, target: str) -> tuple[Table, Message]:
    return game.move(target, "exile"), msg("{target} is exiled", target=game.named(target))


#: What an activated ability (not a mana ability) does to each legal target as it resolves.
ABILITY_EFFECTS = {"exile": _exile, "untap": _untap}


def _ability(game: Table, entry: Entry) -> tuple[Table, list[Fired]]:
    source = game.obj(entry.source)
    ability = next(a for a in source.card.abilities if not a.is_mana_ability)
    trace = []
    legal = [t for t in entry.targets if target_problem(game, t, ability.targets[0], entry.controller, source.card, entry.id) is None] if ability.targets else []
    if ability.targets and not legal:
        return game, [Fired("608.2", msg("the target of {card}'s ability is illegal now: it does not resolve", card=game.named(source.id)))]
    for target in legal:
        game, happened = ABILITY_EFFECTS[ability.effect](game, target)
        trace.append(Fired("608.2", happened))
    if ability.adds:
        game = game.with_pool(entry.controller, game.pools[entry.controller].add(entry.colour))
        trace.append(Fired("608.2", msg("{source} adds {mana}", source=game.named(source.id), mana=notation("{" + entry.colour + "}"))))
    return game, trace
