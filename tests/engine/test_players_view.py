"""The players' view (issue 23 items 1 and 2): a player-safe snapshot of the combat,
and the DJ's settings and reveal / hide commands that decide what is in it."""

from __future__ import annotations

import json

import pytest

from sombra_tui.engine import (
    Advance,
    ChangeSettings,
    Combat,
    Concealment,
    DeclarationView,
    Declare,
    Decline,
    Encounter,
    HideCharacter,
    ManualHit,
    PlayersSnapshot,
    PlayerViewSettings,
    React,
    RemoveCharacter,
    Resolve,
    RevealCharacter,
    Settings,
    Side,
    SideView,
    SombraError,
    StartCombat,
    WoundView,
    ask,
    storage,
)
from sombra_tui.engine.commands import (
    AddCharacter,
    AddCondition,
    EditCharacter,
    FreeTA,
    Mark,
    SetCounters,
    SetMark,
)
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.wounds import Location, Weapon
from tests.engine.conftest import SUB, act, char, dice

#: Values that must never reach the players, chosen so that they appear nowhere else.
ANA_ALERTA, ANA_SKILL = 47, 53
BRUNO_ALERTA, BRUNO_SKILL, BRUNO_PV = 71, 67, 89
NOTE_ANA, NOTE_BRUNO = "NOTA-DJ-ANA", "NOTA-DJ-BRUNO"
WEAPON = Weapon(name="Pistola", damage_type="VIII")


def encounter(settings: Settings | None = None) -> Encounter:
    return Encounter(name="Emboscada", settings=settings or Settings(), characters=[
        char("Ana", 8, 3, ANA_ALERTA, side=Side.PC, skills={"Esquivar": ANA_SKILL},
             notes=NOTE_ANA),
        char("Bruno", 12, 5, BRUNO_ALERTA, skills={"Pistola": BRUNO_SKILL},
             notes=NOTE_BRUNO, pv=BRUNO_PV, weapons=[WEAPON]),
        char("Carla", 15, 2, 13),
    ])


def view(combat: Combat) -> PlayersSnapshot:
    return ask.players_view(combat.state, combat.log, combat.revision)


def dumped(combat: Combat) -> str:
    return view(combat).model_dump_json()


def at_prompt(settings: Settings | None = None) -> Combat:
    """Carla hidden (an ambush); Ana declared; Bruno shoots Ana: Ana's prompt is open."""
    combat = Combat(encounter(settings))
    combat.execute(HideCharacter(character="Carla"))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("aims at Bruno", "Bruno")]))
    combat.execute(Declare(character="Bruno", actions=[
        act("shoots Ana", "Ana", weapon=WEAPON, skill="Pistola")]))
    return combat


def resolved() -> Combat:
    """Round phase after Bruno's TA (rolled by the tracker) and Ana's reaction."""
    combat = at_prompt()
    combat.execute(React(character="Ana", mode=SUB, actions=[act("dives", target=40)],
                         dice=dice(3, 4, 2)))
    combat.execute(Decline(character="Bruno"))  # no contrarreacción (D9)
    to_round(combat)
    combat.execute(Resolve(character="Bruno", dice=dice(9, 9, 9)))  # fails: no hit
    return combat


def to_round(combat: Combat, carla: str = "waits") -> None:
    """From Ana's open prompt (declined) or Carla's turn to declare, to the round phase
    with Carla's action resolved (she acts first)."""
    if combat.state.top_prompt is not None:
        combat.execute(Decline(character="Ana"))
    combat.execute(Declare(character="Carla", actions=[act(carla, target=10)]))
    combat.execute(Advance())  # instant
    combat.execute(Advance())  # round
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))


# ---- item 1: what is in the snapshot -------------------------------------------------


def test_round_phase_order_and_who_now() -> None:
    snapshot = view(at_prompt())
    assert (snapshot.round, snapshot.phase.value) == (1, "declaration")
    assert snapshot.phase_label == "Declaration"
    assert [row.name for row in snapshot.characters] == ["Ana", "Bruno"]
    assert snapshot.now == "Ana may react." and snapshot.now_names == ["Ana"]
    assert [row.now for row in snapshot.characters] == [True, False]
    assert snapshot.prompt == "Ana: do you react to Bruno?"


