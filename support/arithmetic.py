"""The formulas' substituted arithmetic, evaluated as a reader would redo it: integers only, through the ast."""

import ast
import operator

BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
          ast.Mod: operator.mod, ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
          ast.BitOr: operator.or_, ast.BitXor: operator.xor}


def evaluate(text):
    """Integer arithmetic (ops.operators.lessons.Term's); anything else fails the test."""
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
