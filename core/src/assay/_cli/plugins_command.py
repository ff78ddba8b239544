"""``assay plugins``: what is installed, what each plugin registered, and its status."""

from __future__ import annotations

import click

from assay._plugins import build_registry
from assay.cli import echo_json


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def plugins_command(as_json: bool) -> None:
    """List installed plugins: distribution, version, hooks, registered names and status.

    Status is ok, broken (with the error) or disabled (ASSAY_DISABLE_PLUGINS / ASSAY_PLUGINS).
    """
    registry = build_registry()
    records = registry.plugins
    if as_json:
        echo_json([record.to_dict() for record in records])
        return
    for record in records:
        version = f" {record.version}" if record.version else ""
        dist = f"{record.distribution}{version}" if record.distribution else "(no distribution)"
        click.echo(f"{record.name}  [{record.status}]  {dist}")
        if record.hooks:
            click.echo(f"    hooks: {', '.join(record.hooks)}")
        if record.registered:
            click.echo(f"    registered: {', '.join(record.registered)}")
        if record.error:
            click.echo(f"    error: {record.error}")
