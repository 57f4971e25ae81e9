"""The driver of rpkg/tiles (written for tirx-verify's extraction tests): a wrapper whose tiles
get their global buffers from a prim_func's match_buffers through two methods, with the batch
size an attribute the compile helper stores after construction from its caller's parameter,
which the runner takes from CONFIGS (the megakernel's moe.py form)."""
from rpkg.base import WrapperBase
from rpkg.tiles import ChoiceTile, KeepTile, RunTile
from tvm.script import tirx as T

CFG = {"HIDDEN": 64}
CONFIGS = [{"label": "b128", "batch": 128}, {"label": "b256", "batch": 256}]


class Driver(WrapperBase):
    def __init__(self, config):
        super().__init__()
        self.HIDDEN = config.get("HIDDEN", None)

    def set_tiles(self):
        self.gate = self._add_tile(RunTile(self.HIDDEN, "float16"))
        self.pick = self._add_tile(ChoiceTile(self.HIDDEN))
        self._keep(KeepTile(self.HIDDEN))

    def task_gate(self, A, B):
        self.run_tile(self.gate, self.sched.m_idx, A, B)

    def task_pick(self, X):
        self.run_tile(self.pick, X)

    def body(self, batch, X, W, Y):
        self.set_tiles()
        self.task_gate(X, W)
        self.task_pick(Y)

    def get_func(self):
        n = getattr(self, "_batch", 1)

        @T.prim_func
        def main(x_ptr: T.handle, w_ptr: T.handle):
            batch = T.meta_var(n)
            X = T.match_buffer(x_ptr, [batch, self.HIDDEN], "float16", scope="global")
            W = T.match_buffer(w_ptr, [64, self.HIDDEN], "float16", scope="global")
            self.body(batch, X, W, X)

        return main

    def get_small(self):
        rows = getattr(self, "_batch", 1)

        @T.prim_func
        def main(x_ptr: T.handle, w_ptr: T.handle):
            X = T.match_buffer(x_ptr, [rows, self.HIDDEN], "float16", scope="global")
            W = T.match_buffer(w_ptr, [64, self.HIDDEN], "float16", scope="global")
            self.body(rows, X, W, W)

        return main


def compile_it(batch):
    d = Driver(config=CFG)
    d._batch = batch
    return d.get_func()


def run_test(batch):
    compile_it(batch)
