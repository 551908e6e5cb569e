"""Engine tests need the board and map modules (developed in parallel)."""

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("referee.board") is None or importlib.util.find_spec("referee.mapgraph") is None:
    collect_ignore_glob = ["test_r_*.py", "test_events.py", "test_properties.py", "test_determinism.py"]