def test_the_prompt_in_spanish(spanish: None) -> None:
    snapshot = view(at_prompt())
    assert snapshot.prompt == "Ana: ¿reaccionas a Bruno?"
    assert snapshot.language == "es"
    assert snapshot.phase_label == "Declaración"


def test_initiative_of_pcs_only() -> None:
    rows = {row.name: row for row in view(at_prompt()).characters}
    assert rows["Ana"].initiative == "8/3"
    assert rows["Bruno"].initiative is None


def test_declarations_as_made_by_default() -> None:
    rows = {row.name: row for row in view(at_prompt()).characters}
    assert rows["Bruno"].declaration == "shoots Ana [asalto]"
    assert any("Bruno declares: shoots Ana" in line for line in view(at_prompt()).log)


def test_npc_declarations_after_the_phase_when_the_dj_says_so() -> None:
    settings = Settings(players=PlayerViewSettings(
        npc=SideView(declarations=DeclarationView.AFTER_PHASE)))
    combat = at_prompt(settings)
    snapshot = view(combat)
    rows = {row.name: row for row in snapshot.characters}
    assert rows["Bruno"].declaration is None
    assert rows["Ana"].declaration == "aims at Bruno [asalto]"  # PCs: as made
    assert not any("shoots Ana" in line for line in snapshot.log)
    combat.execute(Decline(character="Ana"))
    combat.execute(Declare(character="Carla", actions=[act("waits", target=10)]))
    combat.execute(Advance())  # the declaration phase ends
    snapshot = view(combat)
    assert {row.name: row for row in snapshot.characters}["Bruno"].declaration \
        == "shoots Ana [asalto]"
    assert any("shoots Ana" in line for line in snapshot.log)


def test_ta_lines_show_dice_and_outcome_not_the_numbers_behind() -> None:
    combat = resolved()
    lines = view(combat).log
    assert 'Bruno: "shoots Ana" — [dS 9 + 9 + 9] high success (critical)' in lines
    # Ana's Alerta TA: her dice and outcome, not her Alerta.
    assert ("Ana's reacción succeeds and substitutes: dives [asalto] — [dS 3 + 4 + 2] "
            "medium success") in lines


def test_conditions_with_asaltos_left_and_marks() -> None:
    combat = resolved()
    combat.execute(AddCondition(character="Ana", condition=builtin(
        "aturdido", began=0, duration=2)))
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    rows = {row.name: row for row in view(combat).characters}
    assert [(c.name, c.left) for c in rows["Ana"].conditions] == [("aturdido", 2)]
    assert rows["Ana"].conditions[0].text == "aturdido (asaltos left: 2)"
    assert rows["Bruno"].marks == ["out"]


# ---- item 1: what is never in it (each forbidden thing, in the JSON) ----------------------


@pytest.mark.parametrize("make", [at_prompt, resolved])
def test_no_alerta_no_skill_value_no_note_no_npc_sheet(make: object) -> None:
    combat = make()  # type: ignore[operator]
    text = dumped(combat)
    for secret in (ANA_ALERTA, ANA_SKILL, BRUNO_ALERTA, BRUNO_SKILL, BRUNO_PV):
        assert str(secret) not in text, secret
    assert NOTE_ANA not in text and NOTE_BRUNO not in text
    assert "VIII" not in text  # the NPC weapon's damage type
    assert "Esquivar" not in text and "Pistola" not in text  # sheets' skills and weapons


def test_a_hidden_character_is_nowhere() -> None:
    combat = resolved()
    text = dumped(combat)
    assert "Carla" not in text
    assert "carla" not in text.casefold()


def test_a_hidden_name_typed_in_a_description_is_scrubbed() -> None:
    plain = Combat(encounter())
    plain.execute(HideCharacter(character="Carla"))
    plain.execute(StartCombat())
    plain.execute(Declare(character="Ana", actions=[act("looks for Carla")]))
    assert "Carla" not in dumped(plain)
    assert "looks for ?" in dumped(plain)


def test_a_name_containing_a_hidden_one_stays() -> None:
    combat = Combat(Encounter(characters=[char("Matón 1", 6), char("Matón 10", 5)]))
    combat.execute(HideCharacter(character="Matón 1"))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Matón 10", actions=[act("shouts at Matón 1")]))
    snapshot = view(combat)
    assert [row.name for row in snapshot.characters] == ["Matón 10"]
    assert snapshot.characters[0].declaration == "shouts at ? [asalto]"


