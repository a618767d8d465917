"""Following a failing case past its divergences, each cause named with the evidence behind it.

At a divergence the diagnosis (:mod:`flip7_spec.judge.diagnosis`) finds the readings under which the
reference shows the engine's observations up to there. That alone is one step of evidence, and one field at
one step can be a coincidence (an adapter's slip in the final observation can look like a misreading). So the
case goes on under the reading found, and the reading is a *claim* only when the reference under it keeps
reproducing the engine: through the rest of the case, or up to a later divergence that another reading
explains (an independent deviation). Otherwise it is shown as *possibly* that reading, with what it matched
(:class:`Support`).

A divergence no known reading explains does not hide the others: the fields that differ there are set aside
(for the rest of the case, in every player), and the case goes on comparing everything else, to find and
diagnose the next deviation that shows in other fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from flip7_spec.judge.diagnosis import Diagnosis, diagnoses, reference_observations
from flip7_spec.results import Explanation, ReadingEvidence
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import canonical, differences, first_difference
from flip7_spec.trace.document import Table
from flip7_spec.trace.schema import json_path

Projection = Callable[[int, Any], Any]

MAX_CAUSES = 4
"""Causes one case reports at most: past each divergence the case goes on."""

BRANCHES = 3
"""Readings tried at one divergence when the first leads to a later divergence that none explains."""

FieldKey = tuple[str, ...]
"""An observation field without its indices: ``("players", "status")`` stands for every player's status."""

Unexplained = tuple[int, frozenset[FieldKey], tuple[str, ...]]
"""An unexplained divergence as one path meets it: its position, the fields set aside there, the deviations of
the ruleset the reference plays there."""


@dataclass(frozen=True, slots=True)
class Support:
    """The evidence behind one named reading: at the divergence (position ``position``: 0 is the start, k the
    observation after decision k), ``fields`` fields differed from the reference; the reference under the
    readings found so far reproduced the engine at ``held`` positions from there on (1: the divergent one
    only), until the engine diverged again at ``broke_at`` (None: to the end of the case), a divergence that
    a known reading explains or not (``broke_explained``)."""

    position: int
    fields: int
    held: int
    broke_at: int | None
    broke_explained: bool

    @property
    def confirmed(self) -> bool:
        """Whether the reading is a claim rather than a coincidence: it reproduced more than one field at one
        step, and the engine did not diverge from it again at once in a way no known reading explains."""
        if self.fields + self.held - 1 < 2:
            return False
        return self.broke_at is None or self.broke_explained or self.held >= 2

    def note(self) -> str:
        """What the reading matched, for a reading that is only possible."""
        if self.fields + self.held - 1 < 2:
            return "it matched one field at one step only"
        return "the engine diverged from it again at the next step, in a way no known reading explains"

    def evidence(self) -> ReadingEvidence:
        """The evidence as a result records it."""
        return ReadingEvidence(self.confirmed, self.fields, self.held, self.broke_at, self.broke_explained)

    def to_json(self) -> dict[str, Any]:
        return self.evidence().to_json()


@dataclass(slots=True)
class FollowedPath:
    """An explanation of a case from one divergence on: a cause per divergence (a reading, or None for one no
    known reading explains), the positions, the evidence of each reading, the fields set aside at each
    position (those of the unexplained divergences before it), and the ruleset with every reading found."""

    causes: list[Diagnosis | None]
    steps: list[int]
    supports: list[Support | None]
    masks: list[frozenset[FieldKey]]
    ruleset: Ruleset

    @property
    def explained(self) -> int:
        return sum(c is not None for c in self.causes)

    @property
    def confirmed(self) -> int:
        return sum(s is not None and s.confirmed for s in self.supports)

    def then(self, rest: FollowedPath) -> FollowedPath:
        """This path's first divergence, followed by ``rest``."""
        return FollowedPath([*self.causes[:1], *rest.causes], [*self.steps[:1], *rest.steps],
                            [*self.supports[:1], *rest.supports], [*self.masks[:1], *rest.masks], rest.ruleset)


def field_keys(expected: Any, found: Any) -> frozenset[FieldKey]:
    """The fields (without indices) where two observations differ; empty when they differ as a whole."""
    return frozenset(tuple(p for p in d.path if isinstance(p, str)) for d in differences(expected, found)
                     if any(isinstance(p, str) for p in d.path))


def without(observation: Any, keys: frozenset[FieldKey]) -> Any:
    """``observation`` with every field of ``keys`` removed (in every element of a list on the way)."""
    if not keys:
        return observation
    return _without(observation, keys, ())


