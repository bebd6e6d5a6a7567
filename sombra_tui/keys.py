"""Every key binding of sombra-tui, declared once (the list: :mod:`sombra_tui.key_list`,
whose names this module gives as well), and what is done with it.

Each binding has an id, its default key(s), its action, a short description (the
footer's label) and a sentence saying what it does, where it applies (its scope) and
a group for the help. The app's, the main screen's, the dialogs' and the initiative
table's ``BINDINGS`` are built from :data:`KEYS` (:func:`bindings`), and so are the
command palette (:func:`palette_keys`), the help screen's key table and README's key
table (:func:`key_table`; a test keeps README's in step).

The DJ rebinds keys in the preferences file (``"keys": {"declare": "ctrl+d"}``):
:func:`resolve_keymap` checks those against this list (an unknown id, a malformed
key, or two ids on one key where both apply) and returns the keymap to give Textual
(``App.set_keymap``) with a sentence per problem; a refused rebinding keeps its
default key.

``python -m sombra_tui.keys`` prints README's key table (``... keys es``: README.es.md's).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import NamedTuple

from textual.binding import Binding, BindingType
from textual.keys import Keys, key_to_character

from sombra_tui.engine.i18n import N_, _
from sombra_tui.key_list import BY_ID as BY_ID  # the list (data) and its names, as before
from sombra_tui.key_list import CONTEXTS as CONTEXTS
from sombra_tui.key_list import KEYS as KEYS
from sombra_tui.key_list import Group as Group
from sombra_tui.key_list import Key as Key
from sombra_tui.key_list import Scope as Scope
from sombra_tui.textual_compat import character_to_key


def bindings(*scopes: Scope) -> list[BindingType]:
    """The Textual bindings of `scopes`, each with its id (so a keymap can rebind it):
    a class's BINDINGS, typed as Textual types them."""
    return [Binding(key.keys, key.action, key.description, show=key.show,
                    priority=key.priority, id=key.id)
            for key in KEYS if key.scope in scopes]


def binding(binding_id: str) -> Binding:
    """The Textual binding of one id (a widget's own, e.g. a form's dropdown list)."""
    key = BY_ID[binding_id]
    return Binding(key.keys, key.action, key.description, show=key.show,
                   priority=key.priority, id=key.id)


def palette_keys(*scopes: Scope) -> list[Key]:
    """The bindings of `scopes` that are also palette commands, in the help's order."""
    return [key for key in KEYS if key.scope in scopes and key.title is not None]


# ---- keys: parsing and showing -----------------------------------------------------------

MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")
#: Keys with a name (the rest are printable characters, named as Textual names them).
NAMED_KEYS = frozenset(key.value for key in Keys
                       if "+" not in key.value and not key.value.startswith("<")
                       and key.value != "ctrl-at")
#: Textual's names of the printable ASCII characters ("plus" -> "+", "question_mark" -> "?").
CHARACTER_NAMES = {character_to_key(chr(code)): chr(code) for code in range(33, 127)}
SHOWN_AS = {"question_mark": "?", "delete": "del", "escape": "esc", "pageup": "pgup",
            "pagedown": "pgdn", "up": "↑", "down": "↓", "left": "←", "right": "→"}


def normalize_key(text: str) -> str | None:
    """The Textual name of one key ("?" -> "question_mark", "F2" -> "f2", "Ctrl+S" ->
    "ctrl+s"), or None when `text` is not a key."""
    text = text.strip()
    if len(text) == 1:
        return character_to_key(text) if text.isprintable() and text != " " else None
    *modifiers, base = text.split("+")
    modifiers = [modifier.strip().lower() for modifier in modifiers]
    base = base.strip()
    if any(modifier not in MODIFIERS for modifier in modifiers) or \
            len(set(modifiers)) != len(modifiers):
        return None
    if len(base) == 1:
        if not base.isprintable() or base == " ":
            return None
        base = character_to_key(base)
    elif base.lower() in NAMED_KEYS:
        base = base.lower()
    elif base not in CHARACTER_NAMES and key_to_character(base) is None:
        return None
    return "+".join([*modifiers, base])


