"""States for the layout tests and snapshots, built through the engine's commands (no
key scripts: each is a few milliseconds, where replaying keys from the demo takes
seconds).

`wounded_round`: the demo encounter in round 1's round actions, every character
declared with a long description, Carla (who acts first) with a leve wound on the chest
(bleeding) and one on the right arm, so her TA carries two wound grades (H10), and
dolor intenso for the next asaltos: the longest Status and GD lines the table and the
TA dialog show.
"""

from __future__ import annotations

from sombra_tui.demo import demo_encounter
from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import Condition
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Action
from sombra_tui.engine.wounds import Location

#: Each character's round action (description, skill), in declaration order (I3).
PLAN = {
    "Ana": ("vigila la puerta del almacén desde detrás de las cajas", "Armas cortas"),
    "Matón": ("golpea la verja con una barra de hierro", "Pelea"),
    "Iker": ("corre hacia la verja", "Atletismo"),
    "Bruno": ("se cubre tras el coche", "Armas cortas"),
    "Lucía": ("abre la verja con el portátil", "Electrónica"),
    "Carla": ("dispara al aire para asustar a los estibadores", "Armas cortas"),
}


def wounded_combat() -> Combat:
    """Round 1 declared, Carla wounded (see the module), still in the declaration."""
    combat = Combat(demo_encounter())
    combat.execute(combat.start_command())
    combat.execute(c.ManualHit(character="Carla", location=Location.PECHO, damage=11))
    combat.execute(c.ManualHit(character="Carla", location=Location.BRAZO_DERECHO, damage=6))
    combat.execute(c.AddCondition(character="Carla", condition=Condition(
        name="dolor intenso", duration=3)))
    combat.execute(c.AddCondition(character="Matón", condition=Condition(
        name="aturdido", duration=2)))
    return combat


def with_notes() -> Combat:
    """`wounded_combat` with the DJ's notes pinned to asaltos 1 and 2 (issue 37)."""
    combat = wounded_combat()
    combat.execute(c.AddNote(round=1, text="se va la luz"))
    combat.execute(c.AddNote(round=2, text="llegan los guardias", character="Bruno"))
    return combat


def wounded_round() -> Combat:
    """`wounded_combat` with every declaration made and the round actions begun: Carla
    acts first (I4)."""
    combat = wounded_combat()
    while (declarer := combat.state.current_declarer) is not None:
        description, skill = PLAN[declarer]
        combat.execute(c.Declare(character=declarer, actions=[
            Action(description=description, skill=skill)]))
    while combat.state.phase.value != "round":
        combat.execute(c.Advance())
    return combat


def hidden_round() -> Combat:
    """`wounded_round` with Carla (who acts now, with the longest Status) and Matón
    hidden from the players (issue 39 item 7): Carla's row carries both marks."""
    combat = wounded_round()
    combat.execute(c.HideCharacter(character="Carla"))
    combat.execute(c.HideCharacter(character="Matón"))
    return combat


def wounded_round_due() -> Combat:
    """`wounded_round` with the DJ's notes about Carla (who acts now) and Matón pinned to
    asalto 1: the table marks both as having something due (issue 37 item 4)."""
    combat = wounded_round()
    combat.execute(c.AddNote(round=1, text="se le encasquilla la pistola", character="Carla"))
    combat.execute(c.AddNote(round=1, text="llama a sus amigos", character="Matón"))
    return combat


def ahead_round() -> Combat:
    """The demo in asalto 2, declared: Bruno's grave wound on the chest (asalto 1) bleeds
    at the end of asalto 6 (H9), Lucía's complex extended action (2 successes, a TA every
    2 asaltos) rolls in asaltos 3 and 5 (E3), Iker is out (P4), and the DJ's public note
    is pinned to asalto 9 (issue 37)."""
    from sombra_tui.engine.model import ActionKind, ExtendedMode, ExtendedSpec

    combat = Combat(demo_encounter())
    combat.execute(combat.start_command())
    combat.execute(c.ManualHit(character="Bruno", location=Location.PECHO, damage=20))
    while combat.state.proposals:
        combat.execute(c.DeclineProposal(proposal_id=combat.state.proposals[0].id))
    while combat.state.round < 2:
        name = combat.state.current_declarer
        combat.execute(c.Declare(character=name, actions=[]) if name else c.Advance())
    while (name := combat.state.current_declarer) is not None:
        actions = [Action(kind=ActionKind.EXTENDED, description="abre la verja",
                          skill="Electrónica", extended=ExtendedSpec(
                              mode=ExtendedMode.COMPLEX, successes=2, interval=2))
                   ] if name == "Lucía" else []
        combat.execute(c.Declare(character=name, actions=actions))
    combat.execute(c.SetMark(character="Iker", mark=c.Mark.OUT))
    combat.execute(c.AddNote(round=9, text="amanece", public=True))
    return combat


