"""Built-in plugin: the core's evaluation hooks (commands and objects), registered like any plugin."""
