"""S1: undo, redo, checkpoints, seeded rolls and refused commands in `Combat`.

Every state an undo or redo produces is compared with the state the combat
actually had at that length of its history (kept while the script ran) and with
a fresh replay of the same commands.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from sombra_tui.engine import (
    AbandonExtended,
    Action,
    ActionKind,
    AddCharacter,
    AddCharacters,
    AdjustExtended,
    Advance,
    AllowPrompt,
    ChangeSettings,
    Character,
    Combat,
    CombatState,
    Command,
    Declare,
    DeclareGroup,
    Decline,
    DenyPrompt,
    Dice,
    DiceRoller,
    EditCharacter,
    Encounter,
    ExtendedMode,
    ExtendedSpec,
    FreeTA,
    ImportCharacters,
    LogEvent,
    Mark,
    MoveCharacter,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    React,
    ReactionMode,
    RemoveCharacter,
    RenameEncounter,
    Resolve,
    ResolveOpposed,
    SetMark,
    Settings,
    SombraError,
    StartCombat,
    history,
    storage,
)
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    AddNote,
    AttendWound,
    ConfirmProposal,
    DeclineHit,
    DeclineProposal,
    EditCondition,
    EditNote,
    EditWound,
    Heal,
    HealKind,
    HideCharacter,
    ManualHit,
    RemoveCondition,
    RemoveNote,
    RemoveWound,
    RevealCharacter,
    SetCounters,
)
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.registry import REGISTRY
from sombra_tui.engine.wounds import Location, Weapon

#: Every command type of the union, by its `type` tag.
ALL_TYPES = sorted(model.model_fields["type"].default
                   for model in typing.get_args(typing.get_args(Command)[0]))


def ch(name: str, primaria: int, secundaria: int, alerta: int) -> Character:
    return Character(name=name, primaria=primaria, secundaria=secundaria, alerta=alerta)


def act(description: str, *targets: str, kind: ActionKind = ActionKind.ROUND,
        **fields: Any) -> Action:
    return Action(kind=kind, description=description, targets=list(targets), **fields)


def encounter(seed: int = 3) -> Encounter:
    return Encounter(name="La oficina", seed=seed, characters=[
        ch("Ana", 8, 3, 14), ch("Bruno", 12, 5, 12), ch("Carla", 15, 2, 13)])


class Recorder:
    """Runs commands on a Combat and keeps the state and log after each length."""

    def __init__(self, combat: Combat) -> None:
        self.combat = combat
        self.states: list[CombatState] = [combat.state.model_copy(deep=True)]
        self.logs: list[list[LogEvent]] = [combat.log]

    def __call__(self, command: Command) -> None:
        self.combat.execute(command)
        self.states.append(self.combat.state.model_copy(deep=True))
        self.logs.append(self.combat.log)


def every_command_script() -> list[Command]:
    """One legal history that uses every command type at least once."""
    grab = Opposition(mode=OppositionMode.DIRECT, against=["Carla"])
    grab_back = Opposition(mode=OppositionMode.DIRECT, against=["Bruno"])
    return [
        AddCharacter(character=ch("Dora", 5, 1, 11)),
        EditCharacter(name="Dora", character=ch("Dori", 5, 2, 11)),  # renamed in setup
        MoveCharacter(name="Dori", position=0),
        RenameEncounter(name="La oficina, de noche"),
        ChangeSettings(settings=Settings(points_per_gd=4)),
        RemoveCharacter(name="Dori"),
        StartCombat(),
        Declare(character="Ana", actions=[
            act("aims at the door", target=14),
            act("picks the lock", kind=ActionKind.EXTENDED, target=14,
                extended=ExtendedSpec(mode=ExtendedMode.COMPLEX, successes=2))]),
        Declare(character="Bruno", actions=[
            act("shoots Ana", "Ana", target=15),
            act("grabs the key", target=12, opposition=grab)]),
        React(character="Ana", mode=ReactionMode.SUBSTITUTE,
              actions=[act("dives behind the desk", target=14),
                       act("picks the lock", kind=ActionKind.EXTENDED, target=14,
                           extended=ExtendedSpec(mode=ExtendedMode.SIMPLE, duration=2))],
              dice=Dice.of(3, 4, 2)),
        Decline(character="Bruno"),
        Declare(character="Carla", actions=[
            act("throws a grenade", "Ana", "Bruno", target=13),
            act("grabs the key too", target=13, opposition=grab_back),
            act("shouts", kind=ActionKind.INSTANT, target=13)]),
        DenyPrompt(character="Ana"),
        Decline(character="Bruno"),
        AllowPrompt(character="Ana", against="Carla"),
        React(character="Ana", mode=ReactionMode.COMBINE, actions=[act("covers her head")],
              accept_without_roll=True),
        Decline(character="Carla"),
        Advance(),  # instant phase
        Resolve(character="Carla", dice=Dice.of(2, 5, 1)),
        Advance(),  # round phase
        SetMark(character="Ana", mark=Mark.PREVENTED),
        Resolve(character="Carla", dice=Dice.of(5, 5, 1)),
        ResolveOpposed(character="Carla", rolls=[  # O2: Bruno's opposing step rolls too
            OpposedRoll(character="Carla", dice=Dice.of(6, 6, 6)),
            OpposedRoll(character="Bruno", dice=Dice.of(4, 3, 2))]),
        Resolve(character="Bruno", dice=Dice.of(1, 2, 3)),
        FreeTA(character="Bruno", target=12, gd=1, dice=Dice.of(3, 3, 3),
               label="spots the lock"),  # the DJ's free TA (T2)
        AdjustExtended(extended_id=1, gd=1),  # replaced below by the real id
        Advance(),  # extended phase
        AbandonExtended(extended_id=1),  # replaced below by the real id
        Advance(),  # end of round
        Advance(),  # round 2
        ImportCharacters(characters=[ch("Eva", 3, 1, 10), ch("Fede", 4, 2, 9)],
                         source="grupo.json"),  # reinforcements: they join next round
        HideCharacter(character="Eva"),  # issue 23: out of the players' view ...
        RevealCharacter(character="Eva"),  # ... and back in it
        # Issue 37: the DJ's notes pinned to an asalto (ids of -1 filled in).
        AddNote(round=3, text="llegan los guardias", character="Eva"),
        EditNote(note_id=-1, round=4, text="llegan los guardias, tarde", character="Eva"),
        AddNote(round=5, text="se va la luz", public=True),
        RemoveNote(note_id=-1),
        # Sections H and C (ids of -1 are filled in by played_script).
        ManualHit(character="Bruno", location=Location.BRAZO_DERECHO, damage=6,
                  cause="a fall"),  # R 5: leve, bleeds (H8, H9)
        AttendWound(character="Bruno", wound_id=-1),
        EditWound.model_construct(character="Bruno"),  # the wound is filled in
        Heal(character="Bruno", points=2, kind=HealKind.HERIDA),
        SetCounters(character="Bruno", g=15, w=15),  # PV 15: muerto proposed (H7)
        DeclineProposal(proposal_id=-1),  # H7: both reached at once: inconsciente next
        DeclineProposal(proposal_id=-1),
        SetCounters(character="Bruno", g=3, w=1),
        RemoveWound(character="Bruno", wound_id=-1),
        AddCondition(character="Ana", condition=builtin("aturdido", began=0, duration=1)),
        EditCondition.model_construct(character="Ana"),  # filled in
        RemoveCondition(character="Ana", condition_id=-1),
        # Ana, aturdido while she was the declarer, has declared inaction (C4).
        Declare(character="Bruno", affected=[], actions=[
            act("shoots Ana", "Ana", target=12, weapon=Weapon(name="pistola",
                                                              damage_type="II"))]),
        Declare(character="Carla", affected=[], actions=[
            act("shoots Bruno", "Bruno", target=13, weapon=Weapon(name="pistola",
                                                                  damage_type="II"))]),
        Advance(),  # instant
        Advance(),  # round
        Resolve(character="Carla", dice=Dice.of(5, 1, 1)),  # hits Bruno (H1)
        DeclineHit(proposal_id=-1, reason="cover"),
        Resolve(character="Bruno", dice=Dice.of(5, 2, 1)),  # hits Ana
        AcceptHit(proposal_id=-1, damage=16),  # the DJ's damage: PV 15 reached (H7)
        ConfirmProposal(proposal_id=-1),
        AddCharacters(character=ch("Matón", 6, 1, 9), count=3),  # Matón 1..3, one step
        Advance(), Advance(), Advance(),  # round 3: Eva and Fede declare first
        # Issue 39 item 3: one declaration for both, each its own Declare (D1).
        DeclareGroup(characters=["Eva", "Fede"], actions=[act("run for the door")]),
    ]


def played_script() -> tuple[Recorder, list[Command]]:
    """Play `every_command_script`, filling in the extended action's id when it exists."""
    recorder = Recorder(Combat(encounter()))
    played: list[Command] = []
    for command in every_command_script():
        if isinstance(command, AdjustExtended | AbandonExtended):
            active = [p for p in recorder.combat.state.extended if p.status.value == "active"]
            assert active, "the script needs a running extended action here"
            command = command.model_copy(update={"extended_id": active[0].id})
        command = _fill_ids(recorder.combat.state, command)
        recorder(command)
        played.append(command)
    return recorder, played


