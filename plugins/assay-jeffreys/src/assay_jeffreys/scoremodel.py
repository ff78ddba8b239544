"""Score models: the distribution of one dimension's scores under one hypothesis.

Two families, both over scores in [0, 1]:

* ``"beta"`` (:class:`BetaScoreModel`): the Beta density of BayesOutputGate, exactly as
  :func:`~assay_jeffreys.log_score_likelihood` computes it (scores of 0 and 1 clamped inward).
* ``"empirical"`` (:class:`EmpiricalScoreModel`): a smoothed empirical distribution for spiky,
  bounded scores. It is a mixture of

  - **atoms**, point masses at 0, at 1 and at every value that at least ``sqrt(n)`` of either
    hypothesis's ``n`` scores share (a value shared by ``k`` of ``n`` scores makes the empirical
    CDF jump by ``k / n``; a continuous density misses that jump by ``k / (2n)`` or more, and
    the 5% Kolmogorov–Smirnov test rejects once that passes ``1.36 / sqrt(n)``: an atom from
    ``sqrt(n)`` keeps every unmodeled jump under half that distance);
  - a **continuous part**, a Gaussian kernel density of the other scores, reflected at 0 and 1
    so no mass leaks outside [0, 1], binned on :data:`GRID_CELLS` equal cells, and mixed with
    one pseudo-observation spread uniformly over [0, 1] so no score has density 0.

  The atoms' masses and the continuous part's mass are the counts plus a Jeffreys
  Dirichlet(1/2, ..., 1/2) prior: a value never seen under a hypothesis still has a small
  positive probability, so every likelihood ratio is finite.

  The bandwidth starts at Silverman's rule of thumb, ``0.9 min(sd, IQR / 1.34) n^(-1/5)``, and
  is halved (at most three times) until the model's Kolmogorov–Smirnov distance to its own
  scores is at most half the 5% critical value: the rule of thumb assumes one smooth bump and
  over-smooths the lumpy scores heuristic metrics give.

Both hypotheses of a dimension share the atoms, so their densities are taken against the same
base measure (point masses at the atoms, length elsewhere) and their ratio is a likelihood
ratio. Scores are compared to atoms after rounding to :data:`VALUE_DECIMALS` decimals, so
``0.8`` and ``0.8000000000000002`` are the same value. Everything is deterministic: no sampling,
no random initialisation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from assay_jeffreys.errors import INVALID_OBSERVATION, fail
from assay_jeffreys.likelihood import SCORE_EPSILON, log_beta
from assay_jeffreys.types import BetaParams, GoodnessOfFit

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "BANDWIDTH_SCALES",
    "FAMILIES",
    "GRID_CELLS",
    "VALUE_DECIMALS",
    "BetaScoreModel",
    "EmpiricalScoreModel",
    "ScoreModel",
    "fit_empirical_pair",
    "model_goodness_of_fit",
]

FAMILIES = ("beta", "empirical")
"""The score model families, simplest first."""

VALUE_DECIMALS = 12
"""Scores equal to this many decimals are one value (floating-point noise is not a new value)."""

GRID_CELLS = 2048
"""Equal cells of [0, 1] the continuous part's density is binned on (width about 0.0005, a
quarter of the narrowest kernel)."""

MIN_BANDWIDTH = 4.0 / GRID_CELLS
"""The narrowest kernel: four grid cells, so binning never shows through the density."""

BANDWIDTH_SCALES = (1.0, 0.5, 0.25, 0.125)
"""Multipliers of Silverman's bandwidth tried in turn (see the module docstring)."""

KERNEL_REACH = 5.0
"""The kernel is cut at this many bandwidths (the Gaussian mass beyond is under 6e-7)."""

JEFFREYS_PSEUDO = 0.5
"""Pseudo-count of every atom and of the continuous part (the Jeffreys Dirichlet prior)."""

UNIFORM_PSEUDO = 1.0
"""Pseudo-observations of the uniform density mixed into the continuous part."""

_KS_ALPHA = 0.05
_KS_SHARE = 0.5  # the share of the critical value a fit may use on its own scores


