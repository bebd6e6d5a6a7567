"""The app's jobs over its open session (issue 36 item 2), each a plain class the app
composes: `files.Files` (open, save, save as, import, new encounter, the report, carrying
the party on, and the crash journal's recovery) and `players.Players` (the players'
page's server: start, stop, its address). They import no screen and no Textual: they
ask the DJ through `host.Asks` (the app's dialogs, answers by callback), tell through
the app's `notify`, and show through the main screen's `host.Table`."""
