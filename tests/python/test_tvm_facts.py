"""TVM's own layout test facts (shared/facts/tvm_test_facts.json, from apache/tvm
tests/python/tirx/test_layout.py and friends), written as TVM's tests write them -- with the
builder syntax, TVM's method names and argument orders -- against tirx_verify."""

import pytest

import tirx_verify as tv
from tirx_verify import Axis, ComposeLayout, Iter, R, S, TileLayout


def canon(layout):
    return layout.canonicalize()


def T(spec):
    return TileLayout(spec)


# ---- size / span -----------------------------------------------------------------------------
@pytest.mark.parametrize("layout, size, span", [
    (ComposeLayout(3, 3, 3, T(S[(8, 64):(64, 1)])), 512, 512),
    (ComposeLayout(3, 3, 3, T(S[(16, 64, 8):(64, 1, 1024)])), 8192, 8192),
    (ComposeLayout(4, 3, 3, T(S[1024:1])), 1024, 1024),
    (ComposeLayout(3, 3, 3, T(S[512:1])), 512, 512),
    (T(S[(8, 8):(8, 1)]), 64, 64),
    (T(S[(8, 6):(8, 1)]), 48, 62),
    (T(S[(8, 1, 4, 2):(4 @ Axis.laneid, 2, 1 @ Axis.laneid, 1)]), 64, 2),
])
def test_size_span(layout, size, span):
    assert layout.size() == size
    assert layout.span() == span


@pytest.mark.parametrize("layout, axis, size", [
    (T(S[8:1 @ Axis.P]), "F", 1),
    (T(S[(8, 8):(1 @ Axis.P, 1 @ Axis.F)]), "P", 8),
    (T(S[8:1 @ Axis.P]), "P", 8),
    (T(S[8:1 @ Axis.F]), "P", 1),
    (T(S[(8, 8, 8):(64 @ Axis.F, 1 @ Axis.P, 1 @ Axis.F)]), "F", 64),
])
def test_size_axis(layout, axis, size):
    assert layout.size(axis) == size
    assert layout.size(Axis.get(axis)) == size


def test_trainium_size():
    lay = TileLayout.trainium("PF", (128, 128))
    assert [lay.size("P"), lay.size("F")] == [128, 128]


def test_to_psum():
    assert T(S[(1024, 8):(1 @ Axis.F, 1 @ Axis.P)]).to_psum() == T(S[(2, 512, 8):(1 @ Axis.Bank, 1 @ Axis.F, 1 @ Axis.P)])


# ---- apply -----------------------------------------------------------------------------------
def test_apply_swizzle_formulas():
    lay = ComposeLayout(0, 3, 3, T(S[64:1]))
    for i in range(8):
        for j in range(8):
            assert lay.apply(i * 8 + j)["m"] == 8 * i + (i ^ j)
    lay = ComposeLayout(3, 3, 3, T(S[512:1]))
    for i in range(8):
        for j in range(8):
            for k in range(8):
                assert lay.apply((i * 8 + j) * 8 + k)["m"] == (8 * i + (i ^ j)) * 8 + k
    outer = ComposeLayout(0, 3, 3, T(S[64:1]), swizzle_inner=False)
    assert outer.size() == 64
    for i in range(8):
        for j in range(8):
            assert outer.apply(i * 8 + j)["m"] == 8 * (i ^ j) + j
    assert ComposeLayout(0, 2, 3, T(S[32:1])).apply(30)["m"] == 29


def test_apply_linear_and_strided():
    for i in range(8):
        for j in range(8):
            assert T(S[(8, 8):(8, 1)]).apply(i * 8 + j)["m"] == i * 8 + j
            assert T(S[(8, 8):(10, 1)]).apply(i * 8 + j)["m"] == 10 * i + j
    assert T(S[(8, 8):(10, 1)]).apply(19)["m"] == 23
    assert T(S[(8, 8):(10, 1)]).apply(70, extrapolate=True)["m"] == 86  # past the domain: TVM's arithmetic
    with pytest.raises(tv.InputError) as e:
        T(S[(8, 8):(10, 1)]).apply(70)  # strict by default, as `tirx-verify apply`
    assert "extrapolate=True" in e.value.rendering
    assert T(S[(2, 3, 4, 2, 2):(1, 2, 12, 6, 48)]).apply(4, 13, shape=(6, 16))["m"] == 87


