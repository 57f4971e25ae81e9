"""Unit tests of the corpus translator (stdlib unittest).

Run:  python3 -m unittest discover -s tools/corpus -p 'test_*.py'

Every expected string below is the notation the translation must produce for a source
spelling that occurs in the corpus (line numbers refer to ../shared/corpus/kernel_layouts.jsonl).
"""
import json
import shutil
import tempfile
import unittest
from pathlib import Path

import convert_corpus as cc
from corpus_notation import ConvertError, Translator, check_concrete, make_dtype, parse_expr

ENV = {
    "PIPE_DEPTH": 4, "NUM_CONSUMER": 2, "BLK_M": 128, "BLK_K": 64, "EPI_N": 32,
    "ab_type": make_dtype("float16"), "K_ITERS": 4, "SMEM_DEPTH": 6, "BLK_SFA": 128,
    "self.TMEM_LD_SIZE": 8,
}


def concrete(src, env=ENV):
    lay = Translator(dict(env), symbolic=False).layout(parse_expr(src))
    return lay.as_layout(), lay.size


def symbolic(src, env=ENV):
    return Translator(dict(env), symbolic=True).layout(parse_expr(src)).as_layout()


class TranslateTest(unittest.TestCase):
    def test_tile_layout_builder_form(self):
        # line 87: Layout D written by hand
        self.assertEqual(concrete("TileLayout(T.S[(128, 512):(1 @ TLane, 1 @ TCol)])"),
                         ("S[(128,512):(1@TLane,1@TCol)]", 65536))
        # line 228: the replicated TMEM view (replica does not count in the size)
        self.assertEqual(concrete("TileLayout(S[(64, 384):(1 @ TLane, 1 @ TCol)] + R[2:64 @ TLane])"),
                         ("S[(64,384):(1@TLane,1@TCol)] + R[2:64@TLane]", 24576))
        # TVM printed form with Axis. prefixes and extent-1 iters (line 310)
        self.assertEqual(
            concrete("T.TileLayout(T.S[(64, 1, 2, 128):(1 @ Axis.TLane, 128 @ Axis.TCol, 64 @ Axis.TLane, 1 @ Axis.TCol)])"),
            ("S[(64,1,2,128):(1@TLane,128@TCol,64@TLane,1@TCol)]", 16384))
        # extents-only spec gets row-major strides (line 383 form); one iter prints unparenthesised
        self.assertEqual(concrete("T.TileLayout(T.S[(2, 3, 4)])"), ("S[(2,3,4):(12,4,1)]", 24))
        self.assertEqual(concrete("TileLayout(S[(2,):(1,)])"), ("S[2:1]", 2))

    def test_from_iters_and_swizzle_layout(self):
        # line 245: ComposeLayout(SwizzleLayout(...), TileLayout.from_iters(...))
        src = ("ComposeLayout(SwizzleLayout(3, 3, 3, swizzle_inner=True), TileLayout.from_iters("
               "[Iter(4, 1024, 'm'), Iter(4, 64, 'm'), Iter(64, 1, 'm')]))")
        self.assertEqual(concrete(src), ("ComposeLayout(3, 3, 3, S[(4,4,64):(1024,64,1)])", 1024))
        self.assertEqual(concrete("ComposeLayout(3, 3, 3, S[(8,64):(64,1)], swizzle_inner=False)"),
                         ("ComposeLayout(3, 3, 3, S[(8,64):(64,1)], swizzle_inner=False)", 512))

    def test_allocators_map_to_factories(self):
        # kern smem.alloc(swizzle=) and the SMEMPool allocators -> mma_shared_layout
        self.assertEqual(
            concrete("smem.alloc((PIPE_DEPTH, NUM_CONSUMER, BLK_M, BLK_K), ab_type, swizzle=K.SW128B)"),
            ('mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (4, 2, 128, 64))', 65536))
        self.assertEqual(concrete("smem.alloc((256, 64), 'float16', swizzle=3)")[0],
                         'mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (256, 64))')
        # "auto" is the 128B atom (alloc_pool._auto_swizzle_mode); "none" and explicit modes kept
        self.assertEqual(concrete("pool.alloc_tcgen05_mma_AB((128, 128), 'bfloat16', swizzle_mode='auto')")[0],
                         'mma_shared_layout("bfloat16", SwizzleMode.SWIZZLE_128B_ATOM, (128, 128))')
        self.assertEqual(
            concrete("pool.alloc_mma((64, 64), 'bfloat16', swizzle_mode=SwizzleMode.SWIZZLE_NONE)")[0],
            'mma_shared_layout("bfloat16", SwizzleMode.SWIZZLE_NONE, (64, 64))')
        # _swizzle_for_row_bytes: 32 float16 = 64-byte rows -> the 64B atom (line 91)
        self.assertEqual(
            concrete("pool.alloc_tcgen05_mma_AB((2, 128, EPI_N), ab_type, "
                     "swizzle_mode=_swizzle_for_row_bytes(EPI_N * (ab_type.bits // 8)))")[0],
            'mma_shared_layout("float16", SwizzleMode.SWIZZLE_64B_ATOM, (2, 128, 32))')
        # TMEM pool: default layout, datapath letter, scale factors, MMA operands
        self.assertEqual(concrete("tmem_pool.alloc((128, 512), 'float32')"), ("default_tmem_layout(128, 512)", 65536))
        self.assertEqual(concrete("tmem_pool.alloc((64, 128), 'float32', datapath='B')")[0],
                         'tmem_datapath_layout("B", 64, 128)')
        self.assertEqual(
            concrete("tmem_pool.alloc_sf((2, 128, 4 * K_ITERS), 'float8_e8m0fnu', sf_per_mma=1, sf_reuse=K_ITERS)"),
            ("sf_tmem_layout(128, 4, 1, sf_reuse=4, pipe_depth=2)", 4096))
        self.assertEqual(
            concrete("tmem_pool.alloc_mma_D((64, 512), 'float32', M=128, cta_group=2, group=(2, 2, 128))")[0],
            'tmem_mma_operand_layout("D", (64, 512), "float32", M=128, cta_group=2, group=(2, 2, 128))')
        self.assertEqual(
            concrete("tmem_pool.alloc_tcgen05_mma_A((2, 64, 256), 'bfloat16', M=64, cta_group=1, ws=True)")[0],
            'tmem_mma_operand_layout("A", (2, 64, 256), "bfloat16", M=64, cta_group=1, ws=True)')
        # register fragments
        self.assertEqual(concrete("T.alloc_tcgen05_ldst_frag('16x256b', (128, EPI_N), 'float32')"),
                         ('tcgen05_atom_layout("16x256b", (128, 32), "float32")', 4096))
        self.assertEqual(concrete("T.wg_reg_tile(self.TMEM_LD_SIZE)"), ("wg_local_layout(8)", 1024))
        # FA backward's private helper is the 128B mma layout
        self.assertEqual(concrete("tma_shared_layout(f16, (2, 128, 64))", dict(ENV, f16=make_dtype("float16")))[0],
                         'mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (2, 128, 64))')

    def test_method_chains(self):
        # line 133: unpack + broadcast, receiver wrapped in TileLayout(...)
        src = ("T.TileLayout(T.S[(SMEM_DEPTH, BLK_SFA // 128, 4, 32):(BLK_SFA, 128, 1, 4)])"
               ".unpack(4).broadcast(K_ITERS)")
        self.assertEqual(concrete(src), ("TileLayout(S[(6,1,4,32):(128,128,1,4)]).unpack(4).broadcast(4)", 12288))
        # line 197: .tile(outer, outer_shape, inner_shape); size = prod(outer) * prod(inner)
        src = "TileLayout(S[(8, 4, 2):(4 @ laneid, 1 @ laneid, 1)]).tile(TileLayout(S[(2, 2):(1, 2)]), (2, 2), (8, 8))"
        self.assertEqual(concrete(src),
                         ("TileLayout(S[(8,4,2):(4@laneid,1@laneid,1)]).tile(TileLayout(S[(2,2):(1,2)]), (2, 2), (8, 8))", 256))

    def test_symbolic_form_keeps_parameter_names(self):
        self.assertEqual(
            symbolic("smem.alloc((PIPE_DEPTH, NUM_CONSUMER, BLK_M, BLK_K), ab_type, swizzle=K.SW128B)"),
            "mma_shared_layout(ab_type, SwizzleMode.SWIZZLE_128B_ATOM, (PIPE_DEPTH, NUM_CONSUMER, BLK_M, BLK_K))")
        self.assertEqual(symbolic("T.S[(SMEM_DEPTH, BLK_SFA // 128):(BLK_SFA, 1)]"),
                         "S[(SMEM_DEPTH,BLK_SFA // 128):(BLK_SFA,1)]")

    def test_errors(self):
        with self.assertRaisesRegex(ConvertError, "unbound name 'NOPE'"):
            concrete("smem.alloc((NOPE, 64), 'float16', swizzle=3)")
        with self.assertRaisesRegex(ConvertError, "unknown axis"):
            concrete("TileLayout(S[(8, 4):((1, 'pid'), 1)])")
        with self.assertRaisesRegex(ConvertError, "differ in length"):
            concrete("TileLayout(S[(8, 4):(1,)])")
        with self.assertRaisesRegex(ConvertError, "no translation"):
            concrete("some_helper(3)")

    def test_concreteness_check(self):
        check_concrete('mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (4, 64))')
        check_concrete("S[(64,384):(1@TLane,1@TCol)] + R[2:64@TLane]")
        with self.assertRaisesRegex(ConvertError, "identifier 'BLK_K'"):
            check_concrete("S[(8,BLK_K):(64,1)]")
        with self.assertRaisesRegex(ConvertError, "empty"):
            check_concrete("  ")


