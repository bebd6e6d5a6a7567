"""Declaration and action orders (I1-I4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def declaration_order(initiative: Mapping[str, tuple[int, int]],
                      dj_order: Sequence[str]) -> list[str]:
    """I3: ascending primaria, ties by ascending secundaria, then the DJ's order.

    `initiative` maps names to (primaria, secundaria); `dj_order` is the stable
    tie-break the DJ edits (the encounter's character order).
    """
    position = {name: index for index, name in enumerate(dj_order)}
    names = [name for name in dj_order if name in initiative]
    return sorted(names, key=lambda n: (initiative[n][0], initiative[n][1], position[n]))


def action_groups(initiative: Mapping[str, tuple[int, int]],
                  dj_order: Sequence[str]) -> list[list[str]]:
    """I4: descending primaria; characters sharing a primaria form one simultaneous group.

    Inside a group the order is only for display (descending secundaria, then
    the DJ's order); the group acts at once (P3).
    """
    position = {name: index for index, name in enumerate(dj_order)}
    names = sorted((name for name in dj_order if name in initiative),
                   key=lambda n: (-initiative[n][0], -initiative[n][1], position[n]))
    groups: list[list[str]] = []
    last: int | None = None
    for name in names:
        primaria = initiative[name][0]
        if groups and primaria == last:
            groups[-1].append(name)
        else:
            groups.append([name])
        last = primaria
    return groups


def action_order(initiative: Mapping[str, tuple[int, int]],
                 dj_order: Sequence[str]) -> list[str]:
    """I4 flattened: everyone in the order they act."""
    return [name for group in action_groups(initiative, dj_order) for name in group]
