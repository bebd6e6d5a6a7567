"""Issue 24: the base of the engine's immutable records, which share their fields sets.

Pydantic keeps, on every model instance, the set of the fields given when it was made
(`model_fields_set`): a set of its own per instance, up to 728 bytes for a set of five
or more names, often more than the instance's values. A history of ten thousand
commands holds a hundred thousand of these records (its commands, its log's events, its
checkpoints' declarations): 28 MiB of sets that spell the same few names over and over.
A frozen record never changes its fields, so instances with the same fields set share
one set object (pydantic copies it on `model_copy`, and never adds to it otherwise).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

#: One set per distinct fields set of a frozen record (a few hundred at most: one per
#: record type and combination of fields given). Never changed once here.
_SHARED: dict[frozenset[str], set[str]] = {}


def shared_fields_set(fields: set[str]) -> set[str]:
    """The one set object equal to `fields` that frozen records share (never change it)."""
    key = frozenset(fields)
    shared = _SHARED.get(key)
    if shared is None:
        shared = _SHARED[key] = set(key)
    return shared


class Frozen(BaseModel):
    """A frozen pydantic model whose fields set is shared (see the module's docstring)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__",
                           shared_fields_set(self.__pydantic_fields_set__))
