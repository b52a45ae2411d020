"""Integer arithmetic as a reader redoes a teaching formula's substituted term: + - * // % << >> & | ^ on integers
through the ast, and nothing else (anything else fails the test that asked)."""

import ast
import operator

BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
          ast.Mod: operator.mod, ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
          ast.BitOr: operator.or_, ast.BitXor: operator.xor}


def evaluate(text):
    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            return BINARY[type(node.op)](walk(node.left), walk(node.right))
        raise AssertionError(f"not integer arithmetic: {ast.dump(node)}")
    return walk(ast.parse(text, mode="eval"))


def check_terms(formula):
    """Every term of a teaching Formula evaluates to the value it shows."""
    for term in formula.terms:
        assert evaluate(term.substituted) == term.value, str(term)
