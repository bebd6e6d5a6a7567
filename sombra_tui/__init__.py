"""sombra-tui: a keyboard-driven combat tracker for Sistema Sombra."""

import gc as _gc

__version__ = "0.1.0"

# Issue 24 item 5 (cold start): what was loaded before us (Textual, when the app is
# started from Python) lives as long as the process: frozen out of the cyclic garbage
# collector's scans, as the engine's and the app's modules are once loaded
# (engine/__init__.py, app.py). Each freeze also restarts the collector's counts, so
# no full collection (30-150 ms) falls in the middle of the start.
_gc.freeze()

#: Whether pause_gc_for_start() paused the collector and nothing has resumed it yet.
_paused = False


def pause_gc_for_start() -> None:
    """Issue 24 item 5 (cold start): the cyclic garbage collector waits for the first
    screen. A start makes hundreds of thousands of objects that live as long as the
    process (Textual's, pydantic's and the engine's classes, the widgets) and almost no
    garbage, yet the collector's young collections scanned them: about 20 ms of a 330 ms
    start. `sombra-tui` calls this first thing when it is to start the app; the app
    resumes the collector once its first screen is drawn (`resume_gc`) or when it stops,
    and the command line when it returns without running it."""
    global _paused
    if _gc.isenabled():
        _gc.disable()
        _paused = True


def resume_gc() -> None:
    """End pause_gc_for_start()'s pause, if any (idempotent)."""
    global _paused
    if _paused:
        _paused = False
        _gc.enable()