def test_npc_dice_of_a_hidden_character_wait_for_the_reveal() -> None:
    combat = at_prompt()
    to_round(combat, "fires from the roof")
    rolled = f"[{dice(1, 2, 3)}]"
    assert rolled not in dumped(combat)
    combat.execute(RevealCharacter(character="Carla"))
    assert any("fires from the roof" in line and rolled in line
               for line in view(combat).log)


def test_open_hit_proposal_free_ta_and_overrides_are_not_shown() -> None:
    combat = at_prompt()
    to_round(combat)
    combat.execute(FreeTA(character="Bruno", target=12, dice=dice(2, 7, 7),
                          label="secret perception"))
    combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 1)))  # hits: proposal open
    assert combat.state.proposals
    text = dumped(combat)
    assert "secret perception" not in text and str(dice(2, 7, 7)) not in text
    assert "settles the hit" not in text
    assert view(combat).now == "Waiting for the DJ."


def test_the_prompt_against_a_hidden_declarer_is_not_shown() -> None:
    combat = Combat(encounter())
    combat.execute(HideCharacter(character="Bruno"))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("waits")]))
    combat.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana")]))
    snapshot = view(combat)
    assert combat.state.top_prompt is not None
    assert snapshot.prompt is None and snapshot.now == "Waiting for the DJ."
    assert "Bruno" not in snapshot.model_dump_json()


# ---- item 2: wounds per side --------------------------------------------------------------


def hurt(settings: Settings) -> Combat:
    combat = Combat(encounter(settings))
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    combat.execute(ManualHit(character="Bruno", location=Location.BRAZO_DERECHO, damage=6))
    return combat


def test_wounds_default_numbers_for_pcs_words_for_npcs() -> None:
    rows = {row.name: row for row in view(hurt(Settings())).characters}
    ana = rows["Ana"].wounds
    assert ana is not None and ana.g is not None and ana.pv == 15
    assert ana.text == f"G {ana.g} · W {ana.w} / PV 15"
    bruno = rows["Bruno"].wounds
    assert bruno is not None and bruno.g is None and bruno.pv is None
    assert bruno.text == "wounded"


def test_wounds_hidden_for_a_side() -> None:
    settings = Settings(players=PlayerViewSettings(pc=SideView(wounds=WoundView.HIDDEN)))
    combat = hurt(settings)
    rows = {row.name: row for row in view(combat).characters}
    assert rows["Ana"].wounds is None
    assert not any("G 0 ->" in line for line in view(combat).log)


def test_wound_words_from_g_w_pv_and_marks(spanish: None) -> None:
    settings = Settings(players=PlayerViewSettings(
        pc=SideView(wounds=WoundView.WORDS), npc=SideView(wounds=WoundView.WORDS)))
    combat = Combat(encounter(settings))
    words = {row.name: row.wounds.text for row in view(combat).characters
             if row.wounds is not None}
    assert words == {"Ana": "ileso", "Bruno": "ileso", "Carla": "ileso"}
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=3,
                             lethal=False))
    assert _word(combat, "Ana") == "herido"
    combat.execute(SetCounters(character="Ana", g=8, w=8))  # W >= PV/2 (PV 15)
    assert _word(combat, "Ana") == "grave"
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    assert _word(combat, "Bruno") == "fuera de combate"


def test_wound_words_in_english() -> None:
    settings = Settings(players=PlayerViewSettings(pc=SideView(wounds=WoundView.WORDS)))
    combat = Combat(encounter(settings))
    assert _word(combat, "Ana") == "unhurt"
    combat.execute(AddCondition(character="Ana", condition=builtin("inconsciente", began=0)))
    assert _word(combat, "Ana") == "out of the fight"


def _word(combat: Combat, name: str) -> str:
    row = next(row for row in view(combat).characters if row.name == name)
    assert row.wounds is not None
    return row.wounds.text


# ---- item 2: hidden characters, reveal and hide -------------------------------------------


