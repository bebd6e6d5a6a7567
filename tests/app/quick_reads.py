"""The check shared by the quick reads of files read at start (issue 24 item 5): the
preferences' and the themes' own checks without pydantic must agree with pydantic."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def assert_quick_read_agrees(model: type[M], quick_read: Callable[[dict[str, Any]], M | None],
                             read: Callable[[dict[str, Any]], M], data: dict[str, Any]
                             ) -> None:
    """Whatever `quick_read` takes, pydantic takes the same way (same values, same
    fields set); `read` gives pydantic's verdict either way."""
    try:
        validated: M | None = model.model_validate(data)
    except ValidationError:
        validated = None
    quick = quick_read(data)
    if quick is not None:
        assert validated is not None
        assert quick == validated and quick.model_fields_set == validated.model_fields_set
    if validated is None:
        with pytest.raises(ValidationError):
            read(data)
    else:
        assert read(data) == validated
