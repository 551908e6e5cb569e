"""Refuse a variant's plan words under a ruleset whose mechanics lack them.

A variant adds clauses and conditions (R-D20-PLAN-1..2, R-SOUL-PLAN-1..4,
R-ORM-PLAN-1, R-WIZ-PLAN-1); each such AST node names the feature it belongs
to in its ``needs`` class attribute, and a ruleset's mechanics say which
features they give (``MechanicsSpec.features``).  Written under any other
ruleset the node would silently mean nothing, so ``referee check`` reports it
where it was written (``clause-not-in-ruleset``: R-D20-PLAN-3, R-SOUL-PLAN-5,
R-ORM-CHECK-1, R-WIZ-CHECK-1) -- one diagnostic per node, every one at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from referee.diagnostics import Diagnostic
from referee.mechanicspec import Features, feature_providers
from referee.plan import ast as A

__all__ = ["walk", "gate_diagnostics"]


def walk(node: A.Node) -> Iterator[A.Node]:
    """``node`` and every node inside it, depth first, in field order."""
    yield node
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        children = value if isinstance(value, tuple) else (value,)
        for child in children:
            if isinstance(child, A.Node):
                yield from walk(child)


def gate_diagnostics(nodes: Iterable[A.Node], features: Features, file: str) -> list[Diagnostic]:
    """A ``clause-not-in-ruleset`` error for every node (clauses, conditions,
    whatever they hold) whose ``needs`` is not among ``features``."""
    out = []
    for top in nodes:
        for node in walk(top):
            need = type(node).needs
            if need is None or need in features.names:
                continue
            providers = feature_providers(need)
            hint = ("it comes with the mechanics " + "; ".join(providers)) if providers else None
            out.append(Diagnostic(file, node.line, node.column, "clause-not-in-ruleset",
                                  f"{need} is not part of ruleset '{features.ruleset}'", hint=hint))
    return out
