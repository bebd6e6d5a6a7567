"""Issue 24 item 4: the memory a history holds per log event must not grow back.

The log of a long history is most of its memory (the bench's 10,000 commands: about
15,000 events). Each event is a frozen pydantic record, and so are its TA result and
its GD breakdown; before they shared their fields sets (engine/frozen.py), pydantic gave
each instance a set of its own, up to 728 bytes. The measure is a walk of the objects
each event holds (each counted once, as sys.getsizeof gives it), so it is exact and the
same on every run: no timing, no allocator noise."""

from __future__ import annotations

import sys
from typing import Any

from pydantic import BaseModel

from sombra_tui.engine.frozen import Frozen
from sombra_tui.engine.history import Combat
from sombra_tui.engine.i18n import Msg
from tests import builders

ENCOUNTER = builders.build_encounter(12)
COMBAT = Combat(ENCOUNTER, builders.build_history(ENCOUNTER, 400))
#: Bytes per event of the history above, walked as below: 1,392 when this test was
#: written (2,429 before the fields sets were shared), with some room for new fields.
EVENT_BYTES = 1_550


def held_bytes(roots: list[Any]) -> int:
    """The bytes of the objects reachable from `roots` through models, containers and
    messages, each counted once (strings and numbers too; classes, enums and the
    shared fields sets' names are counted where first met)."""
    seen: set[int] = set()
    total = 0
    stack = list(roots)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, BaseModel):
            stack.append(item.__dict__)
            stack.append(item.__pydantic_fields_set__)
        elif isinstance(item, Msg):
            stack.extend([item.template, item.params, item.context, item.plural,
                          item.counter])
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif hasattr(item, "__slots__"):  # i18n.Join and the like
            stack.extend(getattr(item, name, None) for name in item.__slots__)
    return total


def test_log_events_per_event_memory_stays_small() -> None:
    log = COMBAT.log
    assert len(log) > 400
    per_event = held_bytes(list(log)) / len(log)
    assert per_event <= EVENT_BYTES, per_event


def test_frozen_records_with_the_same_fields_share_one_set() -> None:
    by_fields: dict[frozenset[str], set[str]] = {}
    records = [record for event in COMBAT.log
               for record in (event, event.ta, event.gd) if record is not None]
    records += COMBAT.commands
    assert all(isinstance(record, Frozen) for record in records)
    for record in records:
        fields = record.__pydantic_fields_set__
        assert by_fields.setdefault(frozenset(fields), fields) is fields


def test_a_shared_fields_set_is_not_changed_by_a_copy() -> None:
    event = COMBAT.log[-1]
    before = set(event.model_fields_set)
    copy = event.model_copy(update={"rule": "S2", "winner": "x"})
    assert event.model_fields_set == before
    assert {"rule", "winner"} <= copy.model_fields_set


def test_every_frozen_engine_model_shares_its_fields_sets() -> None:
    """A new frozen record declared with BaseModel and frozen=True would hold a set of
    its own per instance again: frozen engine records derive from Frozen."""
    import sombra_tui.engine.storage  # noqa: F401 (every engine model defined)

    def subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
        return [sub for direct in cls.__subclasses__()
                for sub in (direct, *subclasses(direct))]

    plain = sorted(model.__qualname__ for model in subclasses(BaseModel)
                   if model.__module__.startswith("sombra_tui.engine")
                   and model.model_config.get("frozen") and not issubclass(model, Frozen))
    assert plain == []


def test_opening_a_file_gives_back_what_reading_and_checking_it_freed(
        tmp_path: Any, monkeypatch: Any) -> None:
    """Session.open and the end of its check hand the C allocator's freed memory back
    (malloc_trim on Linux): what pydantic's JSON parser and the check's replay freed
    is not kept in the process's peak."""
    import asyncio

    from sombra_tui import memory, session
    from sombra_tui.engine import storage

    memory.release_freed_memory()  # looked up once, and harmless wherever it runs
    calls: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", calls.append)
    path = tmp_path / f"encounter{storage.FILE_SUFFIX}"
    storage.save(COMBAT, path)
    opened = session.Session.open(path)
    assert calls == [0]
    steps = 0
    step = opened.combat.check_step

    def counted(count: int = 0) -> bool:
        nonlocal steps
        steps += 1
        return step(count)

    monkeypatch.setattr(opened.combat, "check_step", counted)
    assert asyncio.run(opened.checked()) is None
    assert steps > 1  # checked a step at a time
    assert calls == [0] * (1 + steps)  # after each step but the last, and once checked
    assert opened.combat.log == COMBAT.log