def _without(value: Any, keys: frozenset[FieldKey], at: FieldKey) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, keys, (*at, k)) for k, v in value.items() if (*at, k) not in keys}
    if isinstance(value, list):
        return [_without(v, keys, at) for v in value]
    return value


@dataclass(slots=True)
class Follow:
    """Past each divergence of a case: under the readings found so far, or with the fields of an unexplained
    divergence set aside, the case goes on to find and diagnose the next one, until the engine's observations
    run out or :data:`MAX_CAUSES`. When several readings fit a divergence, the simplest path they lead to is
    kept (see :meth:`path`)."""

    ruleset: Ruleset
    table: Table
    reshuffles: list[list[str]]
    choices: list[Any]
    found: list[Any]
    indices: list[int]
    project: Projection
    fields: dict[int, int] = field(default_factory=dict)
    """The number of fields that differ at each divergence (the first one is given by the runner)."""
    _unexplained: dict[Unexplained, tuple[Any, Any, frozenset[FieldKey]]] = field(default_factory=dict)
    """At each unexplained divergence met, by its position, the fields set aside there and the readings played:
    both observations and the fields left out where the cause points (the readings tried at one divergence meet
    the same position by several paths, and only the one kept is told)."""

    def masked(self, mask: frozenset[FieldKey]) -> Projection:
        """The case's projection with the fields of ``mask`` set aside."""
        if not mask:
            return self.project
        return lambda at, observation: without(self.project(at, observation), mask)

    def path(self, matches: Sequence[Diagnosis], at: int, depth: int = 1,
             mask: frozenset[FieldKey] = frozenset()) -> FollowedPath:
        """The best explanation from the divergence at ``at``, which ``matches`` each reproduce: of the first
        :data:`BRANCHES` readings, the one whose path leaves the fewest divergences unexplained, then the fewest
        unconfirmed, then needs the fewest causes (the simplest account of the engine), the first on a tie."""
        def cost(candidate: FollowedPath) -> tuple[int, int, int]:
            causes = len(candidate.causes)
            return causes - candidate.explained, causes - candidate.confirmed, causes

        best: FollowedPath | None = None
        for diagnosis in list(matches)[:BRANCHES]:
            assert diagnosis.ruleset is not None
            candidate = self._after(diagnosis, diagnosis.ruleset, at, depth, mask)
            if best is None or cost(candidate) < cost(best):
                best = candidate
            if cost(best) == (0, 0, 1):
                break  # one confirmed reading explains the whole case: nothing is simpler
        assert best is not None
        return best

    def unexplained(self, at: int, depth: int = 1, mask: frozenset[FieldKey] = frozenset(),
                    ruleset: Ruleset | None = None) -> FollowedPath:
        """From a divergence at ``at`` that no known reading explains: its fields are set aside and the case
        goes on under ``ruleset`` (default: the case's) to the next divergence in other fields."""
        ruleset = self.ruleset if ruleset is None else ruleset
        expected = reference_observations(ruleset, self.table, self.reshuffles, self.choices, len(self.found))
        project = self.masked(mask)
        here_expected = expected[at] if at < len(expected) else None
        entry = (at, mask, ruleset.deviations)
        self._unexplained[entry] = (here_expected, self.found[at], mask)
        here = FollowedPath([None], [at], [None], [mask], ruleset)
        if depth >= MAX_CAUSES or here_expected is None:
            return here
        keys = field_keys(project(at, here_expected), project(at, self.found[at]))
        if not keys:
            return here  # the observations differ as a whole: nothing to set aside
        if len(keys) > 1:  # a known reading may explain this divergence but for one field
            for key in sorted(keys):
                aside = mask | {key}
                matches = diagnoses(ruleset, self.table, self.reshuffles, self.choices, self.found, at,
                                    self.masked(aside), pairs=False)  # single readings only: cheap enough
                if matches:
                    # the cause no reading explains is in that one field: it points there, not at those explained
                    self._unexplained[entry] = (here_expected, self.found[at], mask | (keys - {key}))
                    self.fields[at] = len(differences(self.masked(aside)(at, here_expected),
                                                      self.masked(aside)(at, self.found[at])))
                    return here.then(self.path(matches, at, depth + 1, aside))
        wider = mask | keys
        project = self.masked(wider)
        upto = min(len(expected), len(self.found))
        nxt = next((k for k in range(at + 1, upto)
                    if canonical(project(k, expected[k])) != canonical(project(k, self.found[k]))), None)
        if nxt is None:
            return here
        self.fields[nxt] = len(differences(project(nxt, expected[nxt]), project(nxt, self.found[nxt])))
        matches = diagnoses(ruleset, self.table, self.reshuffles, self.choices, self.found, nxt, project)
        rest = self.path(matches, nxt, depth + 1, wider) if matches else \
            self.unexplained(nxt, depth + 1, wider, ruleset)
        return here.then(rest)

    def _after(self, diagnosis: Diagnosis, ruleset: Ruleset, at: int, depth: int,
               mask: frozenset[FieldKey]) -> FollowedPath:
        project = self.masked(mask)
        expected = reference_observations(ruleset, self.table, self.reshuffles, self.choices, len(self.found))
        upto = min(len(expected), len(self.found))
        nxt = next((k for k in range(at + 1, upto)
                    if canonical(project(k, expected[k])) != canonical(project(k, self.found[k]))), None)
        fields = self.fields.get(at, 1)
        if nxt is None and upto == len(self.found):
            return FollowedPath([diagnosis], [at], [Support(at, fields, upto - at, None, False)], [mask], ruleset)
        if nxt is None:  # the reference under this reading refuses a decision the engine took
            support = Support(at, fields, upto - at, upto, False)
            return FollowedPath([diagnosis], [at], [support], [mask], ruleset)
        self.fields[nxt] = len(differences(project(nxt, expected[nxt]), project(nxt, self.found[nxt])))
        further = diagnoses(ruleset, self.table, self.reshuffles, self.choices, self.found, nxt, project)
        here = FollowedPath([diagnosis], [at], [Support(at, fields, nxt - at, nxt, bool(further))], [mask], ruleset)
        if depth >= MAX_CAUSES:
            return here
        if not further:
            return here.then(self.unexplained(nxt, depth + 1, mask, ruleset))
        return here.then(self.path(further, nxt, depth + 1, mask))

    def step_of(self, at: int) -> int | None:
        """The trace step index of position ``at`` (None for the start)."""
        return None if at == 0 else self.indices[at - 1]

    def causes(self, path: FollowedPath) -> tuple[Explanation, ...]:
        """The causes of ``path`` as the reports carry them, each with its step (a trace step index; None for
        the start) and its evidence: one per reading, so a pair of readings that explains a step together
        gives two. A reading that is not confirmed reads "possibly ..." with what it matched."""
        out: list[Explanation] = []
        ruleset = self.ruleset  # what the reference plays at each cause: the readings found before it
        for cause, at, support, mask in zip(path.causes, path.steps, path.supports, path.masks, strict=True):
            step = self.step_of(at)
            set_aside = tuple(sorted(".".join(key) for key in mask))
            if cause is None:
                out.append(self._unexplained_cause((at, mask, ruleset.deviations), step, set_aside))
                continue
            assert cause.ruleset is not None
            ruleset = cause.ruleset
            assert support is not None
            parts = cause.parts()
            for part in parts:
                named = part.explanation()
                together = tuple(p.reading for p in parts if p is not part) if len(parts) > 1 else named.together
                text = named.text if support.confirmed else possibly(named.text, support)
                out.append(replace(named, text=text, together=together, evidence=support.evidence(),
                                   set_aside=set_aside, at_step=True, step=step))
        return tuple(out)

    def _unexplained_cause(self, entry: Unexplained, step: int | None, set_aside: tuple[str, ...]) -> Explanation:
        at = entry[0]
        expected, found, mask = self._unexplained.get(entry, (None, None, frozenset()))
        project = self.masked(mask)
        difference = first_difference(project(at, expected), project(at, found))
        prefix: list[str | int] = ["start"] if at == 0 else ["steps", step if step is not None else 0]
        text = "a further divergence that no known reading explains"
        if set_aside:
            text += " (in other fields than those of an earlier unexplained divergence, set aside)"
        where = json_path([*prefix, "observation", *(difference.path if difference else ())])
        return Explanation(text, reading=None, where=where, set_aside=set_aside, at_step=True, step=step)


def possibly(text: str, support: Support) -> str:
    """A reading's text for a reading the evidence does not confirm."""
    return f"possibly: {text} ({support.note()})"


__all__ = [
    "BRANCHES",
    "MAX_CAUSES",
    "FieldKey",
    "Follow",
    "FollowedPath",
    "Projection",
    "Support",
    "Unexplained",
    "field_keys",
    "possibly",
    "without",
]
