"""A synthetic encounter and a legal history of any size, for the tests and the
benchmark (tests/tools/bench.py, which imports them from here).

`build_encounter(n)` makes n combatants with varied (often tied) initiatives, Alerta,
skills and weapons; `build_history(encounter, length)` has a scripted DJ, who looks at
the state before every command, play that many legal commands: declarations aimed at
characters who already declared (so they are prompted), reactions, counter-reactions
and chains, declines, DJ overrides, resolution of every step (opposed, automatic and
extended actions included), marks and many rounds.
"""

from __future__ import annotations

import random

from sombra_tui.engine import ask
from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Character,
    Encounter,
    ExtendedMode,
    ExtendedSpec,
    Opposition,
    OppositionMode,
    Settings,
    Side,
)
from sombra_tui.engine.state import (
    CombatState,
    ExtendedStatus,
    Phase,
    ProposalKind,
    ReactionMode,
)
from sombra_tui.engine.wounds import Location, Weapon

SKILLS = ("Pelea", "Armas cortas", "Esquivar", "Percepción", "Sigilo")
VERBS = ("dispara a", "golpea a", "embiste a", "amenaza a", "apunta a", "distrae a")
#: Sections H and C: attacks with these weapons read hits from their dice.
WEAPONS = (Weapon(name="pistola", damage_type="II"), Weapon(name="puños", damage_type="0"),
           Weapon(name="cuchillo", damage_type="I"))


def build_encounter(characters: int, seed: int = 1, *, hc: bool = True) -> Encounter:
    """`characters` combatants with varied (often tied) initiatives, Alerta and skills;
    with `hc`, each with a weapon (sections H and C), else none (the baseline)."""
    rng = random.Random(seed)
    roster = [
        Character(name=f"{'PJ' if i % 4 == 0 else 'PNJ'} {i:03d}",
                  side=Side.PC if i % 4 == 0 else Side.NPC,
                  primaria=rng.randint(4, 20), secundaria=rng.randint(1, 9),
                  alerta=rng.randint(9, 17),
                  skills={skill: rng.randint(8, 17) for skill in SKILLS},
                  resistencia=rng.randint(4, 8),
                  weapons=[rng.choice(WEAPONS)] if hc else [])
        for i in range(characters)
    ]
    return Encounter(name=f"Banco de pruebas ({characters})", settings=Settings(),
                     characters=roster, seed=seed)


