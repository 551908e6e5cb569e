"""tcgt-referee: resolves TCG Tactics team battles exactly by the rules.

The package is split by job: ``board``/``mapgraph`` (geometry), ``catalog`` and
``ruleset`` (rules as validated data), ``sheet`` (character sheets), ``plan``
(the plan language), ``engine`` (resolution into typed events), ``report``
(renderers that only read events) and ``cli``.
"""

__version__ = "0.1.0"
