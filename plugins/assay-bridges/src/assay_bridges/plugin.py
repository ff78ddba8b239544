"""Hook implementations: the built-in bridges and the ``assay bridge`` command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import assay
from assay_bridges.catalog import BRIDGE_KIND, BUILTIN_BRIDGES

if TYPE_CHECKING:
    import click


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    for bridge in BUILTIN_BRIDGES:
        registrar.add(BRIDGE_KIND, bridge, name=bridge.name)


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_bridges.command import bridge_command

    cli.add_command(bridge_command)
