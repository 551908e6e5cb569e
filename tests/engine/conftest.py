"""Engine tests run against the real board and map modules (referee.board, referee.mapgraph)."""
