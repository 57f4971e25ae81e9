"""Raw `tcgen05.mma` instructions: the dense, `.ws` and block-scaled shared x shared forms.

    tcgen05.mma.cta_group::G.kind::K(d, a_desc, b_desc, idesc, 4G masks, enable_input_d)
    tcgen05.mma.ws.cta_group::1.kind::K(d, a_desc, b_desc, idesc, enable_input_d, zero_col_mask)
    tcgen05.mma.cta_group::G.kind::K.block_scale.scale_vec::NX(d, a_desc, b_desc, idesc,
                                                              sfa, sfb, enable_input_d)

(operand orders: apache/tvm 5d4dc87 python/tvm/backend/cuda/ptx/table.py:7668-7780; PTX ISA 9.1
§9.7.16.10).  Every field of the model op comes from the source:

* the instruction descriptor is an encoder binding of this file (instr_ops'
  `encode_instr_descriptor`, this module's `encode_instr_descriptor_block_scaled`, rewritten by
  `runtime_instr_desc`) or a 32-bit number the source fixes (a literal, a name bound to one, an
  expression of constants), decoded field by field (idesc.py);
* `m`/`n` from the descriptor, `k` the kind's (PTX Table "kind"), checked against the encoder's K;
* the descriptors, `a`/`b`, `d`/`d_region` as instr_ops builds them for the dense form;
* block scaling: `scale_vec` from the instruction text, `sfa_id`/`sfb_id` from the descriptor,
  `sfa`/`sfb` the TMEM ADDRESSes the instruction passes (see `sf_operand`), `sfa_region` /
  `sfb_region` the scale factors the K step needs (see `sf_region`; kernel.sf-layout checks that
  the addresses and SF ids reach them);
* `.ws`: `ws: true`; the zero-column mask must be 0 (the model has no field for it).

MN-major operands (the descriptor's transpose bits) are read from the buffer's last two
dimensions taken as (K, MN) and written transposed (`a_dims` / `b_dims`; see `operand_region`).

Refused, naming why: A in TMEM (the `ts` form), `.sp`, non-zero masks, an
accumulator that is not 128 lanes of this CTA, SF buffers whose TMEM column is not in the model.
"""
from __future__ import annotations

import ast
import re

import idesc as idesc_mod
import instr_ops
import mma_tmem
import sf_forms
import tmem_ops
from corpus_notation import dotted
from kernel_env import BufferRef, ConvertError, Evaluator, Unresolved, UnresolvedError

MMA_RE = re.compile(r"tcgen05\.mma(\.ws)?\.cta_group::([12])\.kind::(\w+)"
                    r"(?:\.block_scale\.scale_vec::([124]X))?$")
