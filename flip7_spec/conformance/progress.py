"""The progress bar of a conformance run (on stderr), and printing report lines without tearing it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Never

from flip7_spec.terminal import echo, printable

if TYPE_CHECKING:
    from tqdm import tqdm


class Progress:
    """A bar counting finished cases against an estimate; a no-op when ``enabled`` is false (quiet runs,
    output that is not a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: tqdm[Never] | None = None
        self.failed = 0

    def start(self, total: int) -> None:
        """Show the bar for about ``total`` cases."""
        if self.enabled:
            from tqdm import tqdm  # imported only when shown: most runs in CI have no bar

            self.bar = tqdm(total=total, file=sys.stderr, dynamic_ncols=True, mininterval=0, miniters=1,
                            bar_format="conform: cases {n}/~{total} {bar} {elapsed}<{remaining}, {rate_fmt}{postfix}",
                            unit=" cases", leave=False)

    def advance(self, failed: bool = False) -> None:
        """One more case finished (the estimate grows when the count passes it); ``failed``: it failed or
        errored (the bar counts them)."""
        if failed:
            self.failed += 1
            if self.bar is not None:
                self.bar.set_postfix_str(f"{self.failed} failed", refresh=False)
        if self.bar is not None:
            total = self.bar.total
            if total is not None and self.bar.n + 1 > total:
                self.bar.total = self.bar.n + 1
            self.bar.update(1)

    def echo(self, line: str) -> None:
        """Print a report line on stdout (escaped for the terminal, see :func:`~flip7_spec.terminal.printable`),
        clearing the bar first and drawing it again after."""
        if self.bar is not None:
            self.bar.clear()
            echo(printable(line))
            self.bar.refresh()
        else:
            echo(printable(line))

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
