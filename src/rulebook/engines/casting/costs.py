"""The total cost of a spell (601.2f) as a pipeline of data-driven modifiers.

The stages run in the order of the rule, whatever order the modifiers are listed in:

1. the printed mana cost (X already chosen) or the one alternative cost chosen in 601.2b;
2. additional costs and cost increases (kicker, Thalia, Fireball's tax per extra target);
3. cost reductions: generic only lowers generic mana and never goes below zero, so a
   coloured requirement is never removed by a generic reduction;
4. effects that look at the total so far, such as Trinisphere's "at least three".

Each stage that changes something adds a :class:`CostStep` (rule id, effect, running total)
so a derivation can be printed and turned into the trace of the cast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...messages import Message, msg, msg_n, notation
from ..base import Fired
from .cards import STAGES, Card, CostModifier, cost_part_words
from .mana import ManaCost
from .state import Obj, Table


@dataclass(frozen=True)
class CostStep:
    rule: str
    what: Message | str  # a Message from the engine; a doctest may give a plain label
    total: ManaCost

    def __str__(self) -> str:
        return f"{self.rule}  {self.what:<44} -> {self.total}"


@dataclass(frozen=True)
class Derivation:
    """How a total cost was reached; ``total`` is the last running total."""

    steps: tuple[CostStep, ...]
    parts: tuple[str, ...] = ()  # non-mana parts of the cost: pay-life-1, sacrifice-land …

    @property
    def total(self) -> ManaCost:
        return self.steps[-1].total

    def _also_asks(self) -> tuple[Fired, ...]:
        """The line naming the non-mana parts of the cost, when there are any."""
        return (Fired("601.2f", msg("the total cost also asks: {join}", join=tuple(map(cost_part_words, self.parts)))),) if self.parts else ()

    def __str__(self) -> str:
        lines = [str(step) for step in self.steps] + [f"{f.rule}  {f.what}" for f in self._also_asks()]
        return "\n".join(lines)

    def trace(self) -> tuple[Fired, ...]:
        return tuple(Fired(step.rule, msg("{what} → {total}", what=step.what, total=notation(step.total))) for step in self.steps) + self._also_asks()


def modify(
    start: ManaCost,
    label: Message | str,
    modifiers: Iterable[tuple[Card | str, CostModifier]],
    *,
    targets: int = 1,
    parts: Sequence[str] = (),
) -> Derivation:
    """Run the 601.2f pipeline.

    ``modifiers`` are (source card, modifier) pairs already known to apply to this spell;
    ``parts`` are the non-mana parts of the cost, carried along to be paid in 601.2h.

    >>> thalia = CostModifier("increase", "{1}", "noncreature")
    >>> trinisphere = CostModifier("minimum", "3")
    >>> print(modify(ManaCost("{W}"), "printed cost", [("Trinisphere", trinisphere), ("Thalia", thalia)]))
    601.2f  printed cost                                 -> {W}
    601.2f  Thalia: increase {1}                         -> {1}{W}
    601.2f  Trinisphere: at least 3                      -> {2}{W}
    """
    steps = [CostStep("601.2f", label, start)]
    total = start
    by_stage: dict[str, list[tuple[Card | str, CostModifier]]] = {stage: [] for stage in STAGES}
    for source, modifier in modifiers:
        if modifier.stage not in by_stage:
            raise ValueError(f"unknown cost stage {modifier.stage!r} of {source}; known: {', '.join(STAGES)}")
        by_stage[modifier.stage].append((source, modifier))

    for source, modifier in by_stage["increase"]:
        total = total + ManaCost(modifier.amount)
        steps.append(CostStep("601.2f", msg("{source}: increase {amount}", source=source, amount=notation(modifier.amount)), total))
    for source, modifier in by_stage["target-tax"]:
        extra = max(targets - 1, 0)
        if extra:
            tax = ManaCost.of(ManaCost(modifier.amount).generic * extra, ManaCost(modifier.amount).coloured * extra)
            total = total + tax
            steps.append(CostStep("601.2f", msg_n("{source}: {extra} extra target, increase {tax}", "{source}: {extra} extra targets, increase {tax}",
                                                  extra, source=source, extra=extra, tax=notation(tax)), total))
    for source, modifier in by_stage["reduce"]:
        before = total
        total = total.reduced_by(ManaCost(modifier.amount))
        shown = (msg("{source}: reduce {amount}", source=source, amount=notation(modifier.amount)) if before != total
                 else msg("{source}: reduce {amount} (nothing to reduce)", source=source, amount=notation(modifier.amount)))
        steps.append(CostStep("601.2f", shown, total))
    for source, modifier in by_stage["minimum"]:
        floor = int(modifier.amount)
        missing = floor - total.mana_value()
        if missing > 0:
            total = ManaCost.of(total.generic + missing, total.symbols)
            steps.append(CostStep("601.2f", msg("{source}: at least {floor}", source=source, floor=floor), total))
        else:
            steps.append(CostStep("601.2f", msg("{source}: at least {floor} (already)", source=source, floor=floor), total))
    return Derivation(tuple(steps), tuple(parts))


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


def modifiers(game: Table, spell: Card, caster: int) -> list[tuple[Card, CostModifier]]:
    """(source card, modifier) of every cost modifier that changes this spell now: those of
    permanents on the battlefield that apply to it, then the spell's own ("self")."""
    return [
        (p.card, m) for p in game.battlefield() for m in p.card.cost_modifiers if m.spells != "self" and applies(m, spell, p, caster)
    ] + [(spell, m) for m in spell.cost_modifiers if m.spells == "self"]
