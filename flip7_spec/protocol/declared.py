"""What an engine is sent, given what its handshake declared (docs/protocol.md, "Compatibility").

An engine is never sent an option it did not declare. An option it leaves out of its handshake is, by
definition, at the value of the preset its ruleset starts from (the runner skips every case that needs
another value), so leaving it out of ``start`` and ``score`` changes nothing for an engine that reads a
ruleset the documented way (the ``base`` preset, then ``options``) and keeps working for an adapter written
before that option existed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flip7_spec.rulesets import Ruleset


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
