"""The registry (engine/registry.py): the one list of commands, their handlers, the
phases they fit (P1) and how undo/redo name them."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from sombra_tui.engine import SombraError, i18n
from sombra_tui.engine.commands import Command, ConfirmProposal, ManualHit, React
from sombra_tui.engine.registry import REGISTRY, entry_for, label_of
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import act, declare, top_reactor
from tests.engine.test_allowed import SAMPLES, combat_in

UNION: set[type[BaseModel]] = set(Command.__origin__.__args__)  # type: ignore[attr-defined]

#: Where each phase-bound sample is tried.
PHASE_OF: dict[str, Phase] = {
    "start_combat": Phase.SETUP, "resolve": Phase.INSTANT, "resolve_opposed": Phase.INSTANT}


def test_the_command_union_and_the_registry_are_the_same_set() -> None:
    assert len(UNION) == 40
    assert set(REGISTRY) == UNION
    assert all(entry.command is kind for kind, entry in REGISTRY.items())


def test_every_command_has_a_label() -> None:
    assert [kind for kind, entry in REGISTRY.items() if not entry.label.strip()] == []


def test_every_label_has_a_spanish_translation() -> None:
    english = {kind: label_of(kind) for kind in REGISTRY}
    i18n.set_language("es")
    spanish = {kind: label_of(kind) for kind in REGISTRY}
    assert [kind for kind in REGISTRY if spanish[kind] == english[kind]] == []
    assert all(spanish[kind] for kind in REGISTRY)


def test_label_of_names_whom_the_command_is_about() -> None:
    command = ConfirmProposal.model_construct(proposal_id=1)
    assert label_of(command) == "confirm proposal"
    assert label_of(ManualHit.model_construct(character="Iker")) == "hit by hand (Iker)"
    i18n.set_language("es")
    assert label_of(ManualHit.model_construct(character="Iker")) == "impacto a mano (Iker)"


def test_an_unknown_command_has_no_entry() -> None:
    with pytest.raises(SombraError) as caught:
        entry_for(BaseModel)
    assert caught.value.code == "command.unknown"


@pytest.mark.parametrize("kind", list(SAMPLES), ids=lambda kind: kind.__name__)
def test_settles_first_is_what_the_handler_does(kind: type[BaseModel]) -> None:
    """H1/H7/H11: a command flagged settles_first is refused while a proposal is open
    (code proposal.open); a phase-bound command without the flag is not."""
    command = SAMPLES[kind]
    combat = combat_in(PHASE_OF.get(getattr(command, "type", ""), Phase.DECLARATION))
    hurt = "Ana"
    if kind is React:  # D4: a reaction answers a later declaration's prompt
        first = combat.state.current_declarer
        assert first is not None
        declare(combat, first)
        second = combat.state.current_declarer
        assert second is not None
        declare(combat, second, act("hits", first))
        assert top_reactor(combat.state) == first
        command = command.model_copy(update={"character": first})
        hurt = second
    combat.execute(ManualHit(character=hurt, location=Location.PECHO, damage=60))
    assert combat.state.proposals  # H7: past PV, a threshold condition is proposed
    try:
        combat.preview(command)  # type: ignore[arg-type]
        code = None
    except SombraError as error:
        code = error.code
    assert (code == "proposal.open") == entry_for(kind).settles_first, code
