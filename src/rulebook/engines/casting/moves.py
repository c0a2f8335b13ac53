"""Everything but the cast itself: other abilities, lands, offers, priority and resolution,
and the list of legal actions (computed by trying candidates on the immutable state)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ...errors import IllegalAction
from ...messages import Code, msg, notation
from ...symbols import COLOURS
from ..base import Fired, evolve
from .actions import Activate, Cast, Choose, Concede, Decline, Mana, Pass, PlayLand, Resolve
from .cards import TargetWord
from .pay import activate_mana, check_tap_cost
from .propose import exile_permission
from .resolve import resolve_entry
from .state import Entry, Obj, Offer, Table, zone_name
from .targets import choose_targets, target_problem, target_sets

if TYPE_CHECKING:  # the game imports this module for its handlers
    from .game import Game

# --- abilities and lands ----------------------------------------------------------------


def activate(game: Table, action: Activate, player: int) -> tuple[Table, list[Fired]]:
    source = game.obj(action.source, "605.1a")
    if source.zone != "battlefield" or source.controller != player:
        raise IllegalAction("605.1a", msg("{source} is not a permanent you control", source=game.quoted(source.id)))
    ability = next((a for a in source.card.abilities if not a.is_mana_ability), None)
    if ability is None:
        raise IllegalAction("605.3a", msg("{card}'s ability is a mana ability: activate it with {action}", card=source.card, action=Code(f"Mana({source.id!r})")))
    trace = [Fired("605.1a", msg("{card}'s ability has a target: it is not a mana ability and uses the stack", card=source.card) if ability.targets
                   else msg("{card}'s ability uses the stack", card=source.card))]
    if ability.targets:
        trace.extend(choose_targets(game, source, source.card, ability.targets, action.targets, player))
    elif action.targets:
        raise IllegalAction("601.2c", msg('{card}\'s ability has no word "target"; got {targets}', card=source.card, targets=tuple(map(game.quoted, action.targets))))
    if ability.adds == "any" and action.colour not in tuple(COLOURS):
        raise IllegalAction("605.1a", msg("say which colour of mana {card} adds", card=source.card))
    if ability.tap:
        check_tap_cost(source, "605.1a")
        if source.tapped:
            raise IllegalAction("605.1a", msg("{source} is already tapped", source=game.quoted(source.id)))
        game = game.set(source.id, tapped=True)
    for mana in action.mana:
        game, fired = activate_mana(game, mana, player, "601.2g")
        trace.extend(fired)
    if ability.cost:
        game = game.with_pool(player, game.pools[player].pay(ability.cost))
        trace.append(Fired("601.2h", msg("pays {cost}", cost=notation(ability.cost))))
    entry = Entry(f"{source.id}-ability", player, "ability", source.id, effect=ability.effect or "add-mana",
                  targets=tuple(action.targets), colour=action.colour)
    return evolve(game, stack=game.stack + (entry,), priority=player, passes=0), trace


def play_land(game: Table, action: PlayLand, player: int) -> tuple[Table, list[Fired]]:
    land = game.obj(action.card, "601.1a")
    if not land.card.is_land:
        raise IllegalAction("601.1a", msg("{card} is not a land: a spell is cast, not played as a land", card=land.card))
    if land.zone == "hand" and land.owner == player:
        played = msg("{land} is played from the hand", land=game.named(land.id))
    elif land.zone == "exile":
        permission, why = exile_permission(game, land, player)
        if permission == "cast":
            source = game.obj(land.exiled_by).card
            raise IllegalAction(
                "601.1a", msg("{source} lets you cast the exiled card, and a land can't be cast: {card} stays in exile", source=source, card=land.card)
            )
        if permission != "play":
            raise IllegalAction("601.1a", msg("nothing lets you play {card} from exile ({why})", card=land.card, why=why) if why
                                else msg("nothing lets you play {card} from exile", card=land.card))
        played = msg("{land} is played from exile ({card} lets you play it)", land=game.named(land.id), card=game.obj(land.exiled_by).card)
    else:
        raise IllegalAction("601.1a", msg("nothing lets you play {card} from the {zone}", card=land.card, zone=zone_name(land.zone)))
    if game.stack or player != game.active or game.lands_played >= 1:
        raise IllegalAction("601.1a", msg("a land is played in your main phase, with an empty stack, once a turn (305.2)"))
    game = game.move(land.id, "battlefield", controlled_by=player)
    return evolve(game, lands_played=game.lands_played + 1, passes=0), [Fired("601.1a", played)]


# --- offers -----------------------------------------------------------------------------


def decline(game: Table) -> tuple[Table, list[Fired]]:
    pending = game.pending
    if pending is None or pending.kind is not Offer.CAST_FREE:
        raise IllegalAction("601.2", msg("there is no offer to decline"))
    declined = game.named(pending.object)  # named before a copy ceases to exist
    game = game.remove(pending.object) if game.obj(pending.object).copy else game.move(pending.object, "library")
    for revealed in pending.revealed:
        game = game.move(revealed, "library")
    return evolve(game, pending=None), [Fired("601.2", msg("{object} is not cast", object=declined))]


def choose(game: Table, action: Choose) -> tuple[Table, list[Fired]]:
    pending = game.pending
    if pending is None or pending.kind is not Offer.TARGET:
        raise IllegalAction("601.2c", msg("no triggered ability is waiting for a target"))
    source = game.obj(pending.object)
    word = TargetWord(1, 1, "instant or sorcery card in your graveyard")  # Snapcaster Mage's
    problem = target_problem(game, action.target, word, pending.player, source.card, "")
    if problem:
        raise IllegalAction("601.2c", msg("{target} can't be the target of {card}'s ability: {problem}", target=game.quoted(action.target), card=source.card, problem=problem))
    entry = Entry(f"{source.id}-trigger", pending.player, "trigger", source.id, effect="grant-flashback", targets=(action.target,))
    game = evolve(game, stack=game.stack + (entry,), pending=None, priority=pending.player, passes=0)
    return game, [Fired("601.2c", msg("{card}'s ability targets {target} and goes on the stack", card=source.card, target=game.named(action.target)))]


# --- resolution -------------------------------------------------------------------------


def resolve_top(game: Table) -> tuple[Table, list[Fired]]:
    if not game.stack:
        raise IllegalAction("608.2", msg("the stack is empty: nothing resolves"))
    entry = game.stack[-1]
    game = evolve(game, stack=game.stack[:-1], priority=game.active, passes=0)
    return resolve_entry(game, entry)


# --- legal actions ----------------------------------------------------------------------


def legal_actions(game: Game) -> list[object]:
    """Every action the player to act may take now, found by trying each candidate.

    Mana abilities are separate actions (605.3a), so casts are listed as paid from the pool.
    """
    if game.is_over:
        return []
    candidates: list[object] = []
    pending = game.pending
    if pending is not None:
        if pending.kind is Offer.CAST_FREE:
            candidates.extend(cast_proposals(game, game.obj(pending.object)))
            candidates.append(Decline())
        else:
            candidates.extend(Choose(o.id) for o in game.objects if o.zone == "graveyard")
    else:
        candidates.append(Pass())
        if game.stack:
            candidates.append(Resolve())
        candidates.extend(_abilities(game))
        candidates.extend(_lands(game))
        for obj in game.objects:
            if obj.zone in ("hand", "graveyard", "exile") and not obj.card.is_land:
                candidates.extend(cast_proposals(game, obj))
    # Each candidate is tried (never recorded as a step of an example): the legal ones are kept.
    # The player to act may always concede (104.3a); the other player may too, by applying
    # Concede(their number), but the list holds the actions of the player to act.
    return [action for action in candidates if game.attempt(action) is not None] + [Concede(game.current_player)]


def _abilities(game: Game) -> list[object]:
    found: list[object] = []
    player = game.current_player
    for source in game.battlefield():
        if source.controller != player:
            continue
        for ability in source.card.abilities:
            colours = tuple(COLOURS) if ability.adds == "any" else ("",)
            if ability.is_mana_ability:
                victims = [o.id for o in game.battlefield() if o.card.is_type("creature") and o.controller == player]
                for colour in colours:
                    if ability.sacrifice == "creature":
                        found.extend(Mana(source.id, colour, v) for v in victims)
                    else:
                        found.append(Mana(source.id, colour))
            else:
                targets = [o.id for o in game.objects] if ability.targets else [None]
                for target, colour in itertools.product(targets, colours):
                    found.append(Activate(source.id, targets=(target,) if target else (), colour=colour))
    return found


def _lands(game: Game) -> list[object]:
    return [PlayLand(o.id) for o in game.objects if o.card.is_land and o.zone in ("hand", "exile")]


def cast_proposals(game: Game, obj: Obj) -> list[object]:
    """Well-formed casts of one card (targets, division, cost choices), paid from the pool;
    they are proposals, not yet known to be legal."""
    c = obj.card
    player = game.current_player
    alternatives = [""] + [a.id for a in c.alternative] + (["flashback"] if obj.flashback else [])
    hand_blue = [o.id for o in game.zone(player, "hand") if "U" in o.card.colours and o.id != obj.id] or [""]
    lands = [o.id for o in game.battlefield() if o.card.is_land and o.controller == player] or [""]
    # Cast without paying its mana cost, there is no hybrid or Phyrexian symbol to announce;
    # otherwise each one is paid in every way 601.2b allows, from the cost the alternative starts at.
    free = game.pending is not None and game.pending.kind is Offer.CAST_FREE and game.pending.object == obj.id
    own = {a.id: a.mana for a in c.alternative}

    def payments(alt: str) -> list[tuple[str, ...]]:
        start = own.get(alt, c.cost)
        return [()] if free or not start else list(itertools.product(*start.payment_choices))

    found: list[object] = []
    for kicked in ([False, True] if c.kicker else [False]):
        words = [w for w in c.targets if not w.kicked or kicked]
        for targets, alt in itertools.product(target_sets(game, obj, words, player), alternatives):
            divisions: list[tuple[int, ...]] = [()]
            if c.divide == "at-casting":
                divisions = [d for d in itertools.product(range(1, int(c.amount) + 1), repeat=len(targets)) if sum(d) == int(c.amount)]
            chosen = next((a for a in c.alternative if a.id == alt), None)
            exiles = hand_blue if chosen and "exile-blue-card-from-hand" in chosen.parts else [""]
            sacrifices = lands if kicked else [""]
            for division, exile, sacrifice, pay_as in itertools.product(divisions, exiles, sacrifices, payments(alt)):
                found.append(
                    Cast(obj.id, targets=targets, alternative=alt, kicked=kicked, division=division,
                         exile=(exile,) if exile else (), sacrifice=(sacrifice,) if sacrifice else (),
                         pay_as=pay_as)
                )
    return found
