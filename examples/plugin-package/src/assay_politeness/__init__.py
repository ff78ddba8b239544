"""Example assay plugin: a politeness dimension."""
