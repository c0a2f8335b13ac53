"""601.2a–f and 601.3: proposing a spell, one function per step of the rule (601.2e, the check
that the proposed spell can be cast, once X is known).

:func:`propose` runs them in the order of the rule and returns the state with the card on the
stack, the trace, the locked total cost and the stack entry that records what was announced;
:mod:`.pay` goes on from there. Every step raises :class:`IllegalAction` at the first illegal
choice, and states are immutable, so a refused proposal leaves the caller's state as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import IllegalAction
from ...messages import Code, Message, code, msg, msg_n, msg_p, notation
from ..base import Fired
from .actions import Cast
from .cards import Card, cost_part_words
from .costs import Derivation, modifiers, modify
from .mana import ZERO, ManaCost
from .state import Entry, Obj, Table, zone_name
from .targets import choose_targets


def propose(game: Table, action: Cast, player: int) -> tuple[Table, list[Fired], Derivation, Entry]:
    """601.2a–f: the state with the card on the stack, the trace, the locked total cost and
    the stack entry that will record the announced choices."""
    obj = game.obj(action.card, "601.2a")
    trace: list[Fired] = []
    offered = _check_card(game, obj)
    alt = _permission(game, obj, player, _one_alternative(action, obj.card), offered)
    _check_timing_and_prohibitions(game, obj, player, offered, trace)
    game = _to_the_stack(game, obj, player, trace)
    start = _announce(obj.card, action, alt, game, trace)
    targets, division = _targets_and_division(game, obj, action, player, trace)
    derivation, x = _total_cost(game, obj.card, action, start, len(targets), player, trace)
    _check_legality(game, obj, player, x)
    entry = Entry(obj.id, player, "spell", obj.id, targets=targets, division=division, x=x,
                  kicked=action.kicked, alternative=alt, total=derivation.total)
    return game, trace, derivation, entry


def _check_card(game: Table, obj: Obj) -> bool:
    """Whether an offer lets this card be cast; refuses any other card while an offer waits,
    a land, and a card already on the battlefield or the stack."""
    pending = game.pending
    offered = pending is not None and pending.offers_free_cast_of(obj.id)
    if pending is not None and not offered:
        raise IllegalAction("601.2", msg("first answer the offer of {source} about {object} (cast it or Decline)", source=game.offer_source(), object=game.quoted(pending.object)))
    if obj.card.is_land:
        raise IllegalAction("601.1a", msg("{card} is a land: a land is played, never cast", card=obj.card))
    if obj.zone in ("battlefield", "stack"):
        raise IllegalAction("601.2a", msg("{obj} is on the {zone}; only a card from another zone can be cast", obj=game.quoted(obj.id), zone=zone_name(obj.zone)))
    return offered


def _one_alternative(action: Cast, c: Card) -> str:
    """118.9a: at most one alternative cost; "" for none."""
    alternatives = (action.alternative,) if isinstance(action.alternative, str) else tuple(action.alternative)
    alternatives = tuple(a for a in alternatives if a)
    if len(alternatives) > 1:
        raise IllegalAction("601.2b", msg("only one alternative cost can be used for a spell, got {count}: {alternatives} (118.9a)",
                                          count=len(alternatives), alternatives=tuple(_alternative_said(c, a) for a in alternatives)))
    return alternatives[0] if alternatives else ""


def _alternative_said(c: Card, alt: str) -> Message | Code:
    """An alternative cost as a reader knows it, by what it asks: the id is only the handle a
    doctest types (``alternative="force-of-will"``), and an id the card lacks stays that code."""
    own = {a.id: a for a in c.alternative}
    if alt == "flashback":
        return msg_p("alternative cost", "flashback")
    if alt == "free":
        return msg("casting it without paying its mana cost")
    if alt in own:
        return msg("its alternative cost ({asks})", asks=(notation(own[alt].mana), *map(cost_part_words, own[alt].parts)))
    return code(alt)


def _permission(game: Table, obj: Obj, player: int, alt: str, offered: bool) -> str:
    """601.3: something must allow casting the card from where it is. Returns the alternative
    cost in force: "free" when an offer casts it without paying its mana cost."""
    c = obj.card
    pending = game.pending
    if offered:
        assert pending is not None
        if alt:
            raise IllegalAction(
                "601.2b",
                msg("{source} lets you cast {c} without paying its mana cost, which is already an alternative cost; {alt} would be a second one (118.9a)", source=game.offer_source(), c=c, alt=_alternative_said(c, alt)),
            )
        alt = "free"
    elif obj.zone == "hand":
        if obj.owner != player:
            raise IllegalAction("601.3", msg("{obj} is in another player's hand", obj=game.quoted(obj.id)))
    elif obj.zone == "graveyard":
        _check_flashback(obj, player, alt)
    elif obj.zone == "exile":
        permission, why = exile_permission(game, obj, player)
        if permission not in ("cast", "play"):
            raise IllegalAction("601.3", msg("nothing lets you cast {c} from exile ({why})", c=c, why=why) if why
                                else msg("nothing lets you cast {c} from exile", c=c))
    else:
        raise IllegalAction("601.3", msg("nothing lets you cast {c} from the {zone}", c=c, zone=zone_name(obj.zone)))
    own = {a.id for a in c.alternative}
    if alt == "free" and not offered:
        raise IllegalAction("601.2b", msg("alternative cost 'free': nothing lets you cast {c} without paying its mana cost", c=c))
    if alt and alt not in ("free", "flashback") and alt not in own:
        raise IllegalAction("601.2b", msg("{c} has no alternative cost {alt}; it has {value}", c=c, alt=code(alt), value=tuple(_alternative_said(c, a) for a in sorted(own)))
                                if own else msg("{c} has no alternative cost {alt}; it has none", c=c, alt=code(alt)))
    if alt == "flashback" and obj.zone != "graveyard":
        raise IllegalAction("601.2b", msg("flashback casts a card from its owner's graveyard only"))
    return alt


def _check_flashback(obj: Obj, player: int, alt: str) -> None:
    """702.34a: only flashback casts a card from a graveyard, its owner's, and it is the one
    alternative cost the cast may use."""
    c = obj.card
    if not obj.flashback:
        raise IllegalAction("601.3", msg("nothing lets you cast {c} from a graveyard", c=c))
    if obj.owner != player:
        raise IllegalAction("601.3", msg("flashback casts {c} from its owner's graveyard, and only its owner may (702.34a)", c=c))
    if alt != "flashback":
        chosen = _alternative_said(c, alt) if alt else msg("its mana cost")
        raise IllegalAction(
            "601.2b",
            msg("{c} is in the graveyard: only flashback lets you cast it from there, and flashback is itself an alternative cost, so it can't be cast with {chosen} instead (118.9a: one alternative cost only)", c=c, chosen=chosen),
        )


def exile_permission(game: Table, obj: Obj, player: int) -> tuple[str, Message | None]:
    """What the effect that exiled ``obj`` lets ``player`` do with it: cast, play or ''
    (with why not, when there is something to say). "You" on Daxos and Nightveil Specter is their controller; the Specter's
    permission is a static ability, so it lasts only while the Specter is on the battlefield,
    while Daxos's comes from a resolved trigger and outlives Daxos (until end of turn)."""
    if not obj.exiled_by or not game.has(obj.exiled_by):
        return "", None
    source = game.obj(obj.exiled_by)
    permission = source.card.permission
    if permission == "play" and source.zone != "battlefield":
        return "", msg("{card} has left the battlefield, and with it its permission", card=source.card)
    if permission and source.controller != player:
        return "", msg("{card}'s permission is for its controller, P{player}", card=source.card, player=source.controller + 1)
    return permission, None