def _fill_ids(state: CombatState, command: Command) -> Command:
    """The proposal, wound and condition ids the script leaves as -1 (or None)."""
    if isinstance(command, AcceptHit | DeclineHit | ConfirmProposal | DeclineProposal):
        return command.model_copy(update={"proposal_id": state.proposals[0].id})
    if isinstance(command, EditNote):
        return command.model_copy(update={"note_id": state.notes[0].id})
    if isinstance(command, RemoveNote):
        return command.model_copy(update={"note_id": state.notes[-1].id})
    if isinstance(command, AttendWound | RemoveWound):
        wound = state.body(command.character).wounds[0]
        return command.model_copy(update={"wound_id": wound.id})
    if isinstance(command, EditWound):
        wound = state.body(command.character).wounds[0]
        return command.model_copy(update={"wound": wound.model_copy(update={"damage": 5})})
    if isinstance(command, EditCondition):
        old = state.body(command.character).conditions[0]
        return command.model_copy(update={"condition": old.model_copy(
            update={"duration": 3})})
    if isinstance(command, RemoveCondition):
        return command.model_copy(update={
            "condition_id": state.body(command.character).conditions[0].id})
    return command


def test_the_script_uses_every_command_type() -> None:
    """Guard: when a command type is added, the undo/redo tests must cover it."""
    _, played = played_script()
    assert sorted({command.type for command in played}) == ALL_TYPES


