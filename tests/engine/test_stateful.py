"""Stateful property test: random legal DJ command sequences played through `Combat`.

A hypothesis RuleBasedStateMachine sets up a small random encounter (3-7
characters with random, often tied, primaria/secundaria/Alerta; random
settings: reacción on/off, niveles de calidad on/off, iniciativa variable,
points per GD) and plays several rounds of mostly legal commands: declarations,
reactions (combine/substitute, rolled or accepted without a roll, with base and
DJ grades), declines, DJ allow/deny, resolution steps, marks, extended
adjustments, characters joining and leaving, Advance, undo and redo. Now and
then it sends a command that must be refused.

After every step the whole command history is replayed and audited against
rules recomputed here, independently of the engine's own bookkeeping:

* D6/D9: the GD of every Alerta TA in the log is base + 1 for substituting
  (only outside a counter-reaction) + the character's earlier successful
  reactions this round + the DJ's extra grades; the TA's numbers follow T2.
* D7/D11: no prompt on top of the stack belongs to a locked, out or departed
  character unless the DJ forced it (D12), and no such character is ever
  offered a new prompt (not even a counter-reaction). D3: no prompt while
  reacción is off.
* I3: each declarer is the next character in the declaration order computed
  here (ascending primaria, then secundaria, then the DJ's order).
* P1: the log's (round, phase) sequence goes declaration -> instant -> round
  -> extended -> end_of_round -> declaration of the next round.
* S1: undo then redo, and save/load (`storage.dumps`/`loads`), give the same
  state, log, commands and redo stack; the replay equals the live state.
* O5: nobody out, prevented (round phase) or unable to act by a condition begun in an
  earlier round (aturdido, C1) rolls in an opposition.
* O3/D5 (format 4): some reacciones are dodges, plain actions aimed at the author of
  an attack that conditions them: rolled in the attack's opposition, the dodge's step
  is taken then, never left to roll again (nobody rolls twice in one opposition); no
  conditioned pair is compared with a partner whose actions all aim at others.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import event as note_case
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from sombra_tui.engine import (
    AbandonExtended,
    Action,
    ActionKind,
    AddCharacter,
    AdjustExtended,
    Advance,
    AllowPrompt,
    ChangeSettings,
    Character,
    Combat,
    CombatState,
    Command,
    Declare,
    Decline,
    DenyPrompt,
    Dice,
    EditCharacter,
    Encounter,
    EventKind,
    ExtendedMode,
    ExtendedSpec,
    ExtendedStatus,
    FreeTA,
    GdBreakdown,
    LogEvent,
    Mark,
    MoveCharacter,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    PromptKind,
    React,
    ReactionMode,
    Reading,
    RemoveCharacter,
    Resolve,
    ResolveOpposed,
    Role,
    SetMark,
    Settings,
    SombraError,
    StartCombat,
    StepStatus,
    ask,
    machine,
    plan_opposition,
    storage,
)
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    AttendWound,
    ConfirmProposal,
    DeclineHit,
    DeclineProposal,
    EditWound,
    Heal,
    HealKind,
    ManualHit,
    RemoveCondition,
    SetCounters,
)
from sombra_tui.engine.conditions import (
    BUILTIN_NAMES,
    ActionScope,
    active,
    builtin,
    preventing_reaction,
)
from sombra_tui.engine.state import ProposalKind
from sombra_tui.engine.wounds import Location, Severity, Weapon

WEAPONS = [Weapon(name="pistola", damage_type="II"), Weapon(name="puños", damage_type="0"),
           Weapon(name="granada", damage_type="IV"), Weapon(name="rifle", damage_type="III")]

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elena", "Fede", "Gala"]
EXTRA_NAMES = ["Hugo", "Ines", "Juan"]
MAX_CHARACTERS = 8

RESOLUTION = (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED)
#: P1/P6: the phase that follows each phase (end of round -> next round's declarations).
P1_NEXT = {
    Phase.DECLARATION: Phase.INSTANT,
    Phase.INSTANT: Phase.ROUND,
    Phase.ROUND: Phase.EXTENDED,
    Phase.EXTENDED: Phase.END_OF_ROUND,
    Phase.END_OF_ROUND: Phase.DECLARATION,
}

DICE = st.builds(Dice.of, st.integers(1, 10), st.integers(1, 10), st.integers(1, 10))


# --------------------------------------------------------------------------- the audit


def expected_declaration_order(roster: list[Character], bonus: dict[str, int]) -> list[str]:
    """I3 (and I2 for round 1), written here independently of initiative.py."""
    ranked = sorted(enumerate(roster),
                    key=lambda item: (item[1].primaria + bonus.get(item[1].name, 0),
                                      item[1].secundaria, item[0]))
    return [character.name for _, character in ranked]


def p1_follows(previous: tuple[int, Phase], new: tuple[int, Phase]) -> bool:
    """P1/P6: `new` is `previous` or the phase right after it."""
    if new == previous:
        return True
    old_round, old_phase = previous
    if old_phase is Phase.SETUP:  # StartCombat: round 1 is set just before it opens
        return new in ((1, Phase.SETUP), (1, Phase.DECLARATION))
    if old_phase is Phase.END_OF_ROUND:
        return new == (old_round + 1, Phase.DECLARATION)
    return new == (old_round, P1_NEXT[old_phase])


def apply_roster(roster: list[Character], command: Command) -> list[Character]:
    """The DJ's character list after a (successful) command, kept by the test."""
    roster = list(roster)
    if isinstance(command, AddCharacter):
        roster.append(command.character)
    elif isinstance(command, RemoveCharacter):
        roster = [ch for ch in roster if ch.name != command.name]
    elif isinstance(command, MoveCharacter):
        moving = next(ch for ch in roster if ch.name == command.name)
        roster.remove(moving)
        roster.insert(min(command.position, len(roster)), moving)
    elif isinstance(command, EditCharacter):
        roster = [command.character if ch.name == command.name else ch for ch in roster]
    return roster


