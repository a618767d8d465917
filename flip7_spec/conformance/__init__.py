"""Conformance of another engine: the corpus of cases, running them, shrinking failures, reporting. Each case
is judged by :mod:`flip7_spec.judge` (:mod:`flip7_spec.judge.runner`: compare, diagnose, follow, explain).

- :mod:`.cases`: scoring cases, fixture traces and generated games, each a :class:`~flip7_spec.judge.case.Case`
- :mod:`.engines`: an engine opened from its command line, a case finished (failures shrunk and saved)
- :mod:`.workers`: the cases of a run spread over worker processes
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