def test_apply_coordinate_count_must_match():
    with pytest.raises(tv.InputError) as e:
        T(S[(8, 8):(8, 1)]).apply(1, 1, 1)
    assert e.value.check_id == "layout.well-formed"


def test_apply_thread_axes_dict():
    lay = T(S[(8, 1, 4, 2):(4 @ Axis.laneid, 2, 1 @ Axis.laneid, 1)])
    for i0 in range(8):
        for i1 in range(8):
            assert lay.apply(i0, i1, shape=(8, 8)) == {"m": i1 % 2, "laneid": 4 * i0 + i1 // 2}
    lay = T(S[(8, 8):(8 @ Axis.F, 1 @ Axis.P)])
    for i in range(8):
        for j in range(8):
            assert lay.apply(i, j, shape=(8, 8)) == {"P": j, "F": 8 * i}
    assert T(S[(2, 6, 4, 2, 2):(1 @ Axis.F, 1 @ Axis.P, 12 @ Axis.F, 6 @ Axis.P, 48 @ Axis.F)]).apply(
        7, 13, shape=(12, 16)) == {"P": 1, "F": 85}


def test_apply_beyond_size_extrapolates():
    assert ComposeLayout(3, 3, 3, T(S[512:1])).apply(600, extrapolate=True)["m"] == 592


def naive_swizzle(m, per=3, b=3, s=3):
    return m ^ (((m >> (per + s)) & ((1 << b) - 1)) << per)


@pytest.mark.parametrize("c", [0, 8, 16, 24, 512, 520, 528, 536])
def test_apply_swizzle_offsets(c):
    lay = ComposeLayout(3, 3, 3, T(S[(8, 8):(64, 1)] + c))
    for x in range(8):
        for y in range(8):
            assert lay.apply(x, y, shape=(8, 8))["m"] == naive_swizzle(x * 64 + y + c)


def test_apply_swizzle_reference_formulas():
    lay = ComposeLayout(3, 3, 3, T(S[(8, 8):(64, 1)] + 72))
    for x in range(8):
        for y in range(8):
            assert lay.apply(x, y, shape=(8, 8))["m"] == (x * 64 + 64 + (y ^ (((x + 1) & 7) << 3))) ^ 8
    for blen, mask in ((0, None), (1, 1), (2, 3), (3, 7)):
        lay = ComposeLayout(3, blen, 3, T(S[(8, 8):(64, 1)] + 72))
        for x in range(8):
            for y in range(8):
                want = x * 64 + y + 72 if mask is None else (x * 64 + (y ^ (((x + 1) & mask) << 3)) + 64) ^ 8
                assert lay.apply(x, y, shape=(8, 8))["m"] == want
    lay = ComposeLayout(3, 3, 3, T(S[(128, 8):(8, 1)]))
    for x in range(0, 128, 7):
        for y in range(8):
            assert lay.apply(x, y, shape=(128, 8))["m"] == x // 8 * 64 + ((x % 8 * 8 + y) ^ (((x // 8) & 7) << 3))
    lay = ComposeLayout(3, 3, 3, T(S[(2, 4, 8, 8):(256, 64, 8, 1)]))
    for x in range(8):
        for y in range(64):
            assert lay.apply(x, y, shape=(8, 64))["m"] == x * 64 + (y ^ ((x & 7) << 3))


def test_apply_to_shape():
    lay = TileLayout.from_iters([Iter(16, 16, "m"), Iter(4, 4, "m"), Iter(4, 1, "m")])
    assert lay.apply_to_shape([5, 7], [16, 16]) == [5, 1, 3]
    lay = TileLayout.from_iters([Iter(4, 64, "m"), Iter(4, 16, "m"), Iter(4, 4, "m"), Iter(4, 1, "m")])
    assert lay.apply_to_shape([13, 9], [16, 16]) == [3, 1, 2, 1]


def test_tmem_mma_operand_apply():
    lay = T(S[(64, 2, 2, 128):(1 @ Axis.TLane, 128 @ Axis.TCol, 64 @ Axis.TLane, 1 @ Axis.TCol)])
    assert lay.apply(3, 300, shape=(64, 512)) == {"TLane": 3, "TCol": 172}


# ---- Axis ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["bz", "laneid", "warpid", "bx", "cby", "tid_in_wg", "cbz", "by"])
def test_axis_is_thread(name):
    assert getattr(Axis, name).is_thread()
    assert Axis.get(name) is getattr(Axis, name)


@pytest.mark.parametrize("name", ["m", "F", "P", "TCol"])
def test_axis_is_memory(name):
    assert getattr(Axis, name).is_memory()
    assert not getattr(Axis, name).is_thread()


def test_axis_scopes():
    assert Axis.laneid.get_scope() == "warp" and Axis.laneid.get_subscope() == "thread"
    assert Axis.warpid.get_scope() == "cta" and Axis.warpid.get_subscope() == "warp"
    assert Axis.m.get_scope() is None


# ---- the builder ------------------------------------------------------------------------------
def test_builder_fields():
    lay = T(S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])
    assert [(i.extent, i.stride, i.axis.name) for i in lay.shard] == [(8, 4, "laneid"), (4, 1, "laneid"), (2, 1, "m")]
    lay = T(S[8:4 @ Axis.laneid] + 1 @ Axis.laneid)
    assert [(i.extent, i.stride, i.axis.name) for i in lay.shard] == [(8, 4, "laneid")]
    assert lay.replica == [] and lay.offset == {"laneid": 1}
    lay = T(S[(2, 3, 4):(12 @ Axis.m, 4 @ Axis.m, 1 @ Axis.m)])
    assert [(i.extent, i.stride, i.axis.name) for i in lay.shard] == [(2, 12, "m"), (3, 4, "m"), (4, 1, "m")]
    lay = T(S[8:4 @ Axis.laneid] + R[4:1 @ Axis.laneid])
    assert [(i.extent, i.stride, i.axis.name) for i in lay.replica] == [(4, 1, "laneid")]
    assert T(64 + S[8:4 @ Axis.laneid] + 1 @ Axis.laneid).offset == {"laneid": 1, "m": 64}
    assert T(S[8:4 @ Axis.laneid] + 64).offset == {"m": 64}
    assert T(S[8:4 @ Axis.laneid] + (1 @ Axis.laneid + 2 @ Axis.warpid + 64)) == \
        T(S[8:4 @ Axis.laneid] + 1 @ Axis.laneid + 2 @ Axis.warpid + 64)
    assert T(S[8:4 @ Axis.laneid] + 1 @ Axis.laneid + 2 @ Axis.warpid + 64).offset == {"laneid": 1, "warpid": 2, "m": 64}


