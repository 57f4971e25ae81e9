"""Walk a TIRx kernel file's statements in program order, collecting buffers and ops.

The walker executes the kernel function abstractly: assignments bind names (kernel_env.py),
an `if` whose test the source decides takes one branch, an undecided test walks both
branches (what is allocated or issued under it records the condition), a `for` binds its
loop variable to an Unresolved (its value differs per iteration), `with` blocks are walked,
nested `def`s are walked where they are called with the call's arguments (one level of
helper calls; a helper never called is walked once with its parameters unresolved).

Every item records the line it comes from.  Recognised forms: allocators.py (buffers) and
op_sites.py (ops).
"""
from __future__ import annotations

import ast
import copy

import allocators
import branch_local
import builder_ns
import flow_pool
import flow_state
from lazy_module import LazyModule  # noqa: E402
host_launch = LazyModule("host_launch")
kern_grid = LazyModule("kern_grid")
role_order = LazyModule("role_order")
role_sched = LazyModule("role_sched")
barrier_phase = LazyModule("barrier_phase")
named_bar = LazyModule("named_bar")
import fragments
import instr_ops
import kern_forms
import loop_first
import loop_jumps
import tmem_ops
import op_sites
import range_data
import raw_mbar
import raw_phase
import reg_cell
import runtime_data
import scoping
import smem_placement
import tile_cells
import tile_class
import tir_buffers
import tvm_classes
import warps as warps_mod
from corpus_notation import dotted
from kernel_env import (SETTINGS, ConvertError, Evaluator, FuncValue, Imported, LayoutExpr, MAX_CALL_DEPTH,
                        ModuleValue, Pool, Scheduler, Unresolved, note_convention, UnresolvedError, assign_target, bind_imports,
                        eval_or_unresolved, names_of, runtime_scalar_reason)

LAYOUT_CALLS = {"TileLayout", "ComposeLayout", "SwizzleLayout", "mma_shared_layout", "tma_shared_layout",
                "tcgen05_atom_layout", "wg_local_layout", "sf_tmem_layout", "sf_smem_layout",
                "tmem_datapath_layout", "default_tmem_layout", "tmem_mma_operand_layout", "from_iters",
                "tile", "unpack", "broadcast"}


def is_layout_expr(node) -> bool:
    import builder_ns
    node = builder_ns.unwrap_meta_var(node)  # T.meta_var(T.TileLayout(...)) is the layout
    if isinstance(node, ast.Subscript):
        from corpus_notation import dotted, strip_builder
        return strip_builder(dotted(node.value) or "") in ("S", "R")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_layout_expr(node.left) or is_layout_expr(node.right)
    if isinstance(node, ast.Call):
        f = node.func
        short = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        return short in LAYOUT_CALLS
    return False


def _depends(cond) -> str:
    """", which depends on NAME (line L)": the value an undecided condition comes down to, followed
    through the stores made under earlier undecided conditions (TirLocal.lose keeps those as
    `under`); empty when that is the condition itself."""
    u, seen = cond, 0
    while isinstance(u, Unresolved) and seen < 64:
        nxt = u.cause if u.cause is not None else getattr(u, "under", None)
        if nxt is None:
            break
        u, seen = nxt, seen + 1
    if u is cond or not isinstance(u, Unresolved) or u.name in ("condition", None):
        return ""
    return f", which depends on {u.name}" + (f" (line {u.line})" if u.line else "")


class Extraction:
    """What one walk found: buffers and ops (model dicts), and what blocked others."""

    def __init__(self, file_label: str, overrides: dict):
        self.file_label = file_label
        self.overrides = overrides        # --param NAME=VALUE
        self.buffers: list[dict] = []
        self.ops: list[dict] = []
        self.blocked: list[dict] = []     # {"item", "line", "unresolved": {name, line, reason}, "chain"}
        self.names: dict[str, int] = {}
        self.config: dict[str, dict] = {}  # kernel parameters bound: name -> {value, origin}
        self.num_warps: int | None = None  # the CTA's warps, from its thread-index declarations
        self.warps: frozenset | None = None  # warps executing the statement walked (None: all)
        self.warps_line: int | None = None  # the branch that selected them
        self.emitted: dict = {}           # allocation key -> BufferRef (allocators._emit)
        self.files: list[str] = []        # files of the functions being walked (innermost last)
        self.func_nodes: list = []        # their FunctionDef nodes (innermost last; thread_copy.static)
        self.blocked_keys: set = set()    # (item, line, name, reason) already listed
        self.unrolled = 0                 # loop iterations walked one by one (MAX_UNROLLED_TOTAL)
        self.runtime_loops = 0            # depth of loops the walk does not unroll
        self.warp_branches = 0            # depth of branches on thread indices
        self.reg_arrays: dict = {}        # (file, line, name) -> fragments.RegArray
        self.elect_depth = 0              # enclosing lane branches on elect_sync() (raw_phase.lane_words)
        self.lane_branches = 0            # enclosing branches that only some lanes of a warp take
        self.lane_changes: list = []      # per such branch: {id: (state object, line)} changed inside it
        self.sampled_loops: list = []     # T.serial loops walked for their first iterations only
        self.state_log: list = []         # per sampled loop being walked: the state objects it changed
        self.returned_warps: frozenset = frozenset()  # warps that left the function walked (`return` in a warp branch)
        self.lane_sets: dict | None = None  # warp -> lanes executing the statement, inside lane branches (warps.branch_lanes)
        barrier_phase.reset()             # mbarrier phases of this walk (barrier_phase.py)
        raw_mbar.reset()                  # raw mbarrier waits listed (raw_mbar.py)
        raw_phase.reset()                 # raw mbarrier words' phases (raw_phase.py)
        reg_cell.reset(self)              # one-element register buffers used as scalars (reg_cell.py)
        self.raw_conds: list = []         # undecided conditions helper calls are under (raw_phase.enclosing)
        named_bar.reset()                 # named barriers (named_bar.py)
        role_sched.reset()

    def executing_warps(self) -> list[int] | None:
        """The CTA warps that execute the current statement, or None when not determined."""
        if self.warps is not None:
            return sorted(self.warps)
        if self.num_warps is not None:
            return list(range(self.num_warps))
        return None

    def unique(self, base: str) -> str:
        # a base that is itself an issued name ("x/3", a buffer derived from x's third allocation)
        # must not collide with the next "x/N": every name issued once (a model needs unique names)
        issued = self.__dict__.setdefault("_issued", set())
        n = self.names.get(base, 0) + 1
        name = base if n == 1 else f"{base}/{n}"
        while name in issued:
            n += 1
            name = f"{base}/{n}"
        self.names[base] = n
        issued.add(name)
        return name

    def block(self, item: str, line: int, u: Unresolved | None, reason: str | None = None) -> None:
        entry = {"item": item, "line": line}
        if u is not None:
            r = u.root()
            entry["name"] = r.name
            if r.line:
                entry["defined_at"] = r.line
            entry["reason"] = r.reason
            chain = u.chain()
            if len(chain) > 1:
                entry["via"] = chain[:-1]
        else:
            entry["reason"] = reason or "not extracted"
        if self.current_file() != self.file_label:
            entry["item"] += f" in {self.current_file()}"
        scoping.check_use(u, line, self.current_file())  # a binding TVMScript dropped: the kernel's error
        if u is not None:
            range_data.blocked(u.root(), entry, line)  # a loop variable whose start is runtime data (range_data.py)
        key = (entry["item"], entry["line"], entry.get("name"), entry["reason"])
        if key in self.blocked_keys:  # one item met again in an unrolled loop is listed once
            return
        self.blocked_keys.add(key)
        self.blocked.append(entry)

    def current_file(self) -> str:
        """The file whose lines the walk is in: the kernel file, or a sibling module whose helper
        the kernel calls (kernel_env.sibling_module)."""
        return self.files[-1] if self.files else self.file_label

    def origin(self, line: int, node) -> str:
        text = ast.unparse(node)
        if len(text) > 200:
            text = text[:197] + "..."
        return f"{self.current_file()}:{line} {text}"


_NO_RETURN = object()