@pytest.mark.parametrize("kind", ALL_TYPES)
def test_s1_undo_and_redo_of_every_command_type(kind: str) -> None:
    """S1: undoing a command gives back the exact state and log from before it; redoing
    it gives the state and log from after it, for every command type."""
    recorder, played = played_script()
    index = next(i for i, command in enumerate(played) if command.type == kind)
    encounter_ = recorder.combat.encounter
    combat = Combat(encounter_, played[:index + 1])
    assert combat.state == recorder.states[index + 1]

    undone = combat.undo()
    assert undone == played[index]
    assert combat.state == recorder.states[index]
    assert combat.log == recorder.logs[index]
    assert combat.commands == played[:index]
    assert combat.redo_stack == [played[index]]
    assert combat.state == Combat(encounter_, played[:index]).state

    assert combat.redo() == played[index]
    assert combat.state == recorder.states[index + 1]
    assert combat.log == recorder.logs[index + 1]
    assert combat.commands == played[:index + 1]
    assert combat.redo_stack == []


def test_s1_undo_everything_then_redo_everything() -> None:
    """S1: the whole script undone step by step, then redone, passes through every
    recorded state in both directions."""
    recorder, played = played_script()
    combat = recorder.combat
    for length in range(len(played) - 1, -1, -1):
        combat.undo()
        assert combat.state == recorder.states[length]
        assert combat.log == recorder.logs[length]
    assert not combat.can_undo
    with pytest.raises(SombraError, match="undo"):
        combat.undo()
    assert combat.redo_stack == list(reversed(played))
    for length in range(1, len(played) + 1):
        combat.redo()
        assert combat.state == recorder.states[length]
        assert combat.log == recorder.logs[length]
    assert not combat.can_redo
    with pytest.raises(SombraError, match="redo"):
        combat.redo()


