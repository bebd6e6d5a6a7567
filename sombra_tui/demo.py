"""The embedded demo encounter: two sides, ready for a round with a reaction chain.

Built without validation (issue 24 item 5: the demo is the first screen, drawn before
pydantic builds any validator): its values are constants of this module, and
`tests/engine/test_demo.py` checks that validating them gives the same encounter.
"""

from __future__ import annotations

from typing import Any

from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.model import Character, Encounter, Settings, Side, guess_gender
from sombra_tui.engine.wounds import Location, Weapon

REVOLVER = trusted(Weapon, name="revólver", damage_type="II", skill="Armas cortas")
PISTOLA = trusted(Weapon, name="pistola", damage_type="II", skill="Armas cortas")
PUNOS = trusted(Weapon, name="puños", damage_type="0", skill="Pelea")
GRANADA = trusted(Weapon, name="granada", damage_type="IV", skill="Lanzar")


def _character(**values: Any) -> Character:
    """`Character(**values)` without validation: the gender from the name, as the
    model's own validator gives it."""
    return trusted(Character, **values, gender=guess_gender(values["name"]))


def demo_encounter(seed: int = 7) -> Encounter:
    """Six characters with Resistencia and weapons: Bruno shooting Ana invites a reaction
    and a counter-reaction, and any attack that succeeds proposes a hit (H1)."""
    return trusted(
        Encounter,
        name="Emboscada en el muelle",
        seed=seed,
        settings=trusted(Settings),
        characters=[
            _character(name="Ana", side=Side.PC, primaria=8, secundaria=3, alerta=14,
                       skills={"Armas cortas": 13, "Esquivar": 12, "Sigilo": 11},
                       notes="Detective. Revólver, 6 balas.", resistencia=6,
                       weapons=[REVOLVER, PUNOS]),
            _character(name="Iker", side=Side.PC, primaria=10, secundaria=6, alerta=12,
                       skills={"Pelea": 14, "Atletismo": 12, "Armas cortas": 10},
                       resistencia=7, weapons=[PUNOS, PISTOLA],
                       protection={Location.PECHO: 2}),
            _character(name="Lucía", side=Side.PC, primaria=13, secundaria=4, alerta=13,
                       skills={"Electrónica": 15, "Armas cortas": 11, "Percepción": 12},
                       notes="Lleva el portátil para abrir la verja.", resistencia=5,
                       weapons=[PISTOLA]),
            _character(name="Bruno", side=Side.NPC, primaria=12, secundaria=5, alerta=12,
                       skills={"Armas cortas": 14, "Pelea": 12}, notes="Sicario.",
                       resistencia=7, weapons=[PISTOLA, PUNOS]),
            _character(name="Carla", side=Side.NPC, primaria=15, secundaria=2, alerta=13,
                       skills={"Lanzar": 13, "Armas cortas": 13, "Percepción": 12},
                       notes="Jefa de la banda. Una granada.", resistencia=6,
                       weapons=[PISTOLA, GRANADA]),
            _character(name="Matón", side=Side.NPC, primaria=10, secundaria=2, alerta=10,
                       skills={"Pelea": 13, "Percepción": 9}, resistencia=8,
                       weapons=[PUNOS]),
        ],
    )
