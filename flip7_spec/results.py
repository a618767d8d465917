"""A case's result as a record, both ways: what the conformance runner finds, what the JSON report writes, and
what every reader (the summary, the fingerprint, a campaign's journal, the HTML report) reads back.

:class:`CaseResult` holds the outcome of one case at one level, and, for a failure, its typed parts: the
fields that differ (:class:`FieldDifference`), both whole observations, the reading that explains it and
every cause found past it (:class:`Explanation`), who is blamed; for an error, the last observation both
sides agreed on (:class:`LastAgreed`); for a scoring case, the hand. :meth:`CaseResult.to_json` writes the
result as the JSON report carries it (``flip7_spec/schemas/report-v1.json`` describes it) and
:meth:`CaseResult.from_json` reads it back into an equal record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from flip7_spec.misreadings import Deviation
from flip7_spec.protocol import Level
from flip7_spec.trace.compare import Difference
from flip7_spec.trace.schema import json_path


class Outcome(StrEnum):
    """The outcome of one case at one level (its value is what the reports write)."""

    PASS = "pass"
    """The engine did what the reference does."""
    FAIL = "fail"
    """The engine broke a rule (the first divergence is given, with its clause)."""
    SKIPPED = "skipped"
    """The engine does not declare what the case needs (a level, a ruleset, an option value)."""
    ERRORED = "errored"
    """The engine crashed, hung, or answered outside the protocol."""


PASS = Outcome.PASS
FAIL = Outcome.FAIL
SKIPPED = Outcome.SKIPPED
ERRORED = Outcome.ERRORED
OUTCOMES = tuple(Outcome)
"""Every outcome, in the order the reports list them."""


BLAMES = ("diagnosed", "possible", "guess", "rules")
"""Who a failure blames: a reading the evidence confirms, a reading it does not confirm (``possible``), a
clause guessed from the field that differs, or the rules themselves (an engine offering choices the rules do
not allow)."""


@dataclass(frozen=True, slots=True)
class FieldDifference:
    """One field where the engine's observation differs from the reference's: its JSON path in the trace."""

    where: str
    expected: Any
    found: Any

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "expected": self.expected, "found": self.found}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> FieldDifference:
        return cls(str(value["where"]), value.get("expected"), value.get("found"))


def field_differences(prefix: list[str | int], found: Sequence[Difference]) -> tuple[FieldDifference, ...]:
    """The differences of one step's observations (:func:`~flip7_spec.judge.compared_differences`), each at its
    JSON path in the trace (``prefix``: ``["start"]`` or ``["steps", index]``)."""
    return tuple(FieldDifference(json_path([*prefix, "observation", *d.path]), d.expected, d.found) for d in found)


@dataclass(frozen=True, slots=True)
class ReadingEvidence:
    """What a reading reproduced of the engine (:class:`~flip7_spec.judge.follow.Support`): whether that
    confirms it, the fields it reproduced at the divergence, the steps it held after it, and where the engine
    broke from it again (whether a known reading explains that)."""

    confirmed: bool
    fields: int
    held: int
    broke_at: int | None
    broke_explained: bool

    def to_json(self) -> dict[str, Any]:
        return {"confirmed": self.confirmed, "fields": self.fields, "held": self.held, "broke_at": self.broke_at,
                "broke_explained": self.broke_explained}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ReadingEvidence:
        return cls(bool(value.get("confirmed", False)), int(value.get("fields", 0)), int(value.get("held", 0)),
                   value.get("broke_at"), bool(value.get("broke_explained", False)))


_ABSENT: Any = object()


@dataclass(frozen=True, slots=True)
class Explanation:
    """A reading named for a divergence (a result's ``diagnosis``), or one of a result's ``causes``: a reading
    (a misreading of the catalogue, or an option's value) with its clause, confidence, text and evidence, or,
    with ``reading`` None, a divergence no known reading explains (``where`` it is). A cause says at which
    ``step`` of the trace it shows (None: the start); a diagnosis does not (``at_step`` False)."""

    text: str
    reading: str | None = None
    clause: str | None = None
    confidence: str | None = None
    misreading: str | None = None
    description: str | None = None
    option: str | None = None
    value: Any = None
    also: tuple[str, ...] = ()
    together: tuple[str, ...] = ()
    evidence: ReadingEvidence | None = None
    set_aside: tuple[str, ...] = ()
    where: str | None = None
    at_step: bool = False
    step: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reading": self.reading}
        if self.reading is not None:
            out.update(clause=self.clause, confidence=self.confidence)
        if self.text:
            out["text"] = self.text
        if self.misreading is not None:
            out.update(misreading=self.misreading, description=self.description)
        if self.option is not None:
            out.update(option=self.option, value=self.value)
        if self.also:
            out["also"] = list(self.also)
        if self.together:
            out["together"] = list(self.together)
        if self.at_step:
            out["step"] = self.step
        if self.evidence is not None:
            out["evidence"] = self.evidence.to_json()
        if self.where is not None:
            out["where"] = self.where
        if self.set_aside:
            out["set_aside"] = list(self.set_aside)
        return out

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Explanation:
        evidence = value.get("evidence")
        return cls(text=str(value.get("text", "")), reading=value.get("reading"), clause=value.get("clause"),
                   confidence=value.get("confidence"), misreading=value.get("misreading"),
                   description=value.get("description"), option=value.get("option"), value=value.get("value"),
                   also=tuple(value.get("also") or ()), together=tuple(value.get("together") or ()),
                   evidence=ReadingEvidence.from_json(evidence) if isinstance(evidence, dict) else None,
                   set_aside=tuple(value.get("set_aside") or ()), where=value.get("where"),
                   at_step="step" in value, step=value.get("step"))


@dataclass(frozen=True, slots=True)
class LastAgreed:
    """An errored trace case's last observation both sides agreed on: its step (None: the start), its JSON path
    in the trace, and the observation."""

    step: int | None
    where: str
    observation: Any

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "where": self.where, "observation": self.observation}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> LastAgreed:
        return cls(value.get("step"), str(value["where"]), value.get("observation"))


@dataclass(slots=True)
class CaseResult:
    """The outcome of one case at one level, with what a report shows of it.

    Always written: the case, level and outcome, the message, where it diverged (its ``step`` among the trace's
    steps, ``where`` as a JSON path, ``expected`` and ``found`` at that path, the ``clause`` blamed, the
    ``decision`` that led there), the engine's ``raw`` reply and ``stderr`` excerpt for an error, the
    ``decisions`` played, the time, the saved trace (``shrunk``), who skipped a skipped case. Written when
    present: the other typed parts (see the module's docstring)."""

    case_id: str
    level: Level
    outcome: Outcome
    message: str = ""
    step: int | None = None
    where: str | None = None
    expected: Any = None
    found: Any = None
    clause: str | None = None
    decision: dict[str, Any] | None = None
    raw: str | None = None
    stderr: str = ""
    label: str = ""
    decisions: int = 0
    seconds: float = 0.0
    shrunk: str | None = None
    skipped_by: str | None = None
    """For a skipped result, who skipped it: ``"handshake"`` (the engine's declarations do not cover the case)
    or ``"engine"`` (the engine replied ``skipped`` to a case its declarations cover)."""
    differences: tuple[FieldDifference, ...] | None = None
    """Every field that differs at the divergence (the first of them is ``where``)."""
    expected_observation: Any = None
    found_observation: Any = None
    compared: str | None = None
    """``"totals"`` when only the players' totals were compared (a round case's last step)."""
    diagnosis: Explanation | None = None
    causes: tuple[Explanation, ...] | None = None
    blame: str | None = None
    """One of :data:`BLAMES`."""
    base: str | None = None
    """The preset the readings named are readings of."""
    fits_none: str | None = None
    deviations: tuple[Deviation, ...] | None = None
    """The readings under which the reference reproduced the engine across the whole case (written as their
    texts, ``name=value`` or a misreading's name)."""
    hand: tuple[str, ...] | None = None
    busted: bool | None = None
    ruleset: dict[str, Any] | None = None
    """A scoring case's ruleset as the engine was sent it (an errored one, to ask the engine again)."""
    last_agreed: LastAgreed | None = None

    def to_json(self) -> dict[str, Any]:
        """The result as the JSON report writes it."""
        out: dict[str, Any] = {name: getattr(self, name) for name in _ALWAYS}
        for name in _WHEN_PRESENT:
            value = getattr(self, name)
            if value is None:
                continue
            if name in ("differences", "causes"):
                value = [part.to_json() for part in value]
            elif name in ("diagnosis", "last_agreed"):
                value = value.to_json()
            elif name == "deviations":
                value = [d.text for d in value]
            elif name == "hand":
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> CaseResult:
        """A result as the JSON report wrote it, read back (unknown fields are ignored)."""
        given: dict[str, Any] = {name: value[name] for name in _ALWAYS if name in value}
        given["level"] = Level(value["level"])
        given["outcome"] = Outcome(value["outcome"])
        if value.get("differences") is not None:
            given["differences"] = tuple(FieldDifference.from_json(d) for d in value["differences"])
        if value.get("causes") is not None:
            given["causes"] = tuple(Explanation.from_json(c) for c in value["causes"])
        if value.get("diagnosis") is not None:
            given["diagnosis"] = Explanation.from_json(value["diagnosis"])
        if value.get("last_agreed") is not None:
            given["last_agreed"] = LastAgreed.from_json(value["last_agreed"])
        if value.get("deviations") is not None:
            given["deviations"] = tuple(Deviation.parse(text) for text in value["deviations"])
        if value.get("hand") is not None:
            given["hand"] = tuple(value["hand"])
        for name in ("expected_observation", "found_observation", "compared", "blame", "base", "fits_none",
                     "busted", "ruleset"):
            if name in value:
                given[name] = value[name]
        return cls(**given)

    def readings(self) -> list[Explanation]:
        """The causes found (each reading past each divergence), or the diagnosis alone when there are none."""
        if self.causes:
            return list(self.causes)
        return [self.diagnosis] if self.diagnosis is not None else []


_ALWAYS = ("case_id", "level", "outcome", "message", "step", "where", "expected", "found", "clause", "decision",
           "raw", "stderr", "label", "decisions", "seconds", "shrunk", "skipped_by")
_WHEN_PRESENT = tuple(f.name for f in fields(CaseResult) if f.name not in _ALWAYS)