def audit_history(combat: Combat) -> None:
    """Replay the history command by command and check D3, D6-D9, D11, I3, P1 and S1.

    Everything the rules decide (GD, counter-reaction or not, locks, orders,
    phases) is recomputed here from the commands and the log; only the
    identity of the prompt each reaction answers and the links between
    declarations are read from the replayed state.
    """
    encounter = combat.encounter
    state = machine.initial_state(encounter)
    roster = list(encounter.characters)
    log: list[LogEvent] = []
    key: tuple[int, Phase] = (0, Phase.SETUP)
    order: list[str] = []
    declared: list[str] = []
    joined: set[str] = set()  # added during the round: they declare from the next one
    skipped_while_out: set[str] = set()
    locked: set[str] = set()
    successes: Counter[str] = Counter()
    #: Kind of the prompt that produced each reaction declaration (D9/D10 alternate).
    produced_by: dict[int, PromptKind] = {}

    for index, command in enumerate(combat.commands):
        where = f"command {index + 1} ({command.type})"
        top = state.top_prompt
        declarations = state.declarations  # entries are never mutated, only added
        out_before = set(state.out)
        current_before = dict(state.current)
        reaccion_before = state.settings.reaccion
        events = machine.apply(state, command)
        log.extend(events)
        roster = apply_roster(roster, command)
        assert state.characters == roster, where
        if isinstance(command, AddCharacter) and state.phase is not Phase.SETUP:
            joined.add(command.character.name)
        present = {ch.name for ch in roster}

        for event in events:
            # P1: every event is in the phase of the previous one or the next one.
            new_key = (event.round, event.phase)
            assert p1_follows(key, new_key), f"{where}: {key} -> {new_key} breaks P1"
            key = new_key

            if event.kind is EventKind.ROUND and event.phase is Phase.DECLARATION:
                bonus = command.initiative_rolls if isinstance(command, StartCombat) else {}
                order = expected_declaration_order(roster, bonus)
                assert state.declaration_order == order, f"{where}: I3 order"
                declared, joined, skipped_while_out = [], set(), set()
                locked, successes = set(), Counter()

            elif event.kind is EventKind.DECLARE or event.code == "declare.cannot_act":
                # (C4: a declarer who cannot act declares inaction, in its turn.)
                actor = event.actor
                assert actor is not None
                # (An automatic inaction may follow a mark made by the same command.)
                outs = (set(state.out) if event.code == "declare.cannot_act"
                        else out_before)
                waiting = [name for name in order if name not in declared
                           and name in present and name not in outs
                           and name not in joined]
                assert waiting and actor == waiting[0], (
                    f"{where}: {actor} declares, I3 says {waiting[:1]}")
                if declared and actor not in skipped_while_out:
                    assert order.index(actor) > order.index(declared[-1]), where
                skipped_while_out |= {name for name in order[:order.index(actor)]
                                      if name not in declared and name in out_before}
                declared.append(actor)

            elif event.kind is EventKind.PROMPT:
                assert reaccion_before, f"{where}: a prompt with reacción off (D3)"
                # D7/D11: locked, out or departed characters are never offered a prompt.
                assert event.actor not in locked, f"{where}: prompt for locked {event.actor}"
                assert event.actor not in out_before, f"{where}: prompt for out {event.actor}"
                assert event.actor in present, f"{where}: prompt for gone {event.actor}"
                if not any(e.kind is EventKind.OVERRIDE for e in events):  # C4
                    assert not preventing_reaction(state.body(event.actor).conditions,
                                                   state.round), f"{where}: C4 prompt"

            elif event.kind is EventKind.REACTION:
                assert isinstance(command, React), where
                actor = command.character
                assert event.actor == actor and top is not None and top.reactor == actor
                answered = declarations[top.declaration_id]
                # D9/D10: answering a reaction to one's own declaration is a
                # counter-reaction; answering a counter-reaction is a reaction again.
                counter = (not top.forced and answered.answers is not None
                           and declarations[answered.answers].author == actor
                           and produced_by.get(answered.id) is PromptKind.REACTION)
                substitutes = command.mode is ReactionMode.SUBSTITUTE
                expected = GdBreakdown(base=command.base_gd,
                                       substitution=1 if substitutes and not counter else 0,
                                       earlier_reactions=successes[actor],
                                       override=command.extra_gd)
                assert event.gd == expected, f"{where}: D6/D9 GD {event.gd} != {expected}"
                ta = event.ta
                assert ta is not None and ta.gd == expected.total, where
                alerta = next(ch.alerta for ch in roster if ch.name == actor)
                assert ta.target == alerta, where
                if command.accept_without_roll:
                    assert ta.unrolled and ta.success, where
                else:
                    assert command.dice is not None and ta.dice == command.dice
                    points = state.settings.points_per_gd
                    assert ta.total == command.dice.sum + points * expected.total, where  # T2
                    assert ta.success == (ta.total <= alerta), where
                old = declarations[current_before[actor]]
                if ta.success:  # D8
                    successes[actor] += 1
                    new = state.declarations[state.current[actor]]
                    assert new.id != old.id, where
                    produced_by[new.id] = PromptKind.COUNTER if counter else PromptKind.REACTION
                    wanted = ([*old.actions, *command.actions]
                              if command.mode is ReactionMode.COMBINE else command.actions)
                    assert new.actions == wanted, where
                else:  # D7
                    locked.add(actor)
                    assert state.current[actor] == old.id, where

        # D7: the locks are exactly the failed Alerta TAs of this round.
        assert set(state.locked) == locked, where
        # D11/D12: the prompt the DJ sees now is answerable unless the DJ forced it.
        if state.phase is Phase.DECLARATION and state.prompts:
            top = state.prompts[-1]
            if not top.forced:
                assert top.reactor not in locked, f"{where}: locked top prompt (D7, D11)"
                assert top.reactor not in state.out, f"{where}: out top prompt (D11)"
                assert top.reactor in present, where
        if not state.settings.reaccion:
            assert state.prompts == [], f"{where}: prompts with reacción off (D3)"

    assert key == (state.round, state.phase), "P1: the log ends in the current phase"
    assert log == combat.log, "S1: the replayed log differs"
    assert state == combat.state, "S1: the replayed state differs"


def aims_elsewhere(state: CombatState, name: str, other: str) -> bool:
    """O3 (format 4), by the test: every action `name` declared names someone (targets or
    opposition) and none names `other`."""
    declaration = state.declaration_of(name)
    actions = declaration.actions if declaration else []
    named = [{*a.targets, *(a.opposition.against if a.opposition else ())} for a in actions]
    return bool(actions) and all(each and other not in each for each in named)


