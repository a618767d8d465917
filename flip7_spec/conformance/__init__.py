"""Conformance of another engine: the corpus of cases, running them, shrinking failures, reporting.

- :mod:`.cases`: scoring cases, fixture traces and generated games, each a :class:`~.cases.Case`
- :mod:`.runner`: one case against one engine: pass, fail (first divergence), skipped or errored
- :mod:`.diagnosis`: the readings under which the reference reproduces a divergence
- :mod:`.follow`: a failing case followed past each divergence, each reading with its evidence
- :mod:`.legality`: the ``legal`` level's judge of each offered decision, past a divergence too
- :mod:`.fingerprint`: causes grouped for the summary, and the engine's fingerprint, checked before it is written
- :mod:`.verdict`: what a run left unchecked (a run that checked nothing never passes)
- :mod:`.shrink`: a failing generated game cut down to a small trace that still fails the same way
- :mod:`.report`: the summary per level, JSON and JUnit XML reports
- :mod:`.session`: a whole run, in one process or several, with progress and a partial report on Ctrl-C
- :mod:`.scoring_hands`: the z3-found scoring hands, shipped for the presets and cached on disk for others
- :mod:`.background`: recording the generated games in a helper process while the engine plays
- :mod:`.smoke`: ``conform --smoke``, one whole short game that points at the adapter when it differs
- :mod:`.progress`: the progress bar
"""

from flip7_spec.judge import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED, Outcome

__all__ = ["ERRORED", "FAIL", "OUTCOMES", "PASS", "SKIPPED", "Outcome"]
