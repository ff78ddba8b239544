"""``assay mcp``: serve every registered tool over stdio, or list them."""

from __future__ import annotations

import click

import assay
from assay.cli import echo_json

__all__ = ["mcp_command"]


@click.command(name="mcp")
@click.option("--list", "list_only", is_flag=True, help="List the tools instead of serving them.")
@click.option("--json", "as_json", is_flag=True, help="With --list: print the tools as JSON.")
@click.pass_context
def mcp_command(ctx: click.Context, list_only: bool, as_json: bool) -> None:
    """Serve every tool the installed plugins register (registry kind mcp-tool) as an MCP
    server over standard input and output.

    Point an MCP client at the command `assay` with the argument `mcp`. Tools whose
    registration is unusable are skipped with a note on standard error.

    Exit codes (the one table, assay.ExitCode): 0 when the client disconnects, 2 for a usage
    error, 130 when interrupted.
    """
    from assay_mcp.tools import collect_tools, describe

    if as_json and not list_only:
        raise click.UsageError("--json goes with --list (the server itself speaks JSON-RPC)")
    toolset = collect_tools()
    for problem in toolset.problems:
        click.echo(f"warning: {problem}", err=True)
    if list_only:
        listed = [describe(name, tool) for name, tool in toolset.tools.items()]
        if as_json:
            echo_json(listed)
        else:
            for item in listed:
                summary = item["description"].split(". ")[0].rstrip(".")
                click.echo(f"{item['name']}: {summary}")
        return
    import anyio

    from assay_mcp.server import serve_stdio

    try:
        anyio.run(serve_stdio, toolset)
    except KeyboardInterrupt:
        ctx.exit(assay.ExitCode.INTERRUPTED)
