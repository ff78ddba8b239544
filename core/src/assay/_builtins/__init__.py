"""The core's built-in plugins: ordinary hook modules, registered through the same hooks as
third-party plugins. This list is the one place that names them."""

BUILTIN_MODULES: tuple[str, ...] = (
    "assay._builtins.action_policy",
    "assay._builtins.commands",
    "assay._builtins.evaluation",
    "assay._builtins.audit",
)