def test_builder_string_axes():
    assert str(T(S[(8, 4):("laneid", 1)])) == str(T(S[(8, 4):(1 @ Axis.laneid, 1)]))
    assert str(T(S[(8,):(4 @ Axis.laneid,)] + R[4:1 @ Axis.laneid])) == str(T(S[8:4 @ Axis.laneid] + R[4:1 @ Axis.laneid]))
    assert str(T(S[32:"warpid"])) == str(T(S[32:1 @ Axis.warpid]))
    assert str(T(S[1:1] + R[4:"laneid"])) == str(T(S[1:1] + R[4:1 @ Axis.laneid]))


def test_printed_form():
    assert str(T(S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])) == \
        "T.TileLayout(T.S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])"
    assert str(T(S[1:1] + R[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)] + 2 @ Axis.warpid)) == \
        "T.TileLayout(T.S[1:1] + T.R[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)] + 2 @ Axis.warpid)"


# ---- canonicalize ----------------------------------------------------------------------------
@pytest.mark.parametrize("before, after", [
    (S[(8, 8, 8, 4, 2):(512, 64, 8, 2, 1)], S[4096:1]),
    (S[(18, 8, 2, 4, 2, 3, 6):(4, 2, 1, 4, 24, 6, 1)], S[(18, 16, 4, 2, 18):(4, 1, 4, 24, 1)]),
    (S[(3, 4, 5, 2, 3, 4):(20, 5, 1, 60, 20, 5)], S[(60, 24):(1, 5)]),
    (S[(32, 3, 4, 5, 2, 3, 4):(1 @ Axis.laneid, 20, 5, 1, 60, 20, 5)], S[(32, 60, 24):(1 @ Axis.laneid, 1, 5)]),
    (S[(8, 8, 1, 8, 4, 2):(512, 64, 160, 8, 2, 1)], S[4096:1]),
    (S[(8, 8, 8, 4, 1, 1):(512, 64, 8, 2, 1, 1)], S[2048:2]),
    (S[(8, 8, 1, 1, 1, 4, 1, 1):(512, 64, 1, 1, 1, 2, 1, 1)], S[(64, 4):(64, 2)]),
    (S[(2, 3, 6):(18, 6, 1)], S[36:1]),
    (S[(8, 2, 3, 6):(6, 18, 6, 1)], S[(8, 36):(6, 1)]),
    (S[(8, 2, 3, 6):(6, 24, 6, 1)], S[(8, 2, 18):(6, 24, 1)]),
    (S[(8, 2, 4, 2, 3, 6):(2, 1, 4, 24, 6, 1)], S[(16, 4, 2, 18):(1, 4, 24, 1)]),
    (S[(3, 4, 5, 2):(20, 5, 1, 60)], S[(60, 2):(1, 60)]),
    (S[(8, 8, 8, 1, 4, 2, 1):(16, 4 @ Axis.laneid, 2, 1, 1 @ Axis.laneid, 1, 1)],
     S[(8, 8, 8, 4, 2):(16, 4 @ Axis.laneid, 2, 1 @ Axis.laneid, 1)]),
    (S[(8, 4, 4, 8, 8, 8):(4 @ Axis.laneid, 1 @ Axis.laneid, 4, 8, 8, 8)], S[(32, 4, 8, 8, 8):(1 @ Axis.laneid, 4, 8, 8, 8)]),
    (S[(8, 4, 4, 8, 8, 8):(4 @ Axis.laneid, 1 @ Axis.laneid, 16, 2, 8, 8)], S[(32, 32, 8, 8):(1 @ Axis.laneid, 2, 8, 8)]),
    (S[(8, 4, 4, 8, 8, 4, 4, 16, 8):(4 @ Axis.laneid, 1 @ Axis.laneid, 16, 2, 8, 2, 16, 1, 4)],
     S[(32, 32, 32, 64, 8):(1 @ Axis.laneid, 2, 2, 1, 4)]),
    (S[(8, 8, 8, 1, 1, 2, 1):(16, 4 @ Axis.laneid, 2, 1, 4 @ Axis.laneid, 1, 1)] + 0 @ Axis.laneid,
     S[(8, 8, 16):(16, 4 @ Axis.laneid, 1)]),
    (S[(8, 4, 8, 8, 16):(4 @ Axis.laneid, 1 @ Axis.laneid, 4, 2, 4)], S[(32, 8, 8, 16):(1 @ Axis.laneid, 4, 2, 4)]),
    (S[(8, 4, 8):(4 @ Axis.laneid, 1 @ Axis.laneid, 8)], S[(32, 8):(1 @ Axis.laneid, 8)]),
    (S[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)], S[32:1 @ Axis.laneid]),
    (S[(1, 1, 1, 1, 1):(1, 1, 1, 1, 1)], S[1:1]),
    (S[(8, 1, 8):(8 @ Axis.F, 1 @ Axis.P, 1 @ Axis.F)], S[64:1 @ Axis.F]),
    (S[(8, 8):(8 @ Axis.P, 1 @ Axis.F)], S[(8, 8):(8 @ Axis.P, 1 @ Axis.F)]),
])
def test_canonicalize(before, after):
    assert T(before).canonicalize() == T(after)


