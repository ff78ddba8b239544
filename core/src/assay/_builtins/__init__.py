"""The core's built-in hook modules, registered through the same hooks as third-party plugins.
This list is the one place that names them."""

BUILTIN_MODULES: tuple[str, ...] = ("assay._builtins.commands",)
