"""Structured log events emitted by the machine (S2).

An event keeps its words as an English template (its msgid in the catalog) and the
params that fill it; `text` renders them in the language in force, at display time,
so a combat reopened or switched to the other language reads wholly in it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from sombra_tui.engine.dice import TAResult
from sombra_tui.engine.i18n import Msg, render
from sombra_tui.engine.state import GdBreakdown, Phase


class EventKind(StrEnum):
    ENCOUNTER = "encounter"  # characters, settings, order
    ROUND = "round"
    PHASE = "phase"
    DECLARE = "declare"
    PROMPT = "prompt"
    REACTION = "reaction"
    DECLINE = "decline"
    WITHDRAWN = "withdrawn"
    SKIPPED = "skipped"
    TA = "ta"
    OPPOSED = "opposed"
    MARK = "mark"
    EXTENDED = "extended"
    OVERRIDE = "override"
    PROPOSAL = "proposal"  # H1, H7, H11: something the DJ settles
    HIT = "hit"  # H12: a hit applied
    WOUND = "wound"  # H6-H9, H12: points, bleeding, wound edits
    CONDITION = "condition"  # C1-C4


#: A structured event value (kept JSON-simple so a catalog can render it in any language).
EventValue: TypeAlias = str | int | bool | None


class LogEvent(BaseModel):
    """One line of the resolution log: round, phase, who, what and the numbers (S2)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    round: int
    phase: Phase
    kind: EventKind
    #: The English template of the line (a msgid) and the values that fill it; a value
    #: may be an i18n.Msg (a reason inside the sentence), rendered in the same language.
    template: str
    params: dict[str, Any] = Field(default_factory=dict)
    #: The catalog context of the template (i18n.FEMININE: its subject is feminine).
    context: str | None = None
    #: A counted line: its plural msgid and the param that counts (i18n.lazy.ngettext).
    plural: str | None = None
    counter: str | None = None
    actor: str | None = None
    targets: list[str] = Field(default_factory=list)
    ta: TAResult | None = None
    gd: GdBreakdown | None = None
    #: Set when the event records a DJ override (D12) or a DJ decision.
    override: bool = False
    #: O2/O3: who won the comparison this event reports (its actor and targets compared).
    winner: str | None = None
    #: O4: the character the reading gives a new TA to confirm (a sentinel who won with
    #: both TAs failing); the UI offers the DJ's free TA for them.
    confirm_ta: str | None = None
    #: Which rule produced the event, for the help and the tests (e.g. "D7").
    rule: str | None = None
    #: Stable identifier of what happened ("hit.applied", "wound.bled",
    #: "condition.expired"), with the values its text is made from, so the line can
    #: be rendered from data (sections H and C).
    code: str | None = None
    data: dict[str, EventValue] = Field(default_factory=dict)

    @classmethod
    def of(cls, message: str | Msg, **fields: Any) -> LogEvent:
        """An event whose words are `message` (a Msg, or a plain template)."""
        if isinstance(message, Msg):
            return cls(template=message.template, params=message.params,
                       context=message.context, plural=message.plural,
                       counter=message.counter, **fields)
        return cls(template=message, **fields)

    @property
    def text(self) -> str:
        """The line in the language in force."""
        return render(self.template, self.params, self.context, self.plural, self.counter)

    def plain(self) -> str:
        """The event as one line of plain text, with the TA's numbers (S2)."""
        parts = [self.text]
        if self.ta is not None:
            parts.append(self.ta.describe())
        if self.gd is not None:
            parts.append(f"({self.gd.describe()})")
        if self.override:
            parts.append("[DJ]")
        return " ".join(parts)
