"""The process's memory: what the C allocator holds freed, given back to the system
(issue 24 item 4). No Textual, no engine: the session calls it after reading a file."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable

#: The C library's malloc_trim, once looked up (None: not looked up yet; a no-op where
#: there is none).
_malloc_trim: Callable[[int], object] | None = None


def release_freed_memory() -> None:
    """Issue 24 item 4: give the memory the C allocator holds freed back to the system,
    after reading a file and after each step of its check (about 0.03 ms a call).
    pydantic's JSON parser builds the file's tree with malloc, and the check's replay
    frees thousands of states' and events' buffers; glibc keeps what they freed in its
    heap (about 15 MiB once the bench's file is read), where Python's own allocator,
    which maps arenas of its own, never takes it again, so the process's peak kept it.
    Linux's glibc only (malloc_trim); elsewhere nothing is done."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = lambda pad: None  # noqa: E731 (until found, and where absent)
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError):
                import ctypes

                _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
    _malloc_trim(0)
