"""The launch of a compiled kernel in its own file's host code, followed statically: which call
launches it, the values its arguments take at the default configuration (host_torch.py's model
of the tensors and tensor maps the host builds), and the kernel parameters they bind.

A *launch* is a call `E(args)` in a top-level function of the file whose callee is a compiled
executable, named as the kernels' host code names them: a name or attribute whose last part is
one of LAUNCH_NAMES (`executable(...)`, `executable.mod(...)`, `mod(...)`, `kernel(...)`,
`compiled(...)`), not a function of the file and not the builder namespace, whose positional
arguments (a `*helper(...)` expanded) are exactly as many as the kernel's parameters.  The first
such call in the file whose arguments can be counted is the one followed (its function and line
are recorded in `extraction.instance.launches`).  Its arguments are evaluated where it stands:
the function's parameters from its call site in the file (callers of callers, extract.caller_env),
then its straight-line code before the call.  Parameter i of the kernel takes argument i:

  * a runtime scalar parameter (`seq_len: T.uint32`, `a_M: K.i32`) takes an integer argument;
  * a tensor-map parameter (`K.TensorMap`) takes a map the host encoded
    (`tvm.get_global_func("runtime.cuTensorMapEncodeTiled")(place, ...)`): its fields become the
    model's `tensor_map`, and the tensor its base pointer points into a global buffer of the
    model (named after the variable that created the tensor, its shape the map's dims reversed,
    its strides the map's), after checking that the map's bytes lie inside the tensor's storage
    and that its strides are whole elements (and multiples of 16 bytes, as the CUDA driver
    requires of globalStrides);
  * any other argument is not bound here (the parameter keeps its previous treatment).
An argument the source does not fix leaves its parameter unresolved with that reason.
"""

import ast
import math

import host_torch
from corpus_notation import ConvertError, dotted
from kernel_env import (Evaluator, FuncValue, Unresolved, UnresolvedError, bind_arguments, eval_or_unresolved,
                        run_straight, _Return, runtime_scalar_reason, strip_builder)

LAUNCH_NAMES = {"executable", "mod", "kernel", "compiled", "exe", "runtime_mod", "kernel_fn", "compiled_kernel",
                "tirx_kernel", "lib"}
LAUNCH_SUFFIXES = ("_executable", "_ex", "_exe", "_kernel", "_mod")  # main_ex(...), combine_kernel(...)
CTX: dict = {}  # tree, env, overrides, file: set by extract.extract for each file
CACHE: dict = {}  # id(kernel def) -> {param: value} | None
RECORDS: list = []
TENSORS: dict = {}  # handle parameter -> (HostTensor, launching function, line) at the launch followed


def set_context(tree, env, overrides, file):
    CTX.clear()
    CTX.update(tree=tree, env=env, overrides=overrides, file=file)
    CACHE.clear()
    RECORDS.clear()
    TENSORS.clear()
    host_torch.register_tree(tree, file)


def _params(fn):
    a = fn.args
    return a.posonlyargs + a.args


def _callee_ok(call: ast.Call, env: dict) -> bool:
    d = dotted(call.func)
    if d is None:
        return False
    parts = d.split(".")
    if parts[0] in ("T", "Tx", "K", "Kern", "tir", "tirx", "tvm", "torch", "self"):
        return False
    if isinstance(env.get(parts[0]), FuncValue) and len(parts) == 1:
        return False
    return parts[-1] in LAUNCH_NAMES or parts[-1].endswith(LAUNCH_SUFFIXES)


def launch_sites(tree, env, nparams: int):
    """(function, index of its top-level statement holding the call, call) for each candidate."""
    out = []
    for st in tree.body:
        if not isinstance(st, ast.FunctionDef):
            continue
        for i, sub in enumerate(st.body):
            for n in ast.walk(sub):
                if not isinstance(n, ast.Call) or n.keywords or not _callee_ok(n, env):
                    continue
                starred = any(isinstance(a, ast.Starred) for a in n.args)
                if not starred and len(n.args) != nparams:
                    continue
                out.append((st, i, n))
    return out