def test_s1_a_new_command_clears_the_redo_stack() -> None:
    """S1: after an undo, a different command starts a new branch: nothing to redo."""
    combat = Combat(encounter())
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("aims at the door")]))
    combat.undo()
    assert combat.can_redo
    combat.execute(Declare(character="Ana"))  # inaction this time
    assert combat.redo_stack == []
    assert not combat.can_redo
    with pytest.raises(SombraError):
        combat.redo()
    declaration = combat.state.declaration_of("Ana")
    assert declaration is not None and declaration.is_inaction


def test_s1_a_refused_command_keeps_the_redo_stack() -> None:
    """S1: a refused command is not a new branch: the redo stack survives it."""
    combat = Combat(encounter())
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana"))
    combat.undo()
    with pytest.raises(SombraError):
        combat.execute(Declare(character="Carla"))  # not her turn (I3)
    assert combat.redo_stack == [Declare(character="Ana")]
    combat.redo()
    assert combat.state.has_declared("Ana")


# --------------------------------------------------------------------------- checkpoints


def next_move(combat: Combat, plan: Action) -> Command:
    """The obvious next command: decline, declare `plan`, resolve, or advance."""
    state = combat.state
    if state.top_prompt is not None:
        return Decline(character=state.top_prompt.reactor)
    if state.current_declarer is not None:
        return Declare(character=state.current_declarer, actions=[plan])
    group = state.current_group()
    if state.phase in (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED) and group:
        if state.step_action(group[0]).kind is ActionKind.AUTOMATIC:
            return Resolve(character=group[0].character)
        return Resolve(character=group[0].character, dice=Dice.of(9, 9, 8))
    return Advance()


def long_history(combat: Combat, rounds: int) -> Recorder:
    """Many rounds with declarations, reactions, rolls and marks; each length recorded."""
    record = Recorder(combat)
    record(StartCombat())
    for number in range(rounds):
        record(Declare(character="Ana", actions=[act(f"aims {number}", target=14)]))
        record(Declare(character="Bruno", actions=[act(f"shoots Ana {number}", "Ana",
                                                       target=12)]))
        record(React(character="Ana", mode=ReactionMode.SUBSTITUTE,
                     actions=[act(f"dives {number}", target=14)],
                     dice=Dice.of(1 + number % 10, 2, 3)))
        while combat.state.top_prompt is not None:
            record(Decline(character=combat.state.top_prompt.reactor))
        record(Declare(character="Carla", actions=[act(f"waits {number}",
                                                       kind=ActionKind.AUTOMATIC)]))
        while combat.state.phase is not Phase.ROUND:
            record(Advance())
        while combat.state.current_group():
            name = combat.state.current_group()[0].character
            step = combat.state.current_group()[0]
            if combat.state.step_action(step).kind is ActionKind.AUTOMATIC:
                record(Resolve(character=name))
            else:
                record(Resolve(character=name, dice=Dice.of(1 + (number * 3) % 10, 4, 5)))
            if name == "Carla" and number % 2:
                record(SetMark(character="Ana", mark=Mark.PREVENTED))
        while combat.state.phase is not Phase.DECLARATION:
            record(Advance())
    return record


