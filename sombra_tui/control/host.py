"""What the controllers need of the app, of its main screen and of its dialogs: three
narrow protocols. The app satisfies `Host`, the main screen `Table`, and the app's
dialogs (`sombra_tui/screens/asks.py`) `Asks`; a test gives its own small fakes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from sombra_tui.engine import (
        CarryPlan,
        CombatState,
        Command,
        Encounter,
        ImportCharacters,
        Roster,
    )
    from sombra_tui.players.server import PlayersServer
    from sombra_tui.session import Session

T = TypeVar("T")
Severity = Literal["information", "warning", "error"]
#: The answer to "save the unsaved changes first?"; None: backed out (Escape).
Unsaved = Literal["save", "discard", "cancel"] | None
#: The answer to "resume the unfinished combat?"; None: backed out (as later).
Resume = Literal["resume", "later", "discard"] | None
#: A callback given an answer, run at once or awaited.
Answered = Callable[[T], None] | Callable[[T], Awaitable[None]]


class Host(Protocol):
    """The app, as its controllers see it."""

    @property
    def session(self) -> Session: ...

    @session.setter
    def session(self, session: Session) -> None: ...

    def notify(self, message: str, *, title: str = ..., severity: Severity = ...,
               timeout: float | None = ...) -> None: ...


class Worker(Host, Protocol):
    """The app as the files' controller sees it: it also runs the opened file's check
    between frames, and names the keys in force."""

    journaling: bool
    keymap_in_force: dict[str, str]

    def call_after_refresh(self, callback: Callable[[], object]) -> object: ...

    def run_worker(self, work: Coroutine[Any, Any, None], *, group: str = ...
                   ) -> object: ...


class Table(Protocol):
    """The main screen, as the controllers see it."""

    def render_state(self, *, force_log: bool = False) -> None: ...

    def run_command(self, command: Command) -> object: ...

    def reopen_draft(self) -> None: ...


class Asks(Protocol):
    """The app's dialogs: each answer comes back by the callback given."""

    def resume(self, name: str, round: int, phase: str, when: str,
               answered: Callable[[Resume], None]) -> None: ...

    def unsaved(self, question: str, answered: Callable[[Unsaved], None]) -> None: ...

    def confirm(self, question: str, yes: str, answered: Answered[bool | None]) -> None: ...

    def file(self, mode: Literal["open", "save"], folder: Path,
             answered: Callable[[Path | None], None], suggested: str = "", *,
             title: str | None = None, confirm: str | None = None) -> None: ...

    def new_encounter(self, folder: Path,
                      answered: Callable[[Encounter | None], None]) -> None: ...

    def roster(self, roster: Roster, clashes: list[str],
               answered: Callable[[ImportCharacters | None], None]) -> None: ...

    def carry_on(self, state: CombatState, seed: int,
                 answered: Callable[[CarryPlan | None], None]) -> None: ...

    def players_page(self, server: PlayersServer, stop: Callable[[], Awaitable[None]],
                     move: Callable[[bool], Awaitable[None]]) -> None: ...