def _check_timing_and_prohibitions(game: Table, obj: Obj, player: int, offered: bool, trace: list[Fired]) -> None:
    """601.3: sorcery timing unless instant or flash (an offer casts at any time), and no
    effect that forbids this cast (Meddling Mage stops the named card, not a copy of it)."""
    c = obj.card
    if not offered:
        quick = c.is_type("instant") or "flash" in c.keywords
        if not quick and (game.stack or player != game.active):
            raise IllegalAction("601.3", msg("{c} can be cast only in your main phase while the stack is empty", c=c))
    for permanent in game.battlefield():
        prohibits = permanent.card.prohibits
        if prohibits not in ("named-card", "named-spell") or permanent.chosen != c.name:
            continue
        if prohibits == "named-card" and obj.copy:
            trace.append(Fired("601.3", msg("{permanent} stops the named card, and this is a copy of {c}, not a card", permanent=game.named(permanent.id), c=c)))
        elif prohibits == "named-card":
            raise IllegalAction("601.3", msg("{permanent} named {c}: the named card can't be cast", permanent=game.titled(permanent.id), c=c))
        elif obj.copy:
            raise IllegalAction("601.3", msg("{permanent} named {c}: spells with that name can't be cast, and a copy cast is such a spell too",
                                             permanent=game.titled(permanent.id), c=c))
        else:
            raise IllegalAction("601.3", msg("{permanent} named {c}: spells with that name can't be cast", permanent=game.titled(permanent.id), c=c))


