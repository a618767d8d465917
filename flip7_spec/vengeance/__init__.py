"""Flip 7: With a Vengeance (RULES.md part B): presets, rule clauses, round scoring and the state machine.

The modules import only what they need, so the base modules may import :mod:`presets` and :mod:`clauses`
at the bottom of their own definitions to register them:

- :mod:`.presets`: the ``vengeance`` and ``vengeance-basic`` rulesets (deck data and option values);
- :mod:`.clauses`: the Vengeance rule clauses (ids ``V-...``);
- :mod:`.scoring`: round scoring and the check that a final hand can exist;
- :mod:`.rows`: card references into a player's row and the choices that list them;
- :mod:`.frames`: the unfinished work between two decisions (turns, Actions, Modifiers, Brutal Mode);
- :mod:`.engine`: :class:`~flip7_spec.vengeance.engine.VengeanceGame`, receiving cards into rows.
"""
