"""The table flow: what the main screen's keys do to the encounter, in plain Python.

Sending commands, dry runs (`Combat.preview`), the proposals a key settles first, the
opposed results and what the cursor's step opens are decided here, over the session
the screen shows; no widget and no Textual name (tests/test_architecture.py). The
screen (screens/main.py) reads these answers and shows them: it opens the dialogs
(screens/round_dialogs.py) and renders the panels. What a step opens is the engine's
answer (ask.next_step): nothing here tests an action's kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import CombatState, LogEvent, SombraError, Step, ask
from sombra_tui.engine.ask import NextStep, Opens
from sombra_tui.session import Session

#: The refusal of a command an open proposal holds back (engine/rules/core.py).
PROPOSAL_OPEN = "proposal.open"

#: The command each key sends (or the mark it sets): the key, its footer entry and its
#: palette command are offered when the engine allows that command now (check_action).
#: Keys not listed are always offered.
ACTION_COMMANDS: dict[str, type[BaseModel] | c.Mark] = {
    "declare": c.Declare,
    "react": c.React,
    "decline": c.Decline,
    "allow_prompt": c.AllowPrompt,
    "deny_prompt": c.DenyPrompt,
    "roll": c.Resolve,
    "type_dice": c.Resolve,
    "prevent": c.Mark.PREVENTED,
}

#: The forms a resume opens again by the action that opened them (issue 35 item 5): the
#: draft's kind -> (the screen's action that opens the dialog the form is opened from,
#: that dialog's action): the sheet (of the draft's character) or the forecast. The
#: thing the form was about (a wound, a condition, a note), when the draft names it, is
#: the action's argument.
DIALOG_FORMS = {"sheet_hit": ("action_sheet", "action_hit"),
                "sheet_condition": ("action_sheet", "action_condition"),
                "sheet_heal": ("action_sheet", "action_heal"),
                "sheet_wound": ("action_sheet", "edit_wound"),
                "sheet_edit_condition": ("action_sheet", "edit_condition"),
                "note": ("action_forecast", "new_note"),
                "edit_note": ("action_forecast", "edit_note")}
#: The draft's kind -> the screen's own action that opens its form (an extended
#: action's id, when the draft names it, is its argument).
SCREEN_FORMS = {"extended": "adjust_extended", "settings": "action_settings"}
#: The draft's kind -> the screen's action that opens it on the draft's character's row
#: (selected first, when the draft names one; the round's forms: round_dialogs.py).
ROW_FORMS = {"manual_hit": "action_manual_hit", "free_ta": "action_free_ta",
             "quick_points": "action_quick_points"}


@dataclass(frozen=True)
class DraftOpening:
    """How a resume opens a kept form again: select `select` (if any), run the screen's
    action `opens` (with `args`), then, in the dialog it opened, `form` (with `item`)."""

    opens: str
    args: tuple[Any, ...] = ()
    select: str | None = None
    form: str | None = None
    item: tuple[int, ...] = ()


class GroupDice(MutableMapping[str, str]):
    """The dice typed in a group's rolls for members not sent yet, by name. Every change
    is kept beside the journal in their own slot (Session.keep_group_dice), so a hard
    stop loses none of them whatever form the DJ types in meanwhile (issue 35, H1)."""

    def __init__(self, flow: TableFlow) -> None:
        self._flow = flow
        self._dice: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        return self._dice[name]

    def __setitem__(self, name: str, dice: str) -> None:
        self._dice[name] = dice
        self._keep()

    def __delitem__(self, name: str) -> None:
        del self._dice[name]
        self._keep()

    def __iter__(self) -> Iterator[str]:
        return iter(self._dice)

    def __len__(self) -> int:
        return len(self._dice)

    def clear(self) -> None:
        self._dice.clear()
        self._keep()

    def _keep(self) -> None:
        self._flow.session.keep_group_dice(dict(self._dice))

    def restore(self) -> None:
        """After a resume: the dice kept when the combat stopped, kept again beside this
        session's journal, for the members still pending in the group acting now."""
        self._dice = self._flow.session.resumed_group_dice()
        self._keep()
        self.prune()

    def prune(self) -> None:
        """Forget the dice of members no longer pending in the group acting now (P3):
        sent, or the combat moved on, they no longer apply."""
        if not self._dice:
            return
        pending = {step.character for step in self._flow.state.current_group()}
        if any(name not in pending for name in self._dice):
            self._dice = {name: dice for name, dice in self._dice.items() if name in pending}
            self._keep()


