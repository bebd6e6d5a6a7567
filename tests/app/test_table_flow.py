"""Issue 36 item 1: the main screen's table flow (screens/flow.py) is plain Python over a
session, tested here without an app: what r sends (T6, T7), what is held back while a
proposal is open (H1), the dry runs, the opposed result's choices (O4, T5) and how a
kept form opens again (issue 35 item 5)."""

from __future__ import annotations

import ast
from pathlib import Path

from sombra_tui.engine import commands as c
from sombra_tui.engine.ask import Opens
from sombra_tui.engine.model import ActionKind, Opposition, OppositionMode
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens import flow as flow_module
from sombra_tui.screens.flow import TableFlow
from sombra_tui.session import Session
from tests.engine.conftest import act, advance_to, char, declare, dice, started


def flow_of(combat: c.Combat) -> TableFlow:
    return TableFlow(Session(combat))


def test_the_flow_imports_no_widget() -> None:
    """Plain Python: nothing from Textual or rich, no widget, no dialog."""
    tree = ast.parse(Path(flow_module.__file__).read_text("utf-8"))
    imported = {node.module or "" for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported
                if name.split(".")[0] in ("textual", "rich")
                or name.startswith(("sombra_tui.widgets", "sombra_tui.screens"))}


def test_t7_r_resolves_an_automatic_action_with_no_dice_and_t6_rolls_a_ta() -> None:
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("aims", target=10))
    declare(combat, "Bruno", act("waits", kind=ActionKind.AUTOMATIC))
    advance_to(combat, Phase.ROUND)
    flow = flow_of(combat)
    acting = flow.acting(None)
    assert acting is not None and acting[1] is Opens.NO_ROLL
    assert not flow.dice_to_type(None)
    assert flow.roll(*acting) == c.Resolve(character="Bruno")
    flow.execute(c.Resolve(character="Bruno"))
    acting = flow.acting("Bruno")  # not in the group: the first step
    assert acting is not None and (acting[0].character, acting[1]) == ("Ana", Opens.TA)
    assert flow.dice_to_type(None)
    rolled = flow.roll(*acting)
    assert rolled is not None and rolled.character == "Ana" and rolled.dice is not None


def test_t6_r_opens_the_dice_dialog_when_the_roll_would_be_refused() -> None:
    """No value to roll under (a skill the character lacks, no target typed): r sends
    nothing, the dice dialog asks for it."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("climbs", skill="Trepar"))
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    flow = flow_of(combat)
    acting = flow.acting(None)
    assert acting is not None and acting[1] is Opens.TA
    assert flow.roll(*acting) is None


def test_o2_r_on_an_opposed_step_sends_nothing() -> None:
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("pushes", target=10, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Bruno"])))
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    flow = flow_of(combat)
    acting = flow.acting(None)
    assert acting is not None and acting[1] is Opens.OPPOSED
    assert flow.roll(*acting) is None


def shot() -> c.Combat:
    """Ana's shot at Bruno hit: its proposal is open (H1), Bruno still to act."""
    combat = started(char("Ana", 14, skills={"Armas": 30}), char("Bruno", 12))
    declare(combat, "Bruno", act("aims", target=10))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas",
                               weapon=Weapon(name="pistol", damage_type="II")), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(c.Resolve(character="Ana", dice=dice(5, 4, 3)))
    assert combat.state.proposals
    return combat


def test_h1_an_open_proposal_holds_back_the_next_steps_keys() -> None:
    flow = flow_of(shot())
    assert not flow.offered("roll") and not flow.offered("type_dice")
    assert {"roll", "type_dice"} <= set(flow.held_actions())
    assert flow.offered("help")  # a key not listed is always offered


def test_h1_a_dry_run_refused_for_the_open_proposal_asks_to_settle_it() -> None:
    flow = flow_of(shot())
    asked: list[bool] = []
    flow.on_held = lambda: asked.append(True)
    error = flow.check(c.Resolve(character="Bruno", dice=dice(1, 1, 1)))
    assert error is not None and error.code == flow_module.PROPOSAL_OPEN and asked
    assert flow.check(c.HideCharacter(character="Bruno")) is None  # not held back
    assert asked == [True]


def test_o4_t5_the_opposed_results_choices() -> None:
    opposed = c.ResolveOpposed(character="Ana", rolls=[
        c.OpposedRoll(character="Ana", dice=dice(1, 1, 1)),
        c.OpposedRoll(character="Bruno", dice=dice(2, 2, 2))])
    assert TableFlow.opposed_choice(opposed, [], None) == ("hits", None)
    assert TableFlow.opposed_choice(opposed, [], ("confirm", "Bruno")) == ("confirm", "Bruno")
    assert TableFlow.opposed_choice(opposed, [], ("close", "")) == ("hits", None)


def test_a_kept_form_opens_again_only_while_it_applies() -> None:
    combat = started(char("Ana", 8), char("Bruno", 12))
    flow = flow_of(combat)
    declarer = combat.state.current_declarer
    other = next(ch.name for ch in combat.state.characters if ch.name != declarer)
    forms = {"declaration": ("action_declare",
                             lambda who: combat.state.current_declarer == who, False)}
    opening = flow.draft_opening("declaration", declarer or "", (), forms)
    assert opening is not None and (opening.opens, opening.select) == ("action_declare", None)
    assert flow.draft_opening("declaration", other, (), forms) is None
    wound = flow.draft_opening("sheet_wound", "Ana", (2,), forms)
    assert wound == flow_module.DraftOpening("action_sheet", select="Ana",
                                             form="edit_wound", item=(2,))
    assert flow.draft_opening("quick_points", "", (), forms) is None
    assert flow.draft_opening("sheet_wound", "Nadie", (2,), forms) is None
    assert flow.draft_opening("extended", "Ana", (3,), forms) == flow_module.DraftOpening(
        "adjust_extended", (3,))
