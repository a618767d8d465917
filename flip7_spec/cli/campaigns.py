"""What ``conform --campaign DIR`` and ``--cluster ADDRESS`` add to a run: the arguments a campaign is held
to, and the pool that runs the cases on a cluster (imported only when asked for)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from flip7_spec.conformance.campaign import FILE_CONTENTS, Campaign, file_digest
from flip7_spec.conformance.engines import EngineSpec
from flip7_spec.conformance.session import CasePool
from flip7_spec.rulesets import preset_names

NOT_DECIDING = frozenset({"workers", "cluster", "campaign", "fingerprint_path", "log_path", "verbose", "quiet",
                          "progress", "smoke"})
"""The options that change where and how a run is shown, not which cases run or what they find: a campaign
may be resumed with other values of these, and of the report options (``conform``'s report formats, which
:func:`open_campaign` is given)."""


def campaign_arguments(ctx: click.Context, reports: frozenset[str] = frozenset()
                       ) -> tuple[dict[str, Any], dict[str, str]]:
    """The arguments of this ``conform`` run that a campaign is held to (JSON values by option name, ruleset
    and trace files by their contents too), and each option's name on the command line; neither the
    :data:`NOT_DECIDING` options nor ``reports`` (the parameters of the report files) are among them."""
    flags = {p.name: max(p.opts, key=len) for p in ctx.command.params if p.name is not None and p.opts}
    arguments: dict[str, Any] = {}
    for name, value in ctx.params.items():
        if name in NOT_DECIDING or name in reports:
            continue
        if isinstance(value, tuple):
            value = [str(v) if isinstance(v, Path) else v for v in value]
        elif isinstance(value, Path):
            value = str(value)
        arguments[name] = value
    files = [Path(n) for n in ctx.params.get("ruleset_names", ()) if n not in preset_names()]
    files.extend(ctx.params.get("traces", ()))
    if files:
        arguments[FILE_CONTENTS] = {str(f): file_digest(f) for f in files}
        flags[FILE_CONTENTS] = "the contents of the ruleset and trace files"
    return arguments, flags


def open_campaign(ctx: click.Context, directory: Path, reports: frozenset[str]) -> Campaign:
    """The campaign in ``directory`` for this run (see :class:`~flip7_spec.conformance.campaign.Campaign`);
    ``reports`` are the parameters of the report files, which a resumed run may change."""
    arguments, flags = campaign_arguments(ctx, reports)
    return Campaign.open(directory, arguments, flags)


@contextlib.contextmanager
def cluster_pool(address: str, spec: EngineSpec, save: Path | None) -> Iterator[CasePool]:
    """The cluster ``address`` names, connected for the block, as a pool running the run's cases."""
    from flip7_spec.cluster import session
    from flip7_spec.conformance.cluster import ClusterPool

    with session(address) as client:
        yield ClusterPool(client, spec, save)


def cluster_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Check a ``--cluster`` value before anything runs: a well-formed address, and the cluster extra
    installed (:class:`~flip7_spec.cluster.ClusterError`, one line naming the extra, when it is not)."""
    if value is None:
        return None
    from flip7_spec.cluster import Address, require_distributed

    Address.parse(value)
    require_distributed()
    return value
