"""The built-in games, each a plug-in folder that registers one definition with :mod:`flip7_spec.registry`.

Importing this package registers them all (``import flip7_spec`` does it): :mod:`.flip7` (the base game,
whose ``flip7`` preset is the default ruleset) and :mod:`.vengeance`. A game of one's own is registered the
same way from outside the package; see docs/architecture.md.
"""

from flip7_spec.games import flip7, vengeance

__all__ = ["flip7", "vengeance"]
