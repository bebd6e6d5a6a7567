"""The players' page's port: the light names the app needs at start-up (issue 24: the
server itself, and aiohttp with it, is imported when the DJ first opens the page)."""

from __future__ import annotations

import socket

from sombra_tui.engine.i18n import _

DEFAULT_PORT = 8765


class PortInUse(Exception):
    """The port cannot be had: taken, or (`denied`) not allowed to this user (a port
    below 1024 without the system's permission); `suggestion` is a free one (None when
    none was found)."""

    def __init__(self, port: int, suggestion: int | None, denied: bool = False) -> None:
        self.port = port
        self.suggestion = suggestion
        self.denied = denied
        if denied and suggestion is None:
            text = _("Port {port} is not allowed to this user (a port below 1024 needs "
                     "the system's permission), and no free port was found near it.")
        elif denied:
            text = _("Port {port} is not allowed to this user (a port below 1024 needs "
                     "the system's permission). Port {suggestion} is free.")
        elif suggestion is None:
            text = _("Port {port} is in use, and no free port was found near it.")
        else:
            text = _("Port {port} is in use (another program, or another sombra-tui). "
                     "Port {suggestion} is free.")
        super().__init__(text.format(port=port, suggestion=suggestion))


def port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def free_port_after(host: str, port: int, tries: int = 50) -> int | None:
    """The first port after `port` that can be bound on `host`."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        if port_free(host, candidate):
            return candidate
    return None
