"""Hook implementation of assay-mcp: the ``assay mcp`` command. Nothing heavy is imported here;
the tools themselves are registered by the plugins that own them (kind ``mcp-tool``)."""

from __future__ import annotations

import click

import assay


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_mcp.command import mcp_command

    cli.add_command(mcp_command)
