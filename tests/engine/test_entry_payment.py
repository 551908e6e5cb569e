"""The walk and the passives pay through ``panels.entry_payment``: the entry's
cost read once against the active pattern (``cost_slots``, None when no state
of the panels pays it), then only the panels of each element's base tried
(``pay_slots``) -- issue 18.  It must choose the panels ``plan_payment``
chooses (R-PAN-3, R-ST-CHANGE): checked on every panel state a small
exhaustive search reaches, and at every call of random battles of every
ruleset."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from referee.elements import Element
from referee.engine import action, panels, responses
from referee.engine.battle import resolve_battle
from referee.engine.state import Fighter, Panel

from .helpers import ruleset
from .test_state_index import RULESETS, _setup

ELEMENTS = tuple(Element)


def _panel(base: Element, used: bool, changed: int, assigned: int | None) -> Panel:
    p = Panel(base)
    p.used, p.changed, p.assigned = used, changed, assigned
    return p


def test_pay_slots_chooses_what_plan_payment_chooses() -> None:
    checked = 0
    patterns = [(Element.FIRE, Element.WIND, Element.FIRE), (Element.WIND, Element.WATER),
                (Element.SWORD, Element.EARTH, Element.WIND, Element.SWORD), (Element.FIRE,)]
    costs = [c for n in (1, 2, 3) for c in itertools.product(ELEMENTS, repeat=n)]
    states = list(itertools.product((False, True), (0, 1), (None, 0)))  # used, changed, assigned
    for pattern in patterns:
        for combo in itertools.product(states, repeat=len(pattern)):
            row = [_panel(e, *st) for e, st in zip(pattern, combo)]
            for cost in costs:
                want = panels.plan_payment(row, cost)
                slots = panels.cost_slots(pattern, cost)
                got = None if slots is None else panels.pay_slots(row, slots)
                assert got == want, (pattern, combo, cost)
                checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("name", RULESETS)
def test_entry_payment_equals_plan_payment_in_battles(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    original = panels.entry_payment
    checked = [0]

    def compared(f: Fighter, entry: int) -> Any:
        assert f.active is not None
        want = panels.plan_payment(f.panels[f.active], f.skills[entry].cost)
        got = original(f, entry)
        assert got == want, (f.name, entry)
        checked[0] += 1
        return got

    monkeypatch.setattr(action, "entry_payment", compared)
    monkeypatch.setattr(responses, "entry_payment", compared)
    rs = ruleset(name)
    for seed in range(4):
        resolve_battle(_setup(name, seed, (4, 10, 16, 6)[seed]), rs, seed, decisions=seed % 2 == 0)
    assert checked[0] > 20, checked
