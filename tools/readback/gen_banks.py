"""Campaign 2: shared-memory bank conflicts measured with Nsight Compute.

A pattern is one warp-wide shared-memory instruction: an op (ld, st,
ldmatrix, stmatrix), a width (4/8/16 bytes per thread, or 1/2/4 matrices),
the 32 per-thread byte offsets from a 1024-byte aligned base, and a mask of
active lanes.  Each pattern gets its own kernel launch with one warp that
executes the instruction REPS times and touches shared memory in no other way,
so ncu's kernel-wide counters divided by REPS are exact per-access numbers.
Launch order = pattern order (ncu's launch IDs).
"""

from rb_model import compose_apply

REPS = 4
REP_STRIDE = 8192      # bytes between repetitions (multiple of 128)
MAX_ADDR = 90000
SMEM_KB = 128
FULL = 0xFFFFFFFF


def P(name, op, width, addrs, mask=FULL, trans=False, source=''):
    assert len(addrs) == 32
    align = 16 if op in ('ldmatrix', 'stmatrix') else width
    for a in addrs:
        assert a % align == 0 and 0 <= a < MAX_ADDR, (name, a)
    return dict(name=name, op=op, width=width, trans=trans, mask=mask, addr=list(addrs),
                reps=REPS, source=source)


def _compose_byte(r, c, row_elems, eb, M, B, S):
    """byte address of element (r, c) of a row-major tile under ComposeLayout(M,B,S)."""
    return eb * compose_apply(r * row_elems + c, M, B, S)