def _lazy_star(ev: Evaluator, node) -> list:
    """`*helper(...)`'s elements, each its value or its Unresolved: a helper whose last statement
    returns a tuple display is run up to that return and each element evaluated on its own (an
    undetermined element fails only its own parameter)."""
    try:
        v = ev.value(node)
        if isinstance(v, (tuple, list)):
            return list(v)
        raise ConvertError(f"*{ast.unparse(node)}: not a sequence")
    except ConvertError:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and
                isinstance(ev.env.get(node.func.id), FuncValue)):
            raise
    import tuple_return  # the helper run to its final display, element by element (tuple_return.py)
    try:
        fv, ret = tuple_return.display_of(ev, node)
    except tuple_return.NotThisForm as e:
        raise ConvertError(str(e)) from None
    try:
        return tuple_return.elements(ev, node, fv, ret)
    except tuple_return.Whole:
        raise ConvertError(f"*{ast.unparse(node)}: its helper returns before its last statement") from None


def _is_constexpr(p: ast.arg) -> bool:
    d = dotted(p.annotation) if isinstance(p.annotation, (ast.Name, ast.Attribute)) else None
    if isinstance(p.annotation, ast.Subscript):
        d = dotted(p.annotation.value)
    return bool(d) and d.split(".")[-1] == "constexpr"


def abi_params(fn, tree, env, overrides, cfg, cfg_name) -> list:
    """The kernel's runtime parameters in order, as its launch passes them: its positional
    parameters less `T.constexpr` ones and less the `T.Optional` ones that the file's
    `kernel.specialize(name=None, ...)` removes from the ABI (apache/tvm python/tvm/tirx/script/
    parser/entry.py:274-330: constexprs are bound, an optional given None is removed; the
    specialize call's keywords, `**{...}` expanded, evaluated where it stands)."""
    import extract
    params = [p for p in _params(fn) if not _is_constexpr(p)]
    site = extract.find_call_site(tree, fn.name)
    if site is None or not (isinstance(site[2].func, ast.Attribute) and site[2].func.attr == "specialize"):
        return params
    caller, idx, call = site
    try:
        cenv = extract.caller_env(caller, idx, env, overrides, cfg, cfg_name, tree)
        _, kwargs = Evaluator(cenv).call_args(call, lazy=True)
    except (ConvertError, RecursionError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
            AttributeError):
        return params
    removed = {k for k, v in kwargs.items() if v is None}
    return [p for p in params if p.arg not in removed]


def launch_args(fn):
    """{param name: value or Unresolved} at the first launch of the kernel `fn` in the file, or
    None when the file has no launch the model follows."""
    key = id(fn)
    if key in CACHE:
        return CACHE[key]
    CACHE[key] = None
    if not CTX:
        return None
    import extract  # caller_env: the environment at a call (parameters, callers of callers, code before)
    tree, env, overrides = CTX["tree"], CTX["env"], CTX["overrides"]
    cfg, cfg_name = extract.default_config(env)
    params = abi_params(fn, tree, env, overrides, cfg, cfg_name)
    for caller, idx, call in launch_sites(tree, env, len(params)):
        try:
            cenv = extract.caller_env(caller, idx, env, overrides, cfg, cfg_name, tree)
            ev = Evaluator(cenv)
            vals = []
            for a in call.args:
                if isinstance(a, ast.Starred):
                    vals.extend(_lazy_star(ev, a.value))
                else:
                    vals.append(eval_or_unresolved(ev, a, ast.unparse(a)[:60], call.lineno))
        except (ConvertError, RecursionError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
                AttributeError) as e:
            # (a launch whose arguments Python itself could not evaluate is not followed, never a crash)
            RECORDS.append({"function": caller.name, "line": call.lineno, "call": ast.unparse(call)[:120],
                            "followed": False, "why": str(e)[:200]})
            continue
        if len(vals) != len(params):
            RECORDS.append({"function": caller.name, "line": call.lineno, "call": ast.unparse(call)[:120],
                            "followed": False, "why": f"{len(vals)} arguments for {len(params)} parameters"})
            continue
        out = {p.arg: (v, caller.name, call.lineno) for p, v in zip(params, vals)}
        RECORDS.append({"function": caller.name, "line": call.lineno, "call": ast.unparse(call)[:120],
                        "kernel": fn.name, "followed": True})
        from kernel_env import note_convention
        note_convention(f"the launch of {fn.name} followed: {caller.name} at line {call.lineno}, "
                        f"{ast.unparse(call)[:100]}", call.lineno, len(vals))
        CACHE[key] = out
        return out
    return None


