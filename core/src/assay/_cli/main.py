"""Entry point of the ``assay`` command: builds the root group, adds every plugin's commands."""

from __future__ import annotations

import sys
import warnings

import click

from assay._errors import AssayError, PluginLoadWarning
from assay._plugins import PluginHost
from assay.cli import EXIT_USAGE, AssayGroup, format_error


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


def _show_plugin_warning(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
    if issubclass(category, PluginLoadWarning):
        click.echo(f"warning: {message}", err=True)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


_default_showwarning = warnings.showwarning


def main() -> None:
    """Console-script entry point: plugin warnings print as one line on standard error."""
    warnings.showwarning = _show_plugin_warning
    try:
        cli = build_cli()
    except AssayError as error:  # strict plugin loading: a broken plugin stops the CLI cleanly
        click.echo(format_error(error), err=True)
        sys.exit(EXIT_USAGE)
    cli()
