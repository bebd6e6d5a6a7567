"""Damage formulas of H3: a small grammar over dS, d+, d- and whole numbers.

A DJ-written damage type (tipos III, V-VIII, H3) is data, never code: the text
is read by the tokenizer and recursive-descent parser below into a tiny AST
and evaluated against the three dice of the attack TA (H1). Nothing here calls
`eval` or `compile`.

Grammar (whitespace is ignored; names are case-insensitive)::

    formula := sum END
    sum     := product (("+" | "-") product)*
    product := unary (("x" | "X" | "×" | "*") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | "dS" | "d+" | "d-" | "(" sum ")"

Unary minus is allowed (it is harmless and "d+ x -1" reads naturally); a
result below zero is the caller's to clamp (`wounds.damage_for` reads it as 0).
A bad formula raises `FormulaError` with a stable code, the 0-based column and
a message that shows the formula with a caret under the wrong place.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from sombra_tui.engine.coded import CodedError, ParamValue
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.errors import fill
from sombra_tui.engine.i18n import N_, _

#: Longest formula accepted, in characters other than spaces.
MAX_LENGTH = 100
#: Longest text accepted, spaces included.
MAX_TEXT = 4 * MAX_LENGTH
#: Deepest nesting of brackets and signs.
MAX_DEPTH = 12
#: Largest number literal.
MAX_NUMBER = 999

_HELP = N_("use dS, d+, d-, whole numbers, + - x and brackets")


class FormulaError(CodedError):
    """A formula the grammar refuses, with the column of the problem (0-based)."""

    def __init__(self, code: str, problem: str, *, formula: str, position: int,
                 params: dict[str, ParamValue] | None = None) -> None:
        all_params: dict[str, ParamValue] = {"formula": formula, "position": position}
        all_params.update(params or {})
        super().__init__(code, problem, params=all_params)
        self.formula = formula
        #: 0-based column of the offending character (len(formula) for "ends too soon").
        self.position = position

    @property
    def problem(self) -> str:
        """The problem alone, without the caret lines (in the language in force)."""
        return fill(_(self.template), self.params)

    @property
    def message(self) -> str:
        """The problem, then the formula with a caret under the offending column."""
        return self.problem + _caret(self.formula, self.position)

    @property
    def english(self) -> str:
        return fill(self.template, self.params) + _caret(self.formula, self.position)


def _caret(formula: str, position: int) -> str:
    """Two lines: the formula (whitespace shown as spaces) and a caret under `position`."""
    if not formula.strip():
        return ""
    shown = formula[: MAX_TEXT]
    suffix = "…" if len(formula) > len(shown) else ""
    shown = "".join(" " if ch.isspace() else ch for ch in shown)
    return f"\n  {shown}{suffix}\n  {' ' * min(position, len(shown))}^"


class DieName(StrEnum):
    """The three dice of a TA a formula may read (T1)."""

    DS = "dS"
    D_PLUS = "d+"
    D_MINUS = "d-"


# ----------------------------------------------------------------------------- AST


@dataclass(frozen=True, slots=True)
class Number:
    value: int


@dataclass(frozen=True, slots=True)
class Die:
    name: DieName


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node


class Operator(StrEnum):
    ADD = "+"
    SUB = "-"
    MUL = "x"


@dataclass(frozen=True, slots=True)
class Binary:
    op: Operator
    left: Node
    right: Node


Node = Number | Die | Negate | Binary

_ATOM, _UNARY, _PRODUCT, _SUM = 4, 3, 2, 1


def _precedence(node: Node) -> int:
    if isinstance(node, Binary):
        return _PRODUCT if node.op is Operator.MUL else _SUM
    if isinstance(node, Negate):
        return _UNARY
    return _ATOM


def evaluate_node(node: Node, ds: int, d_plus: int, d_minus: int) -> int:
    """The value of `node` for these three dice."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Die):
        return {DieName.DS: ds, DieName.D_PLUS: d_plus, DieName.D_MINUS: d_minus}[node.name]
    if isinstance(node, Negate):
        return -evaluate_node(node.operand, ds, d_plus, d_minus)
    left = evaluate_node(node.left, ds, d_plus, d_minus)
    right = evaluate_node(node.right, ds, d_plus, d_minus)
    if node.op is Operator.ADD:
        return left + right
    if node.op is Operator.SUB:
        return left - right
    return left * right


