"""Built-in plugin: the core's own subcommands (``assay plugins``, ``assay score``)."""

from __future__ import annotations

import click

from assay._hookspecs import hookimpl


@hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay._cli.plugins_command import plugins_command
    from assay._cli.score_command import score_command

    cli.add_command(plugins_command)
    cli.add_command(score_command)
