"""The rules by RULES.md area: one module per area, each handler registered with its
command type, phases and undo/redo label (engine/registry.py). Importing this package
imports every area module, in a fixed order, and so registers every handler."""

import gc as _gc

from sombra_tui.engine.rules import (  # noqa: F401
    conditions,
    declaration,
    extended,
    hits,
    marks,
    notes,
    opposition,
    players,
    resolution,
    setup,
)

# Issue 24 item 5 (cold start): what loading the rules built (pydantic, the commands and
# the state's ~80 model classes, the rules' tables) lives as long as the process. Frozen
# out of the cyclic garbage collector, no collection scans it again: the first full
# collection, due while the app's modules load, scanned it all (30-150 ms on a shared
# machine). (The engine package loads its modules on first use, so this is where the
# bulk of the engine is done; app.py freezes again once the app's modules are loaded.)
_gc.freeze()
