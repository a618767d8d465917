"""Text from outside (traces, rulesets, engines' replies and stderr) made safe to print on a terminal.

A trace's player name or an engine's stderr line could hold escape sequences that move the cursor,
rewrite earlier lines, set the window title or hide text, or a lone surrogate that cannot even be
encoded. :func:`printable` writes every such character as a visible escape (``\\x1b``, ``\\u202e``) so that
what is shown is exactly what the input holds, one output line per line.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys

# C0 and C1 controls and DEL (escape sequences, carriage returns, backspaces, line breaks), the Unicode
# line and paragraph separators, the bidirectional overrides and isolates (text shown in another order
# than it is stored), and lone surrogates (not encodable).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control, separator, bidirectional-override and surrogate character escaped."""
    return _UNSAFE.sub(_escape, text)


_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable_json(text: str) -> str:
    """JSON text (as ``json.dumps`` writes it, which escapes the C0 controls already) with the other
    characters :func:`printable` escapes written as ``\\uXXXX``: they occur only inside strings, where
    that escape means the same character, so the text stays valid JSON of the same value."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNSAFE_IN_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable_text(text: str) -> str:
    """``text`` escaped as by :func:`printable`, except that tabs and line feeds stay as they are (text of
    several lines, such as an engine's stderr shown in a page)."""
    return _UNSAFE_IN_LINES.sub(_escape, text)


def echo(text: str, err: bool = False) -> None:
    """Print ``text`` as one line. When the reader of standard output has gone (``flip7-spec conform ... |
    head``), the lines still to come are dropped and the command goes on: a run still writes its reports and
    exits with its verdict, instead of stopping at the broken pipe."""
    import click

    try:
        click.echo(text, err=err)
    except BrokenPipeError:
        stream = sys.stderr if err else sys.stdout
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())  # later writes and the flush at exit
