"""sombra-tui: a keyboard-driven combat tracker for Sistema Sombra."""

__version__ = "0.1.0"