def test_canonicalize_compose():
    assert ComposeLayout(3, 3, 3, T(S[(8, 64):(64, 1)])).canonicalize() == ComposeLayout(3, 3, 3, T(S[512:1]))
    lay = ComposeLayout(3, 3, 3, T(S[(64, 4, 64):(64, 4096, 1)]))
    assert lay.canonicalize() == lay


def test_canonicalize_cuda_target():
    lay = T(S[(2, 8, 2, 4):(2 @ Axis.wid_in_wg, 4 @ Axis.laneid, 1 @ Axis.wid_in_wg, 1 @ Axis.laneid)])
    assert lay.canonicalize(cuda_target=True) == T(
        S[(2, 8, 2, 4):(64 @ Axis.tid_in_wg, 4 @ Axis.tid_in_wg, 32 @ Axis.tid_in_wg, 1 @ Axis.tid_in_wg)])
    lay = T(S[(2, 2, 4, 32):(2 @ Axis.wgid, 1 @ Axis.wgid, 32 @ Axis.tid_in_wg, 1 @ Axis.tid_in_wg)])
    assert lay.canonicalize(cuda_target=True) == T(S[512:1 @ Axis.tx])
    assert lay.verify_well_formed()


def test_canonicalize_replica_only():
    assert T(S[1:1] + R[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)] + 2 @ Axis.warpid).canonicalize() is not None


