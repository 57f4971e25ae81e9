"""Spellings of a tile op call that name the same function (run on the module's AST before the walk).

  * `cp = Tx.copy_async` at module level, then `cp(dst, src)`: the call is `Tx.copy_async(dst, src)`
    (Python binds cp to that very function).  Only a name assigned once at module level, to a
    builder-namespace tile op (T./Tx. + copy_async/copy/gemm_async), and not assigned, imported or a
    parameter inside the function making the call;
  * `getattr(Tx, "copy_async")(...)`: `Tx.copy_async(...)`;
  * keyword operands of the tile ops: `copy_async(dst=..., src=...)`, `gemm_async(C=..., A=..., B=...)`
    are positional in TVM's signatures (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/
    tirx.py:585-590 copy, 618-623 copy_async, 640-653 gemm_async), so they are moved to their
    positions when the positions before them are given.
"""
from __future__ import annotations

import ast
import copy as _copy

from corpus_notation import dotted

OPS = {"copy_async", "copy", "gemm_async"}
HEADS = {"T", "Tx", "tirx"}
OPERANDS = {"copy_async": ("dst", "src"), "copy": ("dst", "src"), "gemm_async": ("C", "A", "B")}


def _builder_op(node) -> bool:
    d = dotted(node) or ""
    head, _, tail = d.rpartition(".")
    return head.split(".")[0] in HEADS and tail in OPS


def _local_names(fn) -> set:
    out = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
    return out


class _Rewrite(ast.NodeTransformer):
    def __init__(self, aliases: dict):
        self.aliases = aliases
        self.shadow: list[set] = []

    def visit_FunctionDef(self, node):
        self.shadow.append(_local_names(node))
        self.generic_visit(node)
        self.shadow.pop()
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in self.aliases and not any(f.id in s for s in self.shadow):
            node.func = ast.copy_location(_copy.deepcopy(self.aliases[f.id]), f)
        elif isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "getattr" and \
                len(f.args) == 2 and not f.keywords and isinstance(f.args[1], ast.Constant) and \
                isinstance(f.args[1].value, str) and dotted(f.args[0]) in HEADS and f.args[1].value in OPS:
            node.func = ast.copy_location(ast.Attribute(value=f.args[0], attr=f.args[1].value, ctx=ast.Load()), f)
        if _builder_op(node.func):
            names = OPERANDS[(dotted(node.func) or "").rpartition(".")[2]]
            kw = {k.arg: k for k in node.keywords if k.arg}
            for i, n in enumerate(names):
                if len(node.args) == i and n in kw:
                    node.args.append(kw[n].value)
                    node.keywords.remove(kw[n])
        return node


def normalise(tree: ast.Module) -> None:
    assigned: dict = {}
    for st in tree.body:
        if isinstance(st, ast.Assign):
            for t in st.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        assigned.setdefault(n.id, []).append(st.value if t is n else None)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assigned.setdefault(st.name, []).append(None)
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            for a in st.names:
                assigned.setdefault((a.asname or a.name).split(".")[0], []).append(None)
    aliases = {k: v[0] for k, v in assigned.items() if len(v) == 1 and v[0] is not None and _builder_op(v[0])}
    _Rewrite(aliases).visit(tree)
    ast.fix_missing_locations(tree)