@pytest.mark.parametrize("every", [3, history.CHECKPOINT_EVERY])
def test_s1_undo_beyond_checkpoints_equals_a_fresh_replay(
        every: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: undoing across several checkpoints (more than CHECKPOINT_EVERY commands)
    gives, at every length, the recorded state and a fresh replay's state."""
    monkeypatch.setattr(history, "CHECKPOINT_EVERY", every)
    combat = Combat(encounter())
    rounds = 2 if every == 3 else 1 + (3 * history.CHECKPOINT_EVERY) // 12
    record = long_history(combat, rounds)
    commands = combat.commands
    total = len(commands)
    assert total > 2 * every + 5, "the history must span several checkpoints"
    for length in range(total - 1, -1, -1):
        combat.undo()
        assert combat.state == record.states[length], f"after undoing to {length}"
        if length % every in (0, 1, every - 1) or length < 3:
            assert combat.state == Combat(combat.encounter, commands[:length]).state
    for length in range(1, total + 1):
        combat.redo()
        assert combat.state == record.states[length], f"after redoing to {length}"
    assert combat.log == record.logs[-1]


@pytest.mark.parametrize("every", [4, history.CHECKPOINT_EVERY])
def test_s1_a_new_branch_after_undoing_past_a_checkpoint(
        every: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: undo past a checkpoint, take a different path, undo again: the states still
    match a fresh replay of the new history (no stale checkpoint is used)."""
    monkeypatch.setattr(history, "CHECKPOINT_EVERY", every)
    combat = Combat(encounter())
    long_history(combat, 1 + (2 * every) // 12)
    assert len(combat.commands) > every + 3
    # Back to the start of the last round's declarations, before the last checkpoint.
    while len(combat.commands) > every - 1:
        combat.undo()
    while combat.state.phase is not Phase.DECLARATION or combat.state.prompts:
        combat.undo()
    for _ in range(every + 8):
        combat.execute(next_move(combat, act("a different plan", kind=ActionKind.INSTANT,
                                             target=9)))
    commands = combat.commands
    for length in range(len(commands) - 1, -1, -1):
        combat.undo()
        assert combat.state == Combat(combat.encounter, commands[:length]).state


# --------------------------------------------------------------------------- dice


def draws(roller: DiceRoller, count: int = 6) -> list[Dice]:
    """Several rolls of one roller: two rollers from the same generator state give the
    same list; from different states, the same list only by a vanishing chance."""
    return [roller.roll() for _ in range(count)]


def test_t6_every_roll_is_a_new_draw_reproducible_from_the_seed() -> None:
    """T6/S1: the same seed and the same draws give the same dice; no two draws of an
    encounter start from the same state of the generator, whatever the history does."""
    first, second = Combat(encounter(seed=42)), Combat(encounter(seed=42))
    assert draws(first.roller()) == draws(second.roller())
    shown = draws(first.roller())  # a roll shown in a dialog, then cancelled
    assert draws(first.roller()) != shown  # ... is not the next roll
    assert first.dice_drawn == 3
    for combat in (first, second):
        combat.execute(StartCombat())
        combat.execute(Declare(character="Ana"))
    made = draws(first.roller())
    first.execute(Declare(character="Bruno"))
    first.undo()  # the draw made at this history length is not made again
    seen = [tuple(draws(first.roller())) for _ in range(20)]
    assert tuple(made) not in seen
    assert len(set(seen)) == len(seen)
    reopened = storage.loads(storage.dumps(first))  # the count is saved: no reuse
    assert reopened.dice_drawn == first.dice_drawn
    assert draws(reopened.roller()) == draws(first.roller())


def test_t6_rolls_change_with_the_draw_and_the_seed() -> None:
    """T6: different draws or seeds give different dice (over a few rolls)."""
    combat = Combat(encounter(seed=1))
    combat.execute(StartCombat())
    by_length = [combat.roll()]
    for name in ("Ana", "Bruno", "Carla", "Advance", "Advance", "Advance"):
        combat.execute(Advance() if name == "Advance" else Declare(character=name))
        by_length.append(combat.roll())
    assert len(set(by_length)) > 1
    other_seeds = [Combat(encounter(seed=seed)).roll() for seed in range(2, 9)]
    assert len(set([Combat(encounter(seed=1)).roll(), *other_seeds])) > 1
    for dice in [*by_length, *other_seeds]:
        assert all(1 <= value <= 10 for value in (dice.ds, dice.a, dice.b))


def test_i2_start_command_is_reproducible() -> None:
    """I2/T6: the iniciativa variable d10s come from the same seeded roller."""
    enc = encounter(seed=9).model_copy(update={"settings": Settings(iniciativa_variable=True)})
    first, second = Combat(enc).start_command(), Combat(enc).start_command()
    assert first == second
    assert sorted(first.initiative_rolls) == ["Ana", "Bruno", "Carla"]
    assert all(1 <= value <= 10 for value in first.initiative_rolls.values())
    assert Combat(encounter()).start_command() == StartCombat()


# --------------------------------------------------------------------------- refusals


def snapshot(combat: Combat) -> tuple[CombatState, list[LogEvent], list[Command], list[Command]]:
    return (combat.state.model_copy(deep=True), combat.log, combat.commands,
            combat.redo_stack)


def mid_chain() -> Combat:
    """Round 1, Ana's reaction succeeded, Bruno's counter-reaction prompt open; one
    command on the redo stack."""
    combat = Combat(encounter())
    for command in every_command_script()[6:10]:
        combat.execute(command)
    combat.execute(Decline(character="Bruno"))
    combat.undo()
    return combat


REFUSED: list[tuple[str, Callable[[Combat], Command]]] = [
    ("declare while a prompt is open (D11)", lambda c: Declare(character="Carla")),
    ("react for someone else's prompt (D11)",
     lambda c: React(character="Ana", mode=ReactionMode.COMBINE, actions=[act("x")],
                     dice=Dice.of(1, 1, 1))),
    ("react without dice (D6)",
     lambda c: React(character="Bruno", mode=ReactionMode.COMBINE, actions=[act("x")])),
    ("advance with a prompt open", lambda c: Advance()),
    ("resolve in the declaration phase", lambda c: Resolve(character="Ana", accept=True)),
    ("start twice", lambda c: StartCombat()),
    ("unknown character", lambda c: SetMark(character="Zoe", mark=Mark.OUT)),
    ("rename mid-combat",
     lambda c: EditCharacter(name="Ana", character=ch("Anabel", 8, 3, 14))),
    ("unchanged settings", lambda c: ChangeSettings(settings=c.state.settings)),
    ("no such extended action", lambda c: AbandonExtended(extended_id=999)),
    ("allow a prompt against oneself", lambda c: AllowPrompt(character="Ana", against="Ana")),
]


@pytest.mark.parametrize("make", [make for _, make in REFUSED],
                         ids=[name for name, _ in REFUSED])
def test_s1_a_refused_command_changes_nothing(make: Callable[[Combat], Command]) -> None:
    """S1: a refused command raises SombraError and leaves state, log, commands and the
    redo stack exactly as they were; the combat then goes on normally."""
    combat = mid_chain()
    before = snapshot(combat)
    with pytest.raises(SombraError) as info:
        combat.execute(make(combat))
    assert str(info.value).strip()
    assert snapshot(combat) == before
    combat.redo()  # the redo stack is intact and still replays
    assert combat.commands == [*before[2], *before[3]]


@pytest.mark.parametrize("failure", [SombraError("refused late"), ValueError("a bug")])
def test_s1_a_command_failing_after_changing_the_state_leaves_no_trace(
        failure: Exception, monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: even if the machine fails halfway through a command (after it changed the
    state), the combat is left exactly as before the command."""
    combat = mid_chain()
    before = snapshot(combat)
    entry = REGISTRY[Decline]
    real = entry.handler

    def half_done(state: CombatState, command: Decline, emit: object) -> None:
        real(state, command, emit)  # type: ignore[arg-type]
        state.locked.append("Carla")
        state.round += 5
        raise failure

    monkeypatch.setitem(REGISTRY, Decline, replace(entry, handler=half_done))
    with pytest.raises(type(failure)):
        combat.execute(Decline(character="Bruno"))
    assert snapshot(combat) == before
    monkeypatch.setitem(REGISTRY, Decline, entry)
    combat.execute(Decline(character="Bruno"))
    assert combat.state.top_prompt is None
    assert combat.state.round == 1 and combat.state.locked == []