# ---- well-formedness and scope -----------------------------------------------------------------
@pytest.mark.parametrize("spec", [
    S[(2, 2, 8, 2, 2, 4):(2 @ Axis.wgid, 2 @ Axis.wid_in_wg, 4 @ Axis.laneid, 1 @ Axis.wgid, 1 @ Axis.wid_in_wg,
                          1 @ Axis.laneid)],
    S[(2, 8, 2, 4):(2 @ Axis.warpid, 4 @ Axis.laneid, 1 @ Axis.warpid, 1 @ Axis.laneid)],
    S[(2, 2, 8, 4):(2 @ Axis.warpid, 1 @ Axis.warpid, 4 @ Axis.laneid, 1 @ Axis.laneid)],
    S[8:4 @ Axis.laneid] + R[4:1 @ Axis.laneid],
    S[(2, 8, 2, 4, 2):(2 @ Axis.warpid, 4 @ Axis.laneid, 1 @ Axis.warpid, 1 @ Axis.laneid, 1)],
])
def test_verify_well_formed(spec):
    assert T(spec).verify_well_formed() is True


def test_disconnected_scope_chain_raises():
    lay = T(S[(2, 8, 2, 4, 2):(2 @ Axis.wgid, 4 @ Axis.laneid, 1 @ Axis.wgid, 1 @ Axis.laneid, 1)])
    with pytest.raises(tv.InputError) as e:
        lay.verify_well_formed()
    assert e.value.check_id == "layout.well-formed"
    assert "disconnected" in e.value.message


def test_get_scope():
    assert T(S[8:4 @ Axis.laneid] + R[4:1 @ Axis.laneid]).get_scope() == ("thread", "warp")
    assert T(S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)]).get_scope() == ("thread", "warp")


# ---- storage, pack, unpack, permute ------------------------------------------------------------
def test_storage():
    assert T(S[(8, 8):(8, 1)]).storage() == T(S[(8, 8):(8, 1)])
    assert T(S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)]).storage() == T(S[2:1])
    lay = ComposeLayout(3, 3, 3, T(S[512:1]))
    assert lay.storage() == lay


def test_pack_unpack():
    assert T(S[(8, 16):(16, 1)]).pack(2).canonicalize() == T(S[64:1])
    assert ComposeLayout(4, 3, 3, T(S[1024:1])).pack(2).canonicalize() == ComposeLayout(3, 3, 3, T(S[512:1]))
    assert ComposeLayout(4, 3, 3, T(S[(8, 128):(128, 1)])).pack(2).canonicalize() == ComposeLayout(3, 3, 3, T(S[512:1]))
    assert T(S[(8, 8):(8, 1)]).unpack(2).canonicalize() == T(S[(8, 16):(16, 1)]).canonicalize()
    assert ComposeLayout(3, 3, 3, T(S[512:1])).unpack(2).canonicalize() == ComposeLayout(4, 3, 3, T(S[1024:1]))