class ScoreModel(Protocol):
    """What the gate needs of a fitted score model (vectorised over numpy arrays).

    Attributes:
        family: ``"beta"`` or ``"empirical"``.
        mean: the model's mean score.
        atoms: the scores that carry point mass (empty for a Beta).
    """

    family: str
    mean: float
    atoms: tuple[float, ...]

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """Log-density at each score: log point mass at an atom, log density elsewhere."""
        ...

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """``P(score <= x)`` at each ``x``."""
        ...

    def point_mass(self, x: np.ndarray) -> np.ndarray:
        """``P(score == x)`` at each ``x`` (0 away from the atoms)."""
        ...

    def describe(self) -> dict[str, Any]:
        """A JSON-safe summary (family and parameters) for reports."""
        ...


def _rounded(values: Any) -> np.ndarray:
    import numpy as np

    return np.round(np.asarray(values, dtype=np.float64), VALUE_DECIMALS)


class BetaScoreModel:
    """The Beta family: :class:`BetaParams`, its log-density clamped like the gate's.

    :param params: the fitted Beta.
    """

    family = "beta"
    atoms: tuple[float, ...] = ()

    def __init__(self, params: BetaParams) -> None:
        self.params = params
        self.mean = params.mean

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """The Beta log-density of :func:`~assay_jeffreys.log_score_likelihood`, vectorised."""
        import numpy as np

        clamped = np.clip(np.asarray(x, dtype=np.float64), SCORE_EPSILON, 1.0 - SCORE_EPSILON)
        a, b = self.params.a, self.params.b
        result: np.ndarray = (
            (a - 1.0) * np.log(clamped) + (b - 1.0) * np.log1p(-clamped) - log_beta(a, b)
        )
        return result

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """The regularised incomplete Beta function."""
        from scipy.special import betainc

        result: np.ndarray = betainc(self.params.a, self.params.b, x)
        return result

    def point_mass(self, x: np.ndarray) -> np.ndarray:
        """Zero everywhere: a Beta has no atoms."""
        import numpy as np

        return np.zeros(np.shape(x))

    def describe(self) -> dict[str, Any]:
        """``{"family": "beta", "a", "b", "mean"}``."""
        return {"family": "beta", "a": self.params.a, "b": self.params.b, "mean": self.mean}