def reaction_prompt() -> Combat:
    """The demo's round 1 as `screenshots.to_reaction_prompt` leaves it, by commands:
    Ana, Matón and Iker declared, Bruno shoots Ana, Ana's reacción prompt is open (the
    table's Ana reads "now"; the panel lists the prompt, then what was declared)."""
    combat = Combat(demo_encounter())
    combat.execute(combat.start_command())
    for name, description, skill, targets in (
            ("Ana", "vigila la puerta del almacén", "Armas cortas", []),
            ("Matón", "golpea a Iker", "Pelea", ["Iker"]),
            ("Iker", "corre hacia la verja", "Atletismo", []),
            ("Bruno", "dispara a Ana", "Armas cortas", ["Ana"])):
        combat.execute(c.Declare(character=name, actions=[
            Action(description=description, skill=skill, targets=targets)]))
    assert combat.state.top_prompt is not None
    return combat


def opposed_round() -> Combat:
    """`wounded_combat` declared with Carla (who acts first) shooting Bruno, who dodges
    her (O3): her TA carries her wound grades (H10); the opposed dialog opens on her
    step with each side's chance (issue 37)."""
    from sombra_tui.engine.model import Opposition, OppositionMode, Reading, Role

    combat = wounded_combat()
    roles = {"Carla": ("Bruno", Role.CONDITIONING), "Bruno": ("Carla", Role.CONDITIONED)}
    while (declarer := combat.state.current_declarer) is not None:
        description, skill = PLAN[declarer]
        opposition = None
        if declarer in roles:
            against, role = roles[declarer]
            description = "dispara a Bruno" if declarer == "Carla" else "esquiva a Carla"
            opposition = Opposition(mode=OppositionMode.CONDITIONED, against=[against],
                                    role=role, reading=Reading.ATTACK)
        combat.execute(c.Declare(character=declarer, actions=[
            Action(description=description, skill=skill, opposition=opposition)]))
        while (prompt := combat.state.top_prompt) is not None:
            combat.execute(c.Decline(character=prompt.reactor))
    while combat.state.phase.value != "round":
        combat.execute(c.Advance())
    return combat


#: Issue 39 item 5: the four conditions one character carries in `crowded_round`.
FOUR_CONDITIONS = (("dolor intenso", 3), ("aturdido", 2), ("cegado", 4), ("derribado", None))


def crowded_round() -> Combat:
    """The demo with two more NPCs (8 characters), in round 1's round actions, every
    character declared, Carla (who acts first) wounded on the chest (bleeding) with four
    conditions: the longest rows an 80x24 table has to keep on screen (issue 39 item 5)."""
    from sombra_tui.engine.model import Character, Side

    encounter = demo_encounter()
    extra = [Character(name=name, side=Side.NPC, primaria=9, secundaria=1, alerta=9,
                       skills={"Pelea": 11}) for name in ("Dani", "Eva")]
    combat = Combat(encounter.model_copy(update={
        "characters": [*encounter.characters, *extra]}))
    combat.execute(combat.start_command())
    combat.execute(c.ManualHit(character="Carla", location=Location.PECHO, damage=11))
    for name, duration in FOUR_CONDITIONS:
        combat.execute(c.AddCondition(character="Carla", condition=Condition(
            name=name, duration=duration)))
    plan = {**PLAN, "Dani": ("golpea a Iker con una cadena oxidada", "Pelea"),
            "Eva": ("vigila el coche", "Pelea")}
    while (declarer := combat.state.current_declarer) is not None:
        description, skill = plan[declarer]
        combat.execute(c.Declare(character=declarer, actions=[
            Action(description=description, skill=skill)]))
    while combat.state.phase.value != "round":
        combat.execute(c.Advance())
    return combat


#: Issue 39 item 5: a declaration longer than the panel's line, with a target.
LONG_DECLARATION = "golpea a Iker con una barra de hierro oxidada que encontró junto a la verja"


def long_declared() -> Combat:
    """The demo's round 1 declaration with Ana, Matón and Iker declared, Matón's
    declaration long and aimed at Iker: Bruno declares next (the panel lists theirs)."""
    combat = Combat(demo_encounter())
    combat.execute(combat.start_command())
    for name, description, skill, targets in (
            ("Ana", "vigila la puerta del almacén", "Armas cortas", []),
            ("Matón", LONG_DECLARATION, "Pelea", ["Iker"]),
            ("Iker", "corre hacia la verja", "Atletismo", [])):
        combat.execute(c.Declare(character=name, actions=[
            Action(description=description, skill=skill, targets=targets)]))
        while (prompt := combat.state.top_prompt) is not None:
            combat.execute(c.Decline(character=prompt.reactor))
    return combat