def _check_legality(game: Table, obj: Obj, player: int, x: int) -> None:
    """601.2e: with every announcement made, the game checks that the proposed spell can be cast.
    Void Winnower looks at the mana value the spell has on the stack, where X counts (202.3e)."""
    value = obj.card.mana_value(x)
    for permanent in game.battlefield():
        if permanent.card.prohibits == "even-mana-value-for-opponents" and permanent.controller != player and value % 2 == 0:
            said = {"permanent": game.titled(permanent.id), "player": player + 1, "card": obj.card, "value": value}
            raise IllegalAction("601.2e", msg(
                "{permanent}: P{player}'s spells with an even mana value can't be cast, and {card} with X equal to {x} has mana value {value} on the stack",
                x=x, **said) if obj.card.cost and obj.card.cost.x_count else msg(
                "{permanent}: P{player}'s spells with an even mana value can't be cast, and {card} has mana value {value} on the stack", **said))


def _to_the_stack(game: Table, obj: Obj, player: int, trace: list[Fired]) -> Table:
    """601.2a: the card moves to the stack before anything else is chosen or paid."""
    trace.append(Fired("601.2a", msg("{obj} moves from the {zone} to the stack", obj=game.named(obj.id), zone=zone_name(obj.zone))))
    return game.move(obj.id, "stack", controlled_by=player)


@dataclass(frozen=True)
class _Start:
    """What 601.2b announced: the cost the total starts from, and the choices around it."""

    cost: ManaCost
    label: Message
    parts: tuple[str, ...]  # non-mana parts of additional and alternative costs
    x: int | None  # announced X, None when the shortcut will choose it
    has_x: bool
    free: bool  # cast without paying its mana cost
    pay_as: tuple[str, ...] = ()  # how each hybrid or Phyrexian symbol is paid, announced or by default


def _announce(c: Card, action: Cast, alt: str, game: Table, trace: list[Fired]) -> _Start:
    """601.2b: modes, additional and alternative costs, X, hybrid and Phyrexian payment."""
    choices: list[str] = []
    parts: list[str] = []
    if action.kicked:
        if not c.kicker:
            raise IllegalAction("601.2b", msg("{c} has no kicker", c=c))
        choices.append(msg_p("announced", "kicked"))
        parts.extend(c.kicker)
    printed = c.cost or ZERO
    own = {a.id: a for a in c.alternative}
    if alt == "free":
        assert game.pending is not None
        start, label = ZERO, msg("{source}: without paying its mana cost", source=game.offer_source())
    elif alt == "flashback":
        start, label = printed, msg("flashback cost (its mana cost)")
        choices.append(msg("alternative cost: flashback"))
    elif alt:
        start, label = own[alt].mana, msg("alternative cost of {card}", card=c)
        parts.extend(own[alt].parts)
        # The alternative cost told by what it asks (its id is only the action's handle for it).
        choices.append(msg("alternative cost: {alt}", alt=(notation(own[alt].mana), *map(cost_part_words, own[alt].parts))))
    else:
        start, label = printed, msg("mana cost")
    has_x, x = printed.x_count > 0, _announced_x(c, action.x, printed.x_count > 0, alt == "free")
    if has_x and x is not None and alt != "free":
        choices.append(msg("X is {x}", x=x))
    # Left unannounced, each open symbol is paid as the first payment listed for it (Cast's docstring).
    pay_as = action.pay_as or tuple(allowed[0] for allowed in start.payment_choices)
    if start.open_symbols:
        choices.extend(msg("{symbol} paid as life", symbol=notation("{" + s + "}")) if p == "life"
                       else msg("{symbol} paid as {choice}", symbol=notation("{" + s + "}"), choice=notation("{" + p + "}"))
                       for s, p in zip(start.open_symbols, pay_as))
    if choices:
        # Translators: what a spell's caster announced, e.g. "alternative cost: flashback, X=2".
        trace.append(Fired("601.2b", msg("{choices}", choices=tuple(choices))))
    return _Start(start, label, tuple(parts), x, has_x, alt == "free", pay_as)


