"""Sub-commands of the ``referee`` CLI, one module each (see referee.cli)."""
