"""The mechanics layer (R-VAR-1): one seam per core mechanic a ruleset may swap.

* ``metric`` -- the range metric (the one distance ranges are read in);
* ``protocols`` -- the interface of every other mechanic and the
  :class:`~referee.engine.mechanics.protocols.Mechanics` bundle;
* ``tcgt`` -- tcgt's own behaviour, the implementations ``tcgt.yaml`` names;
* ``registry`` -- kind name -> implementation, and ``build_mechanics(spec)``.

This file imports nothing on purpose: ``state`` needs ``metric`` while
``registry`` needs the whole engine, and a package ``__init__`` that pulled
in the registry would tie the two into a circle.
"""
