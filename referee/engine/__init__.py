"""The TCGT engine: resolves whole battles into typed events (rules.md A and B)."""