class ParamsTest(unittest.TestCase):
    def test_expressions_evaluate_in_dependency_order(self):
        specs = {"EPI_N": {"expr": "MMA_N // WB", "origin": "o"}, "MMA_N": {"value": 256, "origin": "o"},
                 "WB": {"value": 8, "origin": "o"}, "SW": {"value": "SwizzleMode.SWIZZLE_64B_ATOM", "origin": "o"}}
        env = cc.build_env(specs, {"WB": {"value": 4, "origin": "local"}})
        self.assertEqual(env["EPI_N"], 64)
        self.assertEqual(cc.encode_value(env["SW"]), "SwizzleMode.SWIZZLE_64B_ATOM")
        self.assertEqual(cc.expr_dependencies(specs, {"EPI_N"}), {"EPI_N", "MMA_N", "WB"})
        with self.assertRaisesRegex(ConvertError, "param X"):
            cc.build_env({"X": {"expr": "Y + 1", "origin": "o"}}, None)


class ConvertTest(unittest.TestCase):
    def run_corpus(self, records, overrides):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "c.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
            (tmp / "o.json").write_text(json.dumps(overrides))
            rc = cc.main(["--corpus", str(tmp / "c.jsonl"), "--overrides", str(tmp / "o.json"),
                          "--out", str(tmp / "out"), "--doc", str(tmp / "no-doc.md")])
            models = {p.stem: json.loads(p.read_text()) for p in (tmp / "out").glob("*.json")}
            return rc, models

    def record(self, buffer, layout_src, shape, dtype="float16", scope="shared.dyn", constructor="implicit:kern_smem_alloc_swizzle",
               symbols=None, resolved=None):
        return {"kernel": "k", "buffer": buffer, "scope": scope, "shape": shape, "dtype": dtype,
                "constructor": constructor, "resolved": resolved, "symbols": symbols, "consumers": None,
                "layout_src": layout_src, "count": 1, "repos": ["r"], "files": ["f.py"], "at_head": []}

    def test_model_has_params_names_and_symbolic_layout(self):
        recs = [self.record("A", "smem.alloc((D, 128, 64), 'float16', swizzle=3)", "(D, 128, 64)",
                            symbols={"D": "assign: cfg['d']"}),
                self.record("A", "TileLayout(S[(128, 64):(64, 1)])", "(128, 64)", constructor="TileLayout"),
                self.record("t", "tmem_pool.alloc((128, 512), 'float32')", "(128, 512)", dtype="float32",
                            scope="tmem", constructor="implicit:tmem_pool.alloc(default)")]
        ov = {"kernels": {"k": {"alloc_cols": 512, "params": {
            "D": {"value": 3, "origin": "cfg"}, "dt": {"value": "float16", "origin": "unused"}}}}}
        rc, models = self.run_corpus(recs, ov)
        self.assertEqual(rc, 0)
        m = models["k"]
        self.assertEqual(m["params"], {"D": {"value": 3, "origin": "cfg"}})  # only used, only integers
        self.assertEqual([b["name"] for b in m["buffers"]], ["A/kern_smem", "A/TileLayout", "t"])
        a = m["buffers"][0]
        self.assertEqual(a["shape"], [3, 128, 64])
        self.assertEqual(a["layout"], 'mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (3, 128, 64))')
        self.assertEqual(a["layout_symbolic"], 'mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (D, 128, 64))')
        self.assertEqual(a["corpus"]["kind"], "implied")
        self.assertNotIn("alloc_cols", a)
        self.assertEqual(m["buffers"][2]["alloc_cols"], 512)

    def test_size_mismatch_and_missing_dtype_fail(self):
        recs = [self.record("A", "TileLayout(S[(128, 64):(64, 1)])", "(128, 32)", constructor="TileLayout"),
                self.record("B", "TileLayout(S[(8, 8):(8, 1)])", "(8, 8)", dtype=None, constructor="TileLayout")]
        rc, models = self.run_corpus(recs, {"kernels": {}, "records": {}})
        self.assertEqual(rc, 1)
        self.assertEqual(models, {})


