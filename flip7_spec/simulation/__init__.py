"""Simulation: whole games and one-round experiments played by decision policies, and their statistics.

- :mod:`~flip7_spec.simulation.simulate`: one game played by policies (``play_game``, ``record_game``);
- :mod:`~flip7_spec.simulation.simulate_run`: a run split across worker processes, with trace output;
- :mod:`~flip7_spec.simulation.round_stats` and :mod:`~flip7_spec.simulation.intervals`: the per-round
  statistics and their 95% intervals;
- :mod:`~flip7_spec.simulation.policies`, :mod:`~flip7_spec.simulation.policy_specs`: the built-in policies and
  the ``--policy`` specs that name them;
- :mod:`~flip7_spec.simulation.policy_view` (:class:`~flip7_spec.simulation.policy_view.PlayerView`) and
  :mod:`~flip7_spec.simulation.user_policy`: the view a user's policy sees, and loading that policy;
- :mod:`~flip7_spec.simulation.plot`: pictures of a run (the ``plot`` extra).

This file imports nothing: the games and the corpus use the policies without loading the rest.
"""
