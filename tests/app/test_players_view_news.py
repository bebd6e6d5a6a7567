"""The players' page and terminal carry the players' news only (issue 41 item 5): whose
turn it is, the round and phase, public results; never the DJ's hints and notices, which
tell the DJ what is left for them to do and which key does it ("No queda nada por
resolver en esta fase" was the page's line when a phase had nothing left: the DJ's
notice, not the players' news).

A whole round of the demo is played by commands (declarations with attacks and
reacción prompts, every step rolled, every hit settled, the asalto ended and the next
one opened); every text of the snapshot after each command is
listed, in English and in Spanish, and none holds a phrase of the DJ's hints."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from sombra_tui.demo import PISTOLA, PUNOS, demo_encounter
from sombra_tui.engine import ask, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.ask import NextKind, next_step
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.history import Combat
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Action

#: The DJ's hints and notices about what is left for the DJ to do (the main screen's
#: notices, the panel's lines, the hint line's words), as in the catalog.
DJ_HINTS = (
    "Nothing left to resolve in this phase: {next} moves on.",
    "Nothing to resolve in this phase: {next} moves on.",
    "Everyone has declared: {next} resolves the round.",
    "Asalto {round} is over. Change initiatives now if wounds or state call for it.",
    "{next}: resolve the instant actions",
    "{next}: start asalto {round}",
    "{next}: end the asalto",
    "{next}: resolve {name}'s action ({roll} rolls, {type} types dice)",
    "{next}: settle {attacker}'s hit on {target}",
)

#: Each character's action this round: Bruno shoots Ana (her reacción prompt), Matón
#: punches Iker; no instant action (the instant phase has nothing to resolve).
PLAN = {
    "Ana": Action(description="vigila la puerta", skill="Armas cortas"),
    "Matón": Action(description="golpea a Iker", skill="Pelea", targets=["Iker"],
                    weapon=PUNOS),
    "Iker": Action(description="corre hacia la verja", skill="Atletismo"),
    "Bruno": Action(description="dispara a Ana", skill="Armas cortas", targets=["Ana"],
                    weapon=PISTOLA),
    "Lucía": Action(description="abre la verja", skill="Electrónica"),
    "Carla": Action(description="dispara al aire", skill="Armas cortas"),
}


def phrases(language: str) -> list[str]:
    """The DJ's hints' own words in `language`: each one's parts between its values
    (the key, a name), those of three words or more."""
    i18n.set_language(language)
    found = []
    for hint in DJ_HINTS:
        # Still the app's words: in the catalog (which keeps only the words in use).
        assert language == "en" or _(hint) != hint, hint
        for part in re.split(r"\{\w+\}", _(hint)):
            words = part.strip(" :.,;()¿?¡!")
            if len(words.split()) >= 3:
                found.append(words.casefold())
    return found


def texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)


def one_round(language: str) -> tuple[set[str], set[NextKind]]:
    """Every text of the players' snapshot after each command of the demo's first
    round, up to asalto 2 opened; and the kinds of step met on the way."""
    i18n.set_language(language)
    combat = Combat(demo_encounter())
    seen: set[str] = set()
    kinds: set[NextKind] = set()

    def look() -> None:
        snapshot = ask.players_view(combat.state, combat.log, combat.revision)
        seen.update(texts(snapshot.model_dump(mode="json")))

    look()
    while combat.state.round < 2:
        step = next_step(combat.state)
        kinds.add(step.kind)
        who = step.who[0] if step.who else ""
        match step.kind:
            case NextKind.START:
                combat.execute(combat.start_command())
            case NextKind.DECLARE:
                combat.execute(c.Declare(character=who, actions=[PLAN[who]]))
            case NextKind.REACT:
                combat.execute(c.Decline(character=who))
            case NextKind.RESOLVE:
                combat.execute(c.Resolve(character=who, dice=Dice.of(1, 2, 1)))
            case NextKind.SETTLE_HIT:
                assert step.proposal is not None
                combat.execute(c.AcceptHit(proposal_id=step.proposal.id))
            case NextKind.SETTLE_THRESHOLD | NextKind.SETTLE_PREVENT:
                assert step.proposal is not None
                combat.execute(c.ConfirmProposal(proposal_id=step.proposal.id))
            case _:
                combat.execute(c.Advance())
        look()
    return seen, kinds


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_players_read_no_hint_of_the_djs_over_a_whole_round(language: str) -> None:
    seen, kinds = one_round(language)
    # The round went through every kind of step the players' view words.
    assert {NextKind.START, NextKind.DECLARE, NextKind.REACT, NextKind.TO_INSTANT,
            NextKind.RESOLVE, NextKind.SETTLE_HIT, NextKind.NEXT_PHASE,
            NextKind.NEXT_ROUND} <= kinds
    dj = phrases(language)
    assert any("resolver en esta fase" in p or "resolve in this phase" in p for p in dj)
    leaks = sorted({(text, phrase) for text in seen for phrase in dj
                    if phrase in text.casefold()})
    assert leaks == []
    # The players' news is there: whose turn, the round and the phase, results.
    i18n.set_language(language)
    for news in (_("{names} declares.").format(names="Ana"),
                 _("Asalto {round} begins.").format(round=2),
                 _("Declaration"), _("Waiting for the DJ.")):
        assert news in seen, news