class Walker:
    def __init__(self, ex: Extraction, depth: int = 0):
        self.ex = ex
        self.depth = depth
        self.tir = False  # the function walked is read by TVMScript's parser (scoping.py)
        self.returned = _NO_RETURN  # the value of the function's top-level `return`
        self.return_name = None  # the caller's target name for an allocation returned
        self.endless = None  # after a while loop that never ends: the condition later code runs under (loop_jumps.py)

    def framed(self, env, line, what, walk):
        """Run `walk()` in a TVMScript variable frame (scoping.py): the names it binds are popped
        at its end.  Python-executed functions have no such frames."""
        if not self.tir:
            walk()
            return
        before = dict(env)
        try:
            walk()
        finally:
            scoping.close_frame(env, before, line, what)

    # -- functions ---------------------------------------------------------------------------

    def walk_function(self, fv: FuncValue, env: dict, called: set) -> None:
        """Walk a function body in `env` (parameters already bound)."""
        local_defs: dict[str, FuncValue] = {}
        self.tir = scoping.tvmscript_mode(fv.node, getattr(fv, "tir_parent", False))
        if self.ex.num_warps is None:  # @K.kernel(warps=W) on the function itself
            self.ex.num_warps = decorator_warps(fv.node, env)
        self.ex.files.append(fv.file or self.ex.current_file())
        self.ex.func_nodes.append((self.ex.current_file(), fv.node))  # the functions walked (thread_copy.static)
        rank = kern_grid.grid_rank(fv.node, env)  # K.cta_id() of a @K.kernel(grid=...) (kern_grid.py)
        if rank is not None:
            kern_grid.GRID_RANKS.append(rank)
        saved = (self.ex.returned_warps, self.ex.warps)
        self.ex.returned_warps = frozenset()  # a return leaves this function only
        try:
            self._walk_function(fv, env, local_defs, called)
        finally:
            self.ex.files.pop()
            self.ex.func_nodes.pop()
            if rank is not None:
                kern_grid.GRID_RANKS.pop()
            if self.ex.returned_warps:
                self.ex.warps = saved[1]
                tvm_classes.WALK["warps"] = saved[1]
            self.ex.returned_warps = saved[0]

    def _walk_function(self, fv: FuncValue, env: dict, local_defs: dict, called: set) -> None:
        body = fv.node.body
        end = next((i for i, st in enumerate(body) if isinstance(st, ast.Return)), len(body))
        self.walk_body(body[:end], env, local_defs, called, None)
        if end < len(body):  # the function ends at its first return: what it gives its caller
            self.returned = self.return_value(body[end], env)
        launch_warps = kern_launch_warps(fv.node, env)
        # Nested defs that no statement called are walked on their own, callers first: a helper
        # that another nested def calls (`load_stage(...)` in the kernel) is walked there, with
        # that call's arguments, not before it with its parameters unbound.
        called_by_defs = {n.func.id for f in local_defs.values() for n in ast.walk(f.node)
                          if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id != f.node.name}
        order = [n for n in local_defs if n not in called_by_defs] + [n for n in local_defs if n in called_by_defs]
        escaping = _escaping_defs(fv.node, local_defs)
        for name in order:
            f = local_defs[name]
            if name in launch_warps and self.ex.num_warps is None:
                self.ex.num_warps = launch_warps[name]
            if name not in called and flow_state.called_by_name(fv.node, f.node):
                continue  # its calls are all in code this configuration does not run (flow_state.py)
            if name not in called and scoping.expanded_at_calls(f.node) and name not in escaping:
                continue  # an @T.inline / @T.macro body the walk never called: TVM emits nothing for it
            if name not in called and self.depth >= MAX_WALK_DEPTH and contains_interesting(f.node):
                self.ex.block(f"helper {name} at line {f.node.lineno}", f.node.lineno, None,
                              f"nested deeper than the depth limit of {MAX_WALK_DEPTH}; its buffers and ops are not "
                              "extracted")
            elif name not in called and self.depth < MAX_WALK_DEPTH:
                sub = dict(env)
                if f.closure is not env:  # defined inside a frame since closed: it sees that frame's names
                    sub.update(f.closure)
                for p in all_params(f.node):
                    launched = host_launch.param_value(f.node, p, self.ex)  # the file's launch (host_launch.py)
                    if p.arg in self.ex.overrides:
                        sub[p.arg] = self.ex.overrides[p.arg]
                    elif launched is not None:
                        sub[p.arg] = launched
                    else:
                        sub[p.arg] = Unresolved(p.arg, f.node.lineno, runtime_scalar_reason(p, name) or
                                                f"parameter of helper {name}, which is not called with "
                                                "arguments in the file")
                bind_buffer_params(f.node, sub, self.ex, Evaluator(sub))
                called.add(name)
                Walker(self.ex, self.depth + 1).walk_function(f, sub, called)

    def walk_body(self, body: list, env: dict, defs: dict, called: set, cond: Unresolved | None = None) -> None:
        bodies = self.__dict__.setdefault("bodies", [])
        bodies.append(body)  # the statement list being walked (branch_local.py)
        try:
            self._walk_body(body, env, defs, called, cond)
        finally:
            bodies.pop()

    def _walk_body(self, body: list, env: dict, defs: dict, called: set, cond: Unresolved | None = None) -> None:
        i = 0
        while i < len(body):
            run = role_order.role_run(body, i, env, kern_forms.Role)  # sibling kern roles (role_order.py)
            if len(run) > 1:
                for st in role_order.order(run, body, env):
                    self.walk_stmt(st, env, defs, called, loop_jumps.effective_cond(self.ex, self, cond))
                i += len(run)
                continue
            st = body[i]
            run, used, between = self.warp_if_run(body, i, env)  # consecutive ifs taken by disjoint warps
            for d in between:  # function definitions among them bind their names first (they run nothing)
                self.walk_stmt(d, env, defs, called, loop_jumps.effective_cond(self.ex, self, cond))
            if run and role_sched.fork(self.ex, self, env, [
                    (s.body, lambda s=s: self.walk_stmt(s, env, defs, called, loop_jumps.effective_cond(self.ex, self,
                                                                                                      cond)))
                    for s in run]):
                i += used
                continue
            self.walk_stmt(st, env, defs, called, loop_jumps.effective_cond(self.ex, self, cond))
            if isinstance(st, (ast.Break, ast.Continue)) or getattr(st, "_endless", False):
                return  # what follows in this block never runs (loop_jumps.py)
            i += 1

    def warp_if_run(self, body: list, i: int, env: dict) -> tuple:
        """body[i], body[i+1], ...: consecutive `if` statements without else whose tests depend only on
        thread indices and are taken by pairwise disjoint warps (flash_attention4's `if warp_id == 1:`,
        `if warp_id == 2:`, `if warp_id == 0:` inside its wg 3 branch): each warp runs only its own
        body, so they are sibling warp roles (role_sched.py) -- when at least two of them and one
        contains a barrier wait.  A function definition between two of them (sparse_atten_fwd's
        `@T.inline def softmax_warpgroup` between the MMA warp's branch and the softmax warpgroups')
        runs nothing and does not end the run, unless it rebinds a name already bound (an earlier
        definition an `if` before it may call, directly or through a helper) or an `if` before it
        reads its name.  Returns (the
        ifs, the number of statements of body they span, the definitions among them); ([], 0, [])
        when there is no such run."""
        ex = self.ex
        cands, defs, read = [], [], set()
        for st in body[i:]:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and cands and st.name not in read \
                    and st.name not in env:  # a new name only: a redefinition may be called through a helper
                defs.append(st)
                continue
            if not isinstance(st, ast.If):
                break
            cands.append(st)
            read |= {n.id for n in ast.walk(st) if isinstance(n, ast.Name)}
        if len(cands) < 2 or ex.num_warps is None or not role_sched.STATE["enabled"] or \
                not role_sched._has_wait([c.body for c in cands], env):
            return [], 0, []
        current = ex.warps if ex.warps is not None else frozenset(range(ex.num_warps))
        run, seen = [], set()
        for st in cands:
            act = self.active_warps(st, env, current)
            if not act or act & seen:
                break
            seen |= act
            run.append(st)
        if len(run) < 2 or not role_sched._has_wait([s.body for s in run], env):
            return [], 0, []
        used = body.index(run[-1], i) - i + 1
        return run, used, [d for d in defs if body.index(d, i) - i < used]

    def active_warps(self, st, env: dict, current) -> set | None:
        """The warps that run some statement of the `if` chain `st` (its body's warps, and those of an
        `elif` chain's arms, or every warp not taking the body when the else is other code); None
        when a test is not one on thread indices only."""
        if not isinstance(eval_or_unresolved(Evaluator(env), st.test, "condition", st.lineno), Unresolved):
            return None  # a test the source decides: not a role branch
        got = warps_mod.branch_warps(st.test, env, current, Evaluator)
        if got is None:
            return None
        taken, not_taken, _lane = got
        act = set(taken) if st.body else set()
        if st.orelse and not_taken:
            if len(st.orelse) == 1 and isinstance(st.orelse[0], ast.If):
                sub = self.active_warps(st.orelse[0], env, not_taken)
                if sub is None:
                    return None
                act |= sub
            else:
                act |= set(not_taken)
        return act

    def bind(self, name_targets, value, env, line, cond=None):
        ex = self.ex
        for t in name_targets:
            cell = env.get(t.id) if isinstance(t, ast.Name) else tile_cells.cell_of(t, env)  # recv.X: tile_cells.py
            if cell is None and isinstance(t, ast.Subscript):
                cell = reg_cell.cell_for_store(t, env, ex, line)  # X[0] of a (1,) register buffer (reg_cell.py)
            if isinstance(cell, tvm_classes.TirLocal) and \
                    not isinstance(value, (_ke.BufferRef, _ke.Pool, LayoutExpr, fragments.RegArray)):
                # (a buffer, pool, layout or register array is no TIR scalar's value: a printed
                # kernel reuses the name in another scope, and the assignment binds it anew)
                if cond is not None:
                    # (the root of the condition named: what a reader must fix to decide it)
                    cell.lose(line, f"assigned under the undecided condition of line {cond.line}" + _depends(cond),
                              cond if isinstance(cond, Unresolved) else None)
                elif ex.runtime_loops and not flow_state.runtime_store_exact(ex, cell, value):
                    cell.lose(line, "assigned in a loop the walk does not unroll")
                else:
                    cell.set(value, ex.warps, line)  # holds for the warps running this line
                flow_state.note_change(ex, cell, "store")
                for log in ex.state_log:
                    log.add(cell)
                self.lane_change(cell, line)
                continue
            try:
                assign_target(t, value, env)
            except ConvertError as e:
                for n in names_of(t):
                    env[n] = Unresolved(n, line, str(e))

    def walk_stmt(self, st, env, defs, called, cond):
        runtime_data.STACK.append((self.ex.current_file(), st))  # where a helper's register is made
        try:
            return self._walk_stmt_at(st, env, defs, called, cond)
        finally:
            runtime_data.STACK.pop()

    def _walk_stmt_at(self, st, env, defs, called, cond):
        flow_state.CURRENT["stmt"] = st
        flow_pool.before_statement(st, env)  # SMEMPool offsets (flow_pool.py)
        if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Expr)):
            barrier_phase.address_uses(st, env, st.lineno)  # a barrier address given to raw PTX (barrier_phase.py)
            raw_phase.address_uses(st, env, st.lineno)  # a raw mbarrier word's address used otherwise (raw_phase.py)
        if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)):
            reg_cell.escapes(st, env, st.lineno)  # a register cell's buffer named otherwise (reg_cell.py)
        if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            try:
                return self._walk_stmt(st, env, defs, called, cond)
            finally:  # `self.X = ...` bound under its dotted name by a special form: onto the object
                tile_class.settle(st, env)
        if not isinstance(st, flow_state.BRANCHING) or flow_state.transparent_if(self.ex, st, env):
            return self._walk_stmt(st, env, defs, called, cond)
        self.ex.flow_depth = getattr(self.ex, "flow_depth", 0) + 1  # branches and loops (flow_state.py)
        try:
            return self._walk_stmt(st, env, defs, called, cond)
        finally:
            self.ex.flow_depth -= 1

    def _walk_stmt(self, st, env, defs, called, cond):
        ex = self.ex
        ev = Evaluator(env)
        if isinstance(st, (ast.Assign, ast.AnnAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            names = [n for t in targets for n in names_of(t)]
            if st.value is None and isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                arr = fragments.vector_annotation(st.annotation, ev, st.lineno, st.target.id)
                if arr is not None:  # x: T.f32[N] is T.alloc_local((N,), "float32") (views.py)
                    key = (ex.current_file(), st.lineno, st.target.id)
                    env[st.target.id] = ex.reg_arrays.setdefault(key, arr)
                    return
            if st.value is None:
                for n in names:
                    if n in ex.overrides:
                        env[n] = ex.overrides[n]
                    elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                        # one TIR variable, shared with the @T.inline bodies that see it (tvm_classes.py);
                        # runtime data the representative instance binds holds its value (runtime_data.py)
                        b = runtime_data.bound_scalar(n, st.lineno)
                        env[n] = tvm_classes.TirLocal(n, st.lineno, ex.warps, Unresolved(
                            n, st.lineno, "declared without a value (a runtime variable)") if b is None else b)
                        env[n].lane_depth = len(ex.lane_changes)
                    else:
                        env[n] = Unresolved(n, st.lineno, "declared without a value (a runtime variable)")
                return
            if isinstance(st, ast.AnnAssign) and self.tir and scoping.scalar_declaration(st, env, ev, ex, cond):
                return  # `x: T.int32 = v`: a mutable TIR scalar (scoping.py)
            if isinstance(st, ast.Assign) and scoping.container_store(st.targets, st.value, env, ev, st.lineno,
                                                                      self.tir):
                return
            for n in names:
                if n in ex.overrides:
                    env[n] = ex.overrides[n]
            if all(n in ex.overrides for n in names) and names:
                return
            value = st.value
            if len(targets) == 1 and tile_cells.declare(targets[0], value, env, ex, st.lineno):
                return  # recv.X = T.local_scalar(dtype): a register scalar held by the tile (tile_cells.py)
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and flow_state.scalar_declaration(value):
                # x = T.local_scalar(dtype): a register scalar, stored through by later `x = ...` (flow_state.py)
                n = targets[0].id
                env[n] = tvm_classes.TirLocal(n, st.lineno, ex.warps, Unresolved(
                    n, st.lineno, "declared by T.local_scalar without a value; read before a store the walk follows"))
                env[n].lane_depth = len(ex.lane_changes)
                return
            if isinstance(value, ast.Call) and len(names) == 1 and self.launch(value, names[0], ev, st.lineno):
                return  # T.launch_thread(tag, extent) (builder_ns.py)
            if isinstance(value, ast.Call) and (dotted(value.func) or "").split(".")[-1] == "meta_var" and \
                    len(value.args) == 1 and not value.keywords and is_layout_expr(value.args[0]):
                value = value.args[0]  # T.meta_var(L): the layout L itself (meta_var only stops the parser converting it)
            if isinstance(value, ast.Call) and len(names) == 1:
                decl = warps_mod.thread_decl(value, ev)
                if decl is not None:
                    idx, n = decl
                    env[names[0]] = idx
                    if n is not None and ex.num_warps is None and 0 < n <= warps_mod.MAX_WARPS:
                        ex.num_warps = n
                    return
            if isinstance(value, ast.Call) and len(names) == 1:
                arr = fragments.reg_array(value, ev, st.lineno, names[0])
                if arr is not None:
                    # one register array per allocation site (an unrolled loop meets it again)
                    key = (ex.current_file(), st.lineno, names[0])
                    env[names[0]] = ex.reg_arrays.setdefault(key, arr)
                    env[names[0]].site = runtime_data.call_site(st)  # a helper's: where it was called
                    return
            if isinstance(value, ast.Call) and len(names) == 1:
                got = tir_buffers.match_buffer(value, env, ev, ex, names[0], st.lineno)
                if got is not tir_buffers.NOT_MATCH:  # T.match_buffer(handle, shape, dtype): a global buffer
                    self.bind(targets, got, env, st.lineno)
                    return
            if isinstance(value, ast.Call) and len(names) == 1:
                import mgr_pool  # `self.A_smem = smem_manager.alloc(...)`: the driver's manager, run (mgr_pool.py)
                got = mgr_pool.manager_alloc(value, env, ev, ex, tile_class.member_name(names[0], env), st.lineno)
                if got is not mgr_pool.NOT_HANDLED:
                    self.bind(targets, got, env, st.lineno)
                    return
            if isinstance(value, ast.Call) and helper_of(value.func, env) is not None and \
                    not is_layout_expr(value) and returns_walked_value(helper_of(value.func, env).node) and \
                    self.depth < MAX_WALK_DEPTH:
                # `X = helper(pool, ...)` whose body allocates or issues ops: walked with the call's
                # arguments; X is what its top-level `return` gives (an allocation named X)
                self.scan_calls(value, env, defs, called, cond, skip_top=True)
                got = self.call_helper(value, env, called, names[0] if len(names) == 1 else None)
                self.bind(targets, got, env, st.lineno, cond)
                return
            if isinstance(value, ast.Call):
                self.scan_calls(value, env, defs, called, cond, skip_top=True)
                got = allocators.allocation(value, env, ev, ex, tile_class.member_name(names[0], env)
                                            if len(names) == 1 else None, st.lineno, cond)
                if got is not allocators.NOT_AN_ALLOCATION:
                    self.bind(targets, got, env, st.lineno)
                    return
                pool = allocators.pool_object(value, ev, st.lineno)
                if pool is not None:
                    self.bind(targets, pool, env, st.lineno)
                    return
                if op_sites.is_op(value, env):
                    op_sites.record(value, env, ev, ex, st.lineno, cond)
            else:
                self.scan_calls(value, env, defs, called, cond)
                if isinstance(value, ast.Subscript):  # X.sub[...] (views.py)
                    got = allocators.allocation(value, env, ev, ex, names[0] if len(names) == 1 else None,
                                                st.lineno, cond)
                    if got is not allocators.NOT_AN_ALLOCATION:
                        self.bind(targets, got, env, st.lineno)
                        return
            if is_layout_expr(value):
                self.bind(targets, LayoutExpr(value, st.lineno), env, st.lineno)
                return
            if len(targets) == 1 and isinstance(targets[0], ast.Tuple) and isinstance(value, ast.Tuple) and \
                    len(targets[0].elts) == len(value.elts) and \
                    all(isinstance(t, ast.Name) for t in targets[0].elts):
                # `a, b = x, y`: each name its own element (a thread-derived one keeps its own expression,
                # evaluated per lane later; all elements are evaluated before any name is bound)
                before = dict(env)
                vals = []
                for t, e in zip(targets[0].elts, value.elts):
                    v = eval_or_unresolved(Evaluator(before), e, t.id, st.lineno)
                    if isinstance(v, Unresolved) and v.thread:
                        v.expr = (e, before)
                    vals.append(v)
                for t, v in zip(targets[0].elts, vals):
                    self.bind([t], v, env, st.lineno, cond)
                return
            if len(targets) == 1 and isinstance(targets[0], ast.Tuple) and isinstance(value, ast.Call) and \
                    all(isinstance(t, ast.Name) for t in targets[0].elts):
                import tuple_return  # `a, b = helper(...)`: the final display element by element (tuple_return.py)
                try:
                    got = tuple_return.unpack(ev, targets[0], value, st.lineno)
                except tuple_return.NotThisForm:
                    got = None
                if isinstance(got, list) and len(got) == len(targets[0].elts):
                    for t, v in zip(targets[0].elts, got):
                        self.bind([t], v, env, st.lineno, cond)
                    return
            v = eval_or_unresolved(ev, value, "/".join(names), st.lineno)
            if isinstance(v, Unresolved) and v.thread:
                v.expr = (value, dict(env))  # re-evaluated per warp in a branch test (warps.py)
            elif isinstance(v, Unresolved) and cond is None and isinstance(value, ast.Call):
                v = Unresolved("/".join(names), st.lineno, f"value of {ast.unparse(value.func)}(...), "
                               "not evaluated statically", v)
            range_data.keep(v, value, env)  # computed from runtime data: re-evaluable by a probe (range_data.py)
            if cond is not None and not isinstance(v, Unresolved):
                pass  # the value is known; the condition only decides whether the line runs
            if isinstance(v, tvm_classes.PipeState) and v.warps == "unset":
                v.warps = ex.warps  # the warps whose registers hold it (None: every warp)
                v.lane_depth = len(ex.lane_changes)  # built inside this many lane-only branches
                if cond is not None:
                    v.lose(st.lineno, f"built under the undecided condition of line {cond.line}")
            if isinstance(v, tvm_classes.SmemDescObj):  # where it is built (branch_local.py)
                branch_local.note_built(v, self.current_body(), st, cond, ex.runtime_loops)
            self.bind(targets, v, env, st.lineno, cond)
            if isinstance(st.value, ast.Call) and len(targets) == 1 and cond is None and not ex.runtime_loops:
                raw_phase.assigned(targets[0], st.value, env, ex)  # `flag = <mbarrier poll>` (raw_phase.poll_shape)
        elif isinstance(st, ast.AugAssign):
            if isinstance(st.target, ast.Name) and isinstance(env.get(st.target.id), tvm_classes.TirLocal) or \
                    tile_cells.cell_of(st.target, env) is not None or \
                    reg_cell.cell_for_store(st.target, env, ex, st.lineno) is not None:
                # `x op= e` on a declared scalar is the store `x = x op e` (apache/tvm parser.py
                # visit_aug_assign): followed like any store into it (bind)
                n = ast.unparse(st.target)
                load = copy.copy(st.target)
                load.ctx = ast.Load()
                v = eval_or_unresolved(ev, ast.BinOp(left=load, op=st.op, right=st.value), n, st.lineno)
                if isinstance(v, Unresolved):
                    v = Unresolved(n, st.lineno, "updated in place (its value changes as the kernel runs)", v)
                self.bind([st.target], v, env, st.lineno, cond)
                return
            for n in names_of(st.target):
                u = Unresolved(n, st.lineno, "updated in place (its value changes as the kernel runs)")
                if isinstance(env.get(n), tvm_classes.TirLocal):
                    env[n].set(u, ex.warps, st.lineno)
                else:
                    env[n] = u
        elif isinstance(st, ast.Expr):
            store = lambda n, v: self.bind([ast.Name(id=n, ctx=ast.Store())], v, env, st.lineno, cond)  # noqa: E731
            if isinstance(st.value, ast.Call) and instr_ops.bind_encoder(st.value, env, ex, st.lineno, store):
                return
            if isinstance(st.value, ast.Call) and tmem_ops.pool_statement(st.value, env):
                return
            if isinstance(st.value, ast.Call) and smem_placement.pool_statement(st.value, env):
                return
            if isinstance(st.value, ast.Call) and named_bar.statement(st.value, env, ex, cond, st.lineno):
                pass  # a named barrier between warp roles (named_bar.py); its call is scanned below as before
            elif isinstance(st.value, ast.Call) and raw_mbar.statement(st.value, env, ex, st.lineno, cond):
                pass  # a raw mbarrier wait on a shared word: decided by raw_phase.py, else the role's order is lost
            elif isinstance(st.value, ast.Call) and (raw := raw_phase.statement(st.value, env, ex, cond, st.lineno)):
                if raw[0] == "arrive":
                    role_sched.after_arrive(ex)  # a raw word's arrive (raw_phase.py)
            elif isinstance(st.value, ast.Call):
                got = barrier_phase.statement(st.value, env, ex, cond, st.lineno)  # mbarrier phases (barrier_phase.py)
                if got is not None and got[0] in ("wait", "waits"):
                    role_sched.wait(ex, got, st.lineno)  # suspends this role until the phase completes (role_sched.py)
                elif got is not None and st.value.func.attr == "arrive":
                    role_sched.after_arrive(ex)
            if isinstance(st.value, ast.Call) and self.state_call(st.value, env, cond):
                return
            if isinstance(st.value, ast.Call):
                self.scan_calls(st.value, env, defs, called, cond)
                self.register_assign(st.value, env, cond)
                import builder_ns  # T.ptx.shfl_sync.idx.b32(d, ...): d a lane's value (builder_ns.py)
                shfl = builder_ns.ptx_shfl_idx(ev, st.value)
                if shfl is not None:
                    v = eval_or_unresolved(ev, shfl[1], shfl[0], st.lineno)
                    if isinstance(v, Unresolved) and v.thread:
                        v.expr = (shfl[1], dict(env))  # evaluated per (warp, lane) in a branch test (warps.py)
                    self.bind([ast.Name(id=shfl[0], ctx=ast.Store())], v, env, st.lineno, cond)
                elect = builder_ns.ptx_elect(ev, st.value)  # T.ptx.elect_sync(d, p, mask): p the elected lane
                if elect is not None:
                    v = eval_or_unresolved(ev, elect[2], elect[1], st.lineno)
                    if isinstance(v, Unresolved) and v.thread:
                        v.expr = (elect[2], dict(env))  # evaluated per (warp, lane) in a branch test (warps.py)
                    self.bind([ast.Name(id=elect[1], ctx=ast.Store())], v, env, st.lineno, cond)
                    lane = Unresolved(elect[0], st.lineno, "the id of the lane elect.sync elects (a runtime value: PTX "
                                      "ISA elect.sync fixes that one lane is elected, not which)")
                    self.bind([ast.Name(id=elect[0], ctx=ast.Store())], lane, env, st.lineno, cond)
        elif isinstance(st, ast.If):
            test = eval_or_unresolved(ev, st.test, "condition", st.lineno)
            if isinstance(test, Unresolved) and self.walk_warp_branch(st.test, st.lineno, st.body, st.orelse, env,
                                                                      defs, called, cond):
                pass
            elif isinstance(test, Unresolved):
                u = Unresolved(f"condition at line {st.lineno}", st.lineno,
                               f"the branch taken depends on {test.root().name}", test)
                if cond is None and not ex.runtime_loops:
                    raw_phase.note_branch(st, env, u, ex)  # `if not <mbarrier poll>:` (raw_phase.poll_shape)
                walks = [lambda b=branch, t=taken: self.arm_body(st, t, b, env, defs, called, u)
                         for branch, taken in ((st.body, True), (st.orelse, False)) if branch]
                if self.tir and not scoping.runtime_test(test) and not scoping.reads_tir_value(st.test, env):
                    scoping.walk_undecided_branches(env, walks, st.lineno)  # a Python bool or a runtime test
                else:
                    for walk in walks:
                        self.framed(env, st.lineno, "if statement", walk)
            else:
                loop_first.decided_branch(ex, st.test, st.lineno, env, test)  # by a loop's first iteration
                self.walk_body(st.body if test else st.orelse, env, defs, called, cond)
        elif isinstance(st, (ast.Break, ast.Continue)):
            loop_jumps.jump(ex, st, cond)  # a decided one ends the walked iteration (loop_jumps.py)
        elif isinstance(st, (ast.For, ast.AsyncFor)):
            fr = loop_jumps.enter(ex, st.lineno, cond)
            try:
                self.walk_for(st, env, defs, called, cond, ev, fr)
            finally:
                loop_jumps.leave(ex, fr)
        elif isinstance(st, ast.While):
            fr = loop_jumps.enter(ex, st.lineno, cond)
            try:
                self.walk_while(st, env, defs, called, cond, ev, fr)
            finally:
                loop_jumps.leave(ex, fr)
        elif isinstance(st, (ast.With, ast.AsyncWith)) and st.items and \
                isinstance(st.items[0].context_expr, ast.Call) and \
                (dotted(st.items[0].context_expr.func) or "").split(".")[-1] == "If" and \
                len(st.items[0].context_expr.args) == 1:
            # kern DSL: `with K.If(test), K.Then(): ...` is an if without else.
            t = st.items[0].context_expr.args[0]
            test = eval_or_unresolved(ev, t, "condition", st.lineno)
            if not isinstance(test, Unresolved):
                loop_first.decided_branch(ex, t, st.lineno, env, test)  # by a loop's first iteration
                if test:
                    self.walk_body(st.body, env, defs, called, cond)
            elif not self.walk_warp_branch(t, st.lineno, st.body, [], env, defs, called, cond):
                u = Unresolved(f"condition at line {st.lineno}", st.lineno,
                               f"the branch taken depends on {test.root().name}", test)
                with range_data.arm(st.lineno, t, env, True):  # (range_data.py)
                    self.walk_body(st.body, env, defs, called, u)
        elif isinstance(st, ast.With) and kern_forms.loop_frame(st) is not None:
            # kern: `with K.unroll(n) as v:` / `with K.serial(a, b) as v:` is a loop (kern_forms.py)
            self.walk_stmt(kern_forms.loop_frame(st), env, defs, called, cond)
        elif isinstance(st, ast.With) and len(st.items) == 1 and isinstance(st.items[0].context_expr, ast.Name) \
                and isinstance(env.get(st.items[0].context_expr.id), kern_forms.Role):
            self.walk_role(env[st.items[0].context_expr.id], st, env, defs, called, cond)
        elif isinstance(st, (ast.With, ast.AsyncWith)):
            def with_body():
                for item in st.items:
                    if isinstance(item.context_expr, ast.Call):
                        self.scan_calls(item.context_expr, env, defs, called, cond)
                    if item.optional_vars is not None and isinstance(item.optional_vars, ast.Name) and \
                            isinstance(item.context_expr, ast.Call) and \
                            self.launch(item.context_expr, item.optional_vars.id, ev, st.lineno):
                        continue  # with T.launch_thread(tag, extent) as v (builder_ns.py)
                    if item.optional_vars is not None:
                        for n in names_of(item.optional_vars):
                            env[n] = ex.overrides.get(n, Unresolved(n, st.lineno, "bound by a with statement "
                                                                    "(a runtime value)"))
                self.walk_body(st.body, env, defs, called, cond)
            self.framed(env, st.lineno, "with statement", with_body)
        elif isinstance(st, ast.Try):
            self.walk_body(st.body, env, defs, called, cond)
        elif isinstance(st, ast.FunctionDef):
            fv = FuncValue(st, env)
            fv.tir_parent = self.tir  # an undecorated def nested in a TVMScript function is TVMScript too
            env[st.name] = fv
            defs[st.name] = fv
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)

    def arm_body(self, st, taken, body, env, defs, called, cond):
        """One arm of an undecided `if`: the loops in it hold where it is taken (range_data.py)."""
        with range_data.arm(st.lineno, st.test, env, taken):
            self.walk_body(body, env, defs, called, cond)

    def iteration(self, fr, body, env, defs, called, cond):
        """Walk one iteration of a loop's body: the kind of the decided jump that ended it, or None."""
        fr.new_iteration()
        try:
            self.walk_body(body, env, defs, called, cond)
        except loop_jumps.Jump as j:
            return j.kind
        return None

    def walk_for(self, st, env, defs, called, cond, ev, fr):
        if cond is None and raw_phase.init_loop(st, env, self.ex):  # mbarrier.init of every word (raw_phase.py)
            raw_phase.STATE["in_init_loop"] += 1
            try:
                return self._walk_for(st, env, defs, called, cond, ev, fr)
            finally:
                raw_phase.STATE["in_init_loop"] -= 1
        return self._walk_for(st, env, defs, called, cond, ev, fr)

    def _walk_for(self, st, env, defs, called, cond, ev, fr):
        ex = self.ex
        self.scan_calls(st.iter, env, defs, called, cond)
        n_sampled = len(ex.sampled_loops)
        values, why = loop_values(st, ev, ex)
        sampled = ex.sampled_loops[-1] if len(ex.sampled_loops) > n_sampled else None
        if values is not None and not any(n in ex.overrides for n in names_of(st.target)):
            # A range the source fixes: every iteration is walked with the loop variable
            # bound to its value (the ops of each iteration, as the model's one pass).
            if sampled is not None:
                ex.state_log.append(set())
                frame = flow_state.enter_sampled(st, env, ex)
            before_loop = dict(env)
            kind = None
            jumped = False
            try:
                for v in values:
                    try:
                        assign_target(st.target, v, env)
                    except ConvertError as e:
                        values = None
                        why = str(e)
                        break
                    # each iteration is an instance of the one body TVM parses, in its own frame
                    kind = self.iteration(fr, st.body, env, defs, called, cond)
                    jumped = jumped or kind is not None or fr.undecided is not None
                    if sampled is not None:
                        flow_state.iteration_done(frame)
                    if self.tir:
                        scoping.close_frame(env, before_loop, st.lineno, "for loop")
                    if kind == "break":
                        break  # a decided break: the loop is over (loop_jumps.py)
            finally:
                if sampled is not None:
                    # the real state has changed once per iteration, the walk saw only the first:
                    # the state at the loop's exit where its change per iteration is fixed, else stale
                    # (a break / continue makes the change per iteration unknown: stale)
                    changed = ex.state_log.pop()
                    changed |= flow_state.unexecuted_changes(frame, st, env)  # a branch not taken this time
                    flow_state.leave_sampled(frame, ex)
                    for obj in changed:
                        if flow_state.exit_state(frame, obj, sampled["iterations"], values is not None and not jumped):
                            continue
                        flow_state.lose_changed(frame, obj, st.lineno, f"changed in the T.serial loop at line "
                                                f"{st.lineno}, of which the walk takes {len(sampled['walked'])} "
                                                f"of {sampled['iterations']} iterations (its state after the "
                                                "loop is not followed)")
            if values is not None:
                if sampled is not None:
                    # names the body assigned hold the last iteration's value, which the walk did not see
                    import loop_state
                    loop_state.after_sampled_loop(st, env, sampled, KEEP_AFTER_LOOP)
                if kind != "break":
                    self.walk_body(st.orelse, env, defs, called, loop_jumps.effective_cond(ex, self, cond))
                return
        for n in names_of(st.target):
            env[n] = ex.overrides.get(n, Unresolved(n, st.lineno, f"loop variable of the loop at line "
                                                    f"{st.lineno} ({why})"))
        start = loop_first.loop_start(st, ev) if loop_first.runtime_range(why) else None
        root = range_data.start_root(st, ev) if start is loop_first.NOT_FIXED else None
        if root is not None:  # a start computed from runtime data (range_data.py)
            for n in names_of(st.target):
                if isinstance(env[n], Unresolved) and n not in ex.overrides:
                    range_data.mark(env[n], st, root)
        fi = loop_first.enter(st, env, ex, start) if start is not None else None
        if fi is not None:  # under the representative instance: its first iteration (loop_first.py)
            before_loop = dict(env)
            if start is not loop_first.NOT_FIXED and not any(n in ex.overrides for n in names_of(st.target)):
                assign_target(st.target, start, env)
            kind = None
            try:
                kind = self.iteration(fr, st.body, env, defs, called, cond)
            finally:
                loop_first.leave(fi, st, env, ex, before_loop, KEEP_AFTER_LOOP, exact=kind == "break")
                if self.tir:
                    scoping.close_frame(env, before_loop, st.lineno, "for loop")
            if kind != "break":
                self.walk_body(st.orelse, env, defs, called, cond)
            return
        ex.runtime_loops += 1
        rl = flow_state.runtime_loop_enter(st, env, ex)  # declared scalars it stores (flow_state.py)
        before_loop = dict(env)
        try:
            self.iteration(fr, st.body, env, defs, called, cond)
        finally:
            ex.runtime_loops -= 1
            flow_state.runtime_loop_exit(rl, ex)
            if self.tir:
                scoping.close_frame(env, before_loop, st.lineno, "for loop")
        self.walk_body(st.orelse, env, defs, called, cond)

    def walk_while(self, st, env, defs, called, cond, ev, fr):
        """A `while` loop: iterated while the source decides its test (each iteration exact, like a
        fixed range, within MAX_UNROLL / MAX_UNROLLED_TOTAL); a test undecided on entry: its first
        iteration under the representative instance (loop_first.py); one that never ends: walked as
        a runtime loop, and the code after it is not (loop_jumps.py)."""
        ex = self.ex
        if self.first_tile_loop(st, env):
            # `while scheduler.valid():` under "CTA 0 on its first tile": one pass, the first tile
            self.framed(env, st.lineno, "while loop",
                        lambda: self.iteration(fr, st.body, env, defs, called, cond))
            return
        endless = loop_jumps.never_ends(st)
        walked = 0
        while not endless:
            try:
                t = eval_or_unresolved(Evaluator(env), st.test, "condition", st.lineno)
                t = None if isinstance(t, Unresolved) else bool(t)
            except Exception:  # noqa: BLE001 - a runtime test
                t = None
            if t is not None and walked == 0:
                loop_first.decided_branch(ex, st.test, st.lineno, env, t, "while loop")  # by a loop's first iteration
            if t is False:
                self.walk_body(st.orelse, env, defs, called, loop_jumps.effective_cond(ex, self, cond))
                return  # the test is false: the loop is over
            if t is None or fr.broke or walked >= MAX_UNROLL or ex.unrolled + 1 > MAX_UNROLLED_TOTAL:
                break
            n = SETTINGS.get("serial_iterations")
            if walked and isinstance(n, int) and n > 0 and walked >= n:
                break  # sampled like a T.serial loop of a fixed extent (--serial-iterations)
            walked += 1
            ex.unrolled += 1
            kind = [None]
            self.framed(env, st.lineno, "while loop",
                        lambda: kind.__setitem__(0, self.iteration(fr, st.body, env, defs, called, cond)))
            if kind[0] == "break":
                return  # a decided break: the loop is over
        if walked == 0 and not endless and (fi := loop_first.enter(st, env, ex)) is not None:
            before_loop = dict(env)  # under the representative instance: its first iteration (loop_first.py)
            kind = [None]
            try:
                self.framed(env, st.lineno, "while loop",
                            lambda: kind.__setitem__(0, self.iteration(fr, st.body, env, defs, called, cond)))
            finally:
                loop_first.leave(fi, st, env, ex, before_loop, KEEP_AFTER_LOOP, exact=kind[0] == "break")
            return
        if walked and not endless and not fr.broke and loop_first.later_iterations(st, env, ex, walked):
            return  # under the representative instance: the first `walked` iterations (loop_first.py)
        # a runtime loop from here on (an undecided test after iterations walked exactly, past the
        # iteration limits, or never ending): its body stands for every remaining iteration
        ex.runtime_loops += 1
        rl = flow_state.runtime_loop_enter(st, env, ex)
        try:
            self.framed(env, st.lineno, "while loop", lambda: self.iteration(
                fr, st.body, env, defs, called, loop_jumps.effective_cond(ex, self, cond)))
        finally:
            ex.runtime_loops -= 1
            flow_state.runtime_loop_exit(rl, ex)
        if endless:
            st._endless = True  # noqa: SLF001 - walk_body stops its block here
            self.endless = self.endless or loop_jumps.endless_cond(st.lineno)

    def launch(self, call, name, ev, line) -> bool:
        """Binds `name` to what `T.launch_thread(tag, extent)` launches (builder_ns.py); False when
        `call` is not that."""
        got = builder_ns.launch_thread(call, ev, line)
        if got is None:
            return False
        kind, v, n = got
        env = ev.env
        if name in self.ex.overrides:
            env[name] = self.ex.overrides[name]
        elif kind == "thread":
            env[name] = v
            if n is not None and self.ex.num_warps is None and 0 < n <= warps_mod.MAX_WARPS:
                self.ex.num_warps = n
        elif kind == "value":
            env[name] = v
        else:
            env[name] = Unresolved(name, line, v)
        return True

    def return_value(self, st: ast.Return, env):
        """The value of a helper's top-level `return`: an allocation call is the buffer (named as the
        caller's target), a name its binding, anything else evaluated."""
        if st.value is None:
            return None
        ev = Evaluator(env)
        if isinstance(st.value, (ast.Call, ast.Subscript)):
            got = allocators.allocation(st.value, env, ev, self.ex, self.return_name, st.lineno, None)
            if got is not allocators.NOT_AN_ALLOCATION:
                return got
        return eval_or_unresolved(ev, st.value, self.return_name or "return value", st.lineno)

    def call_helper(self, call, env, called, target):
        """Walk the helper `call` names (as scan_calls does) and give its return value."""
        fv = helper_of(call.func, env)
        called.add(ast.unparse(call.func))
        sub_env = dict(fv.closure)
        sub_env.update({k: v for k, v in env.items() if k not in sub_env})
        bind_call(fv.node, call, sub_env, Evaluator(env), self.ex)
        w = Walker(self.ex, self.depth + 1)
        w.return_name = target
        w.walk_function(fv, sub_env, called)
        if w.returned is _NO_RETURN:
            return Unresolved(target or "value", call.lineno, f"{ast.unparse(call.func)}(...) returns nothing the walk "
                              "followed (a return under a branch or loop)")
        return w.returned

    def first_tile_loop(self, st, env) -> bool:
        """A `while S.valid():` loop over a tile scheduler (kernel_env.Scheduler) under the
        convention "CTA 0 on its first tile": its body is walked once."""
        t = st.test
        if not (isinstance(t, ast.Call) and isinstance(t.func, ast.Attribute) and t.func.attr == "valid" and
                isinstance(t.func.value, ast.Name) and isinstance(env.get(t.func.value.id), Scheduler)):
            return False
        sch = env[t.func.value.id]
        note_convention(f"while {t.func.value.id}.valid() (line {st.lineno}): the first tile only", st.lineno, 1)
        return sch is not None

    def current_body(self):
        bodies = self.__dict__.get("bodies")
        return bodies[-1] if bodies else None

    def state_call(self, call, env, cond) -> bool:
        """`S.advance()` / `S.init(phase)` of a PipelineState and `D.init(ptr, ldo, sdo, swizzle)` of a
        SmemDescriptor (tvm_classes.py): the object's state changes when the walk follows the
        change exactly, else it becomes stale.  True when `call` is one of these."""
        ex = self.ex
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr in tvm_classes.STATE_METHODS):
            return False
        try:
            obj = Evaluator(env).value(f.value)
        except Exception:  # noqa: BLE001 - not a state object: an ordinary call
            return False
        line = call.lineno
        if isinstance(obj, tvm_classes.SmemDescObj) and f.attr == "init":
            if (cond is not None or ex.runtime_loops) and not branch_local.init_exact(
                    obj, self.current_body(), flow_state.CURRENT.get("stmt"), cond, ex.runtime_loops):
                obj.encoded = Unresolved("SmemDescriptor", line, "init() under an undecided condition or in a "
                                         "loop the walk does not unroll")
            else:
                obj.encoded = instr_ops.SmemDescDeferred(call, dict(env), line, first=0)
                obj.init_warps = ex.warps
            return True
        if not isinstance(obj, tvm_classes.PipeState):
            return False
        if cond is not None:
            obj.lose(line, f"{f.attr}() under the undecided condition of line {cond.line}")
        elif ex.runtime_loops:
            obj.lose(line, f"{f.attr}() in a loop the walk does not unroll")
        elif obj.warps != ex.warps and not (ex.warps is not None and (obj.warps is None or ex.warps <= obj.warps)):
            obj.lose(line, f"{f.attr}() by warps other than those that built the state (line {obj.line})")
        elif obj.warps != ex.warps and f.attr == "advance" and not call.args:
            obj.advance_copies(sorted(ex.warps))  # a subset of its builders: their own copies
        elif getattr(obj, "ring", False) and f.attr == "init":
            # kern's RingState.init(stage, phase) (kern_ring.py): not PipelineState's init(phase)
            obj.lose(line, "RingState.init() is not followed (its first argument is a stage, not a phase)")
        elif obj.warps != ex.warps and f.attr == "init" and len(call.args) == 1:
            v = eval_or_unresolved(Evaluator(env), call.args[0], "phase", line)
            if isinstance(v, Unresolved):
                obj.lose(line, f"init() with a phase the source does not fix ({v.root().name})")
            else:
                obj.init_copies(sorted(ex.warps), v)
        elif obj.copies:
            obj.lose(line, f"{f.attr}() by every warp after some warps changed their own copies")
        elif f.attr == "advance" and not call.args:
            obj.advance()
        elif f.attr == "init" and len(call.args) == 1:
            v = eval_or_unresolved(Evaluator(env), call.args[0], "phase", line)
            if isinstance(v, Unresolved):
                obj.lose(line, f"init() with a phase the source does not fix ({v.root().name})")
            else:
                obj.init(v)
        else:
            obj.lose(line, f"{f.attr}() with arguments the extraction does not model")
        flow_state.note_change(ex, obj, f.attr)
        for log in ex.state_log:
            log.add(obj)
        self.lane_change(obj, line)
        return True

    def lane_change(self, obj, line: int) -> None:
        """A state object or declared scalar changed inside a branch that only some lanes of a warp
        take (elect_sync, a lane test): recorded, so that the change is not taken to hold for the
        whole warp after that branch (walk_warp_branch)."""
        ex = self.ex
        if ex.lane_changes and getattr(obj, "lane_depth", 0) < len(ex.lane_changes):
            ex.lane_changes[-1].setdefault(id(obj), (obj, line, ex.warps))

    def register_assign(self, call, env, cond) -> None:
        """kern DSL `K.assign(x, value)`: the register x holds `value` from here on.  In straight-line
        code of every thread (no undecided condition, no loop the walk does not unroll, no branch on
        a thread index) x takes that value; elsewhere it becomes undetermined."""
        ex = self.ex
        if (dotted(call.func) or "").split(".")[-1] != "assign" or len(call.args) != 2 or \
                not isinstance(call.args[0], ast.Name):
            return
        name, line = call.args[0].id, call.lineno
        if name in ex.overrides:
            return
        if cond is None and not ex.warp_branches and loop_first.note_assign(ex, name):
            pass  # in a loop walked as its first iteration: straight-line code (loop_first.py)
        elif cond is not None or ex.runtime_loops or ex.warp_branches:
            where = "an undecided condition" if cond is not None else \
                "a loop the walk does not unroll" if ex.runtime_loops else "a branch on a thread index"
            env[name] = Unresolved(name, line, f"assigned with K.assign under {where} (its value depends on "
                                   "which path runs)")
            return
        v = eval_or_unresolved(Evaluator(env), call.args[1], name, line)
        if isinstance(v, Unresolved) and v.thread:
            v.expr = (call.args[1], dict(env))
        env[name] = v

    def walk_role(self, role, st, env, defs, called, cond) -> None:
        """kern `with role:`: the body runs on the role's warps only (its guard is first_warp <=
        warp_id <= last_warp, kern/specialize.py Role.__enter__); like a branch on thread indices."""
        ex = self.ex
        if ex.num_warps is None:
            ex.block(f"role {role.name} at line {st.lineno}", st.lineno, None, "a kern role, and the kernel "
                     "declares no warp count (K.kernel(warps=...)) to place it in")
            return
        if role.warps[-1] >= ex.num_warps:
            ex.block(f"role {role.name} at line {st.lineno}", st.lineno, None, f"role warps {role.warps} past the "
                     f"CTA's {ex.num_warps} warps")
            return
        current = ex.warps if ex.warps is not None else frozenset(range(ex.num_warps))
        ws = frozenset(role.warps) & current
        if not ws:
            return
        saved = (ex.warps, ex.warps_line)
        ex.warp_branches += 1
        kern_forms.ACTIVE_ROLES.append(role)  # K.warp_id_in_role() inside it (kern_forms.py)
        try:
            ex.warps, ex.warps_line = ws, st.lineno
            tvm_classes.WALK["warps"] = ws
            self.walk_body(st.body, env, defs, called, cond)
        finally:
            ex.warps, ex.warps_line = saved
            tvm_classes.WALK["warps"] = saved[0]
            ex.warp_branches -= 1
            kern_forms.ACTIVE_ROLES.pop()

    def walk_warp_branch(self, test, line, body, orelse, env, defs, called, cond) -> bool:
        """An `if` whose test depends only on thread indices: each branch is walked with the
        warps that take it (warps.py); a branch no warp takes is not walked.  False when the
        test also depends on something else (the caller walks both branches as undecided)."""
        ex = self.ex
        if ex.num_warps is None:
            return False
        current = ex.warps if ex.warps is not None else frozenset(range(ex.num_warps))
        got = warps_mod.branch_warps(test, env, current, Evaluator)
        if got is None:
            return False
        taken, not_taken, lane_dep = got
        saved = (ex.warps, ex.warps_line)
        ex.warp_branches += 1
        ex.lane_branches += 1 if lane_dep else 0  # some lanes of a warp only (reg_access.py refuses)
        if lane_dep:
            ex.lane_changes.append({})
        elect = lane_dep and any(isinstance(n, ast.Call) and (dotted(n.func) or "").endswith("elect_sync")
                                 for n in ast.walk(test))
        ex.elect_depth += 1 if elect else 0  # which lane elect_sync picks is not fixed (raw_phase.lane_words)
        returned = set()
        lanes = warps_mod.branch_lanes(test, env, taken | not_taken, Evaluator, getattr(ex, "lane_sets", None)) \
            if lane_dep else None
        if lane_dep and lanes is None:
            lanes = ({w: None for w in taken}, {w: None for w in not_taken})
        saved_lanes = getattr(ex, "lane_sets", None)
        try:
            def walk_arm(b, ws, side):
                ex.warps, ex.warps_line = ws, line
                tvm_classes.WALK["warps"] = ws
                if lanes is not None:
                    ex.lane_sets = lanes[side]
                # a test on thread indices is a TIR expression: each branch is a frame (scoping.py)
                self.framed(env, line, "if statement", lambda: self.walk_body(b, env, defs, called, cond))

            arms, split = [], []
            for side, (branch, ws) in enumerate(((body, taken), (orelse, not_taken))):
                if branch and ws and ends_in_return(branch):
                    returned |= ws  # these warps leave the function here: later statements are not theirs
                if branch and ws:
                    arms.append((branch, lambda b=branch, ws=ws, side=side: walk_arm(b, ws, side)))
                    # an arm of several warpgroups synchronised per warpgroup: a role per group (role_sched.group_split)
                    split += [(branch, lambda b=branch, g=g, side=side: walk_arm(b, g, side))
                              for g in role_sched.group_split(branch, ws, env)]
            if len(split) > len(arms) and role_sched.fork(ex, self, env, split):
                pass
            elif not role_sched.fork(ex, self, env, arms):  # sibling roles ordered by their waits (role_sched.py)
                for _b, arm in arms:
                    arm()
        finally:
            ex.elect_depth -= 1 if elect else 0
            ex.lane_sets = saved_lanes
            ex.warps, ex.warps_line = saved
            ex.returned_warps = ex.returned_warps | frozenset(returned)
            if ex.returned_warps:
                ex.warps = frozenset((saved[0] if saved[0] is not None else frozenset(range(ex.num_warps))) -
                                     ex.returned_warps)
            tvm_classes.WALK["warps"] = ex.warps
            ex.warp_branches -= 1
            ex.lane_branches -= 1 if lane_dep else 0
            if lane_dep:
                # a change made by some lanes only: after the branch the warp's lanes disagree
                for obj, at, ws in ex.lane_changes.pop().values():
                    why = (f"changed at line {at} inside the branch at line {line}, which only some lanes of each "
                           "warp take (elect_sync / a lane test): after that branch the warp's lanes hold "
                           "different values")
                    if isinstance(obj, tvm_classes.PipeState) and obj.copies and ws is not None:
                        obj.lose_copies(sorted(ws), why)  # only the copies of the warps that changed it
                    else:
                        obj.lose(at, why)
                    if ex.lane_changes and getattr(obj, "lane_depth", 0) < len(ex.lane_changes):
                        ex.lane_changes[-1].setdefault(id(obj), (obj, at, ws))
        return True

    def scan_calls(self, node, env, defs, called, cond, skip_top=False):
        """Ops and helper calls inside an expression (e.g. T.evaluate(...), helper(i))."""
        for sub in walk_calls(node):
            if skip_top and sub is node:
                continue
            ev = Evaluator(env)
            if op_sites.is_op(sub, env):
                op_sites.record(sub, env, ev, self.ex, sub.lineno, cond)
            elif helper_of(sub.func, env) is not None and self.depth >= MAX_WALK_DEPTH:
                # never dropped silently: what the helper would issue is not in the model
                self.ex.block(f"call of helper {ast.unparse(sub.func)} at line {sub.lineno}", sub.lineno, None,
                              f"helper calls nest deeper than the depth limit of {MAX_WALK_DEPTH} (recursion, or "
                              "a chain of helpers); its buffers and ops are not extracted")
            elif helper_of(sub.func, env) is not None:
                fv = helper_of(sub.func, env)
                called.update(flow_state.callee_names(sub, fv))
                sub_env = dict(fv.closure)
                sub_env.update({k: v for k, v in env.items() if k not in sub_env})
                bind_call(fv.node, sub, sub_env, ev, self.ex)
                conds = self.ex.__dict__.setdefault("raw_conds", [])
                conds.append(cond)  # the condition the helper is called under (raw_phase.enclosing)
                try:
                    Walker(self.ex, self.depth + 1).walk_function(fv, sub_env, called)
                finally:
                    conds.pop()


