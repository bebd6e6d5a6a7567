"""Type-ahead for the forms' lists of characters (issue 39 item 2): typing a name's
first letters moves the highlight to it, as common list widgets do."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from typing import Any

from textual import events
from textual.widgets import SelectionList

#: A pause this long (seconds) between two letters starts a new type-ahead search.
TYPE_AHEAD_PAUSE = 1.0
#: The clock type-ahead reads (tests move it instead of waiting).
clock: Callable[[], float] = time.monotonic


def folded(text: str) -> str:
    """`text` as type-ahead compares it: no case, no accents ("Élena" is "elena")."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch)).casefold()


class TypeAhead:
    """Mixin for option lists (issue 39 item 2): typing a name's first letters moves the
    highlight to the first option that starts with them ("ma" finds "Matón 1", "el"
    finds "Élena"); a pause or a letter that matches nothing starts a new search, and
    the same letter again goes on to the next option with it. Typing only moves the
    highlight: it never ticks, unticks or chooses (space and Enter do)."""

    _typed = ""
    _typed_at = 0.0

    def on_key(self, event: events.Key) -> None:
        picks = self._picks()
        letter = event.character
        if not event.is_printable or letter is None or not letter.strip():
            return  # space toggles; the arrows, Enter and the dialog's keys go on
        event.stop()
        event.prevent_default()
        now = clock()
        live = bool(self._typed) and now - self._typed_at < TYPE_AHEAD_PAUSE
        self._typed_at = now
        names = [folded(str(picks.get_option_at_index(index).prompt))
                 for index in range(picks.option_count)]
        wanted = folded(self._typed + letter) if live else folded(letter)
        found = next((i for i, name in enumerate(names) if name.startswith(wanted)), None)
        if found is None and live:
            # Matches nothing: a new search from this letter, after the highlighted
            # option (the same letter typed again goes down the list).
            wanted = folded(letter)
            here = -1 if picks.highlighted is None else picks.highlighted
            order = [*range(here + 1, len(names)), *range(here + 1)]
            found = next((i for i in order if names[i].startswith(wanted)), None)
        self._typed = wanted
        if found is not None:
            picks.highlighted = found

    def _picks(self) -> SelectionList[Any]:
        assert isinstance(self, SelectionList)
        return self
