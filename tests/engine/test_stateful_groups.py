"""Stateful property test of a simultaneous group's turn (P4) and of conditions inside it
(C4), with marks, conditions, oppositions (O2, O3, O5) and hits by hand (H7, H11) mixed.

A hypothesis RuleBasedStateMachine builds an encounter of 4-6 characters whose primarias
come from three values, so that several simultaneous groups (I4) share them, and plays
rounds in which some round actions are direct (O2) or conditioned (O3) oppositions
across groups. Between the steps the DJ marks characters (out, prevented, back,
unprevent), adds and removes conditions (aturdido: cannot act or react; inconsciente:
out; derribado: cannot act; cegado: a GD on every TA), makes hits by hand that may bring
H7 threshold proposals, and settles proposals (confirm or decline).

The oracle is the test's own. It keeps, for the phase being played, the simultaneous
groups whose turn has come: a group's turn comes with the first TA (or automatic action)
resolved by a command at its own place in action order (P4), never with a TA one of its
members rolled earlier as an opponent in another group's opposition (O2). It does not ask
the engine (no `group_in_progress`, `group_started`, `early`). From that it checks:

* P4, at once: a mark made while no group's turn is in progress takes effect at once,
  even on a member of a group one of whose members already rolled early: out puts the
  character in `state.out` and skips its pending step, prevented skips its round step;
  back or unprevent before its group's turn gives a skipped action back.
* P4, after the group: a mark made on a member of the group whose turn is in progress
  waits in `pending_marks`; its step stays pending until it rolls; after the group's last
  TA every waiting mark has applied.
* C4: a condition begun on a member of the group in progress is held (`held_conditions`):
  a member yet to roll still rolls, with no grade from it and no H11 proposal; one begun
  on anyone else, or outside a group's turn, acts at once (a cannot-act or out condition
  skips the character's step in the acting group).
* C4: an out mark the DJ made by hand survives any condition ending; a condition ending
  lifts only its own effect (nobody stays out through an out condition that ended).
* Always: `pending_marks` and `held_conditions` are empty whenever no group's turn is in
  progress; nobody out, prevented (round phase) or unable to act by a condition in
  effect has a pending step in the acting group (P4, C4); nobody out, or prevented in
  the round phase, rolls in an opposition (O5).
* O5 (format 4): nobody unable to act by a condition in effect (aturdido, derribado,
  inconsciente; not held for its group, not left to the DJ by H11) rolls in an
  opposition either, also as the opponent of an earlier group's action.
* O2/O3 with I4, nobody rolls twice in one opposition: a character who rolls in one
  has no step left in the phase that opposes another who rolled in it (its own
  opposed action naming them, or a plain action the other's opposition binds).
* O3 (format 4): no conditioned comparison, and no hit, between a dodger and a would-be
  partner whose actions are all aimed at others (Iker dodges Bruno, who shoots Lucía).

Some declarations are attacks (a pistol, aimed at someone) and dodges (the conditioned
side of an attack), mostly of a faster character who may shoot someone else, and instant
attacks; hits are proposed and accepted (their wounds and conditions, H9, play on) or
declined.

RULES.md's fourth pass (issue 35; format version 4, Settings.rules_v4):

* P4: a mark made inside a group's turn on anyone outside that group (and an out
  condition's mark) takes effect at once; only a member's waits for the group.
* C4/H11: the DJ's "no" to "prevented?" keeps the round action against that condition
  only: a character who cannot act by another condition in effect never resolves a
  step (the oracle's `unable` reads the answers per condition).
* H11 in any phase an attack resolves in: instant attacks (and hits by hand) that leave
  someone aturdido, inconsciente, derribado or desarmado with a round action still to
  come (a round step pending, or declared during the instant phase) ask "prevented?"
  about that condition, unless another condition already stops the action; a condition
  held for an instant group asks once the group has acted.
* C4/H10: a wound begun on a member inside its group's turn adds no grade to the
  member's TA in that turn; every other wound's grades weigh on it.
`--hypothesis-show-statistics` shows how often each case came up (events).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sombra_tui.engine import (
    Action,
    ActionKind,
    Advance,
    Character,
    Combat,
    CombatState,
    Command,
    Declare,
    Dice,
    Encounter,
    EventKind,
    Mark,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    Reading,
    Resolve,
    ResolveOpposed,
    Role,
    SetMark,
    Settings,
    SombraError,
    StartCombat,
    StepStatus,
    ask,
    plan_opposition,
)
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    ConfirmProposal,
    DeclineHit,
    DeclineProposal,
    ManualHit,
    RemoveCondition,
)
from sombra_tui.engine.conditions import (
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    GdEffect,
    GradeSourceKind,
    ScopeKind,
    builtin,
)
from sombra_tui.engine.state import Body, ProposalKind, Step
from sombra_tui.engine.wounds import Location, Weapon

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elena", "Fede"]
PRIMARIAS = [4, 8, 12]
RESOLUTION = (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED)
#: Kinds of action built as steps of the round phase (P3): a round action to come (H11).
ROUND_KINDS = (ActionKind.ROUND, ActionKind.AUTOMATIC)
DICE = st.builds(Dice.of, st.integers(1, 10), st.integers(1, 10), st.integers(1, 10))
PISTOLA = Weapon(name="pistola", damage_type="II")


def derribado(duration: int | None) -> Condition:
    """A DJ condition that leaves only inaction (C1, C2)."""
    return Condition(name="derribado", duration=duration,
                     effects=ConditionEffects(cannot_act=True))


def cegado(gd: int) -> Condition:
    """A DJ condition with a grade on every TA (C1, H10)."""
    return Condition(name="cegado", effects=ConditionEffects(
        gd=(GdEffect(scope=ScopeKind.ANY, gd=gd),)))


def blocks_action(condition: Condition) -> bool:
    """C1/C4: cannot act, or out (P4): only inaction, pending steps skipped."""
    return condition.effects.cannot_act or condition.effects.out


def stops_round_action(condition: Condition) -> bool:
    """H11: aturdido, inconsciente, dead or disarmed (or any that leaves only inaction)."""
    return blocks_action(condition) or condition.name == "desarmado"


def eventually(state: CombatState) -> tuple[set[str], set[str]]:
    """(out, prevented) once the marks waiting for the group (P4) have applied, in order."""
    out, prevented = set(state.out), set(state.prevented)
    for pending in state.pending_marks:
        mark = Mark(pending.mark)
        if mark is Mark.OUT:
            out.add(pending.character)
        elif mark is Mark.BACK:
            out.discard(pending.character)
        elif mark is Mark.PREVENTED:
            prevented.add(pending.character)
        else:
            prevented.discard(pending.character)
    return out, prevented


def aims_elsewhere(state: CombatState, name: str, other: str) -> bool:
    """O3 (format 4), by the oracle: every action `name` declared names someone (its
    targets or its opposition) and none names `other`."""
    declaration = state.declaration_of(name)
    actions = declaration.actions if declaration else []
    named = [{*a.targets, *(a.opposition.against if a.opposition else ())} for a in actions]
    return bool(actions) and all(each and other not in each for each in named)


def answering(state: CombatState, name: str, rollers: set[str]) -> set[int]:
    """O2/O3 with I4, by the oracle: the pending steps of `name` (one action per
    declaration here) that would make it roll against one of `rollers`: its own opposed
    action naming one, or a plain round action aimed at one (or at nobody) that one's
    pending opposition binds (direct, or a conditioned side that names it)."""
    found: set[int] = set()
    pending = state.pending_steps()
    for step in pending:
        if step.character != name:
            continue
        action = state.step_action(step)
        if action.opposition is not None:
            if rollers & set(action.opposition.against):
                found.add(step.id)
            continue
        if action.kind is not ActionKind.ROUND:
            continue
        binders = []
        for other in pending:
            theirs = state.step_action(other).opposition
            if other.character == name or theirs is None \
                    or name not in theirs.against or (action.targets and
                                                      other.character not in action.targets):
                continue
            if theirs.mode is OppositionMode.DIRECT or theirs.role is Role.CONDITIONED:
                binders.append((other.character, theirs))
        # A plain action bound by oppositions of two kinds (Carla's direct one and
        # Dario's conditioned one) answers those of the first binder's kind, in the
        # steps' order; in the others it rolls with a value the DJ gives (the engine's
        # reading: RULES.md does not say which; see the stop's note).
        if binders:
            first = binders[0][1]
            bound = {who for who, theirs in binders if theirs.mode is first.mode
                     and (first.mode is OppositionMode.DIRECT or theirs.role is first.role)}
            if rollers & bound:
                found.add(step.id)
    return found


class GroupTurnMachine(RuleBasedStateMachine):
    """P4/C4 timing around simultaneous groups; the checks are in the module docstring."""

    def __init__(self) -> None:
        super().__init__()
        self.combat: Combat
        self.serial = 0
        #: (round, phase) the groups below belong to.
        self.phase_key: tuple[int, Phase] = (0, Phase.SETUP)
        #: P4: groups (of this phase) whose turn has come: a command resolved a step at the
        #: group's own place. Kept by the test, never read from the engine.
        self.turn_came: set[int] = set()
        #: C4: (character, condition id) begun inside the character's group's turn.
        self.held: set[tuple[str, int]] = set()
        #: H11: conditions (ids) whose "prevented?" the DJ declined this round: the round
        #: action stands against each of them only (C4).
        self.excused: set[int] = set()
        #: C4/H10: wounds (ids) begun on a member inside its group's turn.
        self.held_wounds: set[int] = set()
        #: C4: characters the DJ marked out by hand and has not brought back.
        self.hand: set[str] = set()
        #: Whether the command being run came after an early roll, before the turn.
        self.early_before = False

    # ---- the oracle ---------------------------------------------------------------

    @property
    def state(self) -> CombatState:
        return self.combat.state

    def names(self) -> list[str]:
        return [ch.name for ch in self.state.characters]

    def acting_group(self) -> int | None:
        """The group of the first pending step (steps are in action order, I4)."""
        if self.state.phase not in RESOLUTION:
            return None
        for step in self.state.steps:
            if step.status is StepStatus.PENDING:
                return step.group
        return None

    def in_progress(self) -> bool:
        """P4: the acting group's turn has come (a TA was made at its place)."""
        group = self.acting_group()
        return group is not None and group in self.turn_came

    def members(self, group: int | None) -> set[str]:
        return {s.character for s in self.state.steps if s.group == group}

    def came(self, group: int) -> bool:
        """P4: the turn of `group` or of a later group has come this phase."""
        return any(other >= group for other in self.turn_came)

    def statuses(self, name: str) -> dict[int, StepStatus]:
        return {s.id: s.status for s in self.state.steps if s.character == name}

    def unable(self, name: str) -> bool:
        """C4/P4, by the oracle: out, prevented (round phase), or a condition in effect that
        leaves only inaction and is not held for the character's group."""
        state = self.state
        if name in state.out or (state.phase is Phase.ROUND and name in state.prevented):
            return True
        # H11: in the round phase the round action stands against each condition the DJ
        # is asked about, or declined "prevented?" for, and only those.
        answered = self.answered(name) if state.phase is Phase.ROUND else set()
        return any(blocks_action(cond) and cond.active_in(state.round)
                   and (name, cond.id) not in self.held and cond.id not in answered
                   for cond in state.body(name).conditions)

    def answered(self, name: str) -> set[int]:
        """H11: conditions the DJ declined "prevented?" for this round, or is asked now."""
        return self.excused | {p.condition_id for p in self.state.proposals
                               if p.kind is ProposalKind.PREVENT and p.character == name
                               and p.condition_id is not None}

    def round_action_to_come(self, name: str) -> bool:
        """H11: a round step pending (round phase) or a round action declared (instant)."""
        state = self.state
        if state.phase is Phase.ROUND:
            return any(s.character == name and s.status is StepStatus.PENDING
                       for s in state.steps)
        declaration = state.declaration_of(name)
        return state.phase is Phase.INSTANT and declaration is not None and any(
            action.kind in ROUND_KINDS for action in declaration.actions)

    def expect_question(self, name: str, condition: Condition) -> None:
        """H11: a condition in effect that stops a round action still to come asks
        "prevented?" about it, unless the character is out or prevented (now or once the
        group has acted) or another condition in effect already stops it (C4)."""
        state = self.state
        if not stops_round_action(condition) or not condition.active_in(state.round) \
                or state.character(name) is None or not self.round_action_to_come(name):
            return
        out, prevented = eventually(state)
        answered = self.answered(name)
        stopped = any(blocks_action(cond) and cond.active_in(state.round)
                      and cond.id != condition.id and cond.id not in answered
                      and (name, cond.id) not in self.held
                      for cond in state.body(name).conditions)
        if name in out or name in prevented or stopped:
            return
        event("H11: asked, " + state.phase.value)
        assert any(p.kind is ProposalKind.PREVENT and p.condition_id == condition.id
                   for p in state.proposals), (
            f"H11: no prevented? for {name}'s {condition.name} ({state.phase.value})")

    def conditions_by_id(self) -> dict[tuple[str, int], Condition]:
        return {(name, cond.id): cond for name, body in self.state.bodies.items()
                for cond in body.conditions}

    # ---- running commands -----------------------------------------------------------

    def execute(self, command: Command) -> None:
        """Run `command`, then check what any command must leave (P4, C4)."""
        acting = self.acting_group()
        progress = self.in_progress()
        members = self.members(acting)
        conditions = self.conditions_by_id()
        wounds = self.wound_ids()
        proposals = {p.id for p in self.state.proposals}
        out_before = set(self.state.out)
        self.early_before = self.early_roll_before_turn()
        events = self.combat.execute(command)
        self.check_o3_partners(events)
        if (self.state.round, self.state.phase) != self.phase_key:
            if self.phase_key[1] is Phase.ROUND:
                self.excused = set()  # H11: the answers hold for this round's actions
            self.phase_key = (self.state.round, self.state.phase)
            self.turn_came = set()
        elif isinstance(command, Resolve | ResolveOpposed):
            assert acting is not None
            self.turn_came.add(acting)  # P4: the group's turn comes with this TA
        if isinstance(command, Resolve | ResolveOpposed):
            # What begins with a TA is a hit that waited for its group (H11): after it.
            progress = False
        for name, wound_id in self.wound_ids() - wounds:
            if progress and name in members:
                self.held_wounds.add(wound_id)  # C4/H10: weighs after the group
        for key, condition in self.conditions_by_id().items():
            if key not in conditions:
                self.condition_began(key[0], condition, progress, members, proposals,
                                     out_before)
        if not self.in_progress():
            released = [(name, cid) for name, cid in self.held]
            self.held.clear()  # C4: the group has acted: its conditions apply now
            self.held_wounds.clear()
            now = self.conditions_by_id()
            for key in released:  # H11: asked once the group has acted
                if key in now:
                    self.expect_question(key[0], now[key])

    def wound_ids(self) -> set[tuple[str, int]]:
        return {(name, wound.id) for name, body in self.state.bodies.items()
                for wound in body.wounds}

    def check_o3_partners(self, events: list[Any]) -> None:
        """O3 (format 4): no conditioned pair compared, and no hit proposed, between a
        dodger and a partner whose actions all aim at others."""
        state = self.state
        for each in events:
            if each.kind is EventKind.OPPOSED and each.rule == "O4" and each.actor:
                [conditioned] = each.targets
                assert not aims_elsewhere(state, each.actor, conditioned), (
                    f"O3: {each.actor}, aiming at others, compared with {conditioned}")
        for proposal in state.proposals:
            if proposal.kind is ProposalKind.HIT and proposal.attacker is not None:
                declaration = state.declaration_of(proposal.character)
                dodges = [a for a in declaration.actions if a.opposition is not None
                          and a.is_dodge and proposal.attacker in a.opposition.against
                          ] if declaration else []
                assert not (dodges and aims_elsewhere(state, proposal.attacker,
                                                      proposal.character)), (
                    f"O3: a hit on {proposal.character}, who dodged "
                    f"{proposal.attacker}, aiming at others")

    def refused(self, command: Command) -> None:
        state = self.state.model_copy(deep=True)
        try:
            self.combat.execute(command)
        except SombraError:
            pass
        else:
            raise AssertionError(f"{command!r} should have been refused")
        assert self.state == state

    def condition_began(self, name: str, condition: Condition, progress: bool,
                        members: set[str], proposals: set[int], out_before: set[str]) -> None:
        """C4: held for a member of the group in progress, in effect at once otherwise."""
        state = self.state
        event("condition: " + ("in turn, member" if progress and name in members
                               else "in turn, other" if progress else
                               "before turn, after an early roll" if self.early_before
                               else "outside a turn"))
        if progress and name in members:
            assert condition.id in state.held_conditions, (
                f"C4: {name}'s {condition.name} begun inside the group's turn is not held")
            self.held.add((name, condition.id))
            if self.in_progress():  # the group has not finished with this command
                assert not any(p.kind is ProposalKind.PREVENT and p.character == name
                               and p.id not in proposals for p in state.proposals), (
                    f"H11/C4: a prevent proposal for {name}'s held {condition.name}")
                if condition.effects.out:
                    assert name not in state.out or name in out_before, (
                        f"C4: {name} is out inside the group's turn")
            return
        assert condition.id not in state.held_conditions, (
            f"C4: {name}'s {condition.name} is held though {name}'s group's turn is not "
            "in progress")
        if condition.effects.out and condition.active_in(state.round):
            # P4: on anyone outside the group in progress, the out mark is made at once.
            assert name in state.out, f"P4: {name} is not out at once ({condition.name})"
        if self.state.phase in (Phase.INSTANT, Phase.ROUND):
            self.expect_question(name, condition)

    # ---- set-up ---------------------------------------------------------------------

    @initialize(data=st.data())
    def set_up(self, data: Any) -> None:
        count = data.draw(st.sampled_from([6, 5, 4]), label="characters")
        characters = [Character(name=NAMES[i],
                                primaria=data.draw(st.sampled_from(PRIMARIAS), label="primaria"),
                                secundaria=i, alerta=12,
                                resistencia=data.draw(st.integers(2, 3), label="resistencia"))
                      for i in range(count)]
        encounter = Encounter(name="Grupos", characters=characters,
                              settings=Settings(reaccion=False), seed=0)
        self.combat = Combat(encounter)
        self.execute(StartCombat())

    # ---- declarations and steps --------------------------------------------------------

    def draw_action(self, data: Any, author: str) -> list[Action]:
        """A declaration; an opposition is mostly answered by its opponent's own, so that
        a later group's member rolls early at an earlier group's turn (O2, O3, P4)."""
        state = self.state
        others = [n for n in self.names() if n != author]
        opposers: dict[str, Opposition] = {}
        for name in others:
            declaration = state.declaration_of(name)
            for action in declaration.actions if declaration else ():
                if action.opposition is not None and author in action.opposition.against:
                    opposers[name] = action.opposition
        self.serial += 1
        target = data.draw(st.integers(8, 20), label="target")
        if opposers and data.draw(st.integers(0, 3), label="answer") > 0:
            name = data.draw(st.sampled_from(sorted(opposers)), label="answers")
            theirs = opposers[name]
            role = Role.CONDITIONED if theirs.role is Role.CONDITIONING else Role.CONDITIONING
            return [Action(description=f"answers {name} {self.serial}", target=target,
                           opposition=Opposition(mode=theirs.mode, against=[name],
                                                 role=role))]
        shape = data.draw(st.sampled_from(
            ["none", "round", "round", "round", "auto", "instant", "o2", "o2", "o3", "o3",
             "attack", "attack", "dodge", "dodge", "instant attack", "instant attack",
             "instant and round"]),
            label="declaration")
        text = f"{shape} {self.serial}"
        if shape == "none":
            return []
        # Mostly against faster characters, who declare later and may answer (I3, I4).
        primaria = {ch.name: ch.primaria for ch in state.characters}
        faster = [n for n in others if primaria[n] > primaria[author]]
        if shape == "attack":  # H1: a pistol aimed at someone (who may dodge someone else)
            aimed = data.draw(st.sampled_from(others), label="shoots")
            return [Action(description=text, target=target, targets=[aimed], weapon=PISTOLA)]
        if shape == "dodge":  # O3: the conditioned side of an attack, declared first
            pool = faster or others
            dodged = data.draw(st.sampled_from(pool), label="dodges")
            return [Action(description=text, target=target, targets=[dodged], weapon=PISTOLA,
                           opposition=Opposition(mode=OppositionMode.CONDITIONED,
                                                 against=[dodged], role=Role.CONDITIONED,
                                                 reading=Reading.ATTACK))]
        if shape == "instant attack":  # H1, P2: a pistol aimed at someone, instantly
            victim = data.draw(st.sampled_from(others), label="victim")
            return [Action(kind=ActionKind.INSTANT, description=f"{text} at {victim}",
                           target=target, targets=[victim], weapon=PISTOLA)]
        if shape == "instant and round":  # D1: combined
            return [Action(kind=ActionKind.INSTANT, description=f"{text} i", target=target),
                    Action(description=f"{text} r", target=target)]
        if shape == "auto":
            return [Action(kind=ActionKind.AUTOMATIC, description=text)]
        if shape == "instant":
            return [Action(kind=ActionKind.INSTANT, description=text, target=target)]
        if shape == "round":
            return [Action(description=text, target=target)]
        pool = faster if faster and data.draw(st.integers(0, 3), label="faster") else others
        against = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2,
                                     unique=True), label="against")
        mode = OppositionMode.DIRECT if shape == "o2" else OppositionMode.CONDITIONED
        role = data.draw(st.sampled_from(Role), label="role")
        return [Action(description=text, target=target,
                       opposition=Opposition(mode=mode, against=against, role=role))]

    def draw_who(self, data: Any) -> str:
        """Mostly a member of the acting group, else of a later group, else anyone."""
        acting = self.acting_group()
        pools = [sorted(self.members(acting)),
                 sorted({s.character for s in self.state.steps
                         if acting is not None and s.group > acting}),
                 self.names()]
        pool = data.draw(st.sampled_from([pools[0], pools[0], pools[1], pools[2]]),
                         label="pool")
        return data.draw(st.sampled_from(pool or self.names()), label="who")

    def can_declare(self) -> bool:
        return self.state.current_declarer is not None and not self.state.proposals

    def can_resolve(self) -> bool:
        return (self.state.phase in RESOLUTION and bool(self.state.current_group())
                and not self.state.proposals)

    def can_advance(self) -> bool:
        state = self.state
        if state.proposals:
            return False
        if state.phase is Phase.DECLARATION:
            return state.next_declarer is None
        if state.phase in RESOLUTION:
            return not state.pending_steps()
        return state.phase is Phase.END_OF_ROUND

    def do_declare(self, data: Any) -> None:
        name = self.state.current_declarer
        assert name is not None
        self.execute(Declare(character=name, actions=self.draw_action(data, name),
                             affected=[]))

    def do_resolve(self, data: Any) -> None:
        state = self.state
        group = state.current_group()
        step = data.draw(st.sampled_from(group), label="step")
        name = step.character
        acting = self.acting_group()
        assert not self.unable(name), f"P4/C4: {name} is unable but has a pending step"
        waiting = {s.id for s in group}
        action = state.step_action(step)
        if action.kind is ActionKind.AUTOMATIC:
            self.execute(Resolve(character=name))
        elif ask.opposition_of(state, step) is not None and not plan_opposition(state, step).solo:
            self.do_resolve_opposed(data, step)
        else:
            # As when the TA is made (the group may end with it).
            held, held_wounds = set(self.held), set(self.held_wounds)
            body = self.state.body(name)  # before: a hit applied after the group is later
            self.execute(Resolve(character=name, dice=data.draw(DICE, label="dice")))
            self.check_grades(name, body, held, held_wounds)
        # P4/C4: once the group's turn has come, a member yet to roll still rolls: until
        # the group's last TA no step of it is skipped, whatever was marked or begun.
        assert next(s for s in self.state.steps if s.id == step.id).status is StepStatus.DONE
        if self.acting_group() == acting:
            for other in self.state.steps:
                if other.id in waiting:
                    assert other.status is not StepStatus.SKIPPED, (
                        f"P4/C4: {other.character} skipped inside its group's turn")

    def check_grades(self, name: str, body: Body, held: set[tuple[str, int]],
                     held_wounds: set[int]) -> None:
        """C4/H10: a condition or wound held for the group adds no grade to the member's
        TA; one in effect (on `body`, as the TA was made) does."""
        event = next(e for e in reversed(self.combat.log)
                     if e.kind is EventKind.TA and e.actor == name)
        grades = event.gd.grades if event.gd else []
        used = {entry.source_id for entry in grades if entry.kind is GradeSourceKind.CONDITION}
        wounded = {entry.source_id for entry in grades if entry.kind is GradeSourceKind.WOUND}
        character = self.state.character(name)
        scope = ActionScope.default(character.main_arm if character else BodySide.RIGHT)
        for wound in body.wounds:
            if wound.id in held_wounds:
                assert wound.id not in wounded, f"C4/H10: held wound weighs on {name}'s TA"
            elif any(effect.gd and effect.matches(scope) for effect in wound.gd):
                assert wound.id in wounded, f"H10: {name}'s wound missing from the TA"
        for cond in body.conditions:
            if not cond.effects.gd or not cond.active_in(self.state.round):
                continue
            if (name, cond.id) in held:
                assert cond.id not in used, f"C4: held {cond.name} weighs on {name}'s TA"
            else:
                assert cond.id in used, f"C1/H10: {cond.name} missing from {name}'s TA"

    def do_resolve_opposed(self, data: Any, step: Step) -> None:
        plan = plan_opposition(self.state, step)
        state = self.state
        for name in plan.rolling:  # O5: only characters able to act take part
            assert name not in state.out, f"O5/P4: {name} is out but rolls"
            assert not (state.phase is Phase.ROUND and name in state.prevented), (
                f"O5/P4: {name} is prevented but rolls")
            assert not self.unable(name), f"O5/C1: {name} cannot act but rolls"
        rollers = set(plan.rolling)
        answers = {step_id for name in rollers
                   for step_id in answering(state, name, rollers - {name})}
        rolls = [OpposedRoll(character=name, dice=data.draw(DICE, label="opposed dice"),
                             target=None if name == step.character else 12)
                 for name in plan.rolling]
        command = ResolveOpposed(character=step.character, rolls=rolls)
        try:
            self.combat.preview(command)
        except SombraError as error:  # T5: an exact tie, which the DJ breaks
            assert "Tie" in str(error), error
            decided = [plan.rolling[0]] if plan.direct else list(plan.conditioning)
            command = command.model_copy(update={"winners": decided})
        self.execute(command)
        # O2/O3 with I4: nobody rolls twice in one opposition: every step of a roller
        # that opposes another roller was taken by this one.
        left = [s.character for s in self.state.pending_steps() if s.id in answers]
        assert not left, f"O2/O3: {left} rolled, yet their opposing step is still pending"
        event("opposition: " + ("someone left out" if plan.excluded else "all take part"))

    def settle(self, data: Any) -> None:
        proposal = self.state.proposals[0]
        name = proposal.character
        confirm = data.draw(st.booleans(), label="confirm?")
        progress = self.in_progress() and name in self.members(self.acting_group())
        prevented_before = name in self.state.prevented
        if proposal.kind is ProposalKind.HIT:  # H1: the DJ accepts or declines the hit
            self.execute(AcceptHit(proposal_id=proposal.id) if confirm
                         else DeclineHit(proposal_id=proposal.id))
            return
        if not confirm:
            self.execute(DeclineProposal(proposal_id=proposal.id))
            if proposal.kind is ProposalKind.PREVENT:
                assert proposal.condition_id is not None, "H11: the question names no condition"
                self.excused.add(proposal.condition_id)  # H11: stands against it only
            return
        self.execute(ConfirmProposal(proposal_id=proposal.id))
        if proposal.kind is ProposalKind.PREVENT \
                and self.state.phase in (Phase.INSTANT, Phase.ROUND) \
                and not prevented_before:  # H11 -> P4, in the instant phase too
            if progress:
                assert name in eventually(self.state)[1]
            else:
                assert name in self.state.prevented, f"P4: {name} not prevented at once"

    def natural_step(self, data: Any) -> None:
        if self.state.proposals:
            self.settle(data)
        elif self.can_declare():
            self.do_declare(data)
        elif self.can_resolve():
            self.do_resolve(data)
        else:
            assert self.can_advance(), "stuck: nothing legal to do"
            self.execute(Advance())

    # ---- rules ----------------------------------------------------------------------

    def dj_move(self, data: Any) -> None:
        data.draw(st.sampled_from([self.set_mark, self.set_mark, self.add_condition,
                                   self.add_condition, self.manual_hit]),
                  label="dj move")(data)

    @rule(data=st.data())
    def play_on(self, data: Any) -> None:
        """Natural moves, with the DJ's marks, conditions and hits between the steps."""
        for _ in range(data.draw(st.integers(1, 8), label="moves")):
            if self.state.phase in RESOLUTION and data.draw(st.integers(0, 2),
                                                            label="dj now") == 0:
                self.dj_move(data)
            else:
                self.natural_step(data)

    @precondition(lambda self: self.state.phase in (Phase.DECLARATION, Phase.INSTANT))
    @rule(data=st.data())
    def on_to_the_round_phase(self, data: Any) -> None:
        """Declarations and instant actions played until the round phase (P1)."""
        while self.state.phase in (Phase.DECLARATION, Phase.INSTANT):
            self.natural_step(data)

    def early_roll_before_turn(self) -> bool:
        """A member of the acting group rolled early (O2) and the group's turn has not
        come (P4)."""
        acting = self.acting_group()
        return (acting is not None and not self.in_progress() and not self.state.proposals
                and any(s.group == acting and s.status is StepStatus.DONE
                        for s in self.state.steps))

    @precondition(lambda self: self.early_roll_before_turn())
    @rule(data=st.data())
    def before_a_turn(self, data: Any) -> None:
        """P4: the DJ marks or conditions someone of a group one of whose members rolled
        early in an opposition (O2), before the group's own turn: in effect at once."""
        for _ in range(data.draw(st.integers(1, 3), label="dj moves")):
            self.dj_move(data)

    @precondition(lambda self: self.can_resolve() and len(self.state.current_group()) > 1)
    @rule(data=st.data())
    def inside_a_turn(self, data: Any) -> None:
        """A member of a group rolls, then the DJ marks, conditions or hits someone
        (mostly a member of that group) before the group's last TA (P4, C4)."""
        self.do_resolve(data)
        for _ in range(data.draw(st.integers(1, 3), label="dj moves")):
            self.dj_move(data)

    @precondition(lambda self: self.in_progress() and len(self.names()) > len(
        self.members(self.acting_group())))
    @rule(data=st.data())
    def outside_the_group(self, data: Any) -> None:
        """P4/C4/H11: inside a group's turn the DJ marks, conditions or hits someone who is
        no member of the group: in effect at once."""
        members = self.members(self.acting_group())
        name = data.draw(st.sampled_from([n for n in self.names() if n not in members]),
                         label="non-member")
        move = data.draw(st.sampled_from(["mark", "condition", "hit"]), label="move")
        if move == "mark":
            self.set_mark(data, name)
        elif move == "condition":
            self.add_condition(data, name)
        else:
            self.manual_hit(data, name)

    @precondition(lambda self: self.can_resolve())
    @rule(data=st.data())
    def resolve(self, data: Any) -> None:
        self.do_resolve(data)

    @precondition(lambda self: bool(self.state.proposals))
    @rule(data=st.data())
    def settle_proposal(self, data: Any) -> None:
        self.settle(data)

    @precondition(lambda self: self.can_advance())
    @rule()
    def advance(self) -> None:
        self.execute(Advance())

    @rule(data=st.data())
    def set_mark(self, data: Any, who: str | None = None) -> None:
        """P4: a mark takes effect at once before the group's turn, after it inside it."""
        state = self.state
        name = who or self.draw_who(data)
        mark = data.draw(st.sampled_from(Mark), label="mark")
        already = {Mark.OUT: name in state.out, Mark.PREVENTED: name in state.prevented,
                   Mark.BACK: name not in state.out,
                   Mark.UNPREVENT: name not in state.prevented}[mark]
        pending = any(p.character == name and p.mark == mark.value
                      for p in state.pending_marks)
        too_late = mark is Mark.PREVENTED and state.phase in (Phase.EXTENDED,
                                                               Phase.END_OF_ROUND)
        command = SetMark(character=name, mark=mark)
        if already or pending or too_late:
            self.refused(command)
            return
        acting = self.acting_group()
        progress = self.in_progress()
        member = name in self.members(acting)
        before = self.statuses(name)
        was = (name in state.out, name in state.prevented)
        self.execute(command)
        if mark is Mark.OUT:
            self.hand.add(name)
        elif mark is Mark.BACK:
            self.hand.discard(name)
        state = self.state
        out, prevented = eventually(state)
        # Whenever it applies, the mark is the last word on the character (P4).
        assert (name in out) == (mark is Mark.OUT) if mark in (Mark.OUT, Mark.BACK) \
            else (name in prevented) == (mark is Mark.PREVENTED)
        early = any(s.status is StepStatus.DONE for s in state.steps
                    if s.group == acting and not self.came(s.group))
        event("mark: " + ("in turn, member" if progress and member else
                          "in turn, other" if progress else
                          "before turn, after an early roll" if early else "before turn"))
        if progress and member and self.in_progress():
            # P4: inside the group's turn: it waits; a member yet to roll still rolls.
            assert state.pending_marks[-1].character == name, "P4: the mark does not wait"
            assert (name in state.out, name in state.prevented) == was
            assert self.statuses(name) == before, f"P4: {name}'s steps changed in its turn"
            return
        if progress:  # P4: on anyone outside the group, at once
            event("mark: in turn, other, at once")
            assert not any(p.character == name for p in state.pending_marks), (
                f"P4: the mark on {name}, no member of the group, waits")
            assert (name in state.out) == (name in out)
            assert (name in state.prevented) == (name in prevented)
            return
        # P4: before the group's turn (even if a member rolled early): at once.
        assert not state.pending_marks, "P4: a mark waits outside a group's turn"
        assert (name in state.out) == (name in out)
        assert (name in state.prevented) == (name in prevented)
        now = self.acting_group()
        for step in state.steps:
            if step.character != name or step.group != now:
                continue
            if mark is Mark.OUT or (mark is Mark.PREVENTED and state.phase is Phase.ROUND):
                assert step.status is not StepStatus.PENDING, (
                    f"P4: {name} marked {mark.value} still acts in its group")
        if mark in (Mark.BACK, Mark.UNPREVENT) and not self.unable(name):
            # P4: brought back before its group's turn: the action is back.
            for step in state.steps:
                if step.character == name and not self.came(step.group):
                    assert step.skipped_for not in ("out", "prevented"), (
                        f"P4: {name} brought back before its group's turn lacks its action")

    @rule(data=st.data())
    def add_condition(self, data: Any, who: str | None = None) -> None:
        """C2/C4: aturdido, inconsciente, derribado or cegado on anyone, at any moment."""
        name = who or self.draw_who(data)
        which = data.draw(st.sampled_from(["aturdido", "inconsciente", "derribado",
                                           "cegado", "desarmado"]), label="condition")
        duration = data.draw(st.sampled_from([None, 1, 2]), label="asaltos")
        condition = (builtin(which, began=0, duration=duration)
                     if which in ("aturdido", "inconsciente", "desarmado") else
                     derribado(duration) if which == "derribado"
                     else cegado(data.draw(st.integers(1, 2), label="gd")))
        self.execute(AddCondition(character=name, condition=condition))

    @precondition(lambda self: any(body.conditions for body in self.state.bodies.values()))
    @rule(data=st.data())
    def remove_condition(self, data: Any) -> None:
        """C4: a condition's end lifts its own effect; a hand-made out mark stays."""
        name = data.draw(st.sampled_from(sorted(n for n, body in self.state.bodies.items()
                                                if body.conditions)), label="who")
        condition = data.draw(st.sampled_from(self.state.body(name).conditions),
                              label="condition")
        self.execute(RemoveCondition(character=name, condition_id=condition.id))
        out, _ = eventually(self.state)
        still = any(cond.effects.out and cond.active_in(self.state.round)
                    for cond in self.state.body(name).conditions)
        if name in self.hand:
            assert name in out, f"C4: {name}'s hand-made out mark ended with {condition.name}"
        elif condition.effects.out and not still:
            assert name not in out, f"C4: {name} stays out after {condition.name} ended"

    @rule(data=st.data())
    def manual_hit(self, data: Any, who: str | None = None) -> None:
        """H7: a hit by hand that may bring G or W to PV (a threshold proposal); H9: to the
        head (aturdido, inconsciente) or the main arm (desarmado when grave), H11."""
        name = who or self.draw_who(data)
        location = data.draw(st.sampled_from([Location.PECHO, Location.BRAZO_DERECHO,
                                              Location.CABEZA]), label="location")
        self.execute(ManualHit(character=name, location=location,
                               damage=data.draw(st.integers(0, 10), label="damage"),
                               lethal=data.draw(st.booleans(), label="lethal")))

    # ---- invariants -----------------------------------------------------------------

    @invariant()
    def nothing_waits_outside_a_groups_turn(self) -> None:
        """P4/C4: marks wait and conditions are held only inside a group's turn."""
        if not self.in_progress():
            assert self.state.pending_marks == [], "P4: a mark waits outside a group's turn"
            assert self.state.held_conditions == [], "C4: a condition held outside a turn"
        else:
            members = self.members(self.acting_group())
            held = {cid for name, cid in self.held}
            assert set(self.state.held_conditions) <= held, "C4: held for a non-member"
            assert all(name in members for name, _ in self.held)

    @invariant()
    def nobody_unable_is_left_to_act(self) -> None:
        """P4/C4: nobody out, prevented (round phase) or unable by a condition in effect
        has a pending step in the acting group."""
        for step in self.state.current_group():
            assert not self.unable(step.character), (
                f"P4/C4: {step.character} is unable but still to act")

    @invariant()
    def out_marks_follow_c4(self) -> None:
        """C4: a hand-made out mark stays; an out condition in effect (not held) puts out."""
        out, _ = eventually(self.state)
        for name in self.hand:
            if self.state.character(name) is not None:
                assert name in out, f"C4: {name}'s hand-made out mark was lifted"


TestGroupTurnMachine = GroupTurnMachine.TestCase
TestGroupTurnMachine.settings = settings(
    max_examples=100,
    stateful_step_count=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
