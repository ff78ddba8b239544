"""Built-in plugin: the core's audit hooks (commands and objects), registered like any plugin."""