# Helper functions walked inside helper functions: a kernel -> a tile helper -> an MMA group ->
# one instruction is 4-5 levels in real kernels (flash_attention_backward); deeper calls are
# listed as unresolved, never dropped.
MAX_WALK_DEPTH = 8

# values that are the same object in every iteration (allocations, state objects with their own rule)
import kernel_env as _ke  # noqa: E402
KEEP_AFTER_LOOP = (_ke.BufferRef, _ke.Pool, _ke.Scheduler, _ke.Imported, _ke.ModuleValue, fragments.RegArray,
                   LayoutExpr, FuncValue, warps_mod.ThreadIndex, tvm_classes.PipeState, tvm_classes.TirLocal,
                   tvm_classes.SmemDescObj)
LOOP_FUNCS = {"range", "unroll", "serial", "vectorized", "parallel", "static_range"}
MAX_UNROLL = 256          # iterations of one loop walked one by one
MAX_UNROLLED_TOTAL = 20_000  # loop iterations walked one by one in the whole extraction


def loop_values(st, ev, ex):
    """(values, None) when the loop's range is fixed by the source and small enough to walk
    iteration by iteration; (None, why) otherwise."""
    it = st.iter
    if isinstance(it, ast.Call):
        short = (dotted(it.func) or "").split(".")[-1]
        if short not in LOOP_FUNCS or it.keywords and short == "range":
            return None, "its value differs per iteration"
        try:
            args = [ev.as_int(a) for a in it.args]
        except UnresolvedError as e:
            return None, f"its range depends on {e.item.root().name}"
        except Exception:  # noqa: BLE001 - a range the evaluator cannot fix stays a runtime loop
            return None, "its range is not fixed by the source"
        if not 1 <= len(args) <= 3 or (len(args) == 3 and args[2] == 0):
            return None, "its range is not fixed by the source"
        values = range(*args)  # never materialised: a range of 10**15 iterations answers at once
    elif isinstance(it, (ast.Tuple, ast.List)):
        try:
            values = tuple(ev.value(e) for e in it.elts)
        except Exception:  # noqa: BLE001
            return None, "its values are not fixed by the source"
    else:
        return None, "its value differs per iteration"
    count = range_len(values) if isinstance(values, range) else len(values)
    n = SETTINGS.get("serial_iterations")
    if isinstance(it, ast.Call) and (dotted(it.func) or "").split(".")[-1] == "serial" and \
            isinstance(n, int) and n > 0 and count > n:
        # A runtime (not unrolled) loop: its iterations run the same instructions on other data;
        # the model's pass takes the first n (--serial-iterations), recorded, never silently.
        ex.sampled_loops.append({"line": st.lineno, "var": ast.unparse(st.target), "iterations": count,
                                 "walked": list(values[:n])})
        values = values[:n]
        count = n
    if count > MAX_UNROLL:
        return None, f"a loop of {count} iterations, more than the {MAX_UNROLL} walked one by one"
    if ex.unrolled + count > MAX_UNROLLED_TOTAL:
        return None, f"more than {MAX_UNROLLED_TOTAL} loop iterations walked one by one in this file"
    ex.unrolled += count
    return values, None


