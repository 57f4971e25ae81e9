"""Exceptions raised by tirx_verify.

* :class:`InputError` (a ``ValueError``): the input is bad -- a layout that does not parse or is
  not well-formed, an unknown dtype, a model file with a wrong field. The CLI answers the same
  input with exit code 2. Attributes: ``check_id`` (e.g. ``"layout.syntax"``), ``message``,
  ``text`` (the input the error points into), ``position`` (byte offset into ``text`` or
  ``None``), ``note`` (what to change, may be empty) and ``rendering`` (the clang-style message
  with a caret under the position, which is also ``str(error)``).
* :class:`LayoutError` (an ``AssertionError``): a check failed. ``report`` is the
  :class:`~tirx_verify.Report`, ``failures`` the failed :class:`~tirx_verify.CheckResult` s; the
  message names each check id and its witness.
* :class:`UndecidedError` (a ``RuntimeError``): a time, memory or solver limit ended the work
  before it was decided (the CLI's exit code 3). ``limit`` names the limit, ``where`` how far
  the work got.
"""


class InputError(ValueError):
    check_id: str = ""
    message: str = ""
    text: str = ""
    position = None
    note: str = ""
    rendering: str = ""


class LayoutError(AssertionError):
    def __init__(self, message, report=None, failures=()):
        super().__init__(message)
        self.report = report
        self.failures = list(failures)


class UndecidedError(RuntimeError):
    limit: str = ""
    where: str = ""


def _input_error(check_id, message, text="", position=None, note=""):
    """An InputError made on the Python side (same attributes as the library's)."""
    rendering = f"error[{check_id}]: {message}"
    if text:
        rendering += "\n  " + text
        if position is not None:
            rendering += "\n  " + " " * position + "^"
    if note:
        rendering += "\n  note: " + note
    e = InputError(rendering)
    e.check_id, e.message, e.text, e.position, e.note, e.rendering = check_id, message, text, position, note, rendering
    return e
