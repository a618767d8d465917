"""The fast paths of replay decide exactly as the slow ones they stand in for.

- :func:`~flip7_spec.trace.compare.same_json` says two values are equal exactly when their canonical JSON
  texts are (the definition replay and conform compare by): ``1``, ``1.0`` and ``true`` differ at any depth,
  a tuple writes as a list, a missing or extra key differs.
- the canonical JSON text is the standard encoder's, whether orjson or the standard encoder writes it;
- :func:`~flip7_spec.trace.quickcheck.plausible_envelope` vouches for a trace only when the schema's envelope
  check finds nothing wrong with it, so that every message the schema gives is still given.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from flip7_spec.rulesets import preset
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.simulate import game_rng, record_game
from flip7_spec.trace.canonical import _compact as canonical_text
from flip7_spec.trace.canonical import _standard as standard_text
from flip7_spec.trace.compare import canonical, same_json, step_difference
from flip7_spec.trace.quickcheck import plausible_envelope
from flip7_spec.trace.schema import schema_errors

# Scalars that Python's == confuses across JSON types (1 == 1.0 == True, 0 == -0.0 == False).
_NUMBERS = st.sampled_from([0, 1, 2, 0.0, -0.0, 1.0, True, False, None, "1", "a", 10**20, float("nan")])
_VALUES = st.recursive(
    _NUMBERS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.sampled_from(["a", "b", "round"]), inner, max_size=3)),
    max_leaves=12,
)


def _twin(value: Any, rng: random.Random) -> Any:
    """A copy of ``value`` with, now and then, a number swapped for an equal one of another type."""
    if isinstance(value, dict):
        return {k: _twin(v, rng) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_twin(v, rng) for v in value]
        return tuple(items) if isinstance(value, tuple) and rng.random() < 0.5 else items
    swaps: dict[Any, list[Any]] = {1: [1, 1.0, True], 0: [0, 0.0, False, -0.0]}  # True is 1, False is 0 here
    if type(value) in (int, bool, float) and value in swaps and rng.random() < 0.3:
        return rng.choice(swaps[value])
    return value


@settings(max_examples=400, deadline=None)
@given(_VALUES, _VALUES, st.randoms(use_true_random=False))
def test_same_json_is_equality_of_canonical_texts(left: Any, right: Any, rng: random.Random) -> None:
    for a, b in ((left, right), (left, _twin(left, rng)), (left, copy.deepcopy(left))):
        assert same_json(a, b) == (canonical(a) == canonical(b)), (a, b)
        assert (step_difference(a, b) is None) == (canonical(a) == canonical(b))


def test_same_json_tells_json_types_apart_in_an_observation() -> None:
    ruleset = preset("flip7")
    game = record_game(ruleset, 4, threshold_policy(20), game_rng("fast", 1), observe=True)
    observation = game.observations[5]
    assert same_json(observation, json.loads(json.dumps(observation)))
    for path, swapped in ((("round",), 1.0), (("over",), 0), (("players", 1, "total"), float(0)),
                          (("players", 0, "round_score"), True), (("dealer",), False)):
        found = json.loads(json.dumps(observation))
        parent = found
        for part in path[:-1]:
            parent = parent[part]
        original = parent[path[-1]]
        if original != swapped:  # make the Python values equal, only the JSON type differing
            parent[path[-1]] = type(swapped)(original) if not isinstance(swapped, bool) else bool(original)
        else:
            parent[path[-1]] = swapped
        assert found == observation or parent[path[-1]] != original
        assert not same_json(observation, found), path
        difference = step_difference(observation, found)
        assert difference is not None and difference.path == path
    extra = json.loads(json.dumps(observation))
    extra["players"][0]["extra"] = 1
    assert not same_json(observation, extra)


def _mutations(trace: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Copies of ``trace`` with one value of its header, start or footer changed, removed or retyped."""
    out = []
    replacements: list[Any] = [None, True, 1.0, -1, 0, "", "x", [], {}, [1], {"a": 1}, "FREEZE", 10_001]
    for _ in range(300):
        mutated = copy.deepcopy({k: v for k, v in trace.items() if k != "steps"})
        mutated["steps"] = trace["steps"]
        section = rng.choice(["header", "start", "footer", "top"])
        parent: Any = mutated if section == "top" else mutated[section]
        path = [section]
        while isinstance(parent, (dict, list)) and parent and rng.random() < 0.6:
            key = rng.choice(list(parent) if isinstance(parent, dict) else range(len(parent)))
            child = parent[key]
            if not isinstance(child, (dict, list)) or not child:
                break
            parent, path = child, [*path, key]
        if isinstance(parent, dict) and parent:
            key = rng.choice(list(parent))
            if key in ("observation", "events") and section == "start":
                continue  # compared with the reference later, not checked by the envelope
            if rng.random() < 0.15:
                del parent[key]
            elif rng.random() < 0.15:
                parent["unknown"] = 1
            else:
                parent[key] = rng.choice(replacements)
        elif isinstance(parent, list) and parent:
            parent[rng.randrange(len(parent))] = rng.choice(replacements)
        out.append(mutated)
    return out