def param_value(fn, p: ast.arg, ex):
    """The value the launch gives kernel parameter `p` (see the module comment), or None to keep
    the parameter's previous treatment."""
    got = launch_args(fn)
    if got is None or p.arg in ex.overrides or p.arg not in got:
        return None  # (a parameter the specialization removed from the ABI keeps its treatment)
    v, caller, line = got[p.arg]
    where = f"the launch in {caller} at line {line}"
    reason = runtime_scalar_reason(p, fn.name)
    is_map = reason is not None and "tensor-map" in reason
    if isinstance(v, host_torch.HostTensor):
        TENSORS[p.arg] = (v, caller, line)  # checked against the handle's match_buffer (check_match)
        return None
    if isinstance(v, Unresolved):
        if reason is None:
            return None
        return Unresolved(p.arg, line, f"{reason}; at {where} its argument is not determined", v)
    if is_map:
        hm = v
        if isinstance(hm, host_torch.HostSlot):
            return Unresolved(p.arg, line, f"{reason}; at {where} it is {hm.obj.cls.name}.{hm.attr_name}, which no "
                              "encoder call the extraction followed filled")
        if not isinstance(hm, host_torch.HostMap):
            return Unresolved(p.arg, line, f"{reason}; at {where} its argument is {type(hm).__name__}, not a "
                              "tensor map the host encoded")
        try:
            tm = to_tensor_map(hm, p.arg, ex)
        except (ConvertError, ArithmeticError, TypeError, ValueError) as e:
            return Unresolved(p.arg, hm.line, f"the tensor map passed as {p.arg} at {where} (encoded at line "
                              f"{hm.line}): {e}")
        _record(ex, p.arg, f"tensor map encoded at line {hm.line} over {tm.buf.name}", line, caller)
        return tm
    if reason is not None and isinstance(v, int) and not isinstance(v, bool):
        _record(ex, p.arg, v, line, caller)
        return int(v)
    if reason is not None:
        return Unresolved(p.arg, line, f"{reason}; at {where} its argument is {type(v).__name__}, not an integer")
    return None


def _record(ex, name, value, line, caller):
    ex.config[name] = {"value": value, "origin": f"launch in {caller} at line {line}"}


