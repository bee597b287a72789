"""`typing.get_type_hints` for the report's dataclasses, also on Python 3.8 and 3.9 (the one-file collector's floor).

Their annotations are strings (`from __future__ import annotations`) spelled for 3.10: `int | None`, `list[str]`.
Before 3.10 Python cannot evaluate `X | Y` between classes, and before 3.9 `list[str]`; there each annotation is
rewritten, as a syntax tree, into typing's own spelling (`Union[int, None]`, `List[str]`) and then evaluated. The
values are the same to `typing.get_origin` and `get_args`, so the codec decodes the same way on every Python.
"""

from __future__ import annotations

import ast
import sys
import typing
from typing import Any

# Subscripted builtins and collections.abc classes, as typing spells them before 3.9.
GENERICS = {
    name: getattr(typing, alias)
    for name, alias in {
        "list": "List",
        "dict": "Dict",
        "tuple": "Tuple",
        "set": "Set",
        "frozenset": "FrozenSet",
        "type": "Type",
        "Callable": "Callable",
        "Iterable": "Iterable",
        "Iterator": "Iterator",
        "Mapping": "Mapping",
        "Sequence": "Sequence",
    }.items()
}
UNION = "__hint_union"
PREFIX = "__hint_"


def type_hints(tp: Any) -> dict[str, Any]:
    return typing.get_type_hints(tp) if sys.version_info >= (3, 10) else rewritten_hints(tp)


def rewritten_hints(tp: Any) -> dict[str, Any]:
    """The class's annotations, each evaluated in its module after the rewrite (any Python from 3.8)."""
    hints: dict[str, Any] = {}
    for cls in reversed(tp.__mro__):
        namespace = dict(vars(sys.modules[cls.__module__]))
        for name, value in vars(cls).get("__annotations__", {}).items():
            hints[name] = evaluate(value, namespace) if isinstance(value, str) else value
    return hints


def evaluate(annotation: str, namespace: dict[str, Any]) -> Any:
    tree = _Rewrite().visit(ast.parse(annotation, mode="eval"))
    code = compile(ast.fix_missing_locations(tree), "<annotation>", "eval")
    names = {PREFIX + name: alias for name, alias in GENERICS.items()}
    names[UNION] = _union
    return eval(code, namespace, names)  # noqa: S307 - the annotations of this package's own classes


def _union(left: Any, right: Any) -> Any:
    return typing.Union[left, right]


class _Rewrite(ast.NodeTransformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr):
            return node
        return ast.Call(func=ast.Name(id=UNION, ctx=ast.Load()), args=[node.left, node.right], keywords=[])

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in GENERICS:
            node.value = ast.Name(id=PREFIX + node.value.id, ctx=ast.Load())
        return node