def patterns():
    out = []
    t32 = range(32)
    # ---- 4-byte loads / stores
    for s in (1, 2, 3, 4, 8, 16, 32, 33, 64):
        out.append(P('ld4_stride%dw' % s, 'ld', 4, [4 * s * t for t in t32], source='word stride %d' % s))
    out.append(P('ld4_broadcast', 'ld', 4, [0] * 32, source='all lanes one word'))
    out.append(P('ld4_pairs_same_word', 'ld', 4, [4 * (t // 2) for t in t32], source='lanes 2i,2i+1 share a word'))
    out.append(P('ld4_4words_bank0', 'ld', 4, [128 * (t % 4) for t in t32], source='4 distinct words of bank 0, 8 lanes each'))
    out.append(P('ld4_2lines_halfwarps', 'ld', 4, [4 * (t % 16) + 128 * (t // 16) for t in t32],
                 source='half-warps on two lines, same banks'))
    out.append(P('ld4_permuted', 'ld', 4, [4 * ((7 * t + 3) % 32) for t in t32], source='permutation of one line'))
    out.append(P('ld4_stride32w_half', 'ld', 4, [128 * t for t in t32], mask=0x0000FFFF,
                 source='stride 32 words, lanes 0-15 active'))
    out.append(P('ld4_stride32w_odd', 'ld', 4, [128 * t for t in t32], mask=0xAAAAAAAA,
                 source='stride 32 words, odd lanes active'))
    # padded fp32 accumulator S[(64,512):(520,1)] (sparse_decode_head64 o_accum): column reads
    out.append(P('ld4_pad520_f32_col', 'ld', 4, [4 * 520 * t for t in t32],
                 source='S[(64,512):(520,1)] float32, lane t reads (t, 0)'))
    out.append(P('ld4_pad520_bf16_colpair', 'ld', 4, [2 * 520 * t for t in t32],
                 source='S[(64,512):(520,1)] 16-bit, lane t reads (t, 0..1)'))
    out.append(P('st4_stride1w', 'st', 4, [4 * t for t in t32], source='word stride 1'))
    out.append(P('st4_stride32w', 'st', 4, [128 * t for t in t32], source='word stride 32'))
    out.append(P('st4_same_word', 'st', 4, [0] * 32, source='all lanes store one word'))
    out.append(P('st4_stride2w', 'st', 4, [8 * t for t in t32], source='word stride 2'))
    # ---- 8-byte
    for s in (8, 16, 32, 128, 136):
        out.append(P('ld8_stride%dB' % s, 'ld', 8, [s * t for t in t32], source='byte stride %d' % s))
    out.append(P('ld8_broadcast', 'ld', 8, [0] * 32, source='all lanes one 8-byte word pair'))
    out.append(P('ld8_pairs', 'ld', 8, [8 * (t // 2) for t in t32], source='lanes 2i,2i+1 same address'))
    out.append(P('ld8_halfwarp_same_lines', 'ld', 8, [8 * (t % 16) for t in t32],
                 source='both half-warps read the same 128 bytes'))
    out.append(P('ld8_cross_half', 'ld', 8, [8 * (t % 16) + 128 * (t // 16) for t in t32],
                 source='half-warps on two different lines, same banks'))
    out.append(P('st8_stride8B', 'st', 8, [8 * t for t in t32], source='contiguous'))
    out.append(P('st8_stride128B', 'st', 8, [128 * t for t in t32], source='byte stride 128'))
    # ---- 16-byte
    for s in (16, 32, 64, 128, 144, 256):
        out.append(P('ld16_stride%dB' % s, 'ld', 16, [s * t for t in t32], source='byte stride %d' % s))
    out.append(P('ld16_broadcast', 'ld', 16, [0] * 32, source='all lanes one 16-byte chunk'))
    out.append(P('ld16_uniform_pairs_xor1', 'ld', 16, [16 * (t // 2) for t in t32],
                 source='T(n) == T(n^1) (CC 7.x two-request shortcut)'))
    out.append(P('ld16_uniform_pairs_xor2', 'ld', 16, [16 * ((t // 4) * 2 + (t % 2)) for t in t32],
                 source='T(n) == T(n^2)'))
    out.append(P('ld16_quarter_same', 'ld', 16, [16 * (t % 8) for t in t32],
                 source='all four quarter-warps read the same 128 bytes'))
    out.append(P('ld16_quads_same', 'ld', 16, [16 * (t // 4) for t in t32],
                 source='groups of 4 lanes share one chunk'))
    # which uniform-address shortcuts exist for 8- and 16-byte accesses
    out.append(P('ld8_pairs_stride128', 'ld', 8, [128 * (t // 2) for t in t32],
                 source='T(n) == T(n^1), 16 distinct words of banks 0-1'))
    out.append(P('ld8_pairs_but_last', 'ld', 8, [8 * (t // 2) if t != 31 else 8 * 16 for t in t32],
                 source='T(n) == T(n^1) except lane 31'))
    out.append(P('ld8_xor2_pairs', 'ld', 8, [8 * ((t // 4) * 2 + (t % 2)) for t in t32],
                 source='T(n) == T(n^2)'))
    out.append(P('ld8_xor16_halves', 'ld', 8, [8 * (t % 16) for t in t32],
                 source='T(n) == T(n^16)'))
    out.append(P('st8_pairs', 'st', 8, [8 * (t // 2) for t in t32], source='store, T(n) == T(n^1)'))
    out.append(P('ld16_pairs_stride128', 'ld', 16, [128 * (t // 2) for t in t32],
                 source='T(n) == T(n^1), 16 distinct chunks in banks 0-3'))
    out.append(P('ld16_pairs_but_last', 'ld', 16, [16 * (t // 2) if t != 31 else 16 * 16 for t in t32],
                 source='T(n) == T(n^1) except lane 31'))
    out.append(P('ld16_xor2_stride128', 'ld', 16, [128 * ((t // 4) * 2 + (t % 2)) for t in t32],
                 source='T(n) == T(n^2), 16 distinct chunks in banks 0-3'))
    out.append(P('ld16_xor4', 'ld', 16, [16 * ((t // 8) * 4 + (t % 4)) for t in t32],
                 source='T(n) == T(n^4)'))
    out.append(P('ld16_xor16', 'ld', 16, [16 * (t % 16) for t in t32], source='T(n) == T(n^16)'))
    out.append(P('ld16_xor3', 'ld', 16, [16 * (t // 4) * 4 + 16 * min(t % 4, 3 - t % 4) for t in t32],
                 source='T(n) == T(n^3)'))
    out.append(P('st16_broadcast', 'st', 16, [0] * 32, source='all lanes store one chunk'))
    out.append(P('st16_pairs_xor1', 'st', 16, [16 * (t // 2) for t in t32], source='store, T(n) == T(n^1)'))
    out.append(P('ld16_partial_q0', 'ld', 16, [16 * t for t in t32], mask=0x000000FF,
                 source='contiguous, lanes 0-7 active'))
    # swizzled / unswizzled operand tiles (fp16 rows of 64 elements = 128 B), ComposeLayout(3,B,3)
    for B, name in ((0, 'noswz'), (1, 'swz32'), (2, 'swz64'), (3, 'swz128')):
        row = 64
        # lane t reads the 16-byte chunk j=0 of row t (column read of a K-major operand)
        out.append(P('ld16_%s_col0' % name, 'ld', 16,
                     [_compose_byte(t, 0, row, 2, 3, B, 3) for t in t32],
                     source='ComposeLayout(3,%d,3) fp16 (32,64), lane t reads row t chunk 0' % B))
        out.append(P('ld16_%s_col3' % name, 'ld', 16,
                     [_compose_byte(t, 24, row, 2, 3, B, 3) for t in t32],
                     source='ComposeLayout(3,%d,3) fp16 (32,64), lane t reads row t chunk 3' % B))
        out.append(P('st16_%s_col0' % name, 'st', 16,
                     [_compose_byte(t, 0, row, 2, 3, B, 3) for t in t32],
                     source='ComposeLayout(3,%d,3) fp16 (32,64), lane t writes row t chunk 0' % B))
        # lane t reads element column 2*(t%4)... as 4-byte words: rows t//4, 8 rows
        out.append(P('ld4_%s_col0' % name, 'ld', 4,
                     [_compose_byte(t, 0, row, 2, 3, B, 3) for t in t32],
                     source='ComposeLayout(3,%d,3) fp16 (32,64), lane t reads (t, 0..1) as a word' % B))
    # 64-byte rows (ComposeLayout(3,2,3) over [8,32] fp16 atoms, corpus FlashMLA rope tiles)
    out.append(P('ld16_swz64_rows32_col0', 'ld', 16,
                 [_compose_byte(t, 0, 32, 2, 3, 2, 3) for t in t32],
                 source='ComposeLayout(3,2,3) fp16 (32,32), lane t reads row t chunk 0'))
    out.append(P('ld16_noswz_rows32_col0', 'ld', 16, [64 * t for t in t32],
                 source='row-major fp16 (32,32) unswizzled, lane t reads row t chunk 0'))
    # padded fp32 rows: st.shared.v4 of S[(64,512):(520,1)], 8 lanes per row, 4 rows per warp
    out.append(P('st16_pad520_rows', 'st', 16, [4 * (520 * (t // 8) + 4 * (t % 8)) for t in t32],
                 source='S[(64,512):(520,1)] float32, lanes 8r..8r+7 write row r cols 0..31'))
    out.append(P('st16_pad512_rows', 'st', 16, [4 * (512 * (t // 8) + 4 * (t % 8)) for t in t32],
                 source='unpadded S[(64,512):(512,1)] float32, same access'))
    out.append(P('st16_pad520_col', 'st', 16, [4 * 520 * t for t in t32],
                 source='S[(64,512):(520,1)] float32, lane t writes row t cols 0..3'))
    out.append(P('st16_contig', 'st', 16, [16 * t for t in t32], source='contiguous'))
    out.append(P('st16_stride128B', 'st', 16, [128 * t for t in t32], source='byte stride 128'))
    # ---- ldmatrix / stmatrix (row addresses from lanes 8j..8j+7 for matrix j)
    for num in (1, 2, 4):
        for trans in (False, True):
            tn = '_t' if trans else ''
            out.append(P('ldsm_x%d%s_contig' % (num, tn), 'ldmatrix', num, [16 * t for t in t32],
                         trans=trans, source='rows 16 B apart (dense 8x8 matrices)'))
        out.append(P('ldsm_x%d_rows128_noswz' % num, 'ldmatrix', num, [128 * t for t in t32],
                     source='rows 128 B apart, no swizzle (fp16 64-wide row-major tile)'))
        out.append(P('ldsm_x%d_rows128_swz128' % num, 'ldmatrix', num,
                     [_compose_byte(t & 15, 8 * (t >> 4), 64, 2, 3, 3, 3) for t in t32],
                     source='ComposeLayout(3,3,3) fp16 (16,64) A-operand x4 addressing'))
        out.append(P('ldsm_x%d_rows64_noswz' % num, 'ldmatrix', num, [64 * t for t in t32],
                     source='rows 64 B apart'))
        out.append(P('ldsm_x%d_pad144' % num, 'ldmatrix', num, [144 * t for t in t32],
                     source='rows 144 B apart (padded by 16 B)'))
        out.append(P('stsm_x%d_contig' % num, 'stmatrix', num, [16 * t for t in t32],
                     source='rows 16 B apart'))
        out.append(P('stsm_x%d_rows128_noswz' % num, 'stmatrix', num, [128 * t for t in t32],
                     source='rows 128 B apart, no swizzle'))
        out.append(P('stsm_x%d_rows128_swz128' % num, 'stmatrix', num,
                     [_compose_byte(t & 15, 8 * (t >> 4), 64, 2, 3, 3, 3) for t in t32],
                     source='ComposeLayout(3,3,3) fp16 (16,64), stmatrix x4 addressing'))
    out.append(P('ldsm_x4_same_row', 'ldmatrix', 4, [0] * 32, source='every row address identical'))
    # 8-row vs 16-row phases: matrix 0 rows 2-way in bank groups 0-3, matrix 1 in groups 4-7
    split = [128 * i + 16 * (i // 2) for i in range(8)] + [128 * (8 + i) + 16 * (4 + i // 2) for i in range(8)]
    out.append(P('ldsm_x2_groups_split', 'ldmatrix', 2, split + [0] * 16,
                 source='matrix 0 rows 2-way in 16-byte bank groups 0-3, matrix 1 in groups 4-7'))
    out.append(P('stsm_x2_groups_split', 'stmatrix', 2, split + [0] * 16,
                 source='matrix 0 rows 2-way in 16-byte bank groups 0-3, matrix 1 in groups 4-7'))
    out.append(P('ldsm_x4_row_pairs', 'ldmatrix', 4, [16 * (t // 2) for t in t32],
                 source='rows 2i and 2i+1 of every matrix share an address'))
    out.append(P('ldsm_x4_t_rows128_swz128', 'ldmatrix', 4,
                 [_compose_byte(t & 15, 8 * (t >> 4), 64, 2, 3, 3, 3) for t in t32],
                 trans=True, source='ComposeLayout(3,3,3) fp16 (16,64), .trans'))
    out.append(P('stsm_x4_t_rows128_noswz', 'stmatrix', 4, [128 * t for t in t32], trans=True,
                 source='rows 128 B apart, .trans'))
    names = [p['name'] for p in out]
    assert len(names) == len(set(names))
    return out


# kernel name per (op, width, trans); the ncu CSV names the kernel, the launch ID the pattern
def kernel_name(p):
    if p['op'] in ('ld', 'st'):
        return 'bank_%s%d' % (p['op'], p['width'])
    return 'bank_%s_x%d%s' % (p['op'], p['width'], '_trans' if p['trans'] else '')


def _asm_body(op, width, trans):
    if op == 'ld':
        if width == 4:
            return ('uint32_t x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a)); acc += x;')
        if width == 8:
            return ('uint32_t x, y; asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));'
                    ' acc += x ^ y;')
        return ('uint32_t x, y, z, w; asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"'
                ' : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)); acc += x ^ y ^ z ^ w;')
    if op == 'st':
        if width == 4:
            return 'asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory");'
        if width == 8:
            return 'asm volatile("st.shared.v2.u32 [%0], {%1,%2};" :: "r"(a), "r"(v), "r"(v + 1) : "memory");'
        return ('asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(v), "r"(v + 1),'
                ' "r"(v + 2), "r"(v + 3) : "memory");')
    tr = '.trans' if trans else ''
    n = width
    regs = ','.join('%%%d' % i for i in range(n))
    if op == 'ldmatrix':
        outs = ', '.join('"=r"(r%d)' % i for i in range(n))
        decl = 'uint32_t ' + ', '.join('r%d' % i for i in range(n)) + ';'
        return ('%s asm volatile("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {%s}, [%%%d];" : %s : "r"(a));'
                ' acc += %s;' % (decl, n, tr, regs, n, outs, ' ^ '.join('r%d' % i for i in range(n))))
    regs = ','.join('%%%d' % (i + 1) for i in range(n))
    ins = ', '.join('"r"(v + %d)' % i for i in range(n))
    return ('asm volatile("stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%0], {%s};" :: "r"(a), %s : "memory");'
            % (n, tr, regs, ins))


def emit(pats):
    kernels = {}
    for p in pats:
        kernels.setdefault(kernel_name(p), (p['op'], p['width'], p['trans']))
    src = [r'''// Generated by tools/readback/gen_banks.py: shared-memory bank-conflict patterns (campaign 2).
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a banks.cu -o banks
// Run under ncu (one kernel launch per pattern, in pattern order):
//   ncu --clock-control none --csv --metrics <bank + wavefront metrics> ./banks
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#define REPS %d
#define REP_STRIDE %d
#define SMEM_BYTES (%d * 1024 + 1024)
''' % (REPS, REP_STRIDE, SMEM_KB)]
    for name, (op, width, trans) in kernels.items():
        src.append('''
__global__ void %s(const uint32_t* __restrict__ offs, uint32_t mask, uint32_t* out) {
  extern __shared__ uint8_t raw[];
  const uint32_t base = ((uint32_t)__cvta_generic_to_shared(raw) + 1023u) & ~1023u;
  const uint32_t lane = threadIdx.x;
  uint32_t acc = 0;
  [[maybe_unused]] const uint32_t v = lane * 16u;
  if ((mask >> lane) & 1u) {
#pragma unroll
    for (int i = 0; i < REPS; ++i) {
      // each repetition moves the whole pattern by REP_STRIDE bytes (a multiple of 128: same banks,
      // same conflicts) so that ptxas cannot merge the repeated accesses into one
      const uint32_t a = base + offs[lane] + i * REP_STRIDE;
      %s
    }
  }
  out[lane] = acc;
}
''' % (name, _asm_body(op, width, trans)))
    table = []
    for i, p in enumerate(pats):
        table.append('  {%d, 0x%08Xu, {%s}},' % (i, p['mask'], ','.join(str(a) for a in p['addr'])))
    launches = []
    for i, p in enumerate(pats):
        launches.append('    case %d: %s<<<1, 32, SMEM_BYTES>>>(d_offs + 32 * %d, kPats[%d].mask, d_out); break;'
                        % (i, kernel_name(p), i, i))
    attrs = '\n'.join('  cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);' % k
                      for k in kernels)
    src.append(r'''
struct Pat { int id; uint32_t mask; uint32_t addr[32]; };
static const Pat kPats[] = {
%s
};
static const int kNum = sizeof(kPats) / sizeof(kPats[0]);

int main() {
%s
  uint32_t* d_offs = nullptr; uint32_t* d_out = nullptr;
  uint32_t h[32 * kNum];
  for (int i = 0; i < kNum; ++i) for (int t = 0; t < 32; ++t) h[32 * i + t] = kPats[i].addr[t];
  if (cudaMalloc(&d_offs, sizeof(h)) || cudaMalloc(&d_out, 128)) { fprintf(stderr, "malloc failed\n"); return 1; }
  cudaMemcpy(d_offs, h, sizeof(h), cudaMemcpyHostToDevice);
  for (int i = 0; i < kNum; ++i) {
    switch (i) {
%s
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "pattern %%d: %%s\n", i, cudaGetErrorString(e)); return 1; }
  }
  fprintf(stderr, "banks: %%d patterns launched\n", kNum);
  return 0;
}
''' % ('\n'.join(table), attrs, '\n'.join(launches)))
    return ''.join(src)
