"""The rules the DJ needs at the table, by id (RULES.md's fourth pass): one catalog
entry per section, shown by the help after the keys (help.help_text). The only place
the DJ reads rule ids."""

from __future__ import annotations

from sombra_tui.engine.i18n import N_

HELP_SECTIONS: tuple[str, ...] = (
    N_("""\
## Declarations and reacciones (D)

- Characters declare from the **lowest** initiative up (I3): higher
  initiative decides knowing what the others do (D1).
- A declaration marks who it **directly affects** (D2). Inaction affects nobody.
- Each affected character who has **already declared** (lower initiative),
  can act and has not failed an Alerta this round may **react** (D4).
- The reacción needs an **Alerta TA** (D6) at
  **GD = base + 1 if it substitutes + 1 per earlier reacción this round**.
  Combining with the earlier declaration adds nothing.
- Failing it changes nothing and **locks** the character for the round (D7).
- A success replaces the declaration; prompts answering a substituted
  declaration are withdrawn (D8).
- **Contrarreacción** (D9): the one reacted to may answer. Substituting adds
  **no** grade; earlier reacciones still add one each. Chains have no limit (D10);
  prompts are settled depth first (D11).
- The DJ may allow or deny any prompt, add grades, or decide a TA's outcome
  without a roll (then no value to roll under is needed); each is logged (D12).
"""),
    N_("""\
## The round (P)

1. **Instant** actions, in action order (descending primaria).
2. **Round** actions, in action order. Equal primaria act **simultaneously**:
   all roll, then all effects apply. The group's turn begins with its first TA.
   From then until its last TA, a mark (prevented, out) on a **member** of the
   group applies after the group; a mark on anyone else, or made before the
   group's turn, applies at once, and lifting it in time gives the action
   back (P4).
3. **Extended** actions roll at the end of the round (E1-E3): simple ones
   after N rounds (a failure restarts), complex ones every K rounds until S
   successes. A character out or unable to act when its turn comes does not
   progress it that round (P5, C4).
"""),
    N_("""\
## The TA (T)

3d10: the **dS** apart, then d+ and d-. Total = dice + 5 x GD + modifier;
success if total <= target. Quality: **alto** (three equal: crítico or pifia),
**bajo** (d+ + d- <= 4), otherwise **medio**.

By default the table rolls the PCs' dice and the tracker the NPCs' (T6, a
setting per side); typed dice are always accepted, dS first. A typed **0** is
the face a d10 shows for 10 and reads as 10.
"""),
    N_("""\
## Opposed actions (O)

- Independent by default (O1): two shooters both shoot.
- **Direct** (O2): all roll when the first acts; the best result wins (T5:
  better quality rank, then closer to its own target; a tie is the DJ's).
- **Conditioned** (O3): the conditioning TA first; the conditioned TA gets
  +1 GD if it succeeded, -1 if it failed. One action may condition several
  characters (one alarm, several guards) or be conditioned by several: each
  pair is compared and read. A dodge of someone whose own action is aimed at
  others is nobody's opposition: it is the dodger's own TA. The tracker reads
  the outcome (O4): a failed attack does not hit even if it wins; a failed
  infiltration that wins passes unseen but noisy; a sentinel who wins with
  both failing gets a new TA to confirm (**f** in the result, or any time).
- Only those able to act take part (O5), also as the opponent of an earlier
  group's action: an out, aturdido or (for a round action) prevented character
  does not roll and cannot win; with nobody left to oppose it, the action is
  the character's own TA. The DJ may give any outcome to another participant
  (the result's "DJ: ... wins" buttons, or the Winner field), logged as a DJ
  decision.
"""),
    N_("""\
## Hits and wounds (H)

- An action is an **attack** when it is declared with a weapon and targets
  (H1). A weapon may name its skill: an action with that skill uses it; a
  skill no weapon names leaves the weapon empty unless the DJ picks one. A
  dodge is no attack.
- A successful attack (O4 in a conditioned opposition) proposes a **hit** read
  from its own dice: the **dS** gives the location (H2: 10 reads as 0; 0
  head, 1-3 chest, 4-5 arms, 6-7 abdomen, 8-9 legs), d+ and d- the damage by
  the weapon's **type** (H3: 0 = d-, non-lethal; I = d+; II = d+ + d-;
  III-VIII the DJ's formula). Tipo IV reaches d- locations (H4). Protection
  comes off (H5).
- The hit is settled before the next step: accept it, change any value
  first (a typed damage wins), or decline it. A hit by hand (**h**) works any time.
- **PV** = multiplier x Resistencia (H6). Non-lethal damage adds to **G**; lethal
  adds to **W** and G. Reaching PV proposes inconsciente (G) or muerto (W) (H7).
- Severity n = floor(damage / Resistencia): 0 sin importancia, 1 leve, 2+
  grave (H8). Consequences (H9): head leve aturdido 2 asaltos, grave
  inconsciente; chest/abdomen leve +1 GD physical, grave dolor intenso; arm/leg
  leve +1 GD with that limb, grave dolor intenso (an arm drops what it holds).
  Lethal leve/grave wounds **bleed** 1 point every 16 / 5 asaltos, counted
  from the next round, until attended.
- Wound grades join every later TA of their scope and are named in its GD
  (H10); Alerta TAs are not physical. A wound takes effect when its attack
  resolves, in any phase; inside a simultaneous group, after the group. A new
  aturdido, inconsciente, muerto or desarmado with a round action pending
  proposes **prevented** (H11).
- Healing and edits are the DJ's (H12): heal, attend, remove or change a
  wound, set G and W; each is logged and undoable.
"""),
    N_("""\
## Conditions (C)
- A condition has a name, a duration in asaltos (or until removed), a source
  and effects: cannot act, cannot react, out, a GD (C1). Built in: aturdido,
  inconsciente, dolor intenso, desarmado, sangrando, muerto (C2).
- "2 asaltos" begun in round r covers rounds r+1 and r+2 and ends at the end
  of r+2; begun before round 1 it counts from round 1. The asaltos left shown
  are those of the rounds to come (C3).
- Who cannot act declares inaction and its pending steps are skipped, whatever
  was answered about another condition; who cannot react gets no prompts; out
  is P4's mark. A condition begun inside a simultaneous group's turn affects
  its members after the group: a member who has not rolled yet rolls without
  its grades. A skipped step is not given back when the condition ends; an
  out mark made by hand stays until the DJ lifts it (C4).
"""),
    N_("""\
## The encounter (S)

- Every command is kept with its dice (S1): undo, redo, save, load and replay
  give exactly the same combat. A file's stored state is only a quick first
  view: the replay decides, and a difference is reported.
- The log shows every event with its round, phase and numbers (S2).
"""),
)
