"""The snapshot of the spec in ``tests/spec/`` equals the real spec when present.

A clone has no ``../shared``; the tests read the snapshot there
(``specfiles.spec_file``).  Beside the real spec, this test fails as soon as
the two differ, so the snapshot cannot silently go stale.
"""

from __future__ import annotations

import pytest

from specfiles import SNAPSHOT, defined_rule_ids, real_spec_dir

SPEC_FILES = ("rules.md", "variant-orm.md", "variant-wiz.md", "variant-soulwired.md", "variant-d20.md")


@pytest.mark.parametrize("name", ["skills.md", "interfaces.md"])
def test_snapshot_file_is_the_spec(name: str) -> None:
    snapshot = (SNAPSHOT / name).read_text("utf-8")
    assert len(snapshot) > 1000
    spec = real_spec_dir()
    if spec is not None:
        assert snapshot == (spec / name).read_text("utf-8"), f"tests/spec/{name} is stale: copy the spec's"


def test_snapshot_rule_ids_are_the_spec_s() -> None:
    ids = {line.strip() for line in (SNAPSHOT / "rule-ids.txt").read_text("utf-8").splitlines() if line.strip()}
    assert "R-MOVE-5" in ids and "R-ORM-CHK-1" in ids
    spec = real_spec_dir()
    if spec is not None:
        wanted: set[str] = set()
        for name in SPEC_FILES:
            wanted |= defined_rule_ids((spec / name).read_text("utf-8"))
        assert ids == wanted, "tests/spec/rule-ids.txt is stale"
