"""Built-in hook module: the core's own subcommand, ``assay plugins``."""

from __future__ import annotations

import click

from assay._hookspecs import hookimpl


@hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay._cli.plugins_command import plugins_command

    cli.add_command(plugins_command)
