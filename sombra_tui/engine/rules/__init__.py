"""The rules by RULES.md area: one module per area, each handler registered with its
command type, phases and undo/redo label (engine/registry.py). Importing this package
imports every area module, in a fixed order, and so registers every handler."""

from sombra_tui.engine.rules import (  # noqa: F401
    conditions,
    declaration,
    extended,
    hits,
    marks,
    opposition,
    players,
    resolution,
    setup,
)
