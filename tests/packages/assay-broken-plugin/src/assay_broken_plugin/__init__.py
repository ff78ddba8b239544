"""Deliberately broken assay plugin (test fixture)."""
