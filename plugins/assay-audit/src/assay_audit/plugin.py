"""Hooks of the audit plugin: ``assay audit verify``.

Adds ``assay audit verify CHAIN``: exit 0 when the chain verifies, 20 when it is broken (the
first broken index is printed), 2 when the file is unreadable or not a chain.
"""

from __future__ import annotations

import click

from assay import hookimpl

EXIT_BROKEN_CHAIN = 20
"""Exit code of ``assay audit verify`` for a chain that does not verify."""


@click.group(name="audit")
def audit_group() -> None:
    """Tamper-evident audit chains of sealed decisions."""


@audit_group.command(name="verify")
@click.argument("chain", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def verify_command(ctx: click.Context, chain: str, as_json: bool) -> None:
    """Verify the audit chain in CHAIN (a JSON array of entries, or JSON Lines; - for stdin).

    Exit codes: 0 intact, 20 broken (the first broken index is reported, or the byte offset of
    a last line without its newline), 2 unreadable or malformed.
    """
    from assay.cli import echo_json
    from assay_audit import verify_chain_file

    result = verify_chain_file(chain)
    if as_json:
        echo_json(result.to_wire())
    elif result.valid:
        click.echo(f"ok: {result.length} entries verified")
    elif result.reason == "unterminated-line":
        click.echo(
            f"broken: the last line (byte offset {result.offset}) has no final newline, a torn "
            f"append or an altered entry; {result.length} entries read before it"
        )
    else:
        click.echo(
            f"broken: entry {result.broken_at} fails ({result.reason}); "
            f"{result.length} entries read"
        )
    if not result.valid:
        ctx.exit(EXIT_BROKEN_CHAIN)


@hookimpl
def assay_cli(cli: click.Group) -> None:
    cli.add_command(audit_group)
