"""Hook implementations of assay-perturb: the three perturbations, the four distances, and the
``assay perturb`` command group."""

from __future__ import annotations

import click

import assay
from assay_perturb.distances import (
    DISTANCE_KIND,
    enum_distance,
    exact_distance,
    numeric_distance,
    string_distance,
)
from assay_perturb.perturbations import Pad, Reorder, Swap


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add_perturbation(Reorder())
    registrar.add_perturbation(Pad())
    registrar.add_perturbation(Swap())
    registrar.add(DISTANCE_KIND, enum_distance, name="enum")
    registrar.add(DISTANCE_KIND, string_distance, name="string")
    registrar.add(DISTANCE_KIND, numeric_distance, name="numeric")
    registrar.add(DISTANCE_KIND, exact_distance, name="exact")


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_perturb.cli import perturb

    cli.add_command(perturb)
