"""The DJ's language: one gettext catalog for the whole app (engine and UI).

The English text in the code is the source (the msgid); the Spanish catalog
``sombra_tui/locale/es/LC_MESSAGES/sombra_tui.po`` translates it, compiled to the
``.mo`` shipped beside it. This module lives in the engine because the engine
marks its own words (log events, error messages) and may not import anything
above it; it uses only the standard library's gettext.

* ``_(text)`` translates now, in the language in force;
* ``N_(text)`` only marks a string for extraction (module-level tables, events and
  errors that keep the English template and are rendered at display time);
* :class:`Msg` is a message kept as template + params and rendered on demand, so a
  log written in one language reads in the other after a switch.

Game terms stay Spanish in both languages (TA, GD, Alerta, asalto, dS, reacción,
contrarreacción, DJ): the English source already uses them.
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

DOMAIN = "sombra_tui"
#: Languages the app speaks; the first is the default when nothing else decides.
LANGUAGES: tuple[str, ...] = ("es", "en")
DEFAULT_LANGUAGE = "es"
#: Where the compiled catalogs live (inside the package: wheels and editable installs).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: Environment variables that name the locale, in gettext's order of precedence.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: The names the two languages go by in the settings and the palette (each in its own).
LANGUAGE_NAMES = {"es": "Español", "en": "English"}

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:
    """Mark `message` for the catalog without translating it (translated when shown)."""
    return message


def _(message: str) -> str:
    """`message` in the language in force."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a message, in the language in force."""
    return _translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` in its `context` (a word with two meanings), in the language in force."""
    return _translations.pgettext(context, message)


#: The context of a message whose subject is feminine (a character's gender, "femenino"):
#: Spanish makes its adjectives agree ("Ana queda impedida"), English says the same.
#: A message has a feminine form only where the Spanish differs; the others fall back
#: to the plain msgid.
FEMININE = "feminine"
#: The gender (model.Gender's value) whose messages take the FEMININE context.
FEMININE_GENDER = "femenino"
#: Spanish words that agree with their subject: the built-in conditions' names used as
#: adjectives ("Marta está aturdida") and "impedido". Others (inconsciente, sangrando)
#: are the same for both; a condition the DJ named is shown as typed.
FEMININE_WORDS = {"aturdido": "aturdida", "desarmado": "desarmada", "muerto": "muerta",
                  "impedido": "impedida"}
#: The params of a message that name a state of its subject, so they agree with it.
AGREEING_PARAMS = frozenset({"condition", "conditions"})
_AGREEING = re.compile(r"\b(" + "|".join(FEMININE_WORDS) + r")\b")


def context_of(gender: str | None) -> str | None:
    """The context of messages about a subject of `gender` (None: the plain msgid)."""
    return FEMININE if gender == FEMININE_GENDER else None


def translate(message: str, context: str | None = None) -> str:
    """`message` in the language in force, in `context` where the catalog has it there
    (a feminine subject), else as plain `_`."""
    if context:
        text = _translations.pgettext(context, message)
        if text != message:
            return text
    return _(message)


def agree(words: str, context: str | None) -> str:
    """`words` (a condition's name, a list of them) agreeing with a subject in `context`:
    in Spanish, "aturdido" of a feminine subject is "aturdida"."""
    if context != FEMININE or not _language.startswith("es"):
        return words
    return _AGREEING.sub(lambda found: FEMININE_WORDS[found[0]], words)


def said_of(gender: str | None, template: str, **params: Any) -> str:
    """`template` about a subject of `gender`, translated and filled now (screens)."""
    context = context_of(gender)
    return translate(template, context).format(
        **{key: agree(str(value), context) if key in AGREEING_PARAMS else value
           for key, value in params.items()})


def feminine_forms() -> tuple[str, ...]:
    """The messages whose Spanish changes with a feminine subject ("queda impedida"),
    marked here for the catalog in the FEMININE context, in the language in force. The
    rules use the plain msgids with `Msg.about` / `SombraError.about`; the rest of
    their messages agree through their AGREEING_PARAMS alone."""
    return (
        pgettext("feminine", "DJ confirms: {name} is prevented ({condition})."),
        pgettext("feminine", "First settle prevented for {character}: accept or decline "
                             "it, then {doing}."),
        pgettext("feminine", "{name} is already prevented."),
        pgettext("feminine", "{name} is not prevented."),
        pgettext("feminine", "{name} is prevented{after}: the round action is cancelled."),
        pgettext("feminine", "{name} is no longer prevented{after}."),
        pgettext("feminine", "{name} is {condition} with a round action pending: mark "
                             "prevented?"),
        pgettext("feminine", "{name} is {condition} with a round action pending: mark "
                             "{name} prevented?"),
        pgettext("feminine", "{name} will be prevented once the simultaneous group has "
                             "acted."),
        pgettext("feminine", "{name} will no longer be prevented once the simultaneous "
                             "group has acted."),
        pgettext("feminine", "{next}: mark {name} prevented? ({condition})"),
        pgettext("feminine", "prevented"),
        pgettext("feminine", "no longer prevented"),
        # A row's status words (engine/rows.py): "bloqueada", "declarada".
        pgettext("feminine", "locked"),
        pgettext("feminine", "declared"),
    )


def language() -> str:
    """The language in force ("es" or "en", or a test's pseudo-language)."""
    return _language


def catalog(code: str) -> gettext.NullTranslations:
    """The translations of `code`: English is the source, so it needs none."""
    if code == "en":
        return gettext.NullTranslations()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}")
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])


def set_language(code: str, translations: gettext.NullTranslations | None = None) -> None:
    """Speak `code` from now on (`translations` given: a test's pseudo-language)."""
    global _translations, _language
    _translations = translations if translations is not None else catalog(code)
    _language = code
    for listener in list(_listeners):
        listener(code)


def on_language_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call `listener` after every switch; returns the function that stops it."""
    _listeners.append(listener)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)
    return stop


def locale_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the locale asks for, if the app speaks it.

    As gettext does, the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set
    decides; LANGUAGE may list several ("fr:es"), the first the app speaks wins.
    "C" and "POSIX" name no language (None: the app's default, Spanish).
    """
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "").strip()
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        return None
    return None


def choose_language(requested: str | None, saved: str | None,
                    environ: Mapping[str, str] | None = None) -> str:
    """--lang, else the saved preference, else the locale, else Spanish."""
    for code in (requested, saved, locale_language(environ)):
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


class Msg:
    """A message kept as its English template and params, rendered when shown.

    A param may itself be a `Msg` (a reason inside a sentence) or a list of them;
    each is rendered in the language in force too.
    """

    __slots__ = ("context", "counter", "params", "plural", "template")

    def __init__(self, template: str, params: Mapping[str, Any] | None = None,
                 **more: Any) -> None:
        self.template = template
        self.params: dict[str, Any] = {**(params or {}), **more}
        #: The catalog context (FEMININE: the subject is feminine), or None.
        self.context: str | None = None
        #: A counted message (`lazy.ngettext`): its plural msgid and the param that
        #: counts, so the catalog's plural forms choose the words ("1 asalto").
        self.plural: str | None = None
        self.counter: str | None = None

    def about(self, gender: str | None) -> Msg:
        """This message about a subject of `gender` (its words agree in Spanish)."""
        self.context = context_of(gender)
        return self

    def render(self) -> str:
        return render(self.template, self.params, self.context, self.plural, self.counter)

    def english(self) -> str:
        template = english_form(self.template, self.params, self.plural, self.counter)
        return template.format(**{k: _english(v) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.template!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Msg) and other.template == self.template
                and other.params == self.params and other.context == self.context
                and other.plural == self.plural and other.counter == self.counter)

    def __hash__(self) -> int:
        return hash(self.template)


class _Lazy:
    """Messages kept as Msg and rendered when shown, marked for the catalog under the
    usual gettext names (pybabel extracts `lazy.ngettext(...)` as a plural entry)."""

    @staticmethod
    def ngettext(singular: str, plural: str, counter: str, /, **params: Any) -> Msg:
        """A Msg whose words follow the count in `params[counter]` with the catalog's
        plural forms ("{count} asalto" / "{count} asaltos")."""
        if counter not in params:
            raise KeyError(f"{counter!r} is not a param of {singular!r}")
        message = Msg(singular, params)
        message.plural = plural
        message.counter = counter
        return message


#: Counted engine messages: `lazy.ngettext("{count} asalto", "{count} asaltos", "count",
#: count=n)`.
lazy = _Lazy()


def _count(params: Mapping[str, Any], counter: str | None) -> int | None:
    if counter is None:
        return None
    try:
        return int(params[counter])
    except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: infinity
        return None


def english_form(template: str, params: Mapping[str, Any], plural: str | None,
                 counter: str | None) -> str:
    """The English template of a counted message for its count (the plural unless 1)."""
    count = _count(params, counter)
    return template if plural is None or count is None or count == 1 else plural


class Join:
    """Several texts joined by `separator`, each rendered when shown (a list in a line)."""

    __slots__ = ("items", "separator")

    def __init__(self, separator: str, items: Any) -> None:
        self.separator = separator
        self.items = list(items)

    def render(self) -> str:
        return self.separator.join(str(_rendered(item)) for item in self.items)

    def english(self) -> str:
        return self.separator.join(str(_english(item)) for item in self.items)

    def __str__(self) -> str:
        return self.render()

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Join) and other.separator == self.separator
                and other.items == self.items)

    def __hash__(self) -> int:
        return hash(self.separator)


