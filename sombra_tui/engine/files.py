"""Reading the app's files safely: a regular file of bounded size, or a SombraError.

Every reader of the app's files goes through `read_regular_file` (encounter files, the
roster, the crash journal, the preferences, the themes); every reader of a JSON file
refuses an object that holds a key twice (`loads_json`, `check_unique_keys`), which
Python's json (and pydantic's parser) would read silently, the last value winning.
It lives apart from the file format (`storage.py`, which gives the same names) so
that reading the preferences and the themes at start-up does not load the file
format's models (issue 24 item 5: cold start).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from sombra_tui.engine.errors import SombraError, os_reason
from sombra_tui.engine.i18n import N_, _

__all__ = ["DuplicateKeyError", "MissingFileError", "check_unique_keys", "loads_json",
           "read_regular_file"]


class MissingFileError(SombraError):
    """The file to read does not exist (callers may treat that as "use the defaults")."""


def _describe_size(size: int) -> str:
    if size < 1024:
        return _("{size} bytes").format(size=size)
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KiB" if size % 1024 == 0 else f"{size / 1024:.1f} KiB"
    mib = size / (1024 * 1024)
    return f"{mib:.0f} MiB" if size % (1024 * 1024) == 0 else f"{mib:.1f} MiB"


def _check_kind(path: Path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise SombraError(N_("{path} is a folder, not {what}."),
                          code="storage.is_folder", params={"path": str(path), "what": what})
    kind = (_("a named pipe (FIFO)") if stat.S_ISFIFO(mode) else
            _("a device") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            _("a socket") if stat.S_ISSOCK(mode) else _("a special file"))
    raise SombraError(N_("{path} is {kind}, not a regular file, so it cannot be {what}."),
                      code="storage.not_regular",
                      params={"path": str(path), "kind": kind, "what": what})


def _read_failed(path: Path, error: OSError) -> SombraError:
    """The domain error for a file that could not be read, naming the system's reason."""
    return SombraError(N_("Could not read {path}: {reason}."), code="storage.read_failed",
                       params={"path": str(path), "reason": os_reason(error, plain=True)})


def _too_large(path: Path, size: str, limit: int, what: str) -> SombraError:
    return SombraError(N_("{path} is too large ({size}) to be {what}; the limit is {limit}."),
                       code="storage.too_large",
                       params={"path": str(path), "size": size, "what": what,
                               "limit": _describe_size(limit)})


#: Flags for opening a file to read: a FIFO swapped in after the check cannot block the
#: open, a terminal device cannot become our controlling terminal.
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))


def read_regular_file(path: Path, limit: int, *, what: str | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or a SombraError naming it.

    Folders, FIFOs, devices and sockets are refused before they are opened (a FIFO would
    block, /dev/zero never ends); the file is opened without blocking and checked again
    once open (it may have been swapped meanwhile), and at most `limit` + 1 bytes are
    ever read, whatever the file's size claims (files in /proc say 0). A missing file
    raises MissingFileError; `what` names the kind of file in the messages.
    """
    path = Path(path)
    what = _("an encounter file") if what is None else what
    try:
        _check_kind(path, os.stat(path).st_mode, what)
        descriptor = os.open(path, _READ_FLAGS)
    except FileNotFoundError as error:
        raise MissingFileError(N_("{path} does not exist."), code="storage.missing",
                               params={"path": str(path)}) from error
    except OSError as error:
        raise _read_failed(path, error) from error
    try:
        info = os.fstat(descriptor)
        _check_kind(path, info.st_mode, what)
        if info.st_size > limit:
            raise _too_large(path, _describe_size(info.st_size), limit, what)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise _read_failed(path, error) from error
    finally:
        os.close(descriptor)
    if left <= 0:
        raise _too_large(path, _("more than {size}").format(size=_describe_size(limit)),
                         limit, what)
    return b"".join(chunks)


# ---- a key twice in one JSON object (issue 41 item 4) -----------------------------------

class DuplicateKeyError(Exception):
    """A JSON object holds `key` twice; `path` is the key's dotted place in the file
    ("commands.12.actions.0.target"), as a bad value's path is given."""

    def __init__(self, key: str, path: str) -> None:
        super().__init__(key, path)
        self.key = key
        self.path = path


class _Twice(Exception):
    """An object with a key twice was met (where is found afterwards, `_where_twice`)."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Called by json's C parser for every object: the one Python step per object.
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Twice
    return result


class _Pairs(list[tuple[str, Any]]):
    """An object as its key-value pairs, in the file's order (`_where_twice`)."""


def _where_twice(text: str) -> DuplicateKeyError:
    """The first key held twice by one object, in the file's order, and its path (a
    second reading, only once `_unique` met one)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [
        (json.loads(text, object_pairs_hook=_Pairs), ())]
    while stack:
        value, path = stack.pop()
        children: list[tuple[Any, tuple[str | int, ...]]] = []
        if isinstance(value, _Pairs):
            seen: set[str] = set()
            for key, item in value:
                if key in seen:
                    return DuplicateKeyError(key, ".".join(map(str, (*path, key))))
                seen.add(key)
                children.append((item, (*path, key)))
        elif isinstance(value, list):
            children = [(item, (*path, index)) for index, item in enumerate(value)]
        stack.extend(reversed(children))  # depth first, in the file's order
    raise AssertionError("no key twice")  # pragma: no cover - _unique met one


def loads_json(text: str) -> Any:
    """`json.loads(text)`, but an object holding a key twice raises DuplicateKeyError
    (json keeps the last value, silently). Otherwise the same errors as json.loads."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _Twice:
        raise _where_twice(text) from None


def check_unique_keys(text: str) -> None:
    """Raise DuplicateKeyError if an object of the JSON `text` holds a key twice. Text
    that is not JSON passes: its reader says what is wrong with it."""
    try:
        loads_json(text)
    except (ValueError, RecursionError):
        return