def range_len(r: range) -> int:
    """len(r) without Python's limit (len() raises OverflowError past sys.maxsize)."""
    if r.step > 0:
        return max(0, (r.stop - r.start + r.step - 1) // r.step)
    return max(0, (r.start - r.stop - r.step - 1) // -r.step)


def helper_of(func, env):
    """The FuncValue a call names: a function of this file (`helper(...)`) or of a sibling
    module (`_mod.helper(...)`, kernel_env.sibling_module); else None."""
    if isinstance(func, ast.Name):
        v = env.get(func.id)
        return v if isinstance(v, FuncValue) else None
    import tile_class
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            isinstance(env.get(func.value.id), (tile_class.Instance, tile_class.ClassValue)):
        try:  # `self.method(...)`: the method bound to the instance (tile_class.py)
            v = tile_class.attr_of(env[func.value.id], func.attr)
        except Exception:  # noqa: BLE001 - not a method of the file's class: no helper
            return None
        return v if isinstance(v, FuncValue) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute):
        # `cls.bar.init(...)`: a method of an object a tile-task attribute holds (class_build.py)
        recv = _held_object(func.value, env)
        if recv is not None:
            try:
                v = tile_class.attr_of(recv, func.attr)
            except Exception:  # noqa: BLE001 - not a method of a read class: no helper
                return None
            return v if isinstance(v, FuncValue) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            isinstance(env.get(func.value.id), ModuleValue):
        v = env[func.value.id].env.get(func.attr)
        return v if isinstance(v, FuncValue) else None
    return None


def _free_reads(fn: ast.FunctionDef, nested: bool, uses: list | None = None) -> set:
    """The names `fn`'s body reads, not descending into the defs nested in it, less the names it
    binds itself (its parameters, assignments) when `nested` (a helper's own `load_b` parameter is
    not the outer `load_b`).  `uses` collects (name node, parent) pairs."""
    reads, bound, stack = set(), set(), list(fn.body)
    parent = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)} if uses is not None else {}
    if nested:
        a = fn.args
        bound.update(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)
        bound.update(x.arg for x in (a.vararg, a.kwarg) if x is not None)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(n.name)
            stack.extend(n.decorator_list)
            continue
        if isinstance(n, ast.Name):
            (reads if isinstance(n.ctx, ast.Load) else bound).add(n.id)
            if uses is not None and isinstance(n.ctx, ast.Load):
                uses.append((n, parent.get(id(n))))
        stack.extend(ast.iter_child_nodes(n))
    if uses is not None and nested:
        uses[:] = [(n, p) for n, p in uses if n.id not in bound]
    return reads - bound if nested else reads