def _valid_variants(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``trace`` that the schema's envelope still passes: optional parts left out or added."""
    out = [{k: v for k, v in trace.items() if k != optional} for optional in ("rules_version", "start", "footer")]
    out.append({**trace, "steps": []})
    header = trace["header"]
    for extra in ({"names": ["a", "b", "c", "d", "e"]}, {"description": "one line"}, {"clauses": ["F7-BUST"]},
                  {"ruleset": trace["header"]["ruleset"]["name"]}, {"ruleset": {"base": "flip7"}},
                  {"ruleset": {**header["ruleset"], "deviations": ["tie_at_target=shared_win"]}}):
        out.append({**trace, "header": {**header, **extra}})
    out.append({**trace, "footer": {k: v for k, v in trace["footer"].items() if k != "rounds"}})
    return out


def test_plausible_envelope_vouches_only_for_what_the_schema_passes() -> None:
    rng = random.Random(25)
    vouched = refused = 0
    for name, players in (("flip7", 3), ("vengeance", 4), ("flip7-no-deal", 5)):
        trace = record_game(preset(name), players, threshold_policy(20), game_rng("env", players),
                            observe=True).trace()
        assert plausible_envelope(trace) and not schema_errors(trace, envelope_only=True)
        for variant in _valid_variants(trace):
            assert not schema_errors(variant, envelope_only=True)
            assert plausible_envelope(variant), {k: v for k, v in variant.items() if k != "steps"}
            vouched += 1
        for mutated in _mutations(trace, rng):
            errors = schema_errors(mutated, envelope_only=True)
            if plausible_envelope(mutated):
                vouched += 1
                assert not errors, (errors, mutated.get("header"), mutated.get("footer"))
            else:
                refused += errors != []
    assert vouched > 30 and refused > 600  # both sides of the check were exercised


_JSON_SCALARS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.booleans(), st.none(),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e-7, 1e-5, 1e16, 0.1, -0.0, 2.5e-300]),
    st.text(max_size=6), st.sampled_from(["Edition 3.1", "a-1.5e-3", ":1.5", "é\n\x01\u2028", "\U0001f600"]),
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 3)), inner, max_size=3)),
    max_leaves=15,
)


@settings(max_examples=600, deadline=None)
@given(_JSON_VALUES)
def test_canonical_text_is_the_standard_encoders(value: Any) -> None:
    # orjson writes the text where it agrees with the standard encoder; everything else falls back to it,
    # errors included (keys of mixed types cannot be sorted)
    def outcome(encode: Any) -> tuple[str, str]:
        try:
            return "text", encode(value)
        except (TypeError, ValueError) as error:
            return "error", type(error).__name__

    assert outcome(canonical_text) == outcome(standard_text)


def test_canonical_text_of_a_recorded_game_is_written_by_orjson() -> None:
    import orjson

    trace = record_game(preset("vengeance"), 5, threshold_policy(20), game_rng("fast", 2), observe=True).trace()
    fast = orjson.dumps(trace, option=orjson.OPT_SORT_KEYS).decode()
    assert canonical_text(trace) == standard_text(trace) == fast