def _cells(x: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.minimum((x * GRID_CELLS).astype(np.int64), GRID_CELLS - 1)


def _silverman(values: np.ndarray) -> float:
    """``0.9 min(sd, IQR / 1.34) n^(-1/5)``; the spread of the uniform on [0, 1] (``1/sqrt(12)``)
    stands in when the values show none."""
    import numpy as np

    n = int(values.size)
    spread = 0.0
    if n >= 2:
        sd = float(np.std(values))
        q75, q25 = np.percentile(values, [75.0, 25.0])
        iqr = float(q75 - q25) / 1.34
        spread = min(sd, iqr) if iqr > 0.0 else sd
    if not spread > 0.0:
        spread = 1.0 / math.sqrt(12.0)
    return 0.9 * spread * math.pow(max(n, 1), -0.2)


def _kernel_density(values: np.ndarray, bandwidth: float) -> np.ndarray:
    """The reflected Gaussian kernel density of ``values`` on the grid (integrates to 1)."""
    import numpy as np

    if values.size == 0:
        return np.ones(GRID_CELLS)
    counts = np.bincount(_cells(values), minlength=GRID_CELLS).astype(np.float64)
    reach = min(GRID_CELLS, math.ceil(KERNEL_REACH * bandwidth * GRID_CELLS))
    offsets = np.arange(-reach, reach + 1) / GRID_CELLS
    kernel = np.exp(-0.5 * (offsets / bandwidth) ** 2)
    kernel /= kernel.sum()
    padded = np.concatenate([counts[:reach][::-1], counts, counts[-reach:][::-1]])
    smooth = np.convolve(padded, kernel, mode="valid")
    result: np.ndarray = smooth * (GRID_CELLS / smooth.sum())
    return result


class EmpiricalScoreModel:
    """A smoothed empirical distribution with atoms (see the module docstring).

    Build one with :func:`fit_empirical_pair`, which chooses the atoms and the bandwidth scale
    and gives both hypotheses the same atoms.

    :param values: the scores (rounded to :data:`VALUE_DECIMALS` decimals here).
    :param atoms: the atoms, ascending.
    :param bandwidth_scale: the multiplier of Silverman's bandwidth.

    Attributes:
        atoms: the scores carrying point mass, ascending.
        atom_masses: their probabilities.
        continuous_mass: the probability of a score that is no atom.
        bandwidth: the kernel's standard deviation (``None`` when no score fell outside the atoms).
        samples: how many scores the model was fit on.
    """

    family = "empirical"

    def __init__(
        self,
        values: np.ndarray,
        atoms: tuple[float, ...],
        bandwidth_scale: float,
    ) -> None:
        import numpy as np

        values = _rounded(values)
        self.atoms = atoms
        self.samples = int(values.size)
        atom_array = np.asarray(atoms, dtype=np.float64)
        is_atom = np.isin(values, atom_array)
        counts = np.array([np.count_nonzero(values == a) for a in atoms], dtype=np.float64)
        continuous = values[~is_atom]
        total = self.samples + JEFFREYS_PSEUDO * (len(atoms) + 1)
        self.atom_masses = (counts + JEFFREYS_PSEUDO) / total
        self.continuous_mass = (continuous.size + JEFFREYS_PSEUDO) / total
        self.bandwidth_scale = bandwidth_scale
        self.bandwidth: float | None = None
        kernel = np.ones(GRID_CELLS)
        if continuous.size:
            self.bandwidth = max(bandwidth_scale * _silverman(continuous), MIN_BANDWIDTH)
            kernel = _kernel_density(continuous, self.bandwidth)
        # the continuous part's density per grid cell, with the uniform pseudo-observation
        self.density = (continuous.size * kernel + UNIFORM_PSEUDO) / (
            continuous.size + UNIFORM_PSEUDO
        )
        self._cumulative = np.concatenate([[0.0], np.cumsum(self.density) / GRID_CELLS])
        self._atom_array = atom_array
        centres = (np.arange(GRID_CELLS) + 0.5) / GRID_CELLS
        self.mean = float(
            np.dot(atom_array, self.atom_masses)
            + self.continuous_mass * np.dot(self.density, centres) / GRID_CELLS
        )

    def _atom_index(self, x: np.ndarray) -> np.ndarray:
        """Index of each score's atom, -1 for a score that is none."""
        import numpy as np

        if not self.atoms:
            return np.full(np.shape(x), -1)
        where = np.searchsorted(self._atom_array, x)
        clipped = np.minimum(where, len(self.atoms) - 1)
        hit = self._atom_array[clipped] == x
        return np.where(hit, clipped, -1)

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """Log point mass at an atom, log of ``continuous_mass`` times the density elsewhere."""
        import numpy as np

        values = _rounded(x)
        index = self._atom_index(values)
        continuous = np.log(self.continuous_mass * self.density[_cells(values)])
        masses = np.log(self.atom_masses[np.maximum(index, 0)]) if self.atoms else continuous
        result: np.ndarray = np.where(index >= 0, masses, continuous)
        return result

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """Atoms at or below ``x`` plus the continuous part's integral up to ``x``."""
        import numpy as np

        values = _rounded(x)
        cells = _cells(values)
        within = values * GRID_CELLS - cells
        continuous = self._cumulative[cells] + self.density[cells] * within / GRID_CELLS
        below = np.searchsorted(self._atom_array, values, side="right")
        atoms = np.concatenate([[0.0], np.cumsum(self.atom_masses)])[below]
        result: np.ndarray = atoms + self.continuous_mass * continuous
        return result

    def point_mass(self, x: np.ndarray) -> np.ndarray:
        """The atom's mass at an atom, 0 elsewhere."""
        import numpy as np

        index = self._atom_index(_rounded(x))
        if not self.atoms:
            return np.zeros(np.shape(x))
        result: np.ndarray = np.where(index >= 0, self.atom_masses[np.maximum(index, 0)], 0.0)
        return result

    def describe(self) -> dict[str, Any]:
        """``{"family": "empirical", "samples", "atoms": [{value, mass}], "continuousMass",
        "bandwidth", "mean"}``."""
        return {
            "family": "empirical",
            "samples": self.samples,
            "atoms": [
                {"value": a, "mass": float(m)}
                for a, m in zip(self.atoms, self.atom_masses, strict=True)
            ],
            "continuousMass": self.continuous_mass,
            "bandwidth": self.bandwidth,
            "mean": self.mean,
        }


def _ks_statistic(sorted_samples: np.ndarray, model: ScoreModel) -> float:
    """``sup |F_n - F|`` for a model that may have atoms: compared at every sample value and
    every atom, from the right and from the left."""
    import numpy as np

    points = np.union1d(sorted_samples, np.asarray(model.atoms, dtype=np.float64))
    n = sorted_samples.size
    right = np.searchsorted(sorted_samples, points, side="right") / n
    left = np.searchsorted(sorted_samples, points, side="left") / n
    model_right = model.cdf(points)
    model_left = model_right - model.point_mass(points)
    return float(max(np.max(np.abs(right - model_right)), np.max(np.abs(left - model_left))))


def model_goodness_of_fit(
    samples: Sequence[float] | np.ndarray, model: ScoreModel, alpha: float = _KS_ALPHA
) -> GoodnessOfFit:
    """Kolmogorov–Smirnov test of ``samples`` against any score model, atoms included.

    For a Beta this is :func:`~assay_jeffreys.goodness_of_fit` (same statistic, same critical
    value). With atoms, the statistic compares the two CDFs on both sides of every jump, so a
    model that puts the right mass on a tied value is not penalised for the tie.

    :raises AssayError: as :func:`~assay_jeffreys.goodness_of_fit` (too few samples, a sample
        outside [0, 1], a bad ``alpha``).
    """
    from assay_jeffreys.diagnostics import ks_critical_value, sorted_samples

    x = sorted_samples(_rounded(samples))
    critical = ks_critical_value(int(x.size), alpha)
    statistic = _ks_statistic(x, model)
    return GoodnessOfFit(statistic, critical, statistic <= critical, int(x.size))


def _shared_atoms(*groups: np.ndarray) -> tuple[float, ...]:
    """0, 1 and every value at least ``sqrt(n)`` of one group's ``n`` scores share."""
    import numpy as np

    atoms = {0.0, 1.0}
    for values in groups:
        if values.size:
            unique, counts = np.unique(values, return_counts=True)
            atoms.update(unique[counts >= math.sqrt(values.size)].tolist())
    return tuple(sorted(atoms))


def _fitted(values: np.ndarray, atoms: tuple[float, ...]) -> EmpiricalScoreModel:
    """The model of the first bandwidth scale whose fit to ``values`` is close enough."""
    from assay_jeffreys.diagnostics import MIN_FIT_SAMPLES, ks_critical_value

    if values.size < MIN_FIT_SAMPLES:
        return EmpiricalScoreModel(values, atoms, BANDWIDTH_SCALES[0])
    sorted_values = values[values.argsort(kind="stable")]
    limit = _KS_SHARE * ks_critical_value(int(values.size), _KS_ALPHA)
    best: tuple[float, EmpiricalScoreModel] | None = None
    for scale in BANDWIDTH_SCALES:
        model = EmpiricalScoreModel(values, atoms, scale)
        statistic = _ks_statistic(sorted_values, model)
        if statistic <= limit:
            return model
        if best is None or statistic < best[0]:
            best = (statistic, model)
    assert best is not None
    return best[1]


def fit_empirical_pair(
    high: Sequence[float] | np.ndarray,
    low: Sequence[float] | np.ndarray,
    atoms: tuple[float, ...] | None = None,
    scales: tuple[float, float] | None = None,
) -> tuple[EmpiricalScoreModel, EmpiricalScoreModel]:
    """Empirical models of one dimension's high and low scores, on shared atoms.

    :param atoms: the atoms to use (default: chosen from these scores, see the module doc).
    :param scales: the bandwidth scales to use for high and low (default: chosen per
        hypothesis by the Kolmogorov–Smirnov rule of the module doc). Held-back fits reuse the
        atoms and scales chosen on the whole history.
    :raises AssayError: ``INVALID_OBSERVATION`` for a score outside [0, 1] or not finite.
    """
    import numpy as np

    groups = (_rounded(high), _rounded(low))
    for name, values in zip(("high", "low"), groups, strict=True):
        if not (np.all(values >= 0.0) and np.all(values <= 1.0)):
            fail(INVALID_OBSERVATION, "every score must be finite and in [0, 1]", name)
    shared = _shared_atoms(*groups) if atoms is None else atoms
    if scales is None:
        return _fitted(groups[0], shared), _fitted(groups[1], shared)
    return (
        EmpiricalScoreModel(groups[0], shared, scales[0]),
        EmpiricalScoreModel(groups[1], shared, scales[1]),
    )
