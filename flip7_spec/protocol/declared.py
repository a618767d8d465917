"""What an engine is sent, given what its handshake declared (docs/protocol.md, "Compatibility").

An engine is never sent an option it did not declare. An option it leaves out of its handshake is, by
definition, at the value of the preset its ruleset starts from (the runner skips every case that needs
another value), so leaving it out of ``start`` and ``score`` changes nothing for an engine that reads a
ruleset the documented way (the ``base`` preset, then ``options``) and keeps working for an adapter written
before that option existed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.trace.compare import same_value


def declared_options(hello: Mapping[str, Any]) -> frozenset[str]:
    """The names of the options a handshake declares (none when ``options`` is absent or malformed)."""
    options = hello.get("options")
    return frozenset(str(name) for name in options) if isinstance(options, Mapping) else frozenset()


def sent_ruleset(ruleset: Ruleset, hello: Mapping[str, Any]) -> dict[str, Any]:
    """``ruleset`` as an engine that shook hands with ``hello`` is sent it: without the reference's
    deviations (the engine plays its own), and with only the options the engine declared."""
    data = ruleset.for_engine().to_json()
    declared = declared_options(hello)
    data["options"] = {name: value for name, value in data["options"].items() if name in declared}
    return data


def unsupported(hello: Mapping[str, Any], level: str, ruleset: Ruleset) -> str | None:
    """Why ``hello`` says the engine cannot run a case of ``level`` under ``ruleset`` (None when it can).

    A declared option runs exactly the values declared (``[]`` runs none, not even the default); an option the
    engine does not declare runs only the value of the preset its ruleset starts from.
    """
    if level not in hello.get("levels", []):
        return f"the engine does not support the {level} level"
    supported = hello.get("rulesets", [])
    reference = _preset_or_none(ruleset.name)
    if ruleset.name in supported and reference is not None:
        base = reference
    elif ruleset.base in supported:
        base = preset(ruleset.base)
    else:
        return f"the engine does not implement the {ruleset.name} ruleset"
    options = hello.get("options", {})
    for name, value in ruleset.options().items():
        declared = options.get(name)
        if declared is None:
            if not same_value(value, getattr(base, name)):
                return f"the engine does not declare {name} (only {base.name}'s {json.dumps(getattr(base, name))} runs)"
        elif declared != "any" and not any(same_value(value, v) for v in declared):
            return f"the engine does not implement {name}={json.dumps(value)}"
    if dict(ruleset.deck) != dict(base.deck) and not hello.get("decks", False):
        return f"the engine does not take custom decks (ruleset {ruleset.name})"
    return None


def _preset_or_none(name: str) -> Ruleset | None:
    try:
        return preset(name)
    except Exception:
        return None
