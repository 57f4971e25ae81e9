"""The machine model (``tirx-verify sim``, docs/sim.md) from Python.

    tcgen05_ld(shape="16x64b", num=2, lane=32, col=0, warp=1)
        -> {"accesses": [{"thread": t, "reg": r, "lane": l, "col": c}, ...]}   (TMEM lanes, 32-bit columns)
    smem_wavefronts(addresses, access_bytes=16)  -> {"wavefronts": n, "ideal": k, "excess": n - k}
    swizzle("128B", byte_offset)                  -> the swizzled shared-memory byte address

Facts: tcgen05.ld/st shapes and .num (PTX ISA 9.7.16.8.3, Tables 49/50); shared-memory wavefronts
are the H200-calibrated model (hw/banks.hpp); TMA swizzle modes (PTX ISA 5.5.5, CUDA tensor maps).
Raises InputError for bad arguments (check id and message as the CLI's).
"""

from ._cli import run_cli_json


def _ldst(op, shape, num, lane, col, warp, pack, imm, target):
    args = ["sim", op, "--shape", shape, "--num", str(num), "--lane", str(lane), "--col", str(col), "--warp",
            str(warp), "--target", target, "--json"]
    if pack:
        args.append("--pack")
    if imm is not None:
        args += ["--imm", str(imm)]
    return run_cli_json(args, accept=(0, 1))[1]


def tcgen05_ld(shape, num=1, lane=0, col=0, warp=0, pack=False, imm=None, target="sm_100a") -> dict:
    """Which thread's register r reads which TMEM (lane, column) for one warp's tcgen05.ld. A lane
    outside the warp's sub-partition gives {"violation": ...} (tmem.partition)."""
    return _ldst("tcgen05.ld", shape, num, lane, col, warp, pack, imm, target)


def tcgen05_st(shape, num=1, lane=0, col=0, warp=0, pack=False, imm=None, target="sm_100a") -> dict:
    """As tcgen05_ld, for tcgen05.st (``pack`` is .unpack::16b)."""
    return _ldst("tcgen05.st", shape, num, lane, col, warp, pack, imm, target)


def smem_wavefronts(addresses, access_bytes, active_mask=None, store=False, target="sm_90a") -> dict:
    """Wavefronts of one warp-wide shared-memory access: one byte address per thread (32), bytes per
    thread 4, 8 or 16 (H200-calibrated model; default target sm_90a, the machine it was measured on)."""
    args = ["sim", "smem", "--access-bytes", str(access_bytes), "--addresses", ",".join(str(int(a)) for a in addresses),
            "--target", target, "--json"]
    if active_mask is not None:
        args += ["--active-mask", str(active_mask)]
    if store:
        args.append("--store")
    return run_cli_json(args)[1]


def swizzle(mode, byte_offset, target="sm_100a") -> int:
    """The shared-memory byte address after the TMA/UMMA swizzle ``mode`` ("none", "32B", "64B", "128B", ...)."""
    return run_cli_json(["sim", "swizzle", "--mode", mode, "--byte-offset", str(byte_offset), "--target", target,
                         "--json"])[1]["address"]
