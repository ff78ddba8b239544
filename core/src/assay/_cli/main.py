"""Entry point of the ``assay`` command: builds the root group, adds every plugin's commands."""

from __future__ import annotations

import click

from assay._plugins import PluginHost
from assay.cli import AssayGroup


def build_cli(host: PluginHost | None = None) -> click.Group:
    """The root ``assay`` group with the core's and all plugins' subcommands."""

    @click.group(cls=AssayGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="assay", prog_name="assay")
    def cli() -> None:
        """assay: how far to trust each RAG answer, and how good and stable the pipeline is.

        Exit codes: 0 success, 1 a threshold or check failed, 2 bad input or usage; some
        commands document more.
        """

    (host or PluginHost()).add_cli_commands(cli)
    return cli


def main() -> None:
    """Console-script entry point."""
    build_cli()()
