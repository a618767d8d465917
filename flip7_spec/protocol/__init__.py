"""The engine protocol v1 (docs/protocol.md): drive an external engine, or serve the reference as one.

- :mod:`.adapter`: the engine interface the conformance runner talks to, and the reference behind it
- :mod:`.schema`: validating messages against the shipped JSON Schema
- :mod:`.process`: an engine in a child process, spoken to over stdin/stdout with timeouts
- :mod:`.server`: the line loop that puts any adapter (the reference by default) behind the protocol
"""

PROTOCOL_VERSION = 1
LEVELS = ("scoring", "round", "game", "legal")
