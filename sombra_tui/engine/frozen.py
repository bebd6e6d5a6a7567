"""Issue 24: the base of the engine's immutable records, which share their fields sets.

Pydantic keeps, on every model instance, the set of the fields given when it was made
(`model_fields_set`): a set of its own per instance, up to 728 bytes for a set of five
or more names, often more than the instance's values. A history of ten thousand
commands holds a hundred thousand of these records (its commands, its log's events, its
checkpoints' declarations): 28 MiB of sets that spell the same few names over and over.
A frozen record never changes its fields, so instances with the same fields set share
one set object (pydantic copies it on `model_copy`, and never adds to it otherwise).

`trusted` builds a record without validation from values already checked (issue 24):
the machine's records, the defaults of nested settings and the built-in demo, so that
the first screen is drawn before pydantic builds any validator.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticUndefined

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


_Model = TypeVar("_Model", bound=BaseModel)
#: The defaults every record made may share (immutable).
_SHAREABLE: tuple[type, ...] = (bool, int, str, StrEnum, tuple, type(None))
#: Per model class: (field, default factory or None, default) in field order.
_PLANS: dict[type[BaseModel], tuple[tuple[str, Any, Any], ...]] = {}


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, Any, Any], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple((name, info.default_factory, info.default)
                     for name, info in cls.model_fields.items())
        for name, factory, default in plan:  # shared defaults must be immutable
            assert factory is not None or default is PydanticUndefined or isinstance(
                default, _SHAREABLE), (cls, name)
        _PLANS[cls] = plan
    return plan


def trusted(cls: type[_Model], /, **values: Any) -> _Model:
    """`cls(**values)` without validation, for records built from values already
    checked: the machine's (a declaration would otherwise re-run the validators of every
    action it holds), nested settings' defaults, the built-in demo and a new combat's
    first state. Lists are copied and unset fields take their defaults, as validation
    does (calling a default factory directly: pydantic's model_construct inspects each
    factory's signature first, milliseconds for a model of many); the result is equal
    to the validated one (tests check it: `VALIDATE_TRUSTED`)."""
    if VALIDATE_TRUSTED:
        return cls(**values)
    data: dict[str, Any] = {}
    for name, factory, default in _plan(cls):
        if name in values:
            value = values[name]
            data[name] = list(value) if type(value) is list else value
        else:
            assert default is not PydanticUndefined or factory is not None, (cls, name)
            data[name] = factory() if factory is not None else default
    assert len(data) == len(cls.model_fields) and values.keys() <= data.keys(), values
    model = object.__new__(cls)
    _set(model, "__dict__", data)
    # A frozen record shares its fields set, as validation gives it (see above).
    _set(model, "__pydantic_fields_set__", shared_fields_set(set(values))
         if issubclass(cls, Frozen) else set(values))
    _set(model, "__pydantic_extra__", None)
    # Private attributes start at their defaults, as model_construct gives them.
    private = cls.__private_attributes__
    _set(model, "__pydantic_private__", {name: _private_default(attribute)
                                         for name, attribute in private.items()}
         if private else None)
    return model


def _private_default(attribute: Any) -> Any:
    factory = attribute.default_factory
    if factory is not None:
        return factory()
    assert isinstance(attribute.default, _SHAREABLE), attribute  # shared: immutable
    return attribute.default


def defaults(cls: type[_Model], /, **values: Any) -> Any:
    """A default factory: `trusted(cls, **values)` each time (a nested record's default,
    built without validation as pydantic's own defaults are: it never validates them)."""
    return lambda: trusted(cls, **values)


#: Tests set this to make `trusted` validate, to compare both ways.
VALIDATE_TRUSTED = False

_set = object.__setattr__