class ScriptedDJ:
    """Chooses the next legal command by looking at the state, like a DJ at the table."""

    def __init__(self, seed: int = 2, *, hc: bool = True) -> None:
        self.rng = random.Random(seed)
        #: Sections H and C: heals, attends and conditions now and then (hits follow
        #: from the weapons of the encounter).
        self.hc = hc

    def dice(self) -> Dice:
        rng = self.rng
        return Dice(ds=rng.randint(1, 10), a=rng.randint(1, 10), b=rng.randint(1, 10))

    def action(self, state: CombatState, author: str, targets: list[str], *,
               allow_extended: bool, allow_opposed: bool) -> Action:
        rng = self.rng
        skill = rng.choice(SKILLS)
        roll = rng.random()
        text = f"{rng.choice(VERBS)} {targets[0]}" if targets else "se pone a cubierto"
        if roll < 0.08:
            return Action(kind=ActionKind.AUTOMATIC, description="se mueve", targets=targets)
        if roll < 0.28:
            return Action(kind=ActionKind.INSTANT, description=f"rápido: {text}", skill=skill,
                          gd=rng.choice((-1, 0, 0, 1)), targets=targets)
        if roll < 0.34 and allow_extended:
            spec = (ExtendedSpec(mode=ExtendedMode.SIMPLE, duration=rng.randint(1, 3))
                    if rng.random() < 0.5 else
                    ExtendedSpec(mode=ExtendedMode.COMPLEX, successes=rng.randint(1, 3),
                                 interval=rng.randint(1, 2)))
            return Action(kind=ActionKind.EXTENDED, description="fuerza la cerradura",
                          skill=skill, extended=spec)
        if roll < 0.42 and allow_opposed and targets:
            return Action(kind=ActionKind.ROUND, description=f"forcejea con {targets[0]}",
                          skill="Pelea", targets=targets[:1],
                          opposition=Opposition(mode=OppositionMode.DIRECT,
                                                against=targets[:1]))
        weapon = None
        if targets and rng.random() < 0.5:  # H1: an attack with the author's weapon
            author_sheet = state.character(author)
            weapon = author_sheet.weapon if author_sheet is not None else None
        return Action(kind=ActionKind.ROUND, description=text, skill=skill,
                      gd=rng.choice((0, 0, 1)), targets=targets, weapon=weapon)

    def _settle(self, state: CombatState) -> c.Command:
        """H1/H7/H11: hits mostly accepted as read; thresholds mostly declined."""
        rng = self.rng
        proposal = state.proposals[0]
        if proposal.kind is not ProposalKind.HIT:
            if rng.random() < 0.3:
                return c.ConfirmProposal(proposal_id=proposal.id)
            return c.DeclineProposal(proposal_id=proposal.id)
        if rng.random() < 0.1:
            return c.DeclineHit(proposal_id=proposal.id, reason="cobertura")
        if proposal.reading is None:
            return c.AcceptHit(proposal_id=proposal.id, location=Location.PECHO,
                               damage=rng.randint(1, 12))
        return c.AcceptHit(proposal_id=proposal.id)

    def _body_command(self, state: CombatState) -> c.Command | None:
        """Now and then the DJ heals, attends a wound or adds a condition (H12, C2)."""
        rng = self.rng
        if not self.hc:
            return None
        roll = rng.random()
        if roll > 0.06:
            return None
        name = rng.choice([ch.name for ch in state.characters])
        body = state.body(name)
        if roll < 0.02:
            return c.AddCondition(character=name, condition=builtin(
                rng.choice(("aturdido", "desarmado", "dolor intenso")), began=0,
                duration=rng.randint(1, 3)))
        if roll < 0.04 and body.counters.w:
            return c.Heal(character=name, points=rng.randint(1, body.counters.w))
        open_wounds = [w for w in body.wounds if w.bleeding]
        if open_wounds:
            return c.AttendWound(character=name, wound_id=open_wounds[0].id)
        return None

    def next_command(self, state: CombatState) -> c.Command:
        phase = state.phase
        if state.proposals:
            return self._settle(state)
        if phase is not Phase.SETUP and (body := self._body_command(state)) is not None:
            return body
        if phase is Phase.SETUP:
            return c.StartCombat()
        if phase is Phase.DECLARATION:
            return self._declaration(state)
        if phase is Phase.END_OF_ROUND:
            back = [name for name in state.out if state.character(name) is not None]
            if back and self.rng.random() < 0.8:
                return c.SetMark(character=back[0], mark=c.Mark.BACK)
            return c.Advance()
        return self._resolution(state)

    def _declaration(self, state: CombatState) -> c.Command:
        rng = self.rng
        top = state.top_prompt
        if top is not None:
            answered = state.declarations[top.declaration_id]
            roll = rng.random()
            if roll < 0.5:  # D5-D10: a reaction (or counter-reaction) aimed at its author
                mode = ReactionMode.SUBSTITUTE if rng.random() < 0.5 else ReactionMode.COMBINE
                action = self.action(state, top.reactor, [answered.author],
                                     allow_extended=False, allow_opposed=False)
                return c.React(character=top.reactor, mode=mode, actions=[action],
                               dice=self.dice(), base_gd=rng.choice((0, 0, 0, 1)))
            if roll < 0.97:
                return c.Decline(character=top.reactor)
            return c.DenyPrompt(character=top.reactor)
        declarer = state.current_declarer
        if declarer is None:
            return c.Advance()
        if state.current and rng.random() < 0.01:  # D12: the DJ lets someone react
            reactor = rng.choice(sorted(state.current))
            if reactor != declarer:
                against = max(state.declarations.values(), key=lambda d: d.id).author
                if against != reactor:
                    return c.AllowPrompt(character=reactor, against=against)
        if rng.random() < 0.05:
            return c.Declare(character=declarer)  # inaction (D2)
        # Mostly aimed at those who already declared: they may react (D4).
        declared = [name for name in state.declaration_order if name in state.current]
        others = [ch.name for ch in state.characters if ch.name != declarer]
        pool = declared if declared and rng.random() < 0.7 else others
        targets = rng.sample(pool, min(len(pool), rng.choice((1, 1, 1, 2))))
        busy = any(p.owner == declarer and p.status is ExtendedStatus.ACTIVE
                   for p in state.extended)
        actions = [self.action(state, declarer, targets, allow_extended=not busy,
                               allow_opposed=True)]
        if rng.random() < 0.2:
            actions.append(Action(kind=ActionKind.INSTANT, description="grita una orden",
                                  skill="Percepción"))
        return c.Declare(character=declarer, actions=actions)

    def _resolution(self, state: CombatState) -> c.Command:
        rng = self.rng
        group = state.current_group()
        if not group:
            present = [ch.name for ch in state.characters if ch.name not in state.out]
            if state.phase is Phase.ROUND and present and rng.random() < 0.3:
                return c.SetMark(character=rng.choice(present), mark=c.Mark.OUT)  # P4
            return c.Advance()
        step = group[0]
        held = any(mark.character == step.character for mark in state.pending_marks)
        if rng.random() < 0.02 and step.character not in state.prevented and not held and \
                state.phase is not Phase.EXTENDED:
            return c.SetMark(character=step.character, mark=c.Mark.PREVENTED)
        action = state.step_action(step)
        if action.kind is ActionKind.AUTOMATIC:
            return c.Resolve(character=step.character)
        if ask.opposition_of(state, step) is not None:  # O2/O3: its own or one against it
            # O2/O3/O5: a TA for each who rolls, as the engine's plan says.
            rolling = ask.opposition_plan(state, step).rolling
            rolls = [c.OpposedRoll(character=name, dice=self.dice(), target=rng.randint(9, 16))
                     for name in rolling]
            return c.ResolveOpposed(character=step.character, rolls=rolls,
                                    tie_winner=step.character)
        if rng.random() < 0.02:
            return c.Resolve(character=step.character, accept=True)  # D12
        return c.Resolve(character=step.character, dice=self.dice(),
                         extra_gd=rng.choice((0, 0, 0, -1, 1)))


def build_history(encounter: Encounter, length: int, seed: int = 2, *,
                  hc: bool = True) -> list[c.Command]:
    """`length` legal commands, each chosen by the scripted DJ from the live state."""
    dj = ScriptedDJ(seed, hc=hc)
    combat = Combat(encounter)
    history: list[c.Command] = []
    while len(history) < length:
        command = dj.next_command(combat.state)
        try:
            combat.execute(command)
        except SombraError as error:  # the script must only play legal commands
            raise RuntimeError(f"bench: command {len(history) + 1} ({command!r}) was "
                               f"refused: {error}") from error
        history.append(command)
    return history