def to_tensor_map(hm: "host_torch.HostMap", name: str, ex):
    """An instr_ops.TensorMap over a global model buffer for a host-encoded map."""
    import allocators
    import instr_ops
    t = hm.ptr.tensor
    esz = host_torch.ITEMSIZE.get(hm.dtype)
    if esz is None:
        raise ConvertError(f"the map's dtype {hm.dtype} is not modelled")
    if host_torch.ITEMSIZE[t.dtype] != esz:
        raise ConvertError(f"the map's dtype {hm.dtype} ({esz} B) is not the size of its tensor's elements "
                           f"({t.dtype})")
    if hm.interleave != 0:
        raise ConvertError(f"interleave {hm.interleave} is not modelled")
    if hm.swizzle not in instr_ops.TMAP_SWIZZLE:
        raise ConvertError(f"swizzle kind {hm.swizzle} is not one the model format has")
    if hm.oob not in instr_ops.TMAP_OOB:
        raise ConvertError(f"OOB fill kind {hm.oob}")
    for s in hm.strides:
        if s % 16 or s <= 0:
            raise ConvertError(f"global stride {s} B is not a positive multiple of 16 (cuTensorMapEncodeTiled "
                               "requires it: the encode fails)")
        if s % esz:
            raise ConvertError(f"global stride {s} B is not a whole number of {esz}-byte elements")
    if any(d <= 0 for d in hm.dims) or any(not 0 < b <= 256 for b in hm.box):
        raise ConvertError(f"dims {hm.dims} / box {hm.box} out of the encoder's range (box 1..256)")
    # the bytes the map can address must lie in the tensor's storage from its data pointer
    span = hm.dims[0] * esz + sum((d - 1) * s for d, s in zip(hm.dims[1:], hm.strides))
    have = t.storage.span_bytes() - hm.ptr.byte_offset
    if span > have:
        raise ConvertError(f"the map addresses {span} bytes from its base, but the tensor {t.name or '?'} "
                           f"(created at line {t.line}) holds {have} from there: a map past its tensor "
                           "(a finding in the source)")
    shape = tuple(reversed(hm.dims))
    el_strides = [1] + [s // esz for s in hm.strides]
    lay_strides = tuple(reversed(el_strides))
    if lay_strides == tuple(_contig(shape)):
        layout = allocators.row_major(shape)
    else:
        layout = "S[(" + ",".join(map(str, shape)) + "):(" + ",".join(map(str, lay_strides)) + ")]"
        if len(shape) == 1:
            layout = f"S[{shape[0]}:{lay_strides[0]}]"
    bname = t.name or f"{name}_tensor"
    node = ast.Name(id=bname)
    before = len(ex.buffers)
    ref = allocators._emit(ex, bname, "global", shape, hm.dtype, layout, t.line or hm.line, node)
    ref.start_bytes = 0
    if len(ex.buffers) > before:
        ex.buffers[-1]["origin"] = (f"{ex.current_file()}:{t.line or hm.line} {t.name or '?'}: a host tensor "
                                    f"{list(t.shape)} {t.dtype}, the base of the tensor map {name} encoded at "
                                    f"line {hm.line} (dims {list(hm.dims)}, strides {list(hm.strides)} B)")
    tm = instr_ops.TensorMap(name, hm.line, hm.dtype, ref, hm.dims, hm.strides, hm.box, hm.elem, hm.interleave,
                             instr_ops.TMAP_SWIZZLE[hm.swizzle], instr_ops.TMAP_OOB[hm.oob], hm.l2)
    return tm


def _contig(shape):
    out, acc = [], 1
    for e in reversed(shape):
        out.append(acc)
        acc *= e
    return tuple(reversed(out))


def check_match(handle, dims, dtype: str) -> str | None:
    """For `T.match_buffer(HANDLE, shape, dtype)`: None when the launch followed passes no tensor
    for HANDLE or one that TVM's argument binding accepts (the same dtype, the same shape,
    compact strides: a match_buffer without strides= asserts a compact tensor); else the finding,
    naming both sides.  (TVM's generated entry checks these at the call: a mismatch is an error
    the launch raises, a finding in the source at that configuration.)"""
    if not isinstance(handle, ast.Name) or handle.id not in TENSORS:
        return None
    t, caller, line = TENSORS[handle.id]
    where = f"the launch in {caller} at line {line} passes {t.name or 'a tensor'} (line {t.line})"
    if t.dtype != dtype:
        return f"finding: {where} of dtype {t.dtype}, but the match_buffer declares {dtype}"
    if tuple(t.shape) != tuple(dims):
        return f"finding: {where} of shape {list(t.shape)}, but the match_buffer declares {list(dims)}"
    if not t.is_contiguous():
        return f"finding: {where} with strides {list(t.strides)}, but a match_buffer without strides= is compact"
    return None


def records() -> list:
    return list(RECORDS)
