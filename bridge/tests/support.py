"""Test support: puts bridge/ on the import path (the bridge runs as a script from its own folder)."""
import os
import sys

BRIDGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if BRIDGE_DIR not in sys.path:
    sys.path.insert(0, BRIDGE_DIR)


class Sent(list):
    """The bridge's `send`: keeps every message; `of(type)` filters them."""

    def __call__(self, message):
        self.append(message)
        return True

    def of(self, kind, **fields):
        return [m for m in self if m["type"] == kind and all(m.get(k) == v for k, v in fields.items())]
