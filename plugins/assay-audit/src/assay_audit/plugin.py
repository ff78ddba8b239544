"""Hooks of the audit plugin: ``assay audit verify``.

Adds ``assay audit verify CHAIN [--head HASH]``: exit 0 when the chain verifies (its head hash
is printed), 20 when it is broken (the first broken index is printed), holds no entry, or does
not end at ``--head``; 2 when the file is unreadable or not a chain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

import assay
from assay import hookimpl

if TYPE_CHECKING:
    from assay_audit import ChainVerification

EXIT_BROKEN_CHAIN = 20
"""Exit code of ``assay audit verify`` for a chain that does not verify."""


@click.group(name="audit")
def audit_group() -> None:
    """Tamper-evident audit chains of sealed decisions."""


def _head_hash(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise assay.AssayError(
            "INVALID_CONFIG",
            f"must be a SHA-256 hash, 64 hexadecimal digits, got {value!r}",
            "--head",
        )
    return text


def _head_message(result: ChainVerification) -> str:
    if result.broken_at is not None:
        return (
            f"broken: the chain goes on past the expected head (entry {result.broken_at - 1}): "
            f"{result.length - result.broken_at} entries after it, head {result.head}"
        )
    return (
        f"broken: the chain ends at {result.head}, not at the expected head "
        f"{result.expected_head}, which no entry has: entries were removed from its end, or it "
        f"is another chain; {result.length} entries read"
    )


@audit_group.command(name="verify")
@click.argument("chain", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--head",
    metavar="HASH",
    callback=_head_hash,
    help="The hash the chain must end at (a head kept elsewhere): catches entries removed "
    "from its end.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def verify_command(ctx: click.Context, chain: str, head: str | None, as_json: bool) -> None:
    """Verify the audit chain in CHAIN (a JSON array of entries, or JSON Lines; - for stdin).

    Exit codes: 0 intact (the head hash is printed), 20 broken (the first broken index is
    reported, or the byte offset of a last line without its newline), no entry at all, or not
    ending at --head; 2 unreadable or malformed.
    """
    from assay.cli import echo_json
    from assay_audit import verify_chain_file

    result = verify_chain_file(chain, expected_head=head, allow_empty=False)
    if as_json:
        echo_json(result.to_wire())
    elif result.valid:
        click.echo(f"ok: {result.length} entries verified, head {result.head}")
    elif result.reason == "empty":
        click.echo("broken: the chain holds no entry (an emptied file, or one never written)")
    elif result.reason == "head":
        click.echo(_head_message(result))
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