def _reachable_defs(outer: ast.FunctionDef, local_defs: dict) -> set:
    """The nested defs of `outer` that code which runs may name: read by `outer`'s own statements
    (outside its nested defs), or by a def so reached, transitively.  A def named only in its own
    body, in another unreached def, or by a helper's parameter of the same name is not reached."""
    todo = [n for n in _free_reads(outer, False) if n in local_defs]
    seen = set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(m for m in _free_reads(local_defs[n].node, True) if m in local_defs and m not in seen)
    return seen


def _escaping_defs(outer: ast.FunctionDef, local_defs: dict) -> set:
    """The nested defs that code which runs may call where the walk does not see it: named in
    reached code (_reachable_defs) other than as the callee of a call (`f(...)`: the walk follows
    it where it runs) or as an argument of a call of a nested def (the walk binds the parameter and
    follows the helper's calls of it).  Handed to anything else (a builder call, a container, a
    return) it may be called: such a def is walked on its own, as before.  Computed once per
    function and set of nested defs (a helper is walked at each of its calls)."""
    key = tuple(sorted((n, id(f.node)) for n, f in local_defs.items()))
    memo = getattr(outer, "_escaping_memo", None)
    if memo is not None and memo[0] == key:
        return memo[1]
    out = set()
    reached = _reachable_defs(outer, local_defs)
    for fn, nested in [(outer, False)] + [(local_defs[n].node, True) for n in reached]:
        uses: list = []
        _free_reads(fn, nested, uses)
        for node, par in uses:
            if node.id not in local_defs:
                continue
            if isinstance(par, ast.Call) and par.func is node:
                continue
            if isinstance(par, ast.Call) and isinstance(par.func, ast.Name) and par.func.id in local_defs and \
                    node in par.args:
                continue
            if isinstance(par, ast.keyword):
                call = next((c for c in ast.walk(fn) if isinstance(c, ast.Call) and par in c.keywords), None)
                if call is not None and isinstance(call.func, ast.Name) and call.func.id in local_defs:
                    continue
            out.add(node.id)
    outer._escaping_memo = (key, out)
    return out