def normalize_keys(text: str) -> str | None:
    """A comma-separated list of keys in Textual's names, or None if one is not a key."""
    parts = [normalize_key(part) for part in text.split(",")]
    if not parts or any(part is None for part in parts):
        return None
    return ",".join(dict.fromkeys(part for part in parts if part is not None))


#: Keys named by a word in the key tables (help, README), in the DJ's language: a
#: Spanish keyboard says "espacio", "intro", "supr", "repág".
TABLE_WORDS = {"space": N_("space"), "enter": N_("enter"), "delete": N_("del"),
               "pageup": N_("pgup"), "pagedown": N_("pgdn"), "home": N_("home"),
               "end": N_("end")}


def show_key(key: str, *, words: bool = False) -> str:
    """One key as the DJ reads it: "?", "ctrl+s", "F2", "del"; `words`: a key named by
    a word in the DJ's language ("espacio"), as the key tables show them."""
    *modifiers, base = key.split("+")
    if words and base in TABLE_WORDS:
        shown = _(TABLE_WORDS[base])
    elif base in SHOWN_AS:
        shown = SHOWN_AS[base]
    elif len(base) > 1 and base.startswith("f") and base[1:].isdigit():
        shown = base.upper()
    else:
        character = (CHARACTER_NAMES.get(base) or key_to_character(base)) if len(base) > 1 \
            else base
        shown = character if character and character.isprintable() and \
            not character.isspace() else base
    return "+".join([*modifiers, shown])


def show_keys(keys: str, *, words: bool = False) -> str:
    return ", ".join(show_key(key, words=words) for key in keys.split(","))


def keys_in_force(binding_id: str, keymap: Mapping[str, str], *, words: bool = False
                  ) -> str:
    """The key(s) of `binding_id` as the DJ reads them, the keymap applied."""
    return show_keys(keymap.get(binding_id) or BY_ID[binding_id].keys, words=words)


#: Keys named by a word, said in the DJ's language in a sentence ("espacio", "intro").
SPOKEN = {"space": N_("space"), "enter": N_("enter")}


def first_key_in_force(binding_id: str, keymap: Mapping[str, str]) -> str:
    """The first key of `binding_id` as the DJ reads it in a sentence or a button
    ("Declare (enter)", "space: Ana declares"), their rebinding applied."""
    key = (keymap.get(binding_id) or BY_ID[binding_id].keys).split(",")[0]
    return _(SPOKEN[key]) if key in SPOKEN else show_key(key)


# ---- the user's keymap -------------------------------------------------------------------


class ResolvedKeymap(NamedTuple):
    #: Binding id -> keys (Textual's names) for App.set_keymap: only rebindings that work.
    keymap: dict[str, str]
    #: One sentence per refused rebinding, for the start-up warnings.
    problems: list[str]


def _contexts_of(key: Key) -> list[str]:
    if key.scope is Scope.APP and key.priority and not key.main_only:
        return list(CONTEXTS)
    return [name for name, scopes in CONTEXTS.items() if key.scope in scopes]


def clashes(keymap: Mapping[str, str]) -> list[tuple[str, str, list[str]]]:
    """(context, key, ids) for each key that two bindings in force in one context share."""
    found: list[tuple[str, str, list[str]]] = []
    for context in CONTEXTS:
        taken: dict[str, list[str]] = {}
        for key in KEYS:
            if context not in _contexts_of(key):
                continue
            for each in (keymap.get(key.id) or key.keys).split(","):
                taken.setdefault(each, []).append(key.id)
        found.extend((context, each, ids) for each, ids in taken.items() if len(ids) > 1)
    return found


