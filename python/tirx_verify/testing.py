"""pytest helpers.

    from tirx_verify.testing import assert_layout_ok, assert_equivalent

    def test_d_layout():
        assert_layout_ok(buf.layout, shape=(128, 256), dtype="float32", scope="tmem", alloc_cols=256)

A failure raises AssertionError (LayoutError) whose message names the check id, its message, the
witness, and the images of the elements it names.
"""

import json

from .api import check, equivalent
from .layout import as_layout


def _images(layout, witness, shape):
    """The images of the logical elements a witness names (keys "element", "elements", "a", "b")."""
    lines = []
    if not isinstance(witness, dict):
        return lines
    elems = []
    for key in ("element", "a", "b", "first", "second"):
        v = witness.get(key)
        if isinstance(v, list) and all(isinstance(x, int) for x in v):
            elems.append(v)
        elif isinstance(v, dict):
            for k in ("logical", "element"):
                if isinstance(v.get(k), list) and all(isinstance(x, int) for x in v[k]):
                    elems.append(v[k])
                    break
    if isinstance(witness.get("elements"), list):
        elems += [e for e in witness["elements"] if isinstance(e, list) and all(isinstance(x, int) for x in e)]
    for e in elems[:4]:
        try:
            img = layout.replicas(*e, shape=shape) if shape is not None and len(e) == len(shape) else layout.replicas(*e)
            lines.append(f"    {e} -> {img}")
        except Exception:  # noqa: BLE001 -- a witness in other units (registers, bytes): skip
            pass
    return lines


def assert_layout_ok(layout, **kw):
    """Every check of ``check(layout, **kw)`` passes or does not apply; else AssertionError with the
    failed check ids, witnesses and images. Returns the Report."""
    report = check(layout, **kw)
    if report.ok:
        return report
    try:  # images of the witness's elements (not for layouts whose parameters are ranges)
        lay = as_layout(layout, kw.get("params"))
    except Exception:  # noqa: BLE001
        lay = None
    msg = [f"layout {report.resolved} does not verify:"]
    for c in report.checks:
        if c.ok:
            continue
        msg.append(f"  [{c.status}] {c.id}: {c.message}")
        if c.witness is not None:
            msg.append("    witness: " + json.dumps(c.witness, sort_keys=True))
            if lay is not None:
                msg += _images(lay, c.witness, kw.get("shape"))
    raise AssertionError("\n".join(msg))


def assert_equivalent(a, b, shape=None, **kw):
    """``a`` and ``b`` are the same map (layout.equivalent); else AssertionError showing the first
    differing element and both images."""
    report = equivalent(a, b, shape=shape, **kw)
    if report.ok:
        return report
    la, lb = as_layout(a), as_layout(b)
    msg = [f"layouts differ:\n  a = {la.builder()}\n  b = {lb.builder()}"]
    for c in report.checks:
        msg.append(f"  [{c.status}] {c.id}: {c.message}")
        if c.witness is not None:
            msg.append("    witness: " + json.dumps(c.witness, sort_keys=True))
            for name, lay in (("a", la), ("b", lb)):
                for line in _images(lay, c.witness, shape):
                    msg.append(f"  {name}:{line.strip()}")
    raise AssertionError("\n".join(msg))