def test_reveal_and_hide_are_undoable_commands() -> None:
    combat = Combat(encounter())
    combat.execute(HideCharacter(character="Carla"))
    assert combat.state.concealed == {"Carla": Concealment.UNTIL_REVEALED}
    combat.execute(RevealCharacter(character="Carla"))
    assert combat.state.concealed == {}
    combat.undo()
    assert "Carla" not in dumped(combat)
    combat.undo()
    assert "Carla" in dumped(combat)
    combat.redo()
    assert "Carla" not in dumped(combat)
    with pytest.raises(SombraError, match="already hidden"):
        combat.execute(HideCharacter(character="Carla"))
    combat.execute(RevealCharacter(character="Carla"))
    with pytest.raises(SombraError, match="already in the players' view"):
        combat.execute(RevealCharacter(character="Carla"))


def test_hidden_until_acts_shows_at_the_first_ta() -> None:
    settings = Settings(players=PlayerViewSettings(npc=SideView(
        wounds=WoundView.WORDS, hidden_until_acts=True)))
    combat = Combat(encounter(settings))
    assert combat.state.concealed == {"Bruno": Concealment.UNTIL_ACTS,
                                      "Carla": Concealment.UNTIL_ACTS}
    combat.execute(AddCharacter(character=char("Dora", 4)))  # a newcomer NPC: hidden
    combat.execute(AddCharacter(character=char("Eva", 4, side=Side.PC)))  # a PC: shown
    assert set(combat.state.concealed) == {"Bruno", "Carla", "Dora"}
    combat.execute(StartCombat())
    combat.execute(Declare(character="Dora", actions=[act("waits")]))
    combat.execute(Declare(character="Eva", actions=[act("waits")]))
    combat.execute(Declare(character="Ana", actions=[act("waits")]))
    combat.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana", target=5)]))
    combat.execute(Decline(character="Ana"))
    combat.execute(Declare(character="Carla", actions=[act("waits", target=10)]))
    combat.execute(Advance())
    combat.execute(Advance())
    assert "Bruno" not in dumped(combat)  # declared, not yet acted
    combat.execute(Resolve(character="Carla", dice=dice(9, 9, 9)))
    combat.execute(Resolve(character="Bruno", dice=dice(9, 9, 9)))
    assert "Bruno" not in combat.state.concealed and "Carla" not in combat.state.concealed
    snapshot = view(combat)
    assert [row.name for row in snapshot.characters][:2] == ["Carla", "Bruno"]
    combat.undo()
    assert "Bruno" not in dumped(combat)


def test_a_free_ta_does_not_reveal() -> None:
    combat = Combat(encounter())
    combat.execute(HideCharacter(character="Carla", until_acts=True))
    combat.execute(FreeTA(character="Carla", target=10, dice=dice(2, 2, 2)))
    assert combat.state.concealed == {"Carla": Concealment.UNTIL_ACTS}


def test_a_rename_in_setup_keeps_the_character_hidden() -> None:
    combat = Combat(encounter())
    combat.execute(HideCharacter(character="Carla"))
    combat.execute(EditCharacter(name="Carla", character=char("Carlota", 15, 2, 13)))
    assert combat.state.concealed == {"Carlota": Concealment.UNTIL_REVEALED}


# ---- saved with the encounter ---------------------------------------------------------------


def test_settings_and_hidden_characters_are_saved_and_reloaded() -> None:
    settings = Settings(players=PlayerViewSettings(
        pc=SideView(wounds=WoundView.HIDDEN),
        npc=SideView(wounds=WoundView.NUMBERS, declarations=DeclarationView.AFTER_PHASE,
                     hidden_until_acts=True)))
    combat = at_prompt()
    combat.execute(ChangeSettings(settings=settings))
    loaded = storage.loads(storage.dumps(combat))
    assert loaded.state.settings.players == settings.players
    assert loaded.state.concealed == {"Carla": Concealment.UNTIL_REVEALED}
    assert view(loaded).model_dump(exclude={"sequence"}) \
        == view(combat).model_dump(exclude={"sequence"})


def test_a_file_without_the_settings_reads_the_defaults() -> None:
    data = json.loads(storage.dumps(Combat(encounter())))
    del data["encounter"]["settings"]["players"]
    loaded = storage.loads(json.dumps(data))
    assert loaded.state.settings.players == PlayerViewSettings()
    assert loaded.state.concealed == {}