def render(node: Node, leaf: dict[DieName, str] | None = None) -> str:
    """Canonical text of `node`: dS d+ d-, spaced operators, x, only needed brackets.

    The brackets kept are exactly those that reparse to the same tree, so
    `parse_formula(render(node)).node == node`. `leaf` replaces die names (the
    log line shows the formula with the dice values, H12).
    """
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Die):
        return leaf[node.name] if leaf else node.name.value
    if isinstance(node, Negate):
        inner = render(node.operand, leaf)
        return "-" + (inner if _precedence(node.operand) >= _UNARY else f"({inner})")
    mine = _precedence(node)
    left = render(node.left, leaf)
    right = render(node.right, leaf)
    if _precedence(node.left) < mine:
        left = f"({left})"
    if _precedence(node.right) <= mine:
        right = f"({right})"
    return f"{left} {node.op.value} {right}"


def dice_in(node: Node) -> frozenset[DieName]:
    """The dice a formula reads."""
    if isinstance(node, Die):
        return frozenset({node.name})
    if isinstance(node, Negate):
        return dice_in(node.operand)
    if isinstance(node, Binary):
        return dice_in(node.left) | dice_in(node.right)
    return frozenset()


@dataclass(frozen=True, slots=True)
class Formula:
    """A parsed damage formula (H3): the text as typed, its canonical text and its tree."""

    source: str
    node: Node

    @property
    def canonical(self) -> str:
        return render(self.node)

    @property
    def dice(self) -> frozenset[DieName]:
        return dice_in(self.node)

    def evaluate(self, dice: Dice) -> int:
        """H1: the value for the attack TA's own dice (dS, d+, d-)."""
        return evaluate_node(self.node, dice.ds, dice.d_plus, dice.d_minus)

    def evaluate_values(self, ds: int, d_plus: int, d_minus: int) -> int:
        return evaluate_node(self.node, ds, d_plus, d_minus)

    def substituted(self, dice: Dice) -> str:
        """The canonical text with each die replaced by its value ("8 + 3"), for the log."""
        values = {DieName.DS: str(dice.ds), DieName.D_PLUS: str(dice.d_plus),
                  DieName.D_MINUS: str(dice.d_minus)}
        return render(self.node, values)

    def __str__(self) -> str:
        return self.canonical


# ----------------------------------------------------------------------- tokenizer


class _Kind(StrEnum):
    NUMBER = "number"
    DIE = "die"
    PLUS = "+"
    MINUS = "-"
    TIMES = "x"
    OPEN = "("
    CLOSE = ")"
    END = "end"


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    text: str
    position: int
    value: int = 0
    die: DieName | None = None


_SINGLE = {"+": _Kind.PLUS, "-": _Kind.MINUS, "\u2212": _Kind.MINUS, "*": _Kind.TIMES,
           "×": _Kind.TIMES, "x": _Kind.TIMES, "X": _Kind.TIMES, "(": _Kind.OPEN,
           ")": _Kind.CLOSE}


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _word_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return end


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif _is_digit(ch):
            start = i
            while i < len(text) and _is_digit(text[i]):
                i += 1
            digits = text[start:i]
            if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
                raise FormulaError("formula.number_too_large",
                                   N_("{number} is too large: numbers go up to {max}."),
                                   formula=text, position=start,
                                   params={"number": digits, "max": MAX_NUMBER})
            tokens.append(_Token(_Kind.NUMBER, digits, start, value=int(digits)))
        elif ch in "dD":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt in ("+", "-", "\u2212"):
                die = DieName.D_PLUS if nxt == "+" else DieName.D_MINUS
                tokens.append(_Token(_Kind.DIE, text[i:i + 2], i, die=die))
                i += 2
            elif nxt in "sS" and nxt and not _continues_word(text, i + 2):
                tokens.append(_Token(_Kind.DIE, text[i:i + 2], i, die=DieName.DS))
                i += 2
            else:
                _unknown_name(text, i)
        elif ch in _SINGLE and not (ch in "xX" and _starts_name(text, i + 1)):
            tokens.append(_Token(_SINGLE[ch], ch, i))
            i += 1
        elif ch.isalpha() or ch == "_":
            _unknown_name(text, i)
        else:
            raise FormulaError("formula.unexpected_character",
                               N_("{character!r} cannot be used in a formula: {help}."),
                               formula=text, position=i,
                               params={"character": ch, "help": _(_HELP)})
    tokens.append(_Token(_Kind.END, "", len(text.rstrip())))
    return tokens


