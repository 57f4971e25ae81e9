"""Reference formulas the readback generator and the quick checker use.

Every formula here is the *claim under test*, transcribed from
shared/spec/ptx_semantics.md (PTX ISA 9.1 section named at each function).
The generator uses them only to build informative inputs (selection
matrices, row addresses); the hardware result is recorded raw, so a wrong
formula here shows up as a mismatch, never as a silently "fixed" golden.

Units: byte addresses are byte offsets; "t" is %laneid (0..31), "w" the
warp rank inside a warpgroup, "r"/"i" a register (or 16-bit half) index.
"""

import struct

WARP = 32          # threads per warp (PTX section 2.2)
BANKS = 32         # shared-memory banks of 4 bytes (spec section 6)
BANK_BYTES = 4
WAVEFRONT_BYTES = 128


# ---------------------------------------------------------------- swizzles

def swizzle_16b_chunks(addr, span_bytes):
    """TMA / wgmma swizzle on an absolute shared-memory byte address.

    span 32/64/128 bytes = CuTe Swizzle<1|2|3, 4, 3>: the 16-byte chunk index
    (bits 4..) is XOR-ed with the 128-byte line index (bits 7..), as many
    bits as log2(span/16).  PTX section 5.5.7, spec section 7.2.
    span 0 or 16 = no swizzle.
    """
    if span_bytes in (0, 16):
        return addr
    bits = {32: 1, 64: 2, 128: 3}[span_bytes]
    mask = (1 << bits) - 1
    return addr ^ (((addr >> 7) & mask) << 4)


def tma_swizzle(addr, mode):
    """TMA CUtensorMapSwizzle enum value -> swizzled absolute address.

    0..3: NONE/32B/64B/128B; 4: 128B_ATOM_32B; 5: 128B_ATOM_32B_FLIP_8B
    (odd lines assumed, spec section 7.2 says unverified); 6: 128B_ATOM_64B.
    """
    if mode == 0:
        return addr
    if mode in (1, 2, 3):
        return swizzle_16b_chunks(addr, {1: 32, 2: 64, 3: 128}[mode])
    line = addr >> 7
    if mode == 4:
        return addr ^ ((line & 3) << 5)
    if mode == 5:
        a = addr ^ ((line & 3) << 5)
        return a ^ ((line & 1) << 3)
    if mode == 6:
        return addr ^ ((line & 1) << 6)
    raise ValueError(mode)


def compose_apply(m, per_element, swizzle_len, atom_len):
    """TIRx ComposeLayout(M, B, S) swizzle of a linear element address m
    (swizzle_inner=True), tirx_semantics.md section (f)."""
    q, low = m >> per_element, m & ((1 << per_element) - 1)
    q ^= (q & (((1 << swizzle_len) - 1) << atom_len)) >> atom_len
    return (q << per_element) + low


# ---------------------------------------------------------------- fp16 labels

def f16_bits_to_float(bits):
    return struct.unpack('<e', struct.pack('<H', bits))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f32_from_bits(u):
    return struct.unpack('<f', struct.pack('<I', u))[0]


def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


LABEL_F16_BASE = 0x0400   # smallest positive normal fp16; labels are bits 0x0400 + e


def f16_label(e):
    """fp16 bit pattern of label e: a positive normal number, unique per e.
    1.0 * label summed with exact zeros is exact in f32, so a one-hot
    selection returns the label unchanged."""
    assert 0 <= e < 0x7C00 - LABEL_F16_BASE
    return LABEL_F16_BASE + e


def label_from_f32_bits(u):
    """Inverse of f16_label for an f32 accumulator word; None if the value
    is not an exact fp16 label (zero, sum of several labels, ...)."""
    x = f32_from_bits(u)
    if x == 0.0 or x != x:
        return None
    try:
        b = f16_bits(x)
    except (OverflowError, struct.error):
        return None
    if f16_bits_to_float(b) != x or b < LABEL_F16_BASE or b >= 0x7C00:
        return None
    return b - LABEL_F16_BASE


# ---------------------------------------------------------------- fragments

def ldmatrix_elem(t, j, h, trans):
    """ldmatrix .m8n8 .b16 (PTX 9.7.14.5.15): register j of thread t, half h
    (0 = bits 15..0) holds element (row, col) of matrix j as stored."""
    if not trans:
        return j, t >> 2, 2 * (t & 3) + h
    return j, 2 * (t & 3) + h, t >> 2


def mma_m16n8k16_a(t, i):
    """mma.sync m16n8k16 f16 A fragment: element i (0..7) of thread t ->
    (row, col) of the 16x16 A.  PTX 9.7.14.5.8."""
    g, q = t >> 2, t & 3
    return g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)


def mma_m16n8k16_b(t, i):
    """B fragment element i (0..3) -> (k, n) of the 16x8 B."""
    g, q = t >> 2, t & 3
    return 2 * q + (i & 1) + 8 * (i >> 1), g


def mma_m16n8_c(t, i):
    """C/D fragment element i (0..3, f32) -> (row, col) of the 16x8 C/D."""
    g, q = t >> 2, t & 3
    return g + 8 * (i >> 1), 2 * q + (i & 1)


def wgmma_d(tid, i):
    """wgmma m64nNk16 f32 accumulator: register i of warpgroup thread tid
    (0..127) -> (row, col).  PTX 9.7.15.5.1.1.1 / spec section 8.3."""
    w, t = tid >> 5, tid & 31
    g, q = t >> 2, t & 3
    return 16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * q + (i & 1)


