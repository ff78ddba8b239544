"""Hooks of the evaluation plugin: ``assay eval``."""

from __future__ import annotations

import click

from assay import hookimpl


@hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_evaluation._cli import eval_command

    cli.add_command(eval_command)