def _held_object(node, env):
    """The Instance / ClassValue an attribute chain `recv.a.b` names, each step an Instance or
    ClassValue of a read class (tile_class.attr_of), else None."""
    import tile_class
    if isinstance(node, ast.Name):
        v = env.get(node.id)
        return v if isinstance(v, (tile_class.Instance, tile_class.ClassValue)) else None
    if not isinstance(node, ast.Attribute):
        return None
    base = _held_object(node.value, env)
    if base is None:
        return None
    try:
        v = tile_class.attr_of(base, node.attr)
    except Exception:  # noqa: BLE001 - the attribute is not known: no object
        return None
    return v if isinstance(v, (tile_class.Instance, tile_class.ClassValue)) else None


def kern_launch_warps(fn, env) -> dict:
    """kern DSL launches: `K.kernel(warps=W, ...)(body)` gives the function `body` W warps."""
    out = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.FunctionDef) and n is not fn and decorator_warps(n, env) is not None:
            out[n.name] = decorator_warps(n, env)  # @K.kernel(warps=W, ...) on a nested def
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Call) and len(n.args) == 1 and \
                isinstance(n.args[0], ast.Name) and (dotted(n.func.func) or "").split(".")[-1] == "kernel":
            for k in n.func.keywords:
                if k.arg == "warps":
                    try:
                        w = Evaluator(env).as_int(k.value)
                    except Exception:  # noqa: BLE001 - an undetermined count leaves the warps open
                        continue
                    if 0 < w <= warps_mod.MAX_WARPS:
                        out[n.args[0].id] = w
    return out


