"""The engine protocol v1 (docs/protocol.md): drive an external engine, or serve the reference as one.

- :mod:`.adapter`: the engine interface the conformance runner talks to, and the reference behind it
- :mod:`.schema`: validating messages against the shipped JSON Schema
- :mod:`.declared`: what an engine is sent, given what its handshake declares (only the options it declares)
- :mod:`.process`: an engine in a child process, spoken to over stdin/stdout with timeouts
- :mod:`.traffic`: every line to and from an engine process (the ``flip7_spec.protocol`` logger, ``--log-protocol``)
- :mod:`.server`: the line loop that puts any adapter (the reference by default) behind the protocol

For Python engines (docs/protocol.md, "Engines that call their players back"):

- :mod:`.bridge`: runs an engine's own loop on a worker thread, each ``decide(state)`` callback a pending decision
- :mod:`.callback_adapter`: an adapter over the bridge: implement ``play``, ``observe``, ``hello``, ``score``
- :mod:`.census`: ``in_play`` and pile sizes derived for an engine that does not track them
- :mod:`.main`: ``serve_main(Adapter)``, the stdin/stdout main loop of an engine script
"""

from enum import StrEnum

PROTOCOL_VERSION = 1


class Level(StrEnum):
    """What an engine declares it can be checked on (its handshake's ``levels``), and what a conformance case
    checks (its value is what the protocol and the reports write)."""

    SCORING = "scoring"
    """Round scores of given hands."""
    ROUND = "round"
    """The observations through the end of a game's first round."""
    GAME = "game"
    """The observations through a whole game."""
    LEGAL = "legal"
    """The legal choices of every pending decision (``pending.options``) as well."""


LEVELS = tuple(Level)
"""Every level, in the order the handshake and the reports list them."""
TRACE_LEVELS = frozenset({Level.ROUND, Level.GAME})
"""The levels whose cases replay a trace (a game's first round, a whole game)."""
CHECKED_LEVELS = frozenset({Level.SCORING, Level.ROUND, Level.GAME})
"""The levels a conformance run checks by default (``legal`` is checked with round and game)."""
