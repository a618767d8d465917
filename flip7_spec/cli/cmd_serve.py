"""``flip7-spec serve``: the reference engine behind the protocol, as an oracle for other tools."""

from __future__ import annotations

import click

from flip7_spec.protocol.server import serve


@click.command("serve")
def command() -> None:
    """Serve the reference engine over the protocol on stdin/stdout (docs/protocol.md).

    Reads one JSON request per line and writes one reply per line, until `quit` or end of input. Point
    `flip7-spec conform --engine "flip7-spec serve"` at it to check the suite itself, or use it as an
    oracle from another language.
    """
    serve()