def decorator_warps(fn, env) -> int | None:
    """W of a `@K.kernel(warps=W, ...)` decorator on `fn`, when the source fixes it."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and (dotted(d.func) or "").split(".")[-1] == "kernel":
            for k in d.keywords:
                if k.arg == "warps":
                    try:
                        w = Evaluator(env).as_int(k.value)
                    except Exception:  # noqa: BLE001 - an undetermined count leaves the warps open
                        return None
                    return w if 0 < w <= warps_mod.MAX_WARPS else None
    return None


def ends_in_return(body) -> bool:
    """The branch leaves the function: its last statement is `return` (or an if whose branches all do)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and ends_in_return(last.body) and ends_in_return(last.orelse)


def walk_calls(node):
    """Calls in `node`, outermost first, not descending into lambdas."""
    stack = [node]
    while stack:
        n = stack.pop(0)
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Call):
            yield n
        stack.extend(ast.iter_child_nodes(n))


def all_params(fn):
    a = fn.args
    return a.posonlyargs + a.args + a.kwonlyargs


def bind_call(fn: ast.FunctionDef, call: ast.Call, env: dict, ev: Evaluator, ex: Extraction) -> None:
    params = fn.args.posonlyargs + fn.args.args
    defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    for i, p in enumerate(params):
        if p.arg in ex.overrides:
            env[p.arg] = ex.overrides[p.arg]
        elif i < len(call.args):
            env[p.arg] = arg_value(call.args[i], p.arg, ev, call.lineno)
        elif p.arg in kw:
            env[p.arg] = arg_value(kw[p.arg], p.arg, ev, call.lineno)
        elif defaults[i] is not None:
            env[p.arg] = eval_or_unresolved(ev, defaults[i], p.arg, fn.lineno)
        else:
            env[p.arg] = Unresolved(p.arg, call.lineno, f"parameter of {fn.name} not passed at line {call.lineno}")
    for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if p.arg in ex.overrides:
            env[p.arg] = ex.overrides[p.arg]
        elif p.arg in kw:
            env[p.arg] = arg_value(kw[p.arg], p.arg, ev, call.lineno)
        elif d is not None:
            env[p.arg] = eval_or_unresolved(ev, d, p.arg, fn.lineno)
        else:
            env[p.arg] = Unresolved(p.arg, call.lineno, f"parameter of {fn.name} not passed at line {call.lineno}")


