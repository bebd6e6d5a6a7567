"""H3: the damage-formula grammar (dS, d+, d-, whole numbers, + - x, brackets).

Formulas are data read by our own parser, never evaluated as Python; a bad one
raises FormulaError with a stable code, the 0-based column and a caret.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sombra_tui.engine import SombraError
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.formula import (
    MAX_DEPTH,
    MAX_LENGTH,
    MAX_NUMBER,
    Binary,
    Die,
    DieName,
    FormulaError,
    Negate,
    Node,
    Number,
    Operator,
    parse_formula,
    render,
)

# The worked example's attack dice: dS 5, 8, 3 -> d+ 8, d- 3.
CARLA_SHOT = Dice.of(5, 8, 3)


def value(text: str, dice: Dice = CARLA_SHOT) -> int:
    return parse_formula(text).evaluate(dice)


# ------------------------------------------------------------------ H3 the grammar


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d-", 3),  # tipo 0
        ("d+", 8),  # tipo I
        ("d+ + d-", 11),  # tipo II, the worked example's damage
        ("dS", 5),
        ("d+ x d-", 24),  # "the two multiplied"
        ("d+ x 10 + d-", 83),  # "read as d100"
        ("(d+ + d-) x 2", 22),
        ("d+ + d- x 2", 14),  # x binds tighter than +
        ("10 - d+ - d-", -1),  # - is left-associative: (10 - 8) - 3
        ("10 - (d+ - d-)", 5),
        ("0", 0),
        ("-d- + d+", 5),  # unary minus
        ("d+ x -1", -8),
        ("((d+))", 8),
    ],
)
def test_h3_formula_values_over_the_three_dice(text: str, expected: int) -> None:
    assert value(text) == expected


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ds", "dS"),
        ("DS", "dS"),
        ("Ds+D+", "dS + d+"),
        ("D-", "d-"),
        ("d+*2", "d+ x 2"),
        ("d+X2", "d+ x 2"),
        ("d+×2", "d+ x 2"),
        ("2xd+", "2 x d+"),
        ("dSx2", "dS x 2"),
        ("  d+   +\td-  ", "d+ + d-"),
        ("((d+ + d-)) x (2)", "(d+ + d-) x 2"),
        ("007", "7"),
        ("d+ \u2212 1", "d+ - 1"),  # the typographic minus sign
    ],
)
def test_h3_names_are_case_insensitive_and_the_canonical_text_is_kept(
        text: str, canonical: str) -> None:
    formula = parse_formula(text)
    assert formula.canonical == canonical
    assert str(formula) == canonical
    assert formula.source == text


def test_h3_substituted_text_shows_the_dice_values_for_the_log_line() -> None:
    # H12: the log line shows the formula and the dice behind the damage.
    formula = parse_formula("(d+ + d-) x 2 - dS")
    assert formula.substituted(CARLA_SHOT) == "(8 + 3) x 2 - 5"
    assert formula.dice == frozenset({DieName.DS, DieName.D_PLUS, DieName.D_MINUS})
    assert parse_formula("d- x 3").dice == frozenset({DieName.D_MINUS})


def test_h3_the_ranked_dice_are_used_not_the_order_typed() -> None:
    # T1: d+ is the higher of the two non-Sombra dice whatever order they were typed in.
    assert value("d+ - d-", Dice.of(1, 2, 9)) == value("d+ - d-", Dice.of(1, 9, 2)) == 7
    assert value("dS", Dice.of(10, 1, 1)) == 10  # a 10 is a 10 here (H2 reads it as 0)


def test_h3_the_parser_never_evaluates_python() -> None:
    for text in ("__import__('os')", "1 if 1 else 2", "2 ** 3", "abs(d+)", "d+; 1", "[1]"):
        with pytest.raises(FormulaError):
            parse_formula(text)


# ---------------------------------------------------------------------- H3 errors


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("", "formula.empty", 0),
        ("   ", "formula.empty", 0),
        ("d+ +", "formula.unexpected_end", 4),
        ("d+ + ", "formula.unexpected_end", 4),
        ("(d+ + d-", "formula.unclosed_bracket", 0),
        ("2 x ((d+) + 1", "formula.unclosed_bracket", 4),
        ("d+ + d-)", "formula.unopened_bracket", 7),
        ("d+ d-", "formula.unexpected_token", 3),
        ("2d+", "formula.unexpected_token", 1),
        ("d+ + x 2", "formula.unexpected_token", 5),
        ("(d+ 2)", "formula.unexpected_token", 4),
        ("()", "formula.unexpected_token", 1),
        ("d+ + fuerza", "formula.unknown_name", 5),
        ("d", "formula.unknown_name", 0),
        ("d * 2", "formula.unknown_name", 0),
        ("dsa", "formula.unknown_name", 0),
        ("d+ / 2", "formula.unexpected_character", 3),
        ("d+ % 2", "formula.unexpected_character", 3),
        ("1.5", "formula.unexpected_character", 1),
        (f"{MAX_NUMBER + 1}", "formula.number_too_large", 0),
        ("d+ + 123456789012345678901234567890", "formula.number_too_large", 5),
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "formula.too_deep", MAX_DEPTH),
        ("-" * (MAX_DEPTH + 1) + "1", "formula.too_deep", MAX_DEPTH),
        ("1+" * (MAX_LENGTH // 2) + "1", "formula.too_long", MAX_LENGTH),
    ],
)
def test_h3_bad_formula_has_a_code_and_the_column_of_the_problem(
        text: str, code: str, position: int) -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula(text)
    error = caught.value
    assert error.code == code
    assert error.position == position
    assert error.params["position"] == position
    assert error.params["formula"] == text
    assert isinstance(error, SombraError)


def test_h3_error_message_shows_the_formula_with_a_caret_under_the_problem() -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula("d+ +\t) x 2")
    lines = str(caught.value).splitlines()
    assert lines[0] == "Expected a number, a die or '(' here, found ')'."
    assert lines[1] == "  d+ + ) x 2"  # the tab is shown as a space so the caret lines up
    assert lines[2] == "       ^"
    assert lines[2].index("^") == lines[1].index(")")
    assert caught.value.problem == lines[0]


def test_h3_error_params_name_the_offending_text() -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula("d+ + fuerza")
    assert caught.value.params["name"] == "fuerza"
    assert "'fuerza'" in caught.value.problem
    with pytest.raises(FormulaError) as caught:
        parse_formula("d+ / 2")
    assert caught.value.params["character"] == "/"


def test_h3_a_huge_text_is_refused_quickly_and_its_message_stays_short() -> None:
    text = "d+ + " * 200_000
    with pytest.raises(FormulaError) as caught:
        parse_formula(text)
    assert caught.value.code == "formula.too_long"
    assert caught.value.params["length"] == 600_000
    assert len(str(caught.value)) < 1000
    spaces = " " * 1000 + "d+"
    with pytest.raises(FormulaError) as caught:
        parse_formula(spaces)
    assert caught.value.code == "formula.too_long"


def test_h3_limits_allow_a_formula_at_the_limit() -> None:
    at_depth = "(" * MAX_DEPTH + "d+" + ")" * MAX_DEPTH
    assert value(at_depth) == 8
    spaced = " + ".join(["1"] * (MAX_LENGTH // 2))  # 99 characters besides spaces
    assert value(spaced) == MAX_LENGTH // 2
    assert value(str(MAX_NUMBER)) == MAX_NUMBER


# ------------------------------------------------------------------- hypothesis fuzz

FORMULA_ALPHABET = [*"dDsSxX×*+-−()0123456789 \t", "d+", "d-", "dS", "a", "/", "."]


def _check_error(error: FormulaError, text: str) -> None:
    assert error.code.startswith("formula.")
    assert 0 <= error.position <= len(text)
    assert error.problem and error.problem[-1] in ".)"
    if text.strip():
        assert "^" in str(error)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_h3_fuzz_any_text_gives_a_formula_or_a_formula_error(text: str) -> None:
    try:
        formula = parse_formula(text)
    except FormulaError as error:
        _check_error(error, text)
        return
    result = formula.evaluate(CARLA_SHOT)
    assert isinstance(result, int)
    assert parse_formula(formula.canonical).node == formula.node


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FORMULA_ALPHABET), max_size=40).map("".join))
def test_h3_fuzz_formula_like_text_gives_a_formula_or_a_formula_error(text: str) -> None:
    try:
        formula = parse_formula(text)
    except FormulaError as error:
        _check_error(error, text)
        return
    assert parse_formula(formula.canonical).node == formula.node


def _reference(node: Node, ds: int, dp: int, dm: int) -> int:
    """An independent evaluation of the tree (kept apart from the module's)."""
    match node:
        case Number(value=v):
            return v
        case Die(name=name):
            return {"dS": ds, "d+": dp, "d-": dm}[name.value]
        case Negate(operand=inner):
            return -_reference(inner, ds, dp, dm)
        case Binary(op=op, left=left, right=right):
            a, b = _reference(left, ds, dp, dm), _reference(right, ds, dp, dm)
            return {"+": a + b, "-": a - b, "x": a * b}[op.value]
    raise AssertionError(node)


def _nodes() -> st.SearchStrategy[Node]:
    leaves: st.SearchStrategy[Node] = st.one_of(
        st.integers(0, MAX_NUMBER).map(Number), st.sampled_from(list(DieName)).map(Die))

    def extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
        return st.one_of(
            children.map(Negate),
            st.builds(Binary, st.sampled_from(list(Operator)), children, children))

    return st.recursive(leaves, extend, max_leaves=8)


def _depth(node: Node) -> int:
    if isinstance(node, Negate):
        return 1 + _depth(node.operand)
    if isinstance(node, Binary):
        # an upper bound of the brackets and signs nested in the printed text
        return max(_depth(node.left), _depth(node.right)) + 1
    return 0


@settings(max_examples=300, deadline=None)
@given(_nodes(), st.integers(1, 10), st.integers(1, 10), st.integers(1, 10))
def test_h3_fuzz_printed_trees_reparse_to_the_same_tree_and_value(
        node: Node, ds: int, a: int, b: int) -> None:
    text = render(node)
    if _depth(node) > MAX_DEPTH:
        return  # beyond the nesting limit the parser refuses it (tested above)
    formula = parse_formula(text)
    assert formula.node == node
    dice = Dice.of(ds, a, b)
    assert formula.evaluate(dice) == _reference(node, dice.ds, dice.d_plus, dice.d_minus)


def test_h3_every_die_and_operator_combination_of_two_terms() -> None:
    terms = ["dS", "d+", "d-", "2"]
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "x": lambda x, y: x * y}
    numbers = {"dS": 5, "d+": 8, "d-": 3, "2": 2}
    for left, right in itertools.product(terms, repeat=2):
        for op, fn in ops.items():
            assert value(f"{left} {op} {right}") == fn(numbers[left], numbers[right])
