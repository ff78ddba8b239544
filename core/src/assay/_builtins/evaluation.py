"""Built-in plugin: the core's evaluation hooks (commands and objects), registered like any plugin."""

from __future__ import annotations

import click

from assay._hookspecs import hookimpl


@hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay.evaluation._cli import eval_command

    cli.add_command(eval_command)