class TableFlow:
    """The main screen's decisions over `session` (the screen replaces it: open, resume)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        #: Called when a dry run was refused only because a proposal is open (H1, H7,
        #: H11): the screen opens the proposal over the dialog that asked.
        self.on_held: Callable[[], object] | None = None
        #: The dice typed in a group's rolls for members not sent yet (Escape on a hit
        #: between two of them), by name: the next group dialog brings them back.
        self.group_dice = GroupDice(self)

    @property
    def state(self) -> CombatState:
        return self.session.combat.state

    # ---- what the keys may do --------------------------------------------------------

    def offered(self, action: str) -> bool:
        """Whether the key of `action` is offered now (read once per state revision:
        Session.offers). Held back while a proposal is open: the next key settles it."""
        command = ACTION_COMMANDS.get(action)
        if command is None:
            return True
        offers = self.session.offers()
        if isinstance(command, c.Mark):
            return command in offers.marks
        return command in offers.commands

    def enabled(self) -> tuple[bool, ...]:
        """Each listed key's `offered`: the footer is rebuilt when it changes."""
        return tuple(self.offered(action) for action in ACTION_COMMANDS)

    def held_actions(self) -> Iterable[str]:
        """The keys whose command an open proposal holds back (none without one)."""
        held = self.session.offers().held
        return [action for action, command in ACTION_COMMANDS.items() if command in held]

    # ---- sending and trying commands -------------------------------------------------

    def execute(self, command: c.Command) -> list[LogEvent]:
        """Run `command` on the session (a refusal raises SombraError, nothing changes)."""
        return self.session.execute(command)

    def check(self, command: Any) -> SombraError | None:
        """Dry run for dialogs: None when the engine accepts `command`, else its error.

        Refused only because a proposal is open (H1/H7/H11: the dice typed for the next
        step, say), `on_held` opens the proposal over the dialog, which keeps what was
        typed and is sent again once the proposal is settled."""
        try:
            self.session.combat.preview(command)
        except SombraError as error:
            if error.code == PROPOSAL_OPEN and self.state.proposals and self.on_held:
                self.on_held()
            return error
        return None

    def replace_last(self, decided: c.ResolveOpposed) -> list[LogEvent]:
        """T5: the DJ's decision runs in place of the opposed command (same dice)."""
        return self.session.replace_last(decided)

    def last_command(self) -> c.Command | None:
        commands = self.session.combat.commands
        return commands[-1] if commands else None

    # ---- the next step and the cursor's step -----------------------------------------

    def next_step(self) -> NextStep:
        return ask.next_step(self.state)

    def acting(self, selected: str | None) -> tuple[Step, Opens] | None:
        """The acting group's step the DJ's keys act on (the selected character's, else
        the first) and what resolving it opens; None when nothing is left to resolve."""
        return ask.acting(self.state, selected)

    def dice_to_type(self, selected: str | None) -> bool:
        """Whether the cursor's step has dice the DJ may type now (T7: not automatic)."""
        acting = self.acting(selected)
        return acting is not None and acting[1] is not Opens.NO_ROLL

    def roll(self, step: Step, opens: Opens) -> c.Resolve | None:
        """What r sends at once for `step` (T6: the seeded roller; T7: no dice), or None
        when the dice dialog opens instead (opposed, or the roll would be refused: no
        value to roll under yet, say)."""
        if opens is Opens.NO_ROLL:
            return c.Resolve(character=step.character)
        if opens is Opens.OPPOSED:
            return None
        command = c.Resolve(character=step.character, dice=self.session.combat.roll())
        return command if self.check(command) is None else None

    def latest_author(self) -> str | None:
        """D12: the author of the round's latest declaration (None before any)."""
        latest = max(self.state.declarations.values(), key=lambda d: d.id, default=None)
        return None if latest is None else latest.author

    def add_command(self, character: c.Character, count: int | None) -> c.Command:
        """A new character, or `count` numbered copies ("4 Matón") as one command."""
        if count is None:
            return c.AddCharacter(character=character)
        return c.AddCharacters(character=character, count=count)

    def running_extended(self, selected: str | None, extended_id: int | None = None
                         ) -> c.ExtendedProgress | None:
        """The running extended action `extended_id`, or (without it) the selected
        character's, else the first running one; None when none runs."""
        active = [p for p in self.state.extended if p.status is c.ExtendedStatus.ACTIVE]
        if extended_id is not None:
            return next((p for p in active if p.id == extended_id), None)
        return next((p for p in active if p.owner == selected), active[0] if active else None)

    # ---- the opposed result (O4, T5) ---------------------------------------------------

    @staticmethod
    def opposed_choice(opposed: c.ResolveOpposed, events: list[LogEvent],
                       result: tuple[str, str] | None) -> tuple[str, Any]:
        """What the DJ's choice in the opposed result dialog leads to: ("hits", None)
        (the result read: the winning attack's hit, H1), ("confirm", name) (O4: the
        sentinel's confirming TA) or ("winner", the decided command, T5)."""
        if result is None:
            return "hits", None
        choice, who = result
        if choice == "confirm":
            return "confirm", who
        if choice != "winner":
            return "hits", None
        return "winner", ask.decide_opposed(opposed, events, who)

    # ---- a form left open when sombra-tui stopped (issue 35 item 5) --------------------

    def draft_opening(self, kind: str, who: str, item: tuple[int, ...],
                      round_forms: dict[str, tuple[str, Callable[[str], bool], bool]]
                      ) -> DraftOpening | None:
        """How to open the draft's form again, if its command still applies: the round's
        forms by `round_forms` (draft kind -> (action, whether it still applies to
        `who`, whether its row is selected first)), the others by the tables above."""
        state = self.state
        known = not who or state.character(who) is not None
        select = who or None
        if kind in round_forms:
            opens, applies, selects = round_forms[kind]
            return DraftOpening(opens, select=who if selects else None) \
                if applies(who) else None
        if kind in ROW_FORMS and known and state.characters and \
                (kind != "quick_points" or who):
            return DraftOpening(ROW_FORMS[kind], ("",) if kind == "quick_points" else (),
                                select=select)
        if kind in DIALOG_FORMS and known:
            opens, form = DIALOG_FORMS[kind]
            return DraftOpening(opens, select=select, form=form, item=item)
        if kind in SCREEN_FORMS:
            return DraftOpening(SCREEN_FORMS[kind], item)
        if kind == "character" and known:
            return DraftOpening("action_edit_character" if who else "action_add_character",
                                select=select)
        return None