def _announced_x(c: Card, x: int | None, has_x: bool, free: bool) -> int | None:
    """107.3: X as announced; 0 when cast without paying the mana cost (107.3b)."""
    if has_x and free and x:
        raise IllegalAction("601.2b", msg("without paying its mana cost, X must be 0, not {x} (107.3b)", x=code(x)))
    if has_x and free:
        return 0
    if x is not None and not has_x:
        raise IllegalAction("601.2b", msg("{c} has no X in its cost", c=c))
    if x is not None and x < 0:
        raise IllegalAction("601.2b", msg("X can't be negative: {x}", x=code(x)))
    return x


def _targets_and_division(game: Table, obj: Obj, action: Cast, player: int, trace: list[Fired]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """601.2c: the targets of each word "target"; 601.2d: the division, when it is made now."""
    c = obj.card
    words = [w for w in c.targets if not w.kicked or action.kicked]
    if not words and action.targets:
        raise IllegalAction("601.2c", msg('{c} has no word "target"; got {targets}', c=c, targets=tuple(map(game.quoted, action.targets))))
    if words:
        trace.extend(choose_targets(game, obj, c, words, action.targets, player))
    targets = tuple(action.targets)
    if c.divide == "at-casting":
        return targets, _divide(game, c, targets, tuple(action.division), trace)
    if action.division:
        raise IllegalAction("601.2d", msg("{c} is divided on resolution, evenly: nothing to divide now, got {division}", c=c, division=tuple(action.division))
                            if c.divide == "evenly" else msg("{c} is never divided: nothing to divide now, got {division}", c=c, division=tuple(action.division)))
    if c.divide == "evenly":
        trace.append(Fired("601.2d", msg("divided evenly on resolution: nothing is divided now")))
    return targets, ()


def _divide(game: Table, c: Card, targets: Sequence[str], division: tuple[int, ...], trace: list[Fired]) -> tuple[int, ...]:
    amount = int(c.amount)
    division = division or ((amount,) if len(targets) == 1 else ())
    if len(division) != len(targets) or any(d < 1 for d in division) or sum(division) != amount:
        raise IllegalAction("601.2d", msg_n("divide {amount} among the {count} target, at least 1 each: {division} does not",
                                                "divide {amount} among the {count} targets, at least 1 each: {division} does not",
                                                len(targets), amount=amount, count=len(targets), division=tuple(division)))
    shares = tuple(msg("{target} {amount}", target=game.named(t), amount=d) for t, d in zip(targets, division))
    trace.append(Fired("601.2d", msg("{amount} divided: {division}", amount=amount, division=shares)))
    return division


def _total_cost(game: Table, c: Card, action: Cast, start: _Start, targets: int, player: int,
                trace: list[Fired]) -> tuple[Derivation, int]:
    """601.2f: the total cost, then locked; an unannounced X takes the tournament shortcut."""
    applying = modifiers(game, c, player)

    def derive(x_value: int) -> Derivation:
        plain, life = start.cost.with_x(x_value).paid_as(*start.pay_as)
        extra = list(start.parts) + ([f"pay-life-{life}"] if life else [])
        shown = msg("{cost}, X is {x}", cost=start.label, x=x_value) if start.has_x and not start.free else start.label
        return modify(plain, shown, applying, targets=targets, parts=extra)

    x = start.x
    if start.has_x and x is None:
        # Tournament shortcut: an unannounced X is all the mana left after the rest of the cost.
        # The largest X whose total fits the pool: a floor such as Trinisphere's makes the
        # total grow more slowly than X, so "pool minus the cost at X=0" can fall short.
        pool = game.pools[player]
        if derive(0).total.mana_value() > pool.total:
            raise IllegalAction("scorciatoia-x", msg("X was not announced and the pool {pool} can't pay even X=0", pool=pool.said()))
        x = 0
        while derive(x + 1).total.mana_value() <= pool.total:
            x += 1
        trace.append(Fired("scorciatoia-x", msg("X not announced: X is {x}, all the mana left in the pool {pool}", x=x, pool=pool.said())))
    derivation = derive(x or 0)
    trace.extend(derivation.trace())
    return derivation, x or 0