def wgmma_a(tid, i):
    """wgmma m64nNk16 A from registers (f16): element i (0..7) of warpgroup thread tid ->
    (row m, col k); two elements per 32-bit register, element 2j in bits 15..0 of register j.
    PTX 9.7.15.5.1.1.1 / spec section 8.3."""
    w, t = tid >> 5, tid & 31
    g, q = t >> 2, t & 3
    return 16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)


# ---------------------------------------------------------------- wgmma smem operands

SWIZZLE_SPAN = {0: 0, 1: 128, 2: 64, 3: 32}   # Hopper descriptor mode field -> bytes


def canonical_addr(major, span, start, lbo, sbo, mn, k, elem_bytes=2):
    """Byte address of operand element (mn, k) in a wgmma canonical layout
    (spec section 4.3, PTX 9.7.15.5.1.2.1).  major 'K' or 'MN'; span 0 (no
    swizzle, 8x16-byte core matrices) or 32/64/128; start/lbo/sbo in bytes.
    The swizzle acts on the absolute address (the model under test)."""
    per16 = 16 // elem_bytes
    if major == 'K':
        if span == 0:
            return (start + (mn // 8) * sbo + (k // per16) * lbo
                    + (mn % 8) * 16 + (k % per16) * elem_bytes)
        pre = start + (mn // 8) * sbo + (mn % 8) * span + k * elem_bytes
        return swizzle_16b_chunks(pre, span)
    if span == 0:
        return (start + (mn % per16) * elem_bytes + (mn // per16) * sbo
                + (k % 8) * 16 + (k // 8) * lbo)
    row_elems = span // elem_bytes
    pre = (start + (mn % row_elems) * elem_bytes + (mn // row_elems) * lbo
           + (k % 8) * span + (k // 8) * sbo)
    return swizzle_16b_chunks(pre, span)


def wgmma_desc(start, lbo, sbo, base_offset, mode):
    """Hopper wgmma shared-memory descriptor (PTX 9.7.15.5.1.2.2)."""
    enc = lambda x: (x & 0x3FFFF) >> 4
    return (enc(start) | (enc(lbo) << 16) | (enc(sbo) << 32)
            | ((base_offset & 7) << 49) | ((mode & 3) << 62))


# ---------------------------------------------------------------- bank model

def phase_model_wavefronts(op, width, addrs, mask=0xFFFFFFFF):
    """Textbook phase model (spec section 6): 4-byte accesses one phase of 32
    threads, 8-byte two half-warps, 16-byte four quarter-warps; ldmatrix /
    stmatrix one phase per 8x16-byte matrix.  Wavefronts per phase = max over
    banks of distinct 32-bit words.  Returns (wavefronts, ideal)."""
    if op in ('ldmatrix', 'stmatrix'):
        nmat = width
        phases = [[(addrs[8 * j + i], 16) for i in range(8)] for j in range(nmat)]
    else:
        per = {4: 32, 8: 16, 16: 8}[width]
        phases = []
        for p in range(WARP // per):
            ph = [(addrs[t], width) for t in range(p * per, (p + 1) * per)
                  if (mask >> t) & 1]
            if ph:
                phases.append(ph)
    total = 0
    for ph in phases:
        words = {}
        for a, wbytes in ph:
            for wd in range(a // 4, (a + wbytes) // 4):
                words.setdefault(wd % BANKS, set()).add(wd)
        total += max((len(s) for s in words.values()), default=0)
    active = sum(16 for _ in range(8 * width)) if op in ('ldmatrix', 'stmatrix') else \
        width * bin(mask).count('1')
    ideal = max(1, -(-active // WAVEFRONT_BYTES))
    return total, ideal


# ---------------------------------------------------------------- tcgen05 (Blackwell; spec sections 2-3)

def tmem_ld_cell(shape, num, t, r, L0, C0, imm=0):
    """tcgen05.ld/st (no pack): register r of thread t -> TMEM (lane, col).
    PTX 9.7.16.2.3 / spec section 3 table (derived from CUTLASS, TileLang)."""
    if shape == '32x32b':
        return L0 + t, C0 + r
    if shape == '16x64b':
        return L0 + (t >> 2) + 8 * (t & 1), C0 + 2 * r + ((t >> 1) & 1)
    if shape == '16x128b':
        return L0 + (t >> 2) + 8 * (r & 1), C0 + (t & 3) + 4 * (r >> 1)
    if shape == '16x256b':
        return L0 + (t >> 2) + 8 * ((r >> 1) & 1), C0 + 2 * (t & 3) + (r & 1) + 8 * (r >> 2)
    if shape == '16x32bx2':
        return L0 + (t & 15), C0 + r + imm * (t >> 4)
    raise ValueError(shape)


TCGEN05_REGS = {'32x32b': 1, '16x64b': 1, '16x128b': 2, '16x256b': 4, '16x32bx2': 1}


def datapath_lane(layout, m, sub_slab=0):
    """Accumulator row m -> TMEM lane: Layout D (M=128) lane = m; Layout F (M=64)
    lane = 16 sub_slab + m % 16 + 32 (m / 16).  Spec section 2."""
    if layout == 'D':
        return m
    return 16 * sub_slab + (m % 16) + 32 * (m // 16)