def _as_written(value: object) -> str:
    """A key's value from the preferences file: a text quoted as the other names are,
    anything else as the file writes it (null, true, [1]), not as Python would."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def resolve_keymap(requested: Mapping[str, object], where: str = "the preferences"
                   ) -> ResolvedKeymap:
    """Check the DJ's rebindings (binding id -> key, or keys separated by commas, or a
    list of keys) against :data:`KEYS`. An unknown id, a malformed key or a key two
    bindings would share where both apply is refused with a sentence saying so, and
    that binding keeps its default key(s)."""
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, value in requested.items():
        if binding_id not in BY_ID:
            close = difflib.get_close_matches(binding_id, list(BY_ID), n=1)
            hint = (_(" (did you mean {id!r}?)").format(id=close[0]) if close else "")
            problems.append(_("Keys in {where}: {id!r} is not a key binding of sombra-tui"
                              "{hint}; it was ignored.").format(where=where, id=binding_id,
                                                                 hint=hint))
            continue
        default = show_keys(BY_ID[binding_id].keys)
        keys: str | None = None
        if isinstance(value, str):
            keys = normalize_keys(value)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            keys = normalize_keys(",".join(value))
        if keys is None:
            problems.append(_("Keys in {where}: {value} for {id!r} is not a key (write "
                              "e.g. \"ctrl+d\", \"F3\" or \"d,ctrl+d\"); keeping {default}."
                              ).format(where=where, value=_as_written(value), id=binding_id,
                                       default=default))
            continue
        if keys != BY_ID[binding_id].keys:
            keymap[binding_id] = keys
    # A rebinding that clashes goes back to its default; that may uncover another clash.
    while found := [(context, key, ids) for context, key, ids in clashes(keymap)
                    if any(each in keymap for each in ids)]:
        context, key, ids = found[0]
        rebound = [each for each in ids if each in keymap]
        for each in rebound:
            del keymap[each]
        names = ", ".join(repr(each) for each in ids)
        kept = ", ".join(f"{each} {show_keys(BY_ID[each].keys)}" for each in rebound)
        problems.append(_("Keys in {where}: {names} would share {key} {context}; keeping "
                          "the default ({kept}).").format(where=where, names=names,
                                                          key=show_key(key),
                                                          context=_(context), kept=kept))
    return ResolvedKeymap(keymap, problems)


# ---- the key table (help screen and README) ----------------------------------------------


def key_table(keymap: Mapping[str, str] | None = None) -> str:
    """README's key table in Markdown (README.es.md's in Spanish): by group, with each
    binding's id (what the preferences rebind) and the keys in force."""
    keymap = keymap or {}
    key_word, does = _("key"), _("what it does")
    lines = [f"| {key_word} | {does} | id |", "| --- | --- | --- |"]
    for group in Group:
        lines.append(f"| **{_(group.value)}** | | |")
        lines.extend(f"| {keys_in_force(key.id, keymap, words=True)} | {_(key.help)} | "
                     f"`{key.id}` |"
                     for key in KEYS if key.group is group)
    return "\n".join(lines)


def help_keys(keymap: Mapping[str, str] | None = None) -> str:
    """The help's key tables in Markdown, one per group, with the keys in force, in the
    language in force."""
    keymap = keymap or {}
    key_word, does = _("key"), _("what it does")
    head = f"| {key_word} | {does} |\n| --- | --- |"
    parts = []
    for group in Group:
        rows = "\n".join(f"| {keys_in_force(key.id, keymap, words=True)} | {_(key.help)} |"
                         for key in KEYS if key.group is group)
        parts.append(f"### {_(group.value)}\n\n{head}\n{rows}")
    return "\n\n".join(parts)


if __name__ == "__main__":  # pragma: no cover - prints README's table (es: README.es.md's)
    import sys

    from sombra_tui.engine import i18n

    i18n.set_language(sys.argv[1] if len(sys.argv) > 1 else "en")
    print(key_table())
