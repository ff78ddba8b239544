"""Hook implementations of assay-calibration (loaded at discovery; imports nothing heavy)."""
