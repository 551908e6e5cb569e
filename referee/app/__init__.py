"""Application services: load a battle, drive the engine, run a round, replay.

These sit above both the engine and the renderers (``referee.report``): they
read files, feed the engine from normalised inputs and hand the resulting
:class:`referee.report.record.Report` to a renderer. Renderers only render.
"""
