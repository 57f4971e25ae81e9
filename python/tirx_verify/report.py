"""Results of :func:`tirx_verify.check`: a :class:`Report` of :class:`CheckResult` s."""

import json

from .errors import LayoutError, UndecidedError


class CheckResult:
    """One check's answer.

    ``id`` (``"layout.injective"``), ``status`` (``"pass"``, ``"fail"``, ``"undecided"``, ``"n/a"``),
    ``severity`` of a failure (``"error"``, ``"warning"``, ``"note"``), ``message``, ``engine``
    (``"enum"``, ``"gf2"``, ``"z3"``, ``"structural"``, ...), ``seconds`` and ``witness`` (plain Python
    data: dicts/lists/ints, in hardware units -- e.g. the two colliding elements and their shared
    TMEM lane/column; None when there is nothing to show).
    """

    __slots__ = ("id", "status", "severity", "message", "engine", "seconds", "witness")

    def __init__(self, d):
        self.id = d["id"]
        self.status = d["status"]
        self.severity = d.get("severity", "error")
        self.message = d.get("message", "")
        self.engine = d.get("engine", "")
        self.seconds = d.get("seconds", 0.0)
        self.witness = d.get("witness")

    @property
    def ok(self) -> bool:
        """Passed or does not apply."""
        return self.status in ("pass", "n/a")

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    def describe(self) -> str:
        """``[fail] layout.injective: message`` plus the witness as JSON."""
        s = f"[{self.status}] {self.id}: {self.message}"
        if self.witness is not None:
            s += "\n    witness: " + json.dumps(self.witness, sort_keys=True)
        return s

    def __repr__(self):
        return f"CheckResult({self.id!r}, {self.status!r})"


class Report:
    """All checks of one layout. ``ok`` is True when every check passed or does not apply."""

    def __init__(self, layout_text, resolved, checks):
        self.layout = layout_text
        self.resolved = resolved
        self.checks = [c if isinstance(c, CheckResult) else CheckResult(c) for c in checks]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failures(self):
        return [c for c in self.checks if c.status == "fail"]

    @property
    def undecided(self):
        return [c for c in self.checks if c.status == "undecided"]

    def __getitem__(self, check_id) -> CheckResult:
        for c in self.checks:
            if c.id == check_id:
                return c
        raise KeyError(check_id)

    def __iter__(self):
        return iter(self.checks)

    def to_json(self) -> dict:
        """The same document as ``tirx-verify check --json`` (docs/report-format.md)."""
        return {"layout": self.layout, "resolved": self.resolved, "checks": [c.to_dict() for c in self.checks]}

    def describe(self) -> str:
        return "\n".join([self.resolved] + ["  " + c.describe() for c in self.checks])

    def raise_for_failures(self):
        """LayoutError when a check failed (message: every failed check id, message and witness);
        UndecidedError when none failed but one was undecided; else returns self."""
        if self.failures:
            msg = f"layout {self.resolved} fails " + ", ".join(c.id for c in self.failures) + "\n" + \
                "\n".join("  " + c.describe() for c in self.failures)
            raise LayoutError(msg, self, self.failures)
        if self.undecided:
            e = UndecidedError(f"layout {self.resolved}: undecided " +
                               "; ".join(f"{c.id}: {c.message}" for c in self.undecided))
            e.limit, e.where = self.undecided[0].message, self.undecided[0].id
            raise e
        return self

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"Report({self.resolved!r}, ok={self.ok})"
