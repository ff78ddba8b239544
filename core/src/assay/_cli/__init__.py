"""The ``assay`` command line: the root group and the plugin host that fills it."""
