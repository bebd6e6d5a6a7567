"""sombra-tui: a keyboard-driven combat tracker for Sistema Sombra."""

import gc as _gc

__version__ = "0.1.0"

# Issue 24 item 5 (cold start): what was loaded before us (Textual, when the app is
# started from Python) lives as long as the process: frozen out of the cyclic garbage
# collector's scans, as the engine's and the app's modules are once loaded
# (engine/__init__.py, app.py). Each freeze also restarts the collector's counts, so
# no full collection (30-150 ms) falls in the middle of the start.
_gc.freeze()
