"""No rule id outside the help (the project's standard): rule ids (I3, D12, O2, T5,
P4, H2, C3...) belong in the help's rules summary, the tests and the code comments;
no other text the DJ reads cites one, in either language.

Checked three ways: every catalog message marked outside the help (English source
and Spanish translation); every screen and dialog the pseudo-language test renders
(tests/app/test_pseudo_language.py reads each screen for citations as it reads it
for unmarked words: one run of each screen for both checks); the log of a played
round and the engine's refusals, in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from sombra_tui.engine import Combat, Command, SombraError, i18n
from tests.engine.test_history_undo import REFUSED, mid_chain, played_script
from tests.test_i18n_catalog import KEYWORDS, PACKAGE, read_catalog

#: A rule citation: a section letter and the rule's number (RULES.md's ids).
CITATION = re.compile(r"\b[TIDPEOSHC][0-9]{1,2}\b")
#: The one place the rules are summarised by id (the help shows it after the keys).
HELP = Path("screens") / "dialogs" / "help_rules.py"
LANGUAGES = ("en", "es")


def marked_outside_the_help() -> dict[str, str]:
    """Every message marked in sombra_tui outside the help, with the file marking it."""
    found: dict[str, str] = {}
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS):
        if Path(filename) == HELP:
            continue
        for each in message if isinstance(message, tuple) else (message,):
            if each:
                found.setdefault(each, filename)
    return found


def test_no_message_outside_the_help_cites_a_rule() -> None:
    cited = sorted((filename, msgid) for msgid, filename in marked_outside_the_help().items()
                   if CITATION.search(msgid))
    assert not cited, f"{len(cited)} messages cite a rule id: {cited[:20]}"


def test_no_spanish_translation_outside_the_help_cites_a_rule() -> None:
    catalog = read_catalog()
    cited = []
    for msgid in marked_outside_the_help():
        message = catalog.get(msgid)
        if message is None:
            continue  # test_i18n_catalog fails on a missing translation
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        cited += [(msgid, each) for each in strings if CITATION.search(each)]
    assert not cited, f"{len(cited)} translations cite a rule id: {cited[:20]}"


def test_the_help_summarises_the_rules_by_id() -> None:
    """The check itself: the help's messages do cite rules, and are the only ones."""
    catalog = read_catalog()
    help_ids = {message.id for message in catalog
                if isinstance(message.id, str) and CITATION.search(message.id)}
    assert help_ids, "the help's rules summary lost its ids"
    assert not help_ids & set(marked_outside_the_help())


def test_the_log_of_a_played_round_cites_no_rule() -> None:
    """Round 1 with every command type (reactions, the DJ's allow/deny and accept
    without a roll, opposed, extended, marks) into round 2, read in both languages."""
    recorder, _ = played_script()
    log = recorder.combat.log
    read: dict[str, list[str]] = {}
    for language in LANGUAGES:
        i18n.set_language(language)
        read[language] = [event.text for event in log]
        cited = [text for text in read[language] if CITATION.search(text)]
        assert not cited, f"{language}: {cited}"
    assert read["es"] != read["en"], "the log must read in both languages"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("make", [make for _, make in REFUSED],
                         ids=[name for name, _ in REFUSED])
def test_a_refusal_cites_no_rule(make: Callable[[Combat], Command], language: str) -> None:
    combat = mid_chain()
    i18n.set_language(language)
    with pytest.raises(SombraError) as info:
        combat.execute(make(combat))
    assert str(info.value).strip()
    assert not CITATION.search(str(info.value)), str(info.value)