def _continues_word(text: str, at: int) -> bool:
    """True if a letter (other than the operator x) follows: "dsa" or "xy" is a name."""
    return at < len(text) and (text[at].isalpha() or text[at] == "_") and text[at] not in "xX×"


def _starts_name(text: str, at: int) -> bool:
    """After an x: True if it begins a word ("xyz"); "xd+" and "x2" are times."""
    return _continues_word(text, at) and text[at] not in "dD"


def _unknown_name(text: str, start: int) -> None:
    end = max(_word_end(text, start), start + 1)
    name = text[start:end]
    raise FormulaError("formula.unknown_name",
                       N_("Unknown name {name!r}: the dice are dS, d+ and d-."),
                       formula=text, position=start, params={"name": name})


# -------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> _Token:
        return self.tokens[self.index]

    def advance(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> Node:
        node = self.sum()
        token = self.current
        if token.kind is _Kind.CLOSE:
            raise FormulaError("formula.unopened_bracket", N_("This ')' has no '(' before it."),
                               formula=self.text, position=token.position)
        if token.kind is not _Kind.END:
            raise FormulaError("formula.unexpected_token",
                               N_("Expected + - x or the end here, found {token!r}."),
                               formula=self.text, position=token.position,
                               params={"token": token.text, "expected": "operator"})
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.current.kind in (_Kind.PLUS, _Kind.MINUS):
            op = Operator.ADD if self.advance().kind is _Kind.PLUS else Operator.SUB
            node = Binary(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.current.kind is _Kind.TIMES:
            self.advance()
            node = Binary(Operator.MUL, node, self.unary())
        return node

    def enter(self, token: _Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError("formula.too_deep",
                               N_("Too many nested brackets or signs (at most {max})."),
                               formula=self.text, position=token.position,
                               params={"max": MAX_DEPTH})

    def unary(self) -> Node:
        token = self.current
        if token.kind is _Kind.MINUS:
            self.enter(self.advance())
            node: Node = Negate(self.unary())
            self.depth -= 1
            return node
        return self.atom()

    def atom(self) -> Node:
        token = self.advance()
        if token.kind is _Kind.NUMBER:
            return Number(token.value)
        if token.kind is _Kind.DIE:
            assert token.die is not None
            return Die(token.die)
        if token.kind is _Kind.OPEN:
            self.enter(token)
            node = self.sum()
            closing = self.current
            if closing.kind is not _Kind.CLOSE:
                if closing.kind is _Kind.END:
                    raise FormulaError("formula.unclosed_bracket", N_("This '(' is never closed."),
                                       formula=self.text, position=token.position)
                raise FormulaError("formula.unexpected_token",
                                   N_("Expected + - x or ')' here, found {token!r}."),
                                   formula=self.text, position=closing.position,
                                   params={"token": closing.text, "expected": "operator"})
            self.advance()
            self.depth -= 1
            return node
        if token.kind is _Kind.END:
            raise FormulaError("formula.unexpected_end",
                               N_("The formula ends too soon: a number, a die or '(' is "
                                  "missing."),
                               formula=self.text, position=token.position)
        raise FormulaError("formula.unexpected_token",
                           N_("Expected a number, a die or '(' here, found {token!r}."),
                           formula=self.text, position=token.position,
                           params={"token": token.text, "expected": "operand"})


@lru_cache(maxsize=512)
def parse_formula(text: str) -> Formula:
    """H3: read a DJ-written damage formula, or raise `FormulaError` saying where it is wrong."""
    if not isinstance(text, str):
        raise FormulaError("formula.empty", N_("A formula is text, not {type}."),
                           formula="", position=0, params={"type": type(text).__name__})
    if not text.strip():
        raise FormulaError("formula.empty", N_("The formula is empty: {help}."),
                           formula=text, position=0, params={"help": _(_HELP)})
    # Counted without spaces, so that the canonical text (which only drops brackets and
    # digits and adds spaces) always parses again.
    length = len("".join(text.split()))
    if length > MAX_LENGTH or len(text) > MAX_TEXT:
        marks = [i for i, ch in enumerate(text[:MAX_TEXT]) if not ch.isspace()]
        at = marks[MAX_LENGTH] if len(marks) > MAX_LENGTH else MAX_TEXT
        raise FormulaError("formula.too_long",
                           N_("The formula is too long ({length} characters besides spaces, "
                              "at most {max})."), formula=text, position=at,
                           params={"length": length, "max": MAX_LENGTH})
    return Formula(source=text, node=_Parser(text).parse())