#: A text that is either already words or a message rendered when shown.
Text = str | Msg


def _rendered(value: Any) -> Any:
    if isinstance(value, Msg | Join):
        return value.render()
    if isinstance(value, list | tuple) and any(isinstance(v, Msg) for v in value):
        return "".join(_rendered(v) for v in value)
    return value


def _english(value: Any) -> Any:
    if isinstance(value, Msg | Join):
        return value.english()
    if isinstance(value, list | tuple) and any(isinstance(v, Msg) for v in value):
        return "".join(_english(v) for v in value)
    return value


def text_data(value: Any) -> Any:
    """`value` (a Msg, a Join, words or a number, or a list of them) as JSON-simple data,
    kept as template + params so it still renders in either language once read back by
    `text_from_data`. Any other value is kept as its words."""
    if isinstance(value, Msg):
        data: dict[str, Any] = {"template": value.template, "params": {
            key: text_data(v) for key, v in value.params.items()}}
        if value.plural is not None:
            data |= {"plural": value.plural, "counter": value.counter}
        return {**data, "context": value.context} if value.context else data
    if isinstance(value, Join):
        return {"separator": value.separator, "items": [text_data(v) for v in value.items]}
    if isinstance(value, list | tuple):
        return [text_data(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


class MessageDataError(ValueError):
    """Data that `text_from_data` cannot read back as a message: where in it (`at`, the
    keys and positions from its top) and what is wrong (`problem`: "message", "list",
    or "field", a `field` of a template that would reach into a value or pad it)."""

    def __init__(self, problem: str, at: tuple[str | int, ...], field: str = "") -> None:
        what = {"message": "a message is {template, params} or {separator, items}",
                "list": "not a list", "field": f"{field} is no plain field"}[problem]
        super().__init__(f"{'.'.join(map(str, at)) or '(top level)'}: {what}")
        self.problem = problem
        self.at = at
        self.field = field


_FORMATTER = string.Formatter()


def _reaching_field(template: str) -> str | None:
    """The first field of `template` rendering could not fill from its params by name
    alone: one reaching into a value ({name.x}, {name[0]}: an error, or the value's
    insides) or with a width or a nested field ({name:>1000000000}: as many spaces).
    None for a plain template, or for words that are no template (rendered as they are)."""
    try:
        fields = [(name, spec) for _text, name, spec, _conversion in _FORMATTER.parse(template)
                  if name is not None]
    except ValueError:
        return None
    for name, spec in fields:
        if "." in name or "[" in name or any(c.isdigit() or c == "{" for c in spec or ""):
            return "{" + name + (f":{spec}" if spec else "") + "}"
    return None


def text_from_data(data: Any) -> Any:
    """The Msg, Join or value `text_data` made `data` from (a Msg or Join is kept).
    MessageDataError (a ValueError) says where `data` holds something no message is."""
    return _from_data(data, ())


def _from_data(data: Any, at: tuple[str | int, ...]) -> Any:
    if isinstance(data, dict):
        if isinstance(data.get("template"), str):
            return _message_from_data(data, at)
        if isinstance(data.get("separator"), str):
            items = data.get("items")
            if items is not None and not isinstance(items, list):
                raise MessageDataError("list", (*at, "items"))
            return Join(data["separator"], [_from_data(v, (*at, "items", index))
                                            for index, v in enumerate(items or [])])
        raise MessageDataError("message", at)
    if isinstance(data, list):
        return [_from_data(v, (*at, index)) for index, v in enumerate(data)]
    return data


def _message_from_data(data: dict[str, Any], at: tuple[str | int, ...]) -> Msg:
    params = data.get("params")
    message = Msg(data["template"], {key: _from_data(v, (*at, "params", key)) for key, v in
                                     (params if isinstance(params, dict) else {}).items()})
    context = data.get("context")
    message.context = context if isinstance(context, str) else None
    plural, counter = data.get("plural"), data.get("counter")
    if isinstance(plural, str) and isinstance(counter, str):
        message.plural, message.counter = plural, counter
    for key in ("template", "plural"):
        field = _reaching_field(getattr(message, key) or "")
        if field is not None:
            raise MessageDataError("field", (*at, key), field)
    return message


def render(template: str, params: Mapping[str, Any] | None = None,
           context: str | None = None, plural: str | None = None,
           counter: str | None = None) -> str:
    """`template` translated (in `context`, see `translate`), then filled with `params`
    (each Msg rendered too; the subject's states agree with it, see `agree`). A counted
    message (`plural`, and the param `counter` that counts) takes the catalog's plural
    form for its count."""
    count = _count(params or {}, counter)
    if plural is not None and count is not None:
        text = ngettext(template, plural, count)
    else:
        text = translate(template, context) if template else template
    if not params or "{" not in text:
        return text
    try:
        return text.format(**{key: agree(value, context) if key in AGREEING_PARAMS and
                              isinstance(value, str) else value
                              for key, value in ((key, _rendered(value))
                                                 for key, value in params.items())})
    except (KeyError, IndexError, ValueError):  # a sentence with braces, no template
        return text
