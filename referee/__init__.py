"""tcgt-referee: resolves TCG Tactics team battles exactly by the rules.

The package is split by job: ``board``/``mapgraph`` (geometry), ``catalog`` and
``ruleset`` (rules as validated data), ``sheet`` (character sheets), ``plan``
(the plan language), ``engine`` (resolution into typed events), ``report``
(renderers that only read events) and ``cli``.  :mod:`referee.compiled`
names the modules mypyc compiles and chooses, here, before any of them loads,
whether their compiled build or their source runs.
"""

from referee.compiled import guard

__version__ = "0.1.0"

#: Which build of the compiled core runs ("compiled by mypyc", or "interpreted" and why).
CORE = guard()
