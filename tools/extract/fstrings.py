"""f-strings evaluated as Python does (kernel_env.Evaluator): each `{value!conv:spec}` is
`format(conv(value), spec)` (the spec itself an f-string).  A spec Python refuses for the value
(`f"{DT:d}"` with DT a str: ValueError "Unknown format code") is the file's own error at this
configuration (a CodeRaises naming the line), never the plain text.  A field width above
MAX_WIDTH is refused (a bounded evaluation: `f"{x:>{10**9}}"` would build a 1 GB string)."""
from __future__ import annotations

import ast
import re

from kernel_env import CodeRaises, ConvertError

MAX_WIDTH = 4096
_WIDTH = re.compile(r"(\d+)")


def joined(node: ast.JoinedStr, ev) -> str:
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value))
            continue
        x = ev.value(v.value)
        conv = {-1: None, 115: str, 114: repr, 97: ascii}.get(v.conversion)
        if conv is not None:
            x = conv(x)
        spec = joined(v.format_spec, ev) if v.format_spec is not None else ""
        if any(int(m) > MAX_WIDTH for m in _WIDTH.findall(spec)):
            raise ConvertError(f"line {node.lineno}: format spec {spec[:40]!r} asks for more than {MAX_WIDTH} "
                               "characters")
        if not spec and conv is None and not isinstance(x, (str, int, float, bool)):
            parts.append(str(x))  # an object the evaluator models: its text
            continue
        if isinstance(x, str) and type(x) is not str:
            x = str.__add__(x, "")  # a dtype name the evaluator keeps in a str subclass: the str Python has
        elif isinstance(x, int) and not isinstance(x, bool) and type(x) is not int:
            x = int(x)
        try:
            parts.append(format(x, spec))
        except (ValueError, TypeError) as e:
            raise CodeRaises(f"the file's own f-string at line {node.lineno} raises {type(e).__name__}: {e}") from None
    return "".join(parts)