# ---- the sequence number ----------------------------------------------------------------------


def test_the_sequence_increases_with_every_command_undo_and_redo() -> None:
    combat = Combat(encounter())
    seen = [view(combat).sequence]
    combat.execute(StartCombat())
    seen.append(view(combat).sequence)
    combat.undo()
    seen.append(view(combat).sequence)
    combat.redo()
    seen.append(view(combat).sequence)
    assert seen == sorted(set(seen)) and len(seen) == 4


def test_the_snapshot_is_json() -> None:
    text = dumped(resolved())
    again = PlayersSnapshot.model_validate_json(text)
    assert again.model_dump_json() == text


def test_the_log_keeps_the_newest_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import players_view
    combat = resolved()
    full = view(combat).log
    monkeypatch.setattr(players_view, "LOG_LINES", 3)
    assert view(combat).log == full[-3:]


def test_a_hit_line_has_no_damage_protection_or_resistencia() -> None:
    combat = Combat(encounter())
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6,
                             protection=2, cause="a falling beam"))
    combat.execute(ManualHit(character="Bruno", location=Location.BRAZO_DERECHO, damage=6,
                             cause="a falling beam"))
    dj = " ".join(event.text for event in combat.log)
    assert "protection 2" in dj and "R 5" in dj  # what the DJ reads ...
    lines = view(combat).log
    ana = combat.state.body("Ana").counters
    assert lines == [f"Ana is hit: G 0 -> {ana.g}, W 0 -> {ana.w} of PV 15.",
                     "Bruno is hit."]  # ... and the players: numbers (PC), words (NPC)
    text = dumped(combat)
    assert "protection" not in text and "R 5" not in text and "falling beam" not in text


def test_a_hidden_character_removed_stays_out_of_the_log() -> None:
    combat = at_prompt()
    to_round(combat, "fires from the roof")
    combat.execute(RemoveCharacter(name="Carla"))  # slips away unseen
    text = dumped(combat)
    assert "Carla" not in text and "fires from the roof" not in text


# ---- issue 37 item 5: the DJ's notes pinned to an asalto -------------------------------


def test_a_public_note_shows_when_its_asalto_comes_a_private_one_never() -> None:
    """The DJ's notes (AddNote, EditNote): a public one reaches the players' view while
    its asalto lasts, not before nor after; a private one, or one about a character the
    players do not see, never reaches it (in no field)."""
    from sombra_tui.engine.commands import AddNote, EditNote

    combat = Combat(encounter())
    combat.execute(HideCharacter(character="Carla"))
    combat.execute(AddNote(round=2, text="LLEGAN-LOS-GUARDIAS", public=True))
    combat.execute(AddNote(round=2, text="SOLO-DJ"))
    combat.execute(AddNote(round=2, text="SE-ESCONDE", character="Carla", public=True))
    combat.execute(AddNote(round=1, text="CAMBIA-A-PRIVADA", public=True))
    combat.execute(AddNote(round=2, text="GRITA", character="Bruno", public=True))
    assert view(combat).notes == []  # the combat has not started
    combat.execute(StartCombat())
    assert view(combat).notes == ["CAMBIA-A-PRIVADA"]
    private = next(note for note in combat.state.notes if note.text == "CAMBIA-A-PRIVADA")
    combat.execute(EditNote(note_id=private.id, round=1, text=private.text, public=False))
    assert "CAMBIA-A-PRIVADA" not in dumped(combat)
    while combat.state.round < 2:
        play_on(combat)
    assert view(combat).notes == ["LLEGAN-LOS-GUARDIAS", "Bruno: GRITA"]
    text = dumped(combat)
    assert "SOLO-DJ" not in text and "SE-ESCONDE" not in text
    while combat.state.round < 3:
        play_on(combat)
    assert view(combat).notes == []
    assert "LLEGAN-LOS-GUARDIAS" not in dumped(combat)


def play_on(combat: Combat) -> None:
    """One step on with no rule involved: inaction declared, the phase over."""
    declarer = combat.state.current_declarer
    if declarer is not None:
        combat.execute(Declare(character=declarer, actions=[]))
    else:
        combat.execute(Advance())