def answered_in_reaction(state: CombatState, name: str) -> dict[int, str]:
    """D5/D8, by the test: the author each action of `name`'s declaration answers (its
    index in the declaration), following the chain of declarations it combines."""
    chain = []
    declaration = state.declaration_of(name)
    while declaration is not None:
        chain.insert(0, declaration)
        if declaration.mode is not ReactionMode.COMBINE or declaration.replaces is None:
            break
        declaration = state.declarations[declaration.replaces]
    found: dict[int, str] = {}
    index = 0
    for version in chain:
        for _action in version.new_actions:
            if version.answers is not None:
                found[index] = state.declarations[version.answers].author
            index += 1
    return found


def reacting_dodges(state: CombatState, step: Any, rollers: list[str]) -> set[int]:
    """O3/D5 (format 4), by the test: the pending steps of the opponents in `rollers` that
    are their one plain round reacción answering the initiator of `step`, aimed at it
    alone, whose declared opposition (direct, or conditioning) names them: each must be
    the side the opponent rolls for."""
    initiator = step.character
    theirs = state.step_action(step).opposition
    if theirs is None or not (theirs.mode is OppositionMode.DIRECT
                              or theirs.role is Role.CONDITIONING):
        return set()
    found: set[int] = set()
    pending = state.pending_steps()
    for name in rollers[1:]:
        if name not in theirs.against or any(
                s.character == name and (a := state.step_action(s)).opposition is not None
                and set(a.opposition.against) & set(rollers) for s in pending):
            continue
        answers = answered_in_reaction(state, name)
        plain = [s for s in pending if s.character == name and s.action_index is not None
                 and answers.get(s.action_index) == initiator
                 and (a := state.step_action(s)).opposition is None
                 and a.kind is ActionKind.ROUND]
        if len(plain) == 1 and state.step_action(plain[0]).targets == [initiator]:
            found.add(plain[0].id)
    return found


# --------------------------------------------------------------------------- the machine