def arg_value(node, name, ev, line):
    if isinstance(node, ast.Name) and node.id in ev.env and not isinstance(ev.env[node.id], Imported):
        v = ev.env[node.id]
        if isinstance(v, Unresolved):
            u = Unresolved(name, line, f"argument {node.id}", v)
            u.expr = v.expr  # a thread-derived value stays re-evaluable per warp and lane
            return u
        return v
    if is_layout_expr(node):
        return LayoutExpr(node, line)
    v = eval_or_unresolved(ev, node, name, line)
    if isinstance(v, Unresolved) and v.thread:
        v.expr = (node, dict(ev.env))  # a per-lane value (an ldmatrix row address): re-evaluated per lane
    return v


def bind_buffer_params(fn: ast.FunctionDef, env: dict, ex: Extraction, ev: Evaluator) -> None:
    """Kernel parameters annotated T.Buffer(shape, dtype[, layout=]) are global buffers."""
    for p in all_params(fn):
        ann = p.annotation
        if isinstance(ann, ast.Call) and (getattr(ann.func, "attr", None) == "Buffer" or
                                          getattr(ann.func, "id", None) == "Buffer"):
            got = allocators.global_buffer(p.arg, ann, env, Evaluator(env), ex, p.lineno)
            env[p.arg] = got


INTERESTING = allocators.ALLOCATOR_NAMES | op_sites.OP_NAMES | {"view", "commit", "dealloc", "alloc"}


def returns_walked_value(fn) -> bool:
    """A helper worth walking for its return value: it allocates or issues ops (contains_interesting,
    a stdlib `copy.copy` aside) and ends in a `return` of something."""
    if not fn.body or not isinstance(fn.body[-1], ast.Return) or fn.body[-1].value is None:
        return False
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                (dotted(n.func.value) or "").split(".")[0] in ("copy", "math", "itertools", "functools"):
            continue
        if isinstance(n, ast.Call) and contains_interesting(ast.Module(body=[ast.Expr(n)], type_ignores=[])):
            return True
    return False


def contains_interesting(fn) -> bool:
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in INTERESTING:
                return True
            if isinstance(f, ast.Name) and f.id in INTERESTING:
                return True
            if isinstance(f, ast.Subscript) and "ptx" in ast.unparse(f):
                return True
            if isinstance(f, ast.Attribute) and ".ptx." in ast.unparse(f) + ".":
                return True
    return False
