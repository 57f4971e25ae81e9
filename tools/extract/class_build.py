"""An instance of a plain class that kernel code constructs (docs/extract.md, "A helper object
constructed in a tile's class_init").

gemm's class_init (spectrometerHBH 8721e86 tile_tasks/gemm.py:180-184, through
`_alloc_buffer_class_member`) stores `GemmTile.tma2mma_bar = BarTMA2MMA(smem_manager,
cls.SMEM_PIPE_DEPTH, True)`: BarTMA2MMA is a class of the file whose base `Barriers`
(utils/base.py:67-95, `@T.meta_class`, read as a plain class: tile_class.meta_decorated) keeps
the manager and three numbers in `__init__` and allocates its mbarriers later, in `init`, from the
manager.  Python builds such an instance by creating the object and running `__init__` along the
MRO (Python Language Reference 3.3.1, object.__init__), which tile_class.run_init does with the
evaluator (straight-line statements, `super().__init__`; a raise or an undecided statement is
recorded on the instance).  Constructed here when:

  * every base of the class is read (an unread base's `__init__` could do anything);
  * no `__new__`, `__call__` or `__init_subclass__` is defined along the MRO (their effect on
    construction is not modelled);
  * the construction is not inside a tile task's own `__init__` (tile_class.construct keeps its
    rule: a constructor reaching a construction is not known to return) nor inside the
    construction of the same class (recursion);
  * its arguments are known (an Unresolved argument leaves the construction unresolved naming it).

Otherwise the call stays unresolved, as before, naming why.  An allocation such an object makes
into its own attribute (`self.mbar = self.smem_manager.alloc(...)`, base.py:77-80) is named after
the tile-task attribute holding the object (`tma2mma_bar.mbar`; tile_class.member_name), so the
four barrier objects' allocations are four model buffers, as they are four allocations in Python.

Python 3 standard library only.
"""
from __future__ import annotations

HOLDERS: dict = {}  # id(Instance) -> (Instance, the attribute of a tile task / class that holds it)
BUILDING_NOW: list = []  # names of the classes whose __init__ runs here (recursion guard)
UNSUPPORTED = ("__new__", "__call__", "__init_subclass__")


def construct(c, node, ev):
    """The Instance `C(...)` at `node` (an ast.Call) builds, or raises UnresolvedError saying why not."""
    import kernel_env
    import tile_class

    def refuse(why):
        raise kernel_env.UnresolvedError(kernel_env.Unresolved(c.name, c.node.lineno, why))

    if tile_class.CONSTRUCTING[0]:
        refuse("a class (not evaluated inside a tile task's __init__: whether that constructor returns is not "
               "known; a tile task's own instance is built from its __init__ by tile_class.py)")
    unread = c.unread_bases()
    if unread:
        refuse(f"a class with a base that is not read ({'; '.join(unread)}): its construction is not evaluated")
    for name in UNSUPPORTED:
        if c.find(name) is not None:
            refuse(f"a class defining {name} along its bases: its construction is not evaluated")
    if c.name in BUILDING_NOW:
        refuse(f"{c.name} is constructed while its own __init__ runs (line {node.lineno}): not followed")
    args, kwargs = ev.call_args(node)
    for v in list(args) + list(kwargs.values()):
        if isinstance(v, kernel_env.Unresolved):
            raise kernel_env.UnresolvedError(v)
    for k in c.mro():
        k.attrs  # noqa: B018 - the class bodies run before __init__, as in Python
    inst = tile_class.Instance(c)
    got = c.find("__init__")
    if got is None:
        if args or kwargs:
            refuse(f"{c.name}(...) with arguments, and no __init__ along its bases (object.__init__ takes none)")
        return inst
    if got[1] != "method":
        refuse(f"{c.name}.__init__ is not a def of the class")

    class _Sink:  # an object's constructor arguments are not the model's configuration
        config: dict = {}
    BUILDING_NOW.append(c.name)
    try:
        tile_class.run_init(got[0], got[2], inst, {}, _Sink(), (args, kwargs), lambda n: False)
    finally:
        BUILDING_NOW.pop()
    if inst.never is not None:
        refuse(f"{c.name}(...) at line {node.lineno}: {inst.never[1]}")
    return inst