class CombatMachine(RuleBasedStateMachine):
    """Random encounters played through Combat; invariants after every step (module doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.combat: Combat
        self.serial = 0
        #: Characters whose counters or wounds the DJ set directly (H12): the
        #: "G <= recorded damage" invariant does not hold for them.
        self.edited: set[str] = set()

    # ---- helpers ---------------------------------------------------------

    @property
    def state(self) -> CombatState:
        return self.combat.state

    def names(self) -> list[str]:
        return [ch.name for ch in self.state.characters]

    def others(self, name: str) -> list[str]:
        return [n for n in self.names() if n != name]

    def execute(self, command: Command) -> None:
        before = (self.state.round, self.state.phase)
        conditions = {(name, c.id): c for name, body in self.state.bodies.items()
                      for c in body.conditions}
        events = self.combat.execute(command)
        if self.state.settings.rules_v4:
            for event in events:  # O3 (format 4): no partner aiming at others is compared
                if event.kind is EventKind.OPPOSED and event.rule == "O4" and event.actor:
                    assert not aims_elsewhere(self.state, event.actor, event.targets[0]), (
                        f"O3: {event.actor}, aiming at others, compared with {event.targets}")
        for event in events:  # C3: a condition expires exactly at the end of its last round
            if event.code == "condition.expired":
                ended = conditions[(event.actor or "", int(event.data["id"] or 0))]
                assert event.phase is Phase.END_OF_ROUND and ended.last_round == event.round, (
                    "C3", ended, event)
        after = (self.state.round, self.state.phase)
        assert p1_follows(before, after), f"P1: {before} -> {after}"
        assert self.combat.redo_stack == [], "a new command clears the redo stack"

    def refused(self, command: Command) -> None:
        """S1: an illegal command raises SombraError and changes nothing."""
        state = self.state.model_copy(deep=True)
        log, commands, redo = self.combat.log, self.combat.commands, self.combat.redo_stack
        try:
            self.combat.execute(command)
        except SombraError as error:
            assert str(error).strip()
        else:
            raise AssertionError(f"{command!r} should have been refused")
        assert self.state == state
        assert self.combat.log == log
        assert self.combat.commands == commands
        assert self.combat.redo_stack == redo

    def draw_action(self, data: Any, author: str, *, extended: bool = True) -> Action:
        kinds = [ActionKind.AUTOMATIC, ActionKind.INSTANT, ActionKind.ROUND]
        if extended:
            kinds.append(ActionKind.EXTENDED)
        kind = data.draw(st.sampled_from(kinds), label="kind")
        targets = self.draw_names(data, author, 2, "targets")
        target = (None if kind is ActionKind.AUTOMATIC
                  else data.draw(st.one_of(st.none(), st.integers(4, 24)), label="target"))
        spec = None
        if kind is ActionKind.EXTENDED:
            spec = ExtendedSpec(mode=data.draw(st.sampled_from(ExtendedMode)),
                                duration=data.draw(st.integers(1, 3)),
                                successes=data.draw(st.integers(1, 3)),
                                interval=data.draw(st.integers(1, 2)))
        opposition = None
        others = self.others(author)
        opposed = data.draw(st.integers(0, 5), label="opposed")
        if kind is ActionKind.ROUND and targets and opposed == 5:
            # O3: an attack that conditions its targets (who may dodge in reacción).
            opposition = Opposition(mode=OppositionMode.CONDITIONED, against=targets,
                                    role=Role.CONDITIONING, reading=Reading.ATTACK)
        elif kind in (ActionKind.ROUND, ActionKind.EXTENDED) and others \
                and opposed < 2:  # O2/O3/E4, one or more opponents
            opposition = Opposition(
                mode=data.draw(st.sampled_from(OppositionMode), label="opposition"),
                against=data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=2,
                                           unique=True), label="against"),
                role=data.draw(st.sampled_from(Role), label="role"),
                reading=data.draw(st.sampled_from(Reading), label="reading"))
        self.serial += 1
        weapon = (data.draw(st.sampled_from([None, None, *WEAPONS]), label="weapon")
                  if kind is not ActionKind.AUTOMATIC else None)  # H1: an attack
        return Action(kind=kind, description=f"{kind.value} {self.serial}", target=target,
                      gd=data.draw(st.integers(-1, 2), label="action gd"), targets=targets,
                      extended=spec, opposition=opposition, weapon=weapon)

    def draw_actions(self, data: Any, author: str, low: int, high: int,
                     extended: bool = True) -> list[Action]:
        actions: list[Action] = []
        for _ in range(data.draw(st.integers(low, high), label="how many actions")):
            has_extended = any(a.kind is ActionKind.EXTENDED for a in actions)
            actions.append(self.draw_action(data, author, extended=extended
                                            and not has_extended))
        return actions

    def draw_affected(self, data: Any, author: str, actions: list[Action]) -> list[str] | None:
        if not actions:
            return data.draw(st.sampled_from([None, []]), label="affected")
        if data.draw(st.booleans(), label="pre-filled affected"):
            return None
        return self.draw_names(data, author, 3, "affected")

    def draw_names(self, data: Any, author: str, most: int, label: str) -> list[str]:
        """Other characters, mostly ones who already declared (so that D4 prompts happen)."""
        others = self.others(author)
        declared = [n for n in others if n in self.state.current]
        pool = declared if declared and data.draw(st.integers(0, 3), label="bias") else others
        if not pool:
            return []
        return data.draw(st.lists(st.sampled_from(pool), max_size=most, unique=True),
                         label=label)

    # ---- what may happen now ---------------------------------------------

    def has_proposal(self) -> bool:
        return bool(self.state.proposals)

    def has_prompt(self) -> bool:
        return (self.state.phase is Phase.DECLARATION and bool(self.state.prompts)
                and not self.has_proposal())

    def can_declare(self) -> bool:
        return self.state.current_declarer is not None and not self.has_proposal()

    def can_resolve(self) -> bool:
        return (self.state.phase in RESOLUTION and bool(self.state.current_group())
                and not self.has_proposal())

    def can_advance(self) -> bool:
        state = self.state
        if self.has_proposal():  # H1/H7/H11: settled first
            return False
        if state.phase is Phase.DECLARATION:
            return not state.prompts and state.next_declarer is None
        if state.phase in RESOLUTION:
            return not state.pending_steps()
        return state.phase is Phase.END_OF_ROUND

    # ---- the natural moves ------------------------------------------------

    def do_declare(self, data: Any) -> None:
        name = self.state.current_declarer
        assert name is not None
        declared = [n for n in self.others(name) if n in self.state.current]
        if declared and data.draw(st.integers(0, 3), label="attacks") == 0:
            # O3: an attack that conditions someone who declared before (D4: who may
            # dodge it in reacción, D5).
            aimed = data.draw(st.sampled_from(declared), label="attacked")
            self.serial += 1
            self.execute(Declare(character=name, actions=[Action(
                description=f"ataca {self.serial}", targets=[aimed], weapon=WEAPONS[0],
                target=data.draw(st.integers(4, 24), label="attack target"),
                opposition=Opposition(mode=OppositionMode.CONDITIONED, against=[aimed],
                                      role=Role.CONDITIONING, reading=Reading.ATTACK))]))
            return
        actions = self.draw_actions(data, name, 0, 2)
        self.execute(Declare(character=name, actions=actions,
                             affected=self.draw_affected(data, name, actions)))

    def do_answer(self, data: Any) -> None:
        top = self.state.top_prompt
        assert top is not None
        name = top.reactor
        answer = data.draw(st.sampled_from(["react"] * 6 + ["decline"] * 3 + ["deny"]),
                           label="answer")
        if answer == "decline":
            self.execute(Decline(character=name))
            return
        if answer == "deny":
            self.execute(DenyPrompt(character=name))
            return
        mode = data.draw(st.sampled_from(ReactionMode), label="mode")
        old = self.state.declaration_of(name)
        assert old is not None
        # One declaration holds at most one extended action, combined ones too.
        room = mode is ReactionMode.SUBSTITUTE or not any(
            a.kind is ActionKind.EXTENDED for a in old.actions)
        answered = self.state.declarations[top.declaration_id]
        author = answered.author
        # Mostly a dodge when the declaration answered opposes the reactor (O2, O3).
        opposes = any(a.opposition is not None and name in a.opposition.against
                      for a in answered.actions)
        if self.state.character(author) is not None \
                and data.draw(st.integers(0, 3), label="dodges") < (3 if opposes else 1):
            # O3/D5: a dodge, as a DJ types it: no opposition of its own, aimed at the
            # author (the form may prefill a weapon).
            self.serial += 1
            note_case("reacción: a dodge" + (" of an opposition" if opposes else ""))
            actions = [Action(description=f"esquiva {self.serial}", targets=[author],
                              target=data.draw(st.integers(4, 24), label="dodge target"),
                              weapon=data.draw(st.sampled_from([None, WEAPONS[0]]),
                                               label="dodge weapon"))]
            dodging = True
        else:
            actions = self.draw_actions(data, name, 1, 2, extended=room)
            dodging = False
        # D12: the DJ accepts a dodge without a roll more often, so that it is played.
        accept = data.draw(st.sampled_from([False, True] if dodging else [False] * 7 + [True]),
                           label="accept")
        self.execute(React(
            character=name, mode=mode, actions=actions,
            affected=self.draw_affected(data, name, actions),
            dice=None if accept else data.draw(DICE, label="alerta dice"),
            base_gd=data.draw(st.sampled_from([0, 0, 0, -1, 1, 2]), label="base gd"),
            extra_gd=data.draw(st.sampled_from([0, 0, 0, 0, -1, 1, 2]), label="extra gd"),
            accept_without_roll=accept))

    def do_resolve(self, data: Any) -> None:
        group = self.state.current_group()
        name = data.draw(st.sampled_from([step.character for step in group]), label="who")
        step = next(s for s in group if s.character == name)
        action = self.state.step_action(step)
        if action.kind is ActionKind.AUTOMATIC:
            self.execute(Resolve(character=name))
            return
        if ask.opposition_of(self.state, step) is not None \
                and not plan_opposition(self.state, step).solo:
            self.do_resolve_opposed(data, step)
            return
        accept = data.draw(st.sampled_from([None] * 6 + [True, False]), label="accept")
        target = (data.draw(st.integers(4, 24), label="target") if action.target is None
                  else data.draw(st.sampled_from([None, None, 12]), label="target"))
        self.execute(Resolve(
            character=name, target=target,
            dice=None if accept is not None else data.draw(DICE, label="dice"),
            accept=accept,
            extra_gd=data.draw(st.sampled_from([0, 0, 1, -1]), label="extra gd"),
            modifier=data.draw(st.sampled_from([0, 0, 2, -3]), label="modifier")))

    def do_resolve_opposed(self, data: Any, step: Any) -> None:
        """O2/O3/E4: a TA for each participant able to act; the DJ decides now and then."""
        plan = plan_opposition(self.state, step)
        state = self.state
        for name in plan.rolling:  # O5: only those able to act take part
            assert name not in state.out, f"O5: {name} is out but rolls"
            assert not (state.phase is Phase.ROUND and name in state.prevented), (
                f"O5: {name} is prevented but rolls")
            if state.settings.rules_v4 and name in state.bodies:
                assert not any(
                    (cond.effects.cannot_act or cond.effects.out)
                    and cond.active_in(state.round) and cond.began < state.round
                    for cond in state.body(name).conditions), f"O5/C1: {name} cannot act"
        dodges = (reacting_dodges(state, step, list(plan.rolling))
                  if state.settings.rules_v4 else set())
        note_case("opposition: " + ("a reacción dodge rolls" if dodges else
                                "someone left out" if plan.excluded else "all take part"))
        rolls = [OpposedRoll(character=name, dice=data.draw(DICE, label="opposed dice"),
                             target=data.draw(st.sampled_from([None, 12]), label="target")
                             if name == step.character and
                             self.state.step_action(step).target is not None else 12)
                 for name in plan.rolling]
        winners = data.draw(st.sampled_from([[], [], [], [plan.rolling[-1]]]), label="dj")
        command = ResolveOpposed(character=step.character, rolls=rolls, winners=winners,
                                 condition_size=data.draw(st.integers(0, 2), label="size"))
        try:
            self.combat.preview(command)
        except SombraError as error:  # T5: an exact tie, which the DJ breaks
            assert "Tie" in str(error), error
            # One name per comparison: O2's first, or every conditioning side of O3.
            decided = [plan.rolling[0]] if plan.direct else list(plan.conditioning)
            command = command.model_copy(update={"winners": decided})
        self.execute(command)
        # O3/D5: a reacción dodge rolled here is done: nobody rolls twice in it.
        left = [s.character for s in self.state.pending_steps() if s.id in dodges]
        assert not left, f"O3/D5: {left} rolled against {step.character}, dodge still pending"

    def settle_proposal(self, data: Any) -> None:
        """H1, H7, H11: accept (as read or edited), or decline, the first proposal."""
        proposal = self.state.proposals[0]
        accept = data.draw(st.sampled_from([True, True, True, False]), label="accept?")
        if proposal.kind is not ProposalKind.HIT:
            self.execute(ConfirmProposal(proposal_id=proposal.id) if accept
                         else DeclineProposal(proposal_id=proposal.id))
            return
        if not accept:
            self.execute(DeclineHit(proposal_id=proposal.id, reason="cover"))
            return
        reading = proposal.reading
        needs = reading is None or reading.needs_damage
        damage = (data.draw(st.integers(0, 30), label="typed damage") if needs or
                  data.draw(st.integers(0, 3), label="edit damage") == 0 else None)
        location = (data.draw(st.sampled_from(Location), label="location")
                    if reading is None or data.draw(st.integers(0, 4)) == 0 else None)
        severity = (data.draw(st.sampled_from(Severity), label="severity")
                    if data.draw(st.integers(0, 5), label="edit severity") == 0 else None)
        self.execute(AcceptHit(proposal_id=proposal.id, damage=damage, location=location,
                               severity=severity,
                               lethal=data.draw(st.sampled_from([None, None, True, False]),
                                                label="lethal")))

    def natural_step(self, data: Any) -> None:
        if self.has_proposal():  # H1/H7: settled first, in set-up too (a hit by hand)
            self.settle_proposal(data)
        elif self.state.phase is Phase.SETUP:  # undone back to the start
            self.execute(self.combat.start_command())
        elif self.has_prompt():
            self.do_answer(data)
        elif self.can_declare():
            self.do_declare(data)
        elif self.can_resolve():
            self.do_resolve(data)
        else:
            assert self.can_advance(), "the combat is stuck: nothing legal to do"
            self.execute(Advance())

    # ---- initialisation -----------------------------------------------------

    @initialize(data=st.data())
    def set_up(self, data: Any) -> None:
        count = data.draw(st.integers(3, 7), label="characters")
        characters = [
            Character(name=NAMES[i], primaria=data.draw(st.integers(0, 3)),
                      secundaria=data.draw(st.integers(0, 2)),
                      alerta=data.draw(st.integers(6, 24)),
                      resistencia=data.draw(st.integers(2, 8), label="resistencia"),
                      protection={Location.PECHO: data.draw(st.integers(0, 2))},
                      weapons=[data.draw(st.sampled_from(WEAPONS), label="weapon")])
            for i in range(count)
        ]
        encounter_settings = Settings(
            reaccion=data.draw(st.sampled_from([True, True, True, False]), label="reaccion"),
            niveles_de_calidad=data.draw(st.booleans(), label="niveles"),
            iniciativa_variable=data.draw(st.booleans(), label="variable"),
            points_per_gd=data.draw(st.sampled_from([5, 5, 3]), label="points"))
        encounter = Encounter(name="Prueba", settings=encounter_settings,
                              characters=characters, seed=data.draw(st.integers(0, 99)))
        self.combat = Combat(encounter)
        rolls = ({ch.name: data.draw(st.integers(1, 10), label="I2 d10") for ch in characters}
                 if encounter_settings.iniciativa_variable else {})
        self.execute(StartCombat(initiative_rolls=rolls))

    # ---- rules --------------------------------------------------------------

    @rule(data=st.data())
    def play_on(self, data: Any) -> None:
        """A few natural moves in a row, so that several rounds get played."""
        for _ in range(data.draw(st.integers(1, 8), label="moves")):
            self.natural_step(data)

    @rule(data=st.data())
    def play_one(self, data: Any) -> None:
        self.natural_step(data)

    @precondition(lambda self: self.can_declare())
    @rule(data=st.data())
    def declare(self, data: Any) -> None:
        self.do_declare(data)

    @precondition(lambda self: self.has_prompt())
    @rule(data=st.data())
    def answer_prompt(self, data: Any) -> None:
        self.do_answer(data)

    @precondition(lambda self: self.can_resolve())
    @rule(data=st.data())
    def resolve(self, data: Any) -> None:
        self.do_resolve(data)

    @precondition(lambda self: self.can_advance())
    @rule()
    def advance(self) -> None:
        self.execute(Advance())

    @precondition(lambda self: self.state.phase is Phase.DECLARATION
                  and self.state.settings.reaccion
                  and len([n for n in self.state.current if self.state.character(n)]) >= 2)
    @rule(data=st.data())
    def dj_allows_prompt(self, data: Any) -> None:
        """D12: the DJ opens a prompt, even for a locked or out character."""
        declared = [n for n in self.state.current if self.state.character(n) is not None]
        name = data.draw(st.sampled_from(declared), label="reactor")
        against = data.draw(st.sampled_from([n for n in declared if n != name]),
                            label="against")
        self.execute(AllowPrompt(character=name, against=against))

    @rule(data=st.data())
    def dj_side_command(self, data: Any) -> None:
        """One of the DJ's other commands: a mark, an extended adjustment, a roster or
        settings change."""
        moves = [self.mark, self.change_roster, self.change_settings, self.free_ta,
                 self.body_command, self.body_command]
        if any(p.status is ExtendedStatus.ACTIVE for p in self.state.extended):
            moves.append(self.adjust_extended)
        data.draw(st.sampled_from(moves), label="side command")(data)

    def mark(self, data: Any) -> None:
        """P4 marks; an impossible mark ("already out", ...) must be refused."""
        name = data.draw(st.sampled_from(self.names()), label="who")
        mark = data.draw(st.sampled_from(Mark), label="mark")
        state = self.state
        already = {
            Mark.OUT: name in state.out,
            Mark.PREVENTED: name in state.prevented,
            Mark.BACK: name not in state.out,
            Mark.UNPREVENT: name not in state.prevented,
        }[mark]
        pending = any(p.character == name and p.mark == mark.value
                      for p in state.pending_marks)
        too_late = mark is Mark.PREVENTED and state.phase in (Phase.SETUP, Phase.EXTENDED,
                                                               Phase.END_OF_ROUND)
        command = SetMark(character=name, mark=mark)
        if already or pending or too_late:
            self.refused(command)
        else:
            self.execute(command)

    def body_command(self, data: Any) -> None:
        """Sections H and C by the DJ: a hit by hand, healing, attending, edits of counters
        and wounds, conditions added (C2, with C3 durations) and removed."""
        name = data.draw(st.sampled_from(self.names()), label="who")
        body = self.state.body(name)
        choices = ["hit", "hit", "condition", "counters"]
        if body.counters.g:
            choices.append("heal")
        if body.wounds:
            choices += ["attend", "edit wound"]
        if body.conditions:
            choices.append("remove condition")
        choice = data.draw(st.sampled_from(choices), label="body command")
        if choice == "hit":
            self.execute(ManualHit(character=name,
                                   location=data.draw(st.sampled_from(Location)),
                                   damage=data.draw(st.integers(0, 25), label="damage"),
                                   lethal=data.draw(st.booleans(), label="lethal")))
        elif choice == "condition":
            condition_name = data.draw(st.sampled_from(BUILTIN_NAMES), label="condition")
            duration = (None if condition_name == "muerto" else
                        data.draw(st.one_of(st.none(), st.integers(1, 3)), label="asaltos"))
            self.execute(AddCondition(character=name, condition=builtin(
                condition_name, began=0, duration=duration)))
        elif choice == "counters":
            g = data.draw(st.integers(0, 30), label="g")
            w = data.draw(st.integers(0, 30), label="w")
            command = SetCounters(character=name, g=g, w=w)
            if w > g or (body.counters.g == g and body.counters.w == w):
                self.refused(command)  # H6: W <= G always
            else:
                self.edited.add(name)
                self.execute(command)
        elif choice == "heal":
            kind = data.draw(st.sampled_from(HealKind), label="heal kind")
            command = Heal(character=name, points=data.draw(st.integers(1, 10)), kind=kind)
            if (kind is HealKind.HERIDA and not body.counters.w) or (
                    kind is HealKind.GOLPE and body.counters.g == body.counters.w):
                self.refused(command)
            else:
                self.execute(command)
        elif choice == "attend":
            wound = data.draw(st.sampled_from(body.wounds), label="wound")
            command = AttendWound(character=name, wound_id=wound.id)
            if wound.attended:
                self.refused(command)
            else:
                self.execute(command)
        elif choice == "edit wound":
            wound = data.draw(st.sampled_from(body.wounds), label="wound")
            self.edited.add(name)
            self.execute(EditWound(character=name, wound=wound.model_copy(
                update={"damage": data.draw(st.integers(0, 20), label="new damage")})))
        else:
            condition = data.draw(st.sampled_from(body.conditions), label="condition")
            self.execute(RemoveCondition(character=name, condition_id=condition.id))

    def free_ta(self, data: Any) -> None:
        """The DJ's free TA (T2): logged with its numbers, no step changes."""
        name = data.draw(st.sampled_from(self.names()), label="who")
        steps = [s.model_copy() for s in self.state.steps]
        command = FreeTA(character=name, target=data.draw(st.integers(4, 24), label="target"),
                         gd=data.draw(st.integers(-1, 2), label="gd"),
                         modifier=data.draw(st.sampled_from([0, 0, 2, -3]), label="modifier"),
                         dice=data.draw(DICE, label="dice"))
        self.execute(command)
        [event] = self.combat.log[-1:]
        ta = event.ta
        assert ta is not None and ta.target == command.target, "T2: free TA target"
        points = self.state.settings.points_per_gd
        # H10/C1: a free TA with no scope is physical with the main arm; the wounds' and the
        # active conditions' grades of that scope add to the DJ's GD.
        character = self.state.character(name)
        assert character is not None
        scope = ActionScope.default(character.main_arm)
        body = self.state.body(name)
        grades = sum(effect.gd for wound in body.wounds for effect in wound.gd
                     if effect.matches(scope))
        grades += sum(effect.gd for condition in active(body.conditions, self.state.round)
                      for effect in condition.effects.gd if effect.matches(scope))
        assert ta.total == (command.dice.sum + points * (command.gd + grades)
                            + command.modifier)  # T2, H10
        assert self.state.steps == steps

    def adjust_extended(self, data: Any) -> None:
        """E2/E3 adjustments, or the DJ abandons the action (E1)."""
        active = [p for p in self.state.extended if p.status is ExtendedStatus.ACTIVE]
        progress = data.draw(st.sampled_from(active), label="extended")
        if data.draw(st.integers(0, 5), label="abandon") == 0:
            self.execute(AbandonExtended(extended_id=progress.id))
            return
        gd = data.draw(st.one_of(st.none(), st.integers(-1, 2)), label="gd")
        if progress.mode is ExtendedMode.SIMPLE:
            duration = data.draw(st.integers(1, 3), label="duration")
            self.execute(AdjustExtended(extended_id=progress.id, duration=duration, gd=gd))
        else:
            successes = data.draw(st.one_of(st.none(), st.integers(1, 3)), label="successes")
            interval = data.draw(st.integers(1, 2), label="interval")
            self.execute(AdjustExtended(extended_id=progress.id, successes=successes,
                                        interval=interval, gd=gd))

    def change_roster(self, data: Any) -> None:
        """Mid-combat edits: a character joins (declares from the next round) or leaves;
        I1 new initiative (from the next round); I3 the DJ's tie-break order."""
        names = self.names()
        choices = ["edit", "move"]
        if len(names) < MAX_CHARACTERS:
            choices.append("add")
        if len(names) > 2:
            choices.append("remove")
        choice = data.draw(st.sampled_from(choices), label="roster change")
        if choice == "add":
            taken = {n.casefold() for n in names}
            free = [n for n in NAMES + EXTRA_NAMES if n.casefold() not in taken]
            self.execute(AddCharacter(character=Character(
                name=data.draw(st.sampled_from(free), label="new name"),
                primaria=data.draw(st.integers(0, 3)), secundaria=data.draw(st.integers(0, 2)),
                alerta=data.draw(st.integers(6, 24)))))
            return
        name = data.draw(st.sampled_from(names), label="who")
        if choice == "remove":
            self.execute(RemoveCharacter(name=name))
        elif choice == "move":
            position = data.draw(st.integers(0, len(names)), label="position")
            self.execute(MoveCharacter(name=name, position=position))
        else:
            old = self.state.character(name)
            assert old is not None
            new = old.model_copy(update={"primaria": data.draw(st.integers(0, 3)),
                                         "secundaria": data.draw(st.integers(0, 2))})
            self.execute(EditCharacter(name=name, character=new))

    def change_settings(self, data: Any) -> None:
        """D3 (reacción on/off mid-combat), T4 (niveles de calidad), T3 points per GD."""
        field = data.draw(st.sampled_from(["reaccion", "niveles_de_calidad",
                                           "points_per_gd"]), label="setting")
        old = self.state.settings
        value: object = (8 - old.points_per_gd if field == "points_per_gd"
                         else not getattr(old, field))
        self.execute(ChangeSettings(settings=old.model_copy(update={field: value})))

    @precondition(lambda self: self.combat.can_undo)
    @rule(data=st.data())
    def undo(self, data: Any) -> None:
        for _ in range(data.draw(st.integers(1, 3), label="undos")):
            if not self.combat.can_undo:
                break
            commands = self.combat.commands
            assert self.combat.undo() == commands[-1]
            assert self.combat.commands == commands[:-1]
            assert self.combat.redo_stack[-1] == commands[-1]

    @precondition(lambda self: self.combat.can_redo)
    @rule(data=st.data())
    def redo(self, data: Any) -> None:
        for _ in range(data.draw(st.integers(1, 3), label="redos")):
            if not self.combat.can_redo:
                break
            redo = self.combat.redo_stack
            assert self.combat.redo() == redo[-1]
            assert self.combat.commands[-1] == redo[-1]
            assert self.combat.redo_stack == redo[:-1]

    @rule(data=st.data())
    def illegal_command(self, data: Any) -> None:
        """S1: a command the rules forbid raises SombraError and changes nothing."""
        self.refused(data.draw(st.sampled_from(self.illegal_commands()), label="illegal"))

    def illegal_commands(self) -> list[Command]:
        state = self.state
        names = self.names()
        first = names[0]
        action = Action(description="x", targets=[first])
        bad: list[Command] = [
            RemoveCharacter(name="Nadie"),
            SetMark(character="Nadie", mark=Mark.OUT),
            AdjustExtended(extended_id=10_000, gd=1),
            AbandonExtended(extended_id=10_000),
            ChangeSettings(settings=state.settings),
            AllowPrompt(character=first, against=first),
            AddCharacter(character=Character(name=first.upper(), primaria=1, secundaria=1,
                                             alerta=10)),
        ]
        if state.phase is not Phase.SETUP:
            bad.append(StartCombat())
        if state.phase is not Phase.DECLARATION:
            bad += [Declare(character=first), Decline(character=first),
                    React(character=first, mode=ReactionMode.COMBINE, actions=[action],
                          dice=Dice.of(1, 1, 1))]
        if state.phase not in RESOLUTION:
            bad.append(Resolve(character=first, dice=Dice.of(1, 2, 3)))
        if not self.can_advance():
            bad.append(Advance())
        top = state.top_prompt
        if state.phase is Phase.DECLARATION and top is not None:
            reactor = top.reactor
            bad += [
                Declare(character=first),  # D11: settle the prompt first
                React(character=reactor, mode=ReactionMode.COMBINE, actions=[action]),
                React(character=reactor, mode=ReactionMode.COMBINE, actions=[action],
                      dice=Dice.of(2, 2, 2), accept_without_roll=True),
            ]
            bad += [Decline(character=n) for n in names if n != reactor][:1]
            bad += [DenyPrompt(character=n) for n in names if n != reactor][:1]
        if state.phase is Phase.DECLARATION and top is None:
            bad += [Decline(character=first), DenyPrompt(character=first),
                    React(character=first, mode=ReactionMode.SUBSTITUTE, actions=[action],
                          dice=Dice.of(3, 3, 3))]
            declarer = state.current_declarer
            bad += [Declare(character=n) for n in names if n != declarer][:2]  # I3
            if declarer is not None:
                bad += [
                    Declare(character=declarer, actions=[action], affected=[declarer]),
                    Declare(character=declarer, affected=[n for n in names
                                                          if n != declarer][:1]),  # D2
                    Declare(character=declarer,
                            actions=[Action(description="y", targets=["Nadie"])]),
                ]
        if state.phase in RESOLUTION:
            acting = {step.character for step in state.current_group()}
            bad += [Resolve(character=n, dice=Dice.of(5, 5, 5))
                    for n in names if n not in acting][:1]
            for step in state.current_group():
                action_now = state.step_action(step)
                first_of_name = next(s for s in state.current_group()
                                     if s.character == step.character)
                if first_of_name is not step:
                    continue
                if action_now.kind is ActionKind.AUTOMATIC:  # T7
                    bad.append(Resolve(character=step.character, dice=Dice.of(4, 4, 4)))
                else:
                    bad.append(Resolve(character=step.character, target=10))
        return bad

    # ---- invariants -----------------------------------------------------------

    @invariant()
    def history_follows_the_rules(self) -> None:
        """D3, D6, D7, D8, D9, D11, I3, P1 and the S1 replay, over the whole history."""
        audit_history(self.combat)

    @invariant()
    def marks_follow_p4_inside_groups(self) -> None:
        """P4/P5: a mark is held only while a member of the acting group has rolled, and
        nobody out, gone or (round phase) prevented is left to act in the acting group."""
        state = self.state
        if state.phase not in RESOLUTION:
            assert state.pending_marks == [], "P4: a held mark outlived its phase"
            return
        pending = [s for s in state.steps if s.status is StepStatus.PENDING]
        if not pending:
            assert state.pending_marks == [], "P4: a held mark outlived the steps"
            return
        group = pending[0].group
        acting = [s for s in state.steps if s.group == group]
        if state.pending_marks:
            assert any(s.status is StepStatus.DONE for s in acting), (
                "P4: a mark is held for a group nobody of which has rolled")
        for step in acting:
            if step.status is not StepStatus.PENDING:
                continue
            name = step.character
            assert state.character(name) is not None, f"{name} is gone but acts"
            assert name not in state.out, f"P4/P5: {name} is out but still acts"
            if state.phase is Phase.ROUND:
                assert name not in state.prevented, f"P4: {name} is prevented but acts"

    @invariant()
    def points_and_conditions_follow_h6_and_c3(self) -> None:
        """H6: W <= G <= the damage recorded in wounds and bleeding (unless the DJ set
        them); C3: no condition outlives its last round."""
        state = self.state
        for name, body in state.bodies.items():
            counters = body.counters
            assert counters.w <= counters.g, f"H6: {name} {counters}"
            recorded = sum(w.damage + w.bled for w in body.wounds)
            if name not in self.edited:
                assert counters.g <= recorded, f"H6: {name} {counters} > {recorded}"
            for condition in body.conditions:
                last = condition.last_round
                if last is None:
                    continue
                assert last > state.round or (
                    last == state.round and state.phase is not Phase.END_OF_ROUND), (
                    f"C3: {name}'s {condition.name} outlived round {last}")

    @invariant()
    def undo_then_redo_changes_nothing(self) -> None:
        """S1: undo then redo gives back the same state, log and stacks."""
        if not self.combat.can_undo:
            return
        state = self.state.model_copy(deep=True)
        log, commands, redo = self.combat.log, self.combat.commands, self.combat.redo_stack
        assert self.combat.undo() == commands[-1]
        assert self.combat.log == log[:len(self.combat.log)]
        self.combat.redo()
        assert self.state == state
        assert self.combat.log == log
        assert self.combat.commands == commands
        assert self.combat.redo_stack == redo

    @invariant()
    def save_and_load_give_the_same_combat(self) -> None:
        """S1: storage.loads(storage.dumps(combat)) replays to the same state and log."""
        loaded = storage.loads(storage.dumps(self.combat))
        assert loaded.encounter == self.combat.encounter
        assert loaded.commands == self.combat.commands
        assert loaded.redo_stack == self.combat.redo_stack
        assert loaded.state == self.state
        assert loaded.log == self.combat.log


