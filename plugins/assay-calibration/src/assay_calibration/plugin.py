"""Hook implementations of assay-calibration (loaded at discovery; imports nothing heavy)."""

from __future__ import annotations

import click

import assay


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    """Add ``assay calibrate``."""
    from assay_calibration.cli import calibrate_command

    cli.add_command(calibrate_command)