@unittest.skipUnless(cc.DEFAULT_CORPUS.exists(), "the shared corpus is not next to the repository")
class RealCorpusTest(unittest.TestCase):
    """The committed models are exactly what the converter writes from the real corpus."""

    def test_regeneration_is_byte_identical(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            # Regenerated over a copy of the committed models: their hand-written parts (ops, views,
            # origins) are kept, the corpus-derived fields must come out byte-identical.
            shutil.copytree(cc.DEFAULT_OUT, out)
            self.assertEqual(cc.main(["--out", str(out), "--doc", str(Path(tmp) / "no-doc.md")]), 0)
            written = sorted(out.glob("*.json"))
            self.assertEqual(len(written), 30)
            n_buffers = 0
            for p in written:
                text = p.read_text(encoding="utf-8")
                self.assertEqual(text, (cc.DEFAULT_OUT / p.name).read_text(encoding="utf-8"), p.name)
                n_buffers += sum(1 for b in json.loads(text)["buffers"] if "corpus" in b)
            self.assertEqual(n_buffers, 421)

    def test_paged_mqa_sf_layout_and_swizzle_helper(self):
        models = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in cc.DEFAULT_OUT.glob("*.json")}
        by_line = {b["corpus"]["line"]: b for m in models.values() for b in m["buffers"] if "corpus" in b}
        self.assertEqual(by_line[155]["layout"], "sf_tmem_layout(128, 8, 8)")
        self.assertEqual(by_line[178]["layout"], "S[(2,2,2,8):(32,16,8,0)]")
        self.assertEqual(by_line[326]["layout"], "ComposeLayout(3, 2, 3, S[4096:1])")
        self.assertEqual(sorted({m["target"] for m in models.values()}), ["sm_100a"])


if __name__ == "__main__":
    unittest.main()