TestCombatMachine = CombatMachine.TestCase
TestCombatMachine.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --------------------------------------------------------------------------- found by the machine


def test_d7_d11_locked_author_is_not_offered_a_counter_reaction() -> None:
    """D7, D11: Bruno failed his counter-reaction; when Dario then reacts to the same
    declaration, Bruno is not offered (even briefly) another counter-reaction."""
    combat = Combat(Encounter(characters=[
        Character(name="Ana", primaria=1, secundaria=0, alerta=20),
        Character(name="Dario", primaria=2, secundaria=0, alerta=20),
        Character(name="Bruno", primaria=3, secundaria=0, alerta=12)]))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana"))
    combat.execute(Declare(character="Dario"))
    combat.execute(Declare(character="Bruno", actions=[
        Action(description="sweeps the room", targets=["Ana", "Dario"])]))
    hide = [Action(description="hides")]
    combat.execute(React(character="Ana", mode=ReactionMode.COMBINE, actions=hide,
                         dice=Dice.of(1, 2, 3)))
    combat.execute(React(character="Bruno", mode=ReactionMode.COMBINE, actions=hide,
                         dice=Dice.of(10, 10, 9)))  # 29 > 12: locked (D7)
    assert combat.state.locked == ["Bruno"]
    events = combat.execute(React(character="Dario", mode=ReactionMode.COMBINE,
                                  actions=hide, dice=Dice.of(1, 2, 3)))
    assert [e.actor for e in events if e.kind is EventKind.PROMPT] == []
    assert [e.actor for e in events if e.kind is EventKind.SKIPPED] == ["Bruno"]
    assert combat.state.prompts == []
    audit_history(combat)


