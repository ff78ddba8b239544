"""assay-calibration: are the numbers honest?

Public modules (import them directly; this package imports nothing heavy at load time):

* :mod:`assay_calibration.drift` — Page–Hinkley and CUSUM change-point detectors.
* :mod:`assay_calibration.probability` — Brier score, expected calibration error and
  reliability tables for probability predictions.
* :mod:`assay_calibration.score_bands` — the specification's score-band calibration analysis
  (``analyze_calibration``).
"""