# valid .scale_vec per kind (table.py:2475-2486; PTX §9.7.16.10.7.1)
SCALE_VECS = {"mxf8f6f4": ("1X",), "mxf4": ("2X",), "mxf4nvf4": ("2X", "4X")}
# block-scaled operand kinds from the encoder's dtypes (descriptors.py:117-180 _TCGEN05_MMA_RULES)
FP8_FAMILY = {"float8_e4m3fn", "float8_e5m2", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"}
SF_E8M0, SF_E4M3 = "float8_e8m0fnu", "float8_e4m3fn"


# -- encoder bindings ------------------------------------------------------------------------


def bind_encoder(call: ast.Call, env: dict, ex, line: int, store=None) -> bool:
    """`encode_instr_descriptor_block_scaled(address_of(I), ...)` binds I; `runtime_instr_desc(
    address_of(I), sf_id)` rewrites both SF ids of I.  True when `call` is one of them.  When I is
    a declared scalar (`I_local: T.uint32 = I`, a tvm_classes.TirLocal holding the binding), the
    rewrite is a store into it: `store(name, value)` (kernel_walk's assignment rules: an undecided
    condition, a loop the walk does not unroll, a branch some lanes take)."""
    d = dotted(call.func) or ""
    short = d.split(".")[-1]
    if short == "encode_instr_descriptor_block_scaled" and "tcgen05" in d and call.args:
        name = instr_ops._target_name(call.args[0])
        if name is not None:
            instr_ops.bind_instr_desc(env, name, line, lambda: _block_scaled_desc(call, Evaluator(env), line))
        return True
    if short == "runtime_instr_desc" and len(call.args) == 2:
        name = instr_ops._target_name(call.args[0])
        if name is None:
            return True
        import tvm_classes
        cur = env.get(name)
        cell = cur if isinstance(cur, tvm_classes.TirLocal) and store is not None else None
        if cell is not None:
            cur = cell.get(None)
        if isinstance(cur, Unresolved):
            return True
        try:
            if not isinstance(cur, dict) or "sfa_id" not in cur:
                raise ConvertError(f"{name} is not a block-scaled instruction descriptor of this file")
            new = dict(idesc_mod.with_sf_id(cur, Evaluator(env).value(call.args[1])), line=line)
        except UnresolvedError as e:
            new = Unresolved(name, line, f"the SF id set at line {line} is not fixed by the source", e.item)
        except (ConvertError, TypeError, ValueError) as e:
            new = Unresolved(name, line, f"runtime_instr_desc at line {line} is not modelled: {e}")
        if cell is not None:
            store(name, new)
        else:
            env[name] = new
        return True
    return False


def _block_scaled_desc(call, ev, line) -> dict:
    """encode_instr_descriptor_block_scaled's fields (descriptors.py:403-507): the SF ids start at
    0 (the encoder writes a_sf_id_ = b_sf_id_ = 0); sfa/sfb_tmem_addr are not descriptor bits."""
    vals = {}
    for k in ("d_dtype", "a_dtype", "b_dtype", "sfa_dtype", "sfb_dtype", "M", "N", "K"):
        node = instr_ops._arg(call, 99, k)
        if node is None:
            raise ConvertError(f"encode_instr_descriptor_block_scaled without {k}=")
        vals[k] = ev.value(node)
    for k, default in (("trans_a", False), ("trans_b", False), ("n_cta_groups", 1)):
        node = instr_ops._arg(call, 99, k)
        if node is None and k == "n_cta_groups":
            node = instr_ops._arg(call, 99, "n_cta_group")
        vals[k] = ev.value(node) if node is not None else default
    for k in ("neg_a", "neg_b", "is_sparse"):
        node = instr_ops._arg(call, 99, k)
        if node is not None and ev.value(node):
            raise ConvertError(f"{k}=True is not modelled")
    for k in ("M", "N", "K", "n_cta_groups"):
        if not isinstance(vals[k], int) or isinstance(vals[k], bool):
            raise ConvertError(f"{k} is not an integer")
    a, b, sfa, sfb = (str(vals[k]) for k in ("a_dtype", "b_dtype", "sfa_dtype", "sfb_dtype"))
    if a == b == "float4_e2m1fn" and sfa == sfb == SF_E8M0:
        kind = "mxf4"
    elif a == b == "float4_e2m1fn" and sfa == sfb == SF_E4M3:
        kind = "mxf4nvf4"
    elif a in FP8_FAMILY and b in FP8_FAMILY and sfa == sfb == SF_E8M0:
        kind = "mxf8f6f4"
    else:
        raise ConvertError(f"operand / SF dtypes {a}/{b} with {sfa}/{sfb} are no block-scaled kind")
    if str(vals["d_dtype"]) != "float32":
        raise ConvertError(f"d_dtype {vals['d_dtype']}: block-scaled MMAs accumulate float32")
    return {"d_dtype": "float32", "a_dtype": a, "b_dtype": b, "m": vals["M"], "n": vals["N"], "k": vals["K"],
            "a_major": "MN" if vals["trans_a"] else "K", "b_major": "MN" if vals["trans_b"] else "K",
            "cta_group": vals["n_cta_groups"], "line": line, "kind": kind, "scale_dtype": sfa,
            "sfa_id": 0, "sfb_id": 0}


def instruction_desc(node, ev, kind: str, line: int) -> dict:
    """The instruction descriptor operand: an encoder binding, else a number the source fixes."""
    v = instr_ops._register_value(ev, node)
    if isinstance(v, dict) and "a_major" in v:
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        try:
            return idesc_mod.decode(v, kind, line)
        except idesc_mod.IdescError as e:
            raise ConvertError(str(e)) from None
    raise ConvertError(f"{ast.unparse(node)!r} is neither an instruction descriptor encoded in this file nor a "
                       "number the source fixes")


# -- the instruction -------------------------------------------------------------------------


def mma_ops(call, text, env, ex) -> list[dict]:
    m = MMA_RE.match(text)
    if not m:
        raise ConvertError(f"{text!r}: not a tcgen05.mma form this extraction models (dense, .ws or "
                           ".block_scale.scale_vec::NX; not .sp or the .block16/.block32 spellings)")
    ws, cg, kind, vec = bool(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    block = kind in idesc_mod.BLOCK_KINDS
    if kind not in idesc_mod.MMA_K:
        raise ConvertError(f"{text!r}: .kind::{kind} is not a tcgen05.mma kind")
    if block != (vec is not None):
        raise ConvertError(f"{text!r}: .kind::{kind} " + ("needs .block_scale.scale_vec" if block else
                                                           "has no block scaling"))
    if block and vec not in SCALE_VECS[kind]:
        raise ConvertError(f"{text!r}: .kind::{kind} scales in {'/'.join(SCALE_VECS[kind])}, not {vec}")
    if ws and (cg != 1 or block):
        raise ConvertError(f"{text!r}: .ws exists only for cta_group::1 dense kinds")
    ev = Evaluator(env)
    args = []
    for a in call.args:  # `*_MMA_ZERO_MASKS`: a starred tuple of constants is its elements
        if isinstance(a, ast.Starred):
            args.extend(ast.Constant(v) for v in ev.value(a.value))
        else:
            args.append(a)
    want = 6 if ws else 7 if block else 4 + 4 * cg + 1
    if len(args) != want:
        raise ConvertError(f"{text}: {len(args)} operands, the form has {want}")
    line = call.lineno
    idesc = instruction_desc(args[3], ev, kind, line)
    if idesc.get("cta_group") is not None and idesc["cta_group"] != cg:
        raise ConvertError(f"the descriptor's n_cta_groups {idesc['cta_group']} is not the instruction's {cg}")
    if "kind" in idesc and idesc["kind"] != kind:
        raise ConvertError(f"the descriptor (line {idesc['line']}) is .kind::{idesc['kind']}, the instruction "
                           f".kind::{kind}")
    if "kind" not in idesc and instr_ops.MMA_KIND.get((idesc["a_dtype"], idesc["b_dtype"])) != kind:
        raise ConvertError(f"operand dtypes {idesc['a_dtype']}/{idesc['b_dtype']} are not .kind::{kind}")
    if idesc["k"] != idesc_mod.MMA_K[kind]:
        raise ConvertError(f"K {idesc['k']} is not .kind::{kind}'s {idesc_mod.MMA_K[kind]}")
    if block and "MN" in (idesc["a_major"], idesc["b_major"]):
        raise ConvertError("a block-scaled MMA with an MN-major operand is not modelled (the K step's scale "
                           "factors are read from a K-major operand's columns)")
    if ws:
        if ev.as_int(args[5]) != 0:
            raise ConvertError("a non-zero .ws zero-column mask is not modelled")
        acc_node = args[4]
    elif block:
        acc_node = args[6]
    else:
        for mk in args[4:4 + 4 * cg]:
            if ev.as_int(mk) != 0:
                raise ConvertError("a non-zero disable-output-lane mask is not modelled")
        acc_node = args[-1]
    acc = ev.value(acc_node)
    if not isinstance(acc, (bool, int)):
        raise ConvertError("enable_input_d is not a constant")
    ws_ = ex.executing_warps()
    if ws_ is None:
        raise ConvertError("the issuing thread's warp is not determined")
    mc, nc = idesc["m"] // cg, idesc["n"] // cg   # this CTA's rows of A and of B (cta_group::2 splits both)
    if mc not in (64, instr_ops.TMEM_LANES) or (mc == 64 and idesc["m"] == 32):
        raise ConvertError(f"M = {idesc['m']} with cta_group {cg}{' .ws' if ws else ''}: a {mc}-lane accumulator "
                           "is not modelled")

    def operands(e):
        a = e.value(args[1])
        d = accumulator_operand(args[0], e, env, ex, block)
        if isinstance(a, tmem_ops.TmemAddr) or (isinstance(a, int) and not isinstance(a, bool)):
            # the .ts form: A in TMEM (mma_tmem.py)
            da = mma_tmem.a_operand(args[1], e, env, ex, mc, idesc["k"], mma_tmem.datapath(idesc["m"], cg, ws),
                                    idesc["a_dtype"])
        else:
            da = instr_ops._desc(a, "A", thread=e.thread)
        out = [d, da, instr_ops._desc(e.value(args[2]), "B", thread=e.thread)]
        if block:
            out += [sf_operand(args[4], e, env, ex, "SFA"), sf_operand(args[5], e, env, ex, "SFB")]
        return tuple(out)

    out = []
    for group, vals in instr_ops.group_warps(instr_ops.per_warp(operands, env, ws_)):
        (buf, lane, col, why), da, db = vals[:3]
        a_tmem = "a_tmem" in da
        for x, what in ((da, "A"), (db, "B")):
            if x.get("init_warps") is not None and not set(group) <= set(x["init_warps"]):
                raise ConvertError(f"the {what} SmemDescriptor is initialised by warps {sorted(x['init_warps'])}, "
                                   f"not by all issuing warps {group}")
        if lane and mc == instr_ops.TMEM_LANES:
            raise ConvertError(f"accumulator lane {lane}: a {instr_ops.TMEM_LANES}-lane accumulator starts at lane 0")
        if a_tmem and idesc["a_major"] != "K":
            raise ConvertError("A in TMEM with an MN-major A (the descriptor's transpose bit) is not modelled")
        op = {"kind": "tcgen05.mma", "warps": group}
        if cg == 2:
            op["cta_group"] = 2
        op.update({"mma_kind": kind, "m": idesc["m"], "n": idesc["n"], "k": idesc["k"],
                   "d": {"lane": lane, "col": col},
                   "d_region": instr_ops.tmem_cols_region(buf, ":", col - buf_col(buf, ex), idesc["n"],
                                                          "the accumulator") if mc == instr_ops.TMEM_LANES else
                   mma_tmem.view_region(mma_tmem.accumulator_region(buf, lane, col, mc, idesc["n"], ex,
                                               mma_tmem.datapath(idesc["m"], cg, ws)), ex)})
        if a_tmem:
            op["a_tmem"] = da["a_tmem"]
        else:
            op["a_desc"] = _major(da["desc"], idesc["a_major"])
        op.update({"b_desc": _major(db["desc"], idesc["b_major"]),
                   "a": mma_tmem.view_region(da["a"], ex) if a_tmem else operand_region(da["ptr"], mc, idesc["k"], idesc["a_major"], "A"),
                   "b": operand_region(db["ptr"], nc, idesc["k"], idesc["b_major"], "B"),
                   "idesc": {k: idesc[k] for k in ("d_dtype", "a_dtype", "b_dtype", "a_major", "b_major", "m",
                                                   "n")} | {"sparse": False}})
        if idesc["a_major"] == "MN":
            op["a_dims"] = "KM"
        if idesc["b_major"] == "MN":
            op["b_dims"] = "KN"
        notes = [why] + ([da["why"]] if a_tmem else [])
        if block and a_tmem:
            raise ConvertError("a block-scaled MMA with A in TMEM is not modelled (its scale factors are matched "
                               "to a shared-memory operand's K columns)")
        if block:
            sfa, sfb = vals[3], vals[4]
            for key, sf, rows, opnd in (("sfa", sfa, mc, da), ("sfb", sfb, idesc["n"], db)):
                op[key] = {"lane": sf["lane"], "col": sf["col"]}
                if sf_forms.matches(sf["buf"].layout) or sf_forms.multi_tile(sf, SCALES[vec], opnd["ptr"], idesc["k"]):
                    op[key + "_region"], nt = sf_forms.region(sf, rows, SCALES[vec], opnd["ptr"], idesc["k"],
                                                              idesc[key + "_id"], key.upper())
                    if nt:
                        notes.append(nt)
                else:
                    op[key + "_region"] = sf_region(sf, rows, vec, opnd["ptr"], idesc["k"], key.upper())
            op["scale_vec"] = vec
            op["sfa_id"], op["sfb_id"] = idesc["sfa_id"], idesc["sfb_id"]
            notes.append(f"SF operands: {sfa['why']}; {sfb['why']}")
        if ws:
            op["ws"] = True
        op["accumulate"] = bool(acc)
        src = (f"the instruction descriptor {idesc['raw']:#010x} decoded (PTX ISA §9.7.16.4.2)" if "raw" in idesc
               and "a_dtype" in idesc and idesc.get("cta_group") is None else
               f"the instruction descriptor from line {idesc['line']}")
        notes.append(f"descriptors from encode_matrix_descriptor at lines {da.get('line', 'A in TMEM')}/"
                     f"{db['line']}, {src}")
        if cg == 2:
            notes.append("cta_group::2: a, b and d_region are this CTA's halves")
        op["notes"] = "; ".join(notes)
        out.append(op)
    return out


def _major(desc: dict, major: str) -> dict:
    return dict(desc, major=major)


def operand_region(p, rows: int, k: int, major: str, what: str) -> str:
    """The operand tile the instruction reads from the descriptor's start element p.  K-major
    (instr_ops): `rows` rows x `k` elements of the buffer's last two dimensions (MN, K).  MN-major
    (the descriptor's transpose bit): the buffer's last two dimensions are (K, MN) — the MN
    dimension is the contiguous one, last in TIRx's mma_shared_layout — so the tile is `k` rows x
    `rows` columns, written transposed (`a_dims` "KM" / `b_dims` "KN").  Either way
    kernel.mma-descriptor checks every element the descriptor addresses against the layout."""
    if major == "K":
        return instr_ops._operand_region(p, rows, k, what)
    return instr_ops._operand_region(p, k, rows, what + " (MN-major: the buffer's last two dimensions are K, MN)")


# -- TMEM operands ---------------------------------------------------------------------------


def _model_buffer(ex, name: str) -> dict | None:
    return next((b for b in ex.buffers if b["name"] == name), None)


def tmem_start(ex, name: str) -> tuple[int, int] | None:
    """(lane, column) where TMEM buffer `name` starts relative to the allocation base, when the
    model says (its `placement`, views adding their `view_of` lane/col); else None."""
    lane = col = 0
    b = _model_buffer(ex, name)
    while b is not None:
        v = b.get("view_of")
        if v is None:
            p = b.get("placement")
            if not isinstance(p, dict) or "col" not in p:
                return None
            return lane + p.get("lane", 0), col + p["col"]
        lane, col = lane + v.get("lane", 0), col + v.get("col", 0)
        b = _model_buffer(ex, v["buffer"])
    return None


def buf_col(buf: BufferRef, ex) -> int:
    s = tmem_start(ex, buf.name)
    return s[1] if s else 0


def all_starts_known(ex) -> bool:
    return all(tmem_start(ex, b["name"]) is not None for b in ex.buffers if b["scope"] == "tmem" and
               "view_of" not in b)


def accumulator_operand(node, e, env, ex, block: bool) -> tuple:
    """(buffer, lane, column, why) of the accumulator address `d`: an address built from a TMEM
    buffer (`X.allocated_addr[0]` ...) or, when every TMEM buffer's start is in the model, a raw
    number matched to the buffer it falls in (sf_operand's rules); else a raw number under
    instr_ops' rule (the kernel's one TMEM buffer) or, block-scaled, its one 32-bit TMEM buffer."""
    if _names_buffer(node, env) or all_starts_known(ex):
        t = sf_operand(node, e, env, ex, "D")
        return t["buf"], t["lane"], t["col"], t["why"]
    d = e.as_int(node)
    buf, why = accumulator_buffer(env, ex) if block else instr_ops.tmem_base_buffer(env, ex)
    return buf, d >> 16, d & 0xFFFF, why


def _names_buffer(node, env) -> bool:
    while isinstance(node, ast.Call) and (dotted(node.func) or "").split(".")[-1] in \
            ("cast", "reinterpret_cast", "get_tmem_addr") and node.args:
        node = node.args[0]
    if isinstance(node, ast.BinOp):
        node = node.left
    return _alloc_addr_of(node, env) is not None


def accumulator_buffer(env, ex) -> tuple[BufferRef, str]:
    """The accumulator of a block-scaled MMA: the kernel's only 32-bit TMEM buffer (the SF buffers
    are 8-bit), under instr_ops' raw-address rule (one pool of all 512 columns)."""
    pools = [v for v in {id(v): v for v in env.values() if getattr(v, "kind", None) == "tmem"}.values()]
    if len(pools) != 1 or pools[0].args.get("total_cols", 512) != instr_ops.TMEM_COLS:
        raise ConvertError("a raw TMEM accumulator address needs the kernel's one TMEM pool of all 512 columns")
    bufs = [b for b in ex.buffers if b["scope"] == "tmem" and "view_of" not in b and
            b["dtype"] in ("float32", "int32", "uint32")]
    if len(bufs) != 1:
        raise ConvertError(f"a raw TMEM accumulator address with {len(bufs)} 32-bit TMEM buffers: which one it "
                           "names is not derived")
    if tmem_start(ex, bufs[0]["name"]) not in (None, (0, 0)):
        raise ConvertError(f"{bufs[0]['name']} does not start at column 0")
    if tmem_start(ex, bufs[0]["name"]) is None and len([b for b in ex.buffers if b["scope"] == "tmem"]) > 1:
        raise ConvertError(f"the TMEM column where {bufs[0]['name']} starts is not in the model (the pool's "
                           "placement of its buffers is not derived)")
    ref = next(r for r in ex.emitted.values() if r.name == bufs[0]["name"])
    return ref, (f"raw TMEM accumulator address: the pool allocates all {instr_ops.TMEM_COLS} columns (the "
                 f"allocation starts at lane 0, column 0) and {ref.name}, the only 32-bit TMEM buffer, starts at "
                 "column 0")


def sf_operand(node, e, env, ex, what) -> dict:
    """A scale-factor TMEM address: `get_tmem_addr(base, row, col)` (TVM's packing: lane field
    += row, column field += col, each 16 bits; apache/tvm 5d4dc87 python/tvm/backend/cuda/codegen/
    header.py:605-618), with base `X.allocated_addr[0]` (X's start) or a number; a bare
    `X.allocated_addr[0] (+ c)` or a number.  The address is relative to the allocation base; the
    SF buffer it names is X, or for a number the one SF buffer whose start it is at or after
    (the nearest start, only when every TMEM buffer's start is in the model).  {"buf", "lane",
    "col", "off": the column relative to the buffer's start, "why"}."""
    lane_add = col_add = 0
    if isinstance(node, ast.Call) and (dotted(node.func) or "").split(".")[-1] in ("cast", "reinterpret_cast") \
            and len(node.args) == 2:
        node = node.args[0]
    if isinstance(node, ast.Call) and (dotted(node.func) or "").split(".")[-1] == "get_tmem_addr" and \
            len(node.args) == 3:
        lane_add, col_add = e.as_int(node.args[1]), e.as_int(node.args[2])
        node = node.args[0]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _alloc_addr_of(node.left, env):
        col_add += e.as_int(node.right)
        node = node.left
    x = _alloc_addr_of(node, env)
    if x is not None:
        start = tmem_start(ex, x.name)
        if start is None:
            raise ConvertError(f"{what}: the TMEM column where {x.name} starts is not in the model (the pool's "
                               "placement of its buffers is not derived), so the address "
                               f"{ast.unparse(node)} is not known")
        lane, col = start[0] + lane_add, start[1] + col_add
        return {"buf": x, "lane": lane, "col": col, "off": col - start[1], "loff": lane - start[0],
                "why": f"{what} = {x.name}.allocated_addr[0] + (lane {lane_add}, column {col_add})"}
    v = e.value(node)
    if isinstance(v, tmem_ops.TmemAddr) and v.buf is not None:
        # an address computed from X.allocated_addr[0] by integer arithmetic (TmemAddr: exact,
        # kept to 32 bits): it names X, at the lane / column it adds up to
        start = tmem_start(ex, v.buf.name)
        if start is None:
            raise ConvertError(f"{what}: the TMEM column where {v.buf.name} starts is not in the model, so the "
                               f"address {ast.unparse(node)} is not known")
        lane, col = v.lane + lane_add, v.col + col_add
        return {"buf": v.buf, "lane": lane, "col": col, "off": col - start[1], "loff": lane - start[0],
                "why": f"{what} = {ast.unparse(node)} = {v.buf.name}.allocated_addr[0] + (lane {lane - start[0]}, "
                       f"column {col - start[1]})"}
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{what}: {ast.unparse(node)!r} is neither an integer nor an address from a TMEM "
                           f"buffer's allocated_addr (got {type(v).__name__})")
    lane, col = (v >> 16) + lane_add, (v & 0xFFFF) + col_add
    tmem_ops.raw_alloc_buffer(env, ex)  # a kernel with raw addresses only: its allocation's storage
    starts = []
    for b in ex.buffers:
        # roots, and for an SF operand the scale-factor buffers (sf_tmem_layout) move_base_to
        # placed inside another buffer: the operand names scale factors, which only those hold
        if b["scope"] != "tmem" or ("view_of" in b and not (
                what in ("SFA", "SFB") and "TMEMPool.move_base_to" in b.get("notes", "") and
                (b.get("layout") or "").startswith("sf_tmem_layout("))):
            continue
        s = tmem_start(ex, b["name"])
        if s is None:
            raise ConvertError(f"{what}: the raw TMEM address (lane {lane}, column {col}) cannot be matched to a "
                               f"buffer: the TMEM column where {b['name']} starts is not in the model")
        starts.append((s[1], b["name"]))
    before = [s for s in starts if s[0] <= col]
    if not starts:
        raise ConvertError(f"{what}: the kernel declares no TMEM buffer (raw TMEM addresses only), so the raw "
                           f"address (lane {lane}, column {col}) names no model buffer")
    if not before:
        raise ConvertError(f"{what}: no TMEM buffer starts at or before column {col}")
    c0, name = max(before)
    if sum(1 for s in starts if s[0] == c0) != 1:
        raise ConvertError(f"{what}: two TMEM buffers start at column {c0}")
    ref = next(r for r in ex.emitted.values() if r.name == name)
    return {"buf": ref, "lane": lane, "col": col, "off": col - c0, "loff": lane,
            "why": f"{what} = raw address column {col}, in {name} (starting at column {c0})"}


def _alloc_addr_of(node, env) -> BufferRef | None:
    """X for `X.allocated_addr[0]` of a TMEM model buffer X."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "allocated_addr" and isinstance(node.value.value, ast.Name):
        b = env.get(node.value.value.id)
        if isinstance(b, Unresolved):
            raise UnresolvedError(b)
        if isinstance(b, BufferRef) and b.scope == "tmem":
            return b
    return None


SF_LAYOUT = re.compile(r"sf_tmem_layout\((\d+), (\d+), (\d+)\)$")
SCALES = {"1X": 1, "2X": 2, "4X": 4}


def sf_region(sf: dict, rows: int, vec: str, operand_ptr, mma_k: int, what: str) -> str:
    """The scale factors this instruction needs, as a REGION (rows, scales) of the SF buffer the
    address names.  Block scaling multiplies A[m, k] by SF[m, k / sf_vec] (PTX ISA §9.7.16.10.7;
    sf_vec = K / scales per row: 32 for 1X and 2X, 16 for 4X), with the SF buffer's scale axis
    spanning the same K tile as the operand buffer (TIRx's alloc_sf shape (rows, SF_K): the
    gemm dispatch iterates it over the K steps of that tile; tile_primitive/gemm_async/tcgen05.py
    sf_tmem_layout, apache/tvm 5d4dc87).  So the K step whose operand starts at column k0 of its
    buffer needs scales k0 / sf_vec .. + scales of every row.  That is what the region names; the
    address and SF id the instruction passes are the source's, and kernel.sf-layout checks that
    they reach exactly those cells — a wrong SF id or column is caught there.  Only the 2-D
    `sf_tmem_layout(R, SF_K, sf_per_mma)` form whose SF_K sf_vec is the operand buffer's K extent
    is modelled (not sf_reuse / pipe_depth)."""
    b = sf["buf"]
    m = SF_LAYOUT.match(b.layout or "")
    if not m or len(b.shape) != 2:
        raise ConvertError(f"{what}: {b.name}'s layout {b.layout} is not a 2-D sf_tmem_layout(R, SF_K, "
                           "sf_per_mma) (sf_reuse / pipe_depth forms are not modelled)")
    R, sf_k, spm = (int(x) for x in m.groups())
    n = SCALES[vec]
    if (R, sf_k) != tuple(b.shape):
        raise ConvertError(f"{what}: {b.name} {tuple(b.shape)} with layout {b.layout}")
    if rows != R:
        raise ConvertError(f"{what}: the instruction reads {rows} rows of scale factors, {b.name} holds {R}")
    if spm % n or spm > 4:  # a group of spm holds spm / n K steps, told apart by the SF_ID (sf_forms.region)
        raise ConvertError(f"{what}: scale_vec::{vec} reads {n} scale factors per row, {b.name} groups {spm}")
    sf_vec = mma_k // n
    kext, k0 = operand_ptr.buf.shape[-1], operand_ptr.coords[-1]
    if sf_k * sf_vec != kext:
        raise ConvertError(f"{what}: {b.name} holds {sf_k} scale factors per row ({sf_k * sf_vec} elements of K), "
                           f"the operand buffer {operand_ptr.buf.name} {kext}: which scale factors a K step needs "
                           "is not derived")
    if k0 % mma_k:
        raise ConvertError(f"{what}: the operand starts at K column {k0}, not on a K step of {mma_k}")
    lo = k0 // sf_vec
    c = ":" if (lo, lo + n) == (0, sf_k) else f"{lo}:{lo + n}"
    return f"{b.name}[:, {c}]"