def test_group_and_permute():
    lay = T(S[(8, 8, 8, 8):(512, 8, 64, 1)])
    grouped, seps = lay.group([64, 64])
    assert grouped == lay and seps == [0, 2, 4]
    assert lay.permute_by_groups(seps, [0, 1]) == lay
    assert lay.permute_by_groups(seps, [1, 0]) == lay.permute_dims([2, 3, 0, 1]) == T(S[(8, 8, 8, 8):(64, 1, 512, 8)])
    with pytest.raises(tv.InputError):
        lay.permute_by_groups(seps, [0, 0])


@pytest.mark.parametrize("layout, shapes, result, seps", [
    (S[(6, 1, 5):(5, 97, 1)], ([6, 1, 5], [30]), S[(6, 1, 5):(5, 97, 1)], [[0, 1, 2, 3], [0, 3]]),
    (S[30:1], ([6, 5], [2, 15]), S[(2, 3, 5):(15, 5, 1)], [[0, 2, 3], [0, 1, 3]]),
])
def test_group_many(layout, shapes, result, seps):
    lay, got = T(layout).group_many(shapes)
    assert lay == T(result) and got == seps


def test_group_many_incompatible():
    with pytest.raises(tv.InputError) as e:
        T(S[12:1]).group_many(([3, 4], [2, 6]))
    assert "incompatible" in e.value.message


# ---- slice -------------------------------------------------------------------------------------
@pytest.mark.parametrize("layout, shape, region, want", [
    (S[(8, 8):(8, 1)], [64], [(5, 8)], S[3:1] + 5),
    (S[(4, 4, 4, 4):(64, 4, 16, 1)], [16, 16], [(2, 3), (6, 10)], S[(2, 2):(14, 1)] + 26),
    (S[(2, 8, 3, 8):(192, 8, 64, 1)], [16, 24], [(2, 6), (4, 12)], S[(4, 2, 4):(8, 60, 1)] + 20),
    (S[(128, 2, 64):(64, 8192, 1)], [128, 128], [(0, 128), (32, 96)], S[(128, 2, 32):(64, 8160, 1)] + 32),
    (S[(2, 128):(8192, 64)], [256], [range(96, 128)], S[32:64] + 6144),
])
def test_slice(layout, shape, region, want):
    assert T(layout).slice(shape, region).canonicalize() == T(want).canonicalize()


def test_slice_compose():
    lay = ComposeLayout(3, 3, 3, T(S[(8, 64):(64, 1)]))
    assert lay.slice([512], [(64, 128)]).canonicalize() == ComposeLayout(3, 3, 3, T(S[64:1] + 64))
    assert lay.slice([8, 64], [(2, 4), (0, 64)]).canonicalize() == \
        ComposeLayout(3, 3, 3, T(S[(2, 64):(64, 1)] + 128)).canonicalize()


# ---- tile and its inverses ---------------------------------------------------------------------
def test_tile():
    inner = T(S[(32, 2):(1 @ Axis.laneid, 1)])
    assert inner.tile(T(S[(2, 2):(2 @ Axis.warpid, 1 @ Axis.warpid)]), [2, 2], [8, 8]).canonicalize() == \
        T(S[(2, 8, 2, 4, 2):(2 @ Axis.warpid, 4 @ Axis.laneid, 1 @ Axis.warpid, 1 @ Axis.laneid, 1)]).canonicalize()
    assert T(S[(1, 2):(2, 1)]).tile(T(S[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)]), [8, 4], [1, 2]).canonicalize() == \
        T(S[(32, 2):(1 @ Axis.laneid, 1)])
    assert T(S[(1, 2):(2, 1)]).tile(T(S[8:4 @ Axis.laneid]), [8, 1], [1, 2]).canonicalize() == \
        T(S[(8, 2):(4 @ Axis.laneid, 1)])
    assert T(S[8:1]).tile(T(S[8:1]), [8], [8]) == T(S[64:1])
    assert T(S[(2, 4):(1, 2)]).tile(T(S[(8, 8):(8, 1)]), [8, 8], [2, 4]) == T(S[(8, 2, 32):(64, 1, 2)])
    assert T(S[(2, 4):(4, 1)]).tile(T(S[(8, 2):(2, 1)]), (8, 2), (2, 4)) == T(S[(8, 2, 2, 4):(16, 4, 8, 1)])
    with pytest.raises(tv.InputError):
        T(S[(2, 4):(1, 2)]).tile(T(S[8:1]), [8], [2, 4])


