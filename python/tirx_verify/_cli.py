"""The command line in-process (tirx_verify._core.run_cli), for the calls that share its logic."""

import json

from . import _core
from .errors import InputError, UndecidedError, _input_error


def run_cli_json(args, accept=(0,)):
    """Run ``tirx-verify ARGS`` (with --json among them) in-process; (exit code, document).
    Exit 2 raises InputError (the document's error: id, message, pos); an exit code outside
    ``accept`` raises UndecidedError (3) or RuntimeError."""
    code, out, err = _core.run_cli(list(args))
    try:
        doc = json.loads(out) if out.strip() else {}
    except ValueError:
        doc = {}
    if code == 2:
        e = doc.get("error", {})
        raise _input_error(e.get("id", "cli.usage"), e.get("message", err.strip()), e.get("text", ""),
                           e.get("pos"), e.get("note", ""))
    if code not in accept:
        if code == 3:
            u = UndecidedError(err.strip() or json.dumps(doc))
            raise u
        raise RuntimeError(f"tirx-verify {' '.join(args[:2])} exited {code}: {err.strip()}")
    return code, doc


__all__ = ["run_cli_json", "InputError"]