def test_d11_out_author_is_not_offered_a_counter_reaction() -> None:
    """D11, P4: Bruno is out when Ana's reaction to him succeeds: no counter prompt."""
    combat = Combat(Encounter(characters=[
        Character(name="Ana", primaria=1, secundaria=0, alerta=20),
        Character(name="Bruno", primaria=3, secundaria=0, alerta=12)]))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana"))
    combat.execute(Declare(character="Bruno", actions=[
        Action(description="shoots Ana", targets=["Ana"])]))
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(React(character="Ana", mode=ReactionMode.SUBSTITUTE,
                                  actions=[Action(description="dives")],
                                  dice=Dice.of(1, 2, 3)))
    assert [e.actor for e in events if e.kind is EventKind.PROMPT] == []
    assert [e.actor for e in events if e.kind is EventKind.SKIPPED] == ["Bruno"]
    assert combat.state.prompts == []
    audit_history(combat)


def test_re_added_character_waits_for_the_next_round() -> None:
    """I3, D1: a character removed and added back mid-round declares from the next round,
    not out of order in this one."""
    elena = Character(name="Elena", primaria=0, secundaria=0, alerta=10)
    combat = Combat(Encounter(characters=[
        elena, Character(name="Ana", primaria=1, secundaria=0, alerta=10)]))
    combat.execute(StartCombat())
    combat.execute(RemoveCharacter(name="Elena"))
    combat.execute(AddCharacter(character=elena))
    assert combat.state.current_declarer == "Ana"
    combat.execute(Declare(character="Ana"))
    assert combat.state.current_declarer is None
    for _ in range(5):  # instant, round, extended, end of round, round 2 (P1)
        combat.execute(Advance())
    assert combat.state.round == 2
    assert combat.state.declaration_order == ["Elena", "Ana"]
    audit_history(combat)