def test_tile_compose():
    assert ComposeLayout(3, 3, 3, T(S[512:1])).tile(T(S[(8, 4):(1, 8)]), (8, 4), (8, 64)).canonicalize() == \
        ComposeLayout(3, 3, 3, T(S[(64, 4, 64):(64, 4096, 1)]))
    assert ComposeLayout(3, 3, 3, T(S[512:1])).tile(T(S[(3, 8, 4):(32, 1, 8)]), (3, 8, 4), (1, 8, 64)).canonicalize() == \
        ComposeLayout(3, 3, 3, T(S[(3, 64, 4, 64):(16384, 64, 4096, 1)]))
    assert ComposeLayout(3, 2, 3, T(S[256:1])).tile(T(S[(8, 8):(1, 8)]), (8, 8), (8, 32)).canonicalize() == \
        ComposeLayout(3, 2, 3, T(S[(64, 8, 32):(32, 2048, 1)]))


def test_tile_to():
    assert T(S[(8, 8):(8, 1)]).tile_to([64, 64], [8, 8]) == T(S[(8, 8):(8, 1)]).tile(T(S[(8, 8):(8, 1)]), [8, 8], [8, 8])


def test_is_tile_inner_outer():
    tiled = T(S[(8, 8, 8, 8):(512, 8, 64, 1)])
    assert T(S[(8, 8):(8, 1)]).is_tile_inner(tiled, [64, 64], [8, 8]).canonicalize() == T(S[(8, 8):(8, 1)]).canonicalize()
    assert T(S[(8, 8):(8, 1)]).is_tile_outer(tiled, [64, 64], [8, 8]).canonicalize() == T(S[(8, 8):(8, 1)]).canonicalize()
    tiled = T(S[(8, 2, 32):(64, 1, 2)])
    assert T(S[(8, 8):(8, 1)]).is_tile_outer(tiled, [16, 32], [8, 8]).canonicalize() == T(S[(2, 4):(1, 2)]).canonicalize()
    assert T(S[(2, 4):(1, 2)]).is_tile_inner(tiled, [16, 32], [2, 4]).canonicalize() == T(S[(8, 8):(8, 1)]).canonicalize()
    assert T(S[(1, 2, 2):(8, 4, 3)]).is_tile_inner(T(S[(8, 16, 4):(64, 4, 1)]), (8, 16, 4), (1, 2, 2)) is None
    assert T(S[(8, 8):(8, 1)]).is_tile_inner(T(S[(8, 4, 2, 8, 2, 4):(512, 16, 8, 64, 1, 2)]), (64, 64), (8, 8)) is None
    assert ComposeLayout(3, 3, 3, T(S[(8, 64):(64, 1)])).is_tile_outer(
        ComposeLayout(3, 3, 3, T(S[4096:1])), (4096,), (8,)) is None
    assert T(S[(8, 1):(1, 1)]).is_tile_outer(ComposeLayout(3, 3, 3, T(S[4096:1])), (4096,), (8,)).canonicalize() == \
        ComposeLayout(3, 3, 3, T(S[512:1]))
    assert ComposeLayout(3, 3, 3, T(S[512:1])).is_tile_inner(
        ComposeLayout(3, 3, 3, T(S[(64, 4, 64):(64, 4096, 1)])), (64, 256), (8, 64)).canonicalize() == \
        T(S[(8, 4):(1, 8)]).canonicalize()


