"""The embedded demo encounter: two sides, ready for a round with a reaction chain."""

from __future__ import annotations

from sombra_tui.engine.model import Character, Encounter, Settings, Side
from sombra_tui.engine.wounds import Location, Weapon

REVOLVER = Weapon(name="revólver", damage_type="II", skill="Armas cortas")
PISTOLA = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
PUNOS = Weapon(name="puños", damage_type="0", skill="Pelea")
GRANADA = Weapon(name="granada", damage_type="IV", skill="Lanzar")


def demo_encounter(seed: int = 7) -> Encounter:
    """Six characters with Resistencia and weapons: Bruno shooting Ana invites a reaction
    and a counter-reaction, and any attack that succeeds proposes a hit (H1)."""
    return Encounter(
        name="Emboscada en el muelle",
        seed=seed,
        settings=Settings(),
        characters=[
            Character(name="Ana", side=Side.PC, primaria=8, secundaria=3, alerta=14,
                      skills={"Armas cortas": 13, "Esquivar": 12, "Sigilo": 11},
                      notes="Detective. Revólver, 6 balas.", resistencia=6,
                      weapons=[REVOLVER, PUNOS]),
            Character(name="Iker", side=Side.PC, primaria=10, secundaria=6, alerta=12,
                      skills={"Pelea": 14, "Atletismo": 12, "Armas cortas": 10},
                      resistencia=7, weapons=[PUNOS, PISTOLA],
                      protection={Location.PECHO: 2}),
            Character(name="Lucía", side=Side.PC, primaria=13, secundaria=4, alerta=13,
                      skills={"Electrónica": 15, "Armas cortas": 11, "Percepción": 12},
                      notes="Lleva el portátil para abrir la verja.", resistencia=5,
                      weapons=[PISTOLA]),
            Character(name="Bruno", side=Side.NPC, primaria=12, secundaria=5, alerta=12,
                      skills={"Armas cortas": 14, "Pelea": 12}, notes="Sicario.",
                      resistencia=7, weapons=[PISTOLA, PUNOS]),
            Character(name="Carla", side=Side.NPC, primaria=15, secundaria=2, alerta=13,
                      skills={"Lanzar": 13, "Armas cortas": 13, "Percepción": 12},
                      notes="Jefa de la banda. Una granada.", resistencia=6,
                      weapons=[PISTOLA, GRANADA]),
            Character(name="Matón", side=Side.NPC, primaria=10, secundaria=2, alerta=10,
                      skills={"Pelea": 13, "Percepción": 9}, resistencia=8,
                      weapons=[PUNOS]),
        ],
    )