def test_direct_sum():
    a, b = T(S[(2, 2):(8, 2)]), T(S[(2, 2):(4, 1)])
    assert b.direct_sum(a, [2, 2], [2, 2]).canonicalize() == T(S[16:1])
    assert a.is_direct_sum_left(T(S[16:1]), [2, 2, 2, 2], [2, 2]).canonicalize() == b.canonicalize()
    assert b.is_direct_sum_right(T(S[16:1]), [2, 2, 2, 2], [2, 2]).canonicalize() == a.canonicalize()


# ---- factories ---------------------------------------------------------------------------------
def test_mma_shared_layout():
    assert tv.mma_shared_layout("float16", tv.SwizzleMode.SWIZZLE_128B_ATOM, (3, 64, 256)) == \
        ComposeLayout(3, 3, 3, T(S[(3, 64, 4, 64):(16384, 64, 4096, 1)]))
    assert tv.mma_shared_layout("float16", "SWIZZLE_128B_ATOM", (64, 256)) == \
        ComposeLayout(3, 3, 3, T(S[(64, 4, 64):(64, 4096, 1)]))


def test_tmem_mma_operand_layout():
    assert tv.tmem_mma_operand_layout("A", (64, 64), "float32", M=64, cta_group=1) == T(S[(64, 64):(1 @ Axis.TLane, 1 @ Axis.TCol)])
    assert tv.tmem_mma_operand_layout("D", (64, 512), "float32", M=64, cta_group=1, ws=True, group=(2, 2, 128)) == \
        T(S[(64, 2, 2, 128):(1 @ Axis.TLane, 128 @ Axis.TCol, 64 @ Axis.TLane, 1 @ Axis.TCol)])
    with pytest.raises(tv.InputError):
        tv.tmem_mma_operand_layout("D", (128, 256), "float32", M=128, cta_group=1, ws=True)
    with pytest.raises(tv.InputError):
        tv.tmem_mma_operand_layout("D", (64, 512), "float32", M=64, cta_group=1, ws=True, group=(4, 128))


def test_wg_local_layout():
    assert tv.wg_local_layout(16).canonicalize() == T(S[(128, 16):(1 @ Axis.tid_in_wg, 1)])


@pytest.mark.parametrize("inner, outer, outer_shape, inner_shape, want", [
    (S[(8, 8, 1, 4, 2):(4, 4 @ Axis.laneid, 2, 1 @ Axis.laneid, 1)], S[(8, 8, 4):(32, 4, 1)], (8, 8, 4), (8, 8, 8),
     S[(8, 8, 8, 8, 4, 4, 2):(960, 4, 120, 4 @ Axis.laneid, 30, 1 @ Axis.laneid, 1)]),
    (S[(2, 4, 2, 2):(4, 1, 4, 3)], S[(16, 8, 4):(1, 64, 16)], (16, 8, 4), (8, 2, 2), S[(16, 8, 8, 2, 4, 2):(15, 1, 960, 4, 240, 3)]),
    (S[(2, 4, 1):(2, 3, 1)], S[(4, 2, 1):(2, 1, 1)], (4, 2), (2, 4), S[(4, 2, 8):(24, 2, 3)]),
    (S[(2, 1, 1):(4, 3, 1)], S[(8, 4, 1):(4, 1, 4)], (8, 4), (2, 1), S[(8, 2, 4):(20, 4, 5)]),
])
def test_tile_derived(inner, outer, outer_shape, inner_shape, want):
    assert T(inner).tile(T(outer), outer_shape, inner_shape).canonicalize() == T(want).canonicalize()


def test_storage_of_a_tiled_chain():
    lay = T(S[2:1]).tile(T(S[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)]), (8, 4), (1, 2))
    lay = lay.tile(T(S[(2, 1):(1, 2)]), (2, 1), (8, 8)).tile(T(S[(1, 8):(8, 1)]), (1, 8), (16, 8))
    assert lay.storage().canonicalize() == T(S[(2, 8, 2):(2, 4, 1)])
