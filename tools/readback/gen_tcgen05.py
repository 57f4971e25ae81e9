"""Blackwell (sm_100a) campaign: tcgen05.alloc / ld / st / cp / mma readback.

NOT RUN: no Blackwell GPU was available when this was written.  The program is
compiled for sm_100a by the test suite (tests/unit/hw_readback_programs_test.cpp);
docs/readback.md gives the one command that runs it on a B200.

Every experiment is one CTA of one warpgroup (128 threads) that allocates 256
TMEM columns, fills them through one path and reads them through another:

  fill 0  tcgen05.st.32x32b: warp w, thread t, register r -> cell (32w + t, r + 32 j)
          holds (lane << 16) | col                       [anchor: the simplest shape]
  fill 1  tcgen05.cp.128x256b from shared memory (K-major, no swizzle, LBO 128, SBO 256):
          cell (lane, col) holds (lane << 16) | col for columns 0..127  [independent path]
  fill 2  tcgen05.mma kind::f16, M=128 (Layout D), N=64, at TMEM (lane 0, col 0)
  fill 3  the same with M=64 (Layout F, sub_slab 0: D address lane 0)
  fill 4  M=64 with the D address at lane 16 (Layout F, sub_slab 1)
          (mma fills: A[m][0] = m+1, A[m][1] = 1, B[0][n] = 256, B[1][n] = n, every other
          element 0, so D[m][n] = 256 (m + 1) + n names its own (m, n); cells the MMA does
          not write keep the sentinel 0xDEADBEEF written first with st.32x32b)

  ld probes: after the fill, warp w issues the shape under test at lane 32w + lane_off,
  column col_off, and dumps its registers.  With fills 2-4 and the .16x64b/.16x128b/
  .16x256b shapes at lane_off 0 and 16 this is the seed PR's case: one Layout D
  accumulator read through the lower and upper Layout F views.
  st probes: TMEM is first set to the sentinel, then warp w stores registers labelled
  0x80000000 | w << 24 | t << 16 | r with the shape under test; all 128 lanes x 64 columns
  are read back with ld.32x32b and dumped per (lane, column).
  alloc probe: allocations of 256, 128, 64, 32, 32 columns in one CTA (non-increasing, PTX
  9.7.16.7.1); the returned addresses are dumped.
"""

import json
import os

SENTINEL = 0xDEADBEEF
ALLOC_COLS = 256

# shape -> registers per thread as a function of .num (PTX 9.1 Tables 49/50)
REGS = {'32x32b': lambda n: n, '16x64b': lambda n: n, '16x128b': lambda n: 2 * n,
        '16x256b': lambda n: 4 * n, '16x32bx2': lambda n: n}


def ld_variants():
    out = []
    for shape, nums in (('32x32b', (1, 4, 16)), ('16x64b', (1, 4, 16)), ('16x128b', (1, 2, 8)),
                        ('16x256b', (1, 2, 8)), ('16x32bx2', (1, 4, 16))):
        for n in nums:
            imm = n if shape == '16x32bx2' else None
            out.append(dict(shape=shape, num=n, pack=False, imm=imm))
    out.append(dict(shape='16x32bx2', num=4, pack=False, imm=32))
    out.append(dict(shape='16x256b', num=1, pack=True, imm=None))
    out.append(dict(shape='16x64b', num=2, pack=True, imm=None))
    out.append(dict(shape='32x32b', num=2, pack=True, imm=None))
    return out


def st_variants():
    out = []
    for shape, n in (('32x32b', 4), ('16x64b', 4), ('16x128b', 2), ('16x256b', 2), ('16x32bx2', 4)):
        out.append(dict(shape=shape, num=n, pack=False, imm=n if shape == '16x32bx2' else None))
    out.append(dict(shape='16x256b', num=1, pack=True, imm=None))
    return out


def kname(kind, v):
    s = 'k_%s_%s_x%d' % (kind, v['shape'], v['num'])
    if v['pack']:
        s += '_pack'
    if v['imm'] is not None:
        s += '_imm%d' % v['imm']
    return s


def experiments():
    exps = []
    add = lambda **k: exps.append(dict(k, id=len(exps)))
    for v in ld_variants():
        lane_offs = (0,) if v['shape'] == '32x32b' else (0, 16)
        for fill in (0, 1):
            for lo in lane_offs:
                add(kind='ld', kernel=kname('ld', v), fill=fill, lane_off=lo, col_off=8, **v)
        if not v['pack']:
            for fill in (2, 3, 4):
                for lo in lane_offs:
                    add(kind='ld', kernel=kname('ld', v), fill=fill, lane_off=lo, col_off=0, **v)
    for v in st_variants():
        lane_offs = (0,) if v['shape'] == '32x32b' else (0, 16)
        for lo in lane_offs:
            add(kind='st', kernel=kname('st', v), fill=0, lane_off=lo, col_off=8, **v)
    add(kind='alloc', kernel='k_alloc', fill=-1, lane_off=0, col_off=0, shape='', num=0, pack=False, imm=None)
    return exps


def _regs_list(n, first=0):
    return ', '.join('%%%d' % (first + i) for i in range(n))


def _ld_asm(v, regvar='r', addr='ta'):
    n = REGS[v['shape']](v['num'])
    pack = '.pack::16b' if v['pack'] else ''
    imm = ', %d' % v['imm'] if v['imm'] is not None else ''
    outs = ', '.join('"=r"(%s[%d])' % (regvar, i) for i in range(n))
    return ('asm volatile("tcgen05.ld.sync.aligned.%s.x%d%s.b32 {%s}, [%%%d]%s;" : %s : "r"(%s) : "memory");'
            % (v['shape'], v['num'], pack, _regs_list(n), n, imm, outs, addr))


def _st_asm(v, regvar='r', addr='ta'):
    n = REGS[v['shape']](v['num'])
    pack = '.unpack::16b' if v['pack'] else ''
    imm = ', %d' % v['imm'] if v['imm'] is not None else ''
    ins = ', '.join('"r"(%s[%d])' % (regvar, i) for i in range(n))
    return ('asm volatile("tcgen05.st.sync.aligned.%s.x%d%s.b32 [%%0]%s, {%s};" :: "r"(%s), %s : "memory");'
            % (v['shape'], v['num'], pack, imm, _regs_list(n, 1), addr, ins))


PRELUDE = r'''// Generated by tools/readback/gen_tcgen05.py: Blackwell tcgen05 readback (NOT RUN here: no B200).
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_100a,code=sm_100a tcgen05_probe.cu -o tcgen05_probe
// Run:   ./tcgen05_probe   (one JSON object per line on stdout)
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define ALLOC_COLS @ALLOC@
#define SENTINEL 0x@SENT@u
#define OUT_WORDS (128 * 128)
#define SMEM_BYTES (64 * 1024 + 1024)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("{\"status\":\"cuda_error\",\"where\":\"%s\",\"error\":\"%s\"}\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

// Blackwell shared-memory descriptor (PTX 9.7.16.4.1 Table 40): K-major, no swizzle, version 1.
__device__ __forceinline__ uint64_t sdesc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)((lbo & 0x3FFFF) >> 4) << 16) |
         ((uint64_t)((sbo & 0x3FFFF) >> 4) << 32) | (1ull << 46);
}

__device__ __forceinline__ void sync_all() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ uint32_t tmem_alloc(uint32_t* slot) {
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(smem_u32(slot)), "r"(ALLOC_COLS) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  sync_all();
  return *slot;
}

__device__ void tmem_free(uint32_t base) {
  sync_all();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(base), "r"(ALLOC_COLS) : "memory");
}

// Each warp writes its 32 lanes, columns [0, cols), with st.32x32b.x32: value(lane, col).
template <typename F>
__device__ void fill_st(uint32_t base, int cols, F value) {
  const uint32_t w = threadIdx.x / 32, t = threadIdx.x % 32;
  for (int c0 = 0; c0 < cols; c0 += 32) {
    uint32_t r[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) r[i] = value(32 * w + t, c0 + i);
    const uint32_t ta = base + ((32 * w) << 16) + c0;
    asm volatile("tcgen05.st.sync.aligned.32x32b.x32.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12,"
                 " %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32};"
                 :: "r"(ta), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7]),
                    "r"(r[8]), "r"(r[9]), "r"(r[10]), "r"(r[11]), "r"(r[12]), "r"(r[13]), "r"(r[14]), "r"(r[15]),
                    "r"(r[16]), "r"(r[17]), "r"(r[18]), "r"(r[19]), "r"(r[20]), "r"(r[21]), "r"(r[22]), "r"(r[23]),
                    "r"(r[24]), "r"(r[25]), "r"(r[26]), "r"(r[27]), "r"(r[28]), "r"(r[29]), "r"(r[30]), "r"(r[31])
                 : "memory");
  }
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// Reads lanes 32w..32w+31, columns [0, cols) with ld.32x32b.x32 into out[lane * 128 + col].
__device__ void dump_ld32(uint32_t base, int cols, uint32_t* out) {
  const uint32_t w = threadIdx.x / 32, t = threadIdx.x % 32;
  for (int c0 = 0; c0 < cols; c0 += 32) {
    uint32_t r[32];
    const uint32_t ta = base + ((32 * w) << 16) + c0;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12,"
                 " %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
                   "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]),
                   "=r"(r[16]), "=r"(r[17]), "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]),
                   "=r"(r[24]), "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
                 : "r"(ta) : "memory");
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#pragma unroll
    for (int i = 0; i < 32; ++i) out[(32 * w + t) * 128 + c0 + i] = r[i];
  }
}

__device__ void wait_mbar(uint32_t bar, uint32_t parity, int* status) {
  long long t0 = clock64();
  uint32_t done = 0;
  while (!done) {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    if (!done && clock64() - t0 > 400000000LL) { atomicOr(status, 1); break; }
  }
}

// fill 1: cell (lane, col) = (lane << 16) | col for columns 0..127 via sixteen tcgen05.cp.128x256b.
// Source block j (4 KB at smem + 4096 j): row r, byte b of the 32-byte row at
// (r / 8) * 256 + (b / 16) * 128 + (r % 8) * 16 + b % 16 (K-major core matrices, LBO 128, SBO 256).
__device__ void fill_cp(uint32_t base, uint8_t* sm, uint32_t bar, int* status) {
  uint32_t* w32 = (uint32_t*)sm;
  for (int i = threadIdx.x; i < 16 * 128 * 8; i += blockDim.x) {
    const int j = i / 1024, r = (i / 8) % 128, c = i % 8;    // block, lane, column within block
    const int b = 4 * c;
    const int off = 4096 * j + (r / 8) * 256 + (b / 16) * 128 + (r % 8) * 16 + b % 16;
    w32[off / 4] = ((uint32_t)r << 16) | (uint32_t)(8 * j + c);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  sync_all();
  if (threadIdx.x == 0) {
    for (int j = 0; j < 16; ++j) {
      const uint64_t d = sdesc(smem_u32(sm + 4096 * j), 128, 256);
      asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" :: "r"(base + 8 * j), "l"(d) : "memory");
    }
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(bar) : "memory");
  }
  wait_mbar(bar, 0, status);
  sync_all();
}

// fills 2-4: tcgen05.mma kind::f16 (f16 A/B, f32 D), K-major A (M x 16) and B (N x 16), no swizzle.
__device__ void fill_mma(uint32_t base, uint8_t* sm, uint32_t bar, int m, int n, int d_lane, int* status) {
  fill_st(base, 128, [](uint32_t, uint32_t) { return SENTINEL; });
  __half* A = (__half*)sm;                 // M x 16 at offset 0
  __half* B = (__half*)(sm + 16384);       // N x 16 at offset 16384
  for (int i = threadIdx.x; i < 16384; i += blockDim.x) ((__half*)sm)[i] = __float2half(0.f);
  __syncthreads();
  // element (row, k) of a K-major no-swizzle operand: (row/8)*256 + (k/8)*128 + (row%8)*16 + (k%8)*2 bytes
  auto at = [](int row, int k) { return ((row / 8) * 256 + (k / 8) * 128 + (row % 8) * 16 + (k % 8) * 2) / 2; };
  for (int r = threadIdx.x; r < m; r += blockDim.x) { A[at(r, 0)] = __float2half((float)(r + 1)); A[at(r, 1)] = __float2half(1.f); }
  for (int c = threadIdx.x; c < n; c += blockDim.x) { B[at(c, 0)] = __float2half(256.f); B[at(c, 1)] = __float2half((float)c); }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  sync_all();
  if (threadIdx.x == 0) {
    // instruction descriptor (PTX 9.7.16.4.2 Table 42): D f32 (bits 4-5 = 1), A/B f16, K-major, N>>3 at 17, M>>4 at 24
    const uint32_t idesc = (1u << 4) | ((uint32_t)(n >> 3) << 17) | ((uint32_t)(m >> 4) << 24);
    const uint64_t da = sdesc(smem_u32(A), 128, 256), db = sdesc(smem_u32(B), 128, 256);
    const uint32_t dt = base + ((uint32_t)d_lane << 16);
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"
                 " tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}"
                 :: "r"(dt), "l"(da), "l"(db), "r"(idesc), "r"(0) : "memory");
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(bar) : "memory");
  }
  wait_mbar(bar, 0, status);
  sync_all();
}

__device__ uint32_t setup(uint8_t* sm, uint32_t* slot, uint64_t* bar, int fill, int* status) {
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_u32(bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const uint32_t base = tmem_alloc(slot);
  const uint32_t b = smem_u32(bar);
  switch (fill) {
    case 0: fill_st(base, 128, [](uint32_t lane, uint32_t col) { return (lane << 16) | col; }); sync_all(); break;
    case 1: fill_cp(base, sm, b, status); break;
    case 2: fill_mma(base, sm, b, 128, 64, 0, status); break;
    case 3: fill_mma(base, sm, b, 64, 64, 0, status); break;
    case 4: fill_mma(base, sm, b, 64, 64, 16, status); break;
    default: fill_st(base, 128, [](uint32_t, uint32_t) { return SENTINEL; }); sync_all(); break;
  }
  return base;
}

#define KERNEL_HEAD \
  extern __shared__ uint8_t raw[]; \
  uint8_t* sm = (uint8_t*)(((uintptr_t)raw + 1023) & ~uintptr_t(1023)); \
  __shared__ uint32_t slot; \
  __shared__ __align__(8) uint64_t bar; \
  const uint32_t w = threadIdx.x / 32, t = threadIdx.x % 32; \
  const uint32_t base = setup(sm, &slot, &bar, fill, status);
'''


def _ld_kernel(v):
    n = REGS[v['shape']](v['num'])
    return '''
__global__ void __launch_bounds__(128) %s(uint32_t* out, int fill, int lane_off, int col_off, int* status) {
  KERNEL_HEAD
  uint32_t r[%d];
  const uint32_t ta = base + ((32 * w + lane_off) << 16) + col_off;
  %s
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  for (int i = 0; i < %d; ++i) out[(32 * w + t) * 128 + i] = r[i];
  tmem_free(base);
}
''' % (kname('ld', v), n, _ld_asm(v), n)


def _st_kernel(v):
    n = REGS[v['shape']](v['num'])
    return '''
__global__ void __launch_bounds__(128) %s(uint32_t* out, int fill, int lane_off, int col_off, int* status) {
  fill = -1;   // sentinel everywhere first
  KERNEL_HEAD
  uint32_t r[%d];
  for (int i = 0; i < %d; ++i) r[i] = 0x80000000u | (w << 24) | (t << 16) | (uint32_t)i;
  const uint32_t ta = base + ((32 * w + lane_off) << 16) + col_off;
  %s
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
  sync_all();
  dump_ld32(base, 64, out);
  tmem_free(base);
}
''' % (kname('st', v), n, n, _st_asm(v))


ALLOC_KERNEL = r'''
// Non-increasing allocations in one CTA (PTX 9.7.16.7.1): 256, 128, 64, 32, 32 columns (512 in all).
__global__ void k_alloc(uint32_t* out, int, int, int, int*) {
  __shared__ uint32_t slots[5];
  const int sizes[5] = {256, 128, 64, 32, 32};
  if (threadIdx.x / 32 == 0) {
    for (int i = 0; i < 5; ++i)
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                   :: "r"(smem_u32(&slots[i])), "r"(sizes[i]) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  sync_all();
  if (threadIdx.x < 5) out[threadIdx.x] = slots[threadIdx.x];
  sync_all();
  if (threadIdx.x / 32 == 0)
    for (int i = 0; i < 5; ++i)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(slots[i]), "r"(sizes[i]) : "memory");
}
'''


def emit(exps):
    src = [PRELUDE.replace('@ALLOC@', str(ALLOC_COLS)).replace('@SENT@', '%08X' % SENTINEL)]
    seen = set()
    for e in exps:
        if e['kernel'] in seen or e['kind'] == 'alloc':
            continue
        seen.add(e['kernel'])
        src.append((_ld_kernel if e['kind'] == 'ld' else _st_kernel)(e))
    src.append(ALLOC_KERNEL)
    table = '\n'.join('  {%d, %d, %d, %d},' % (e['id'], e['fill'], e['lane_off'], e['col_off']) for e in exps)
    cases = '\n'.join('      case %d: %s<<<1, 128, SMEM_BYTES>>>(d_out, c.fill, c.lane_off, c.col_off, d_st); break;'
                      % (e['id'], e['kernel']) for e in exps)
    attrs = '\n'.join('  CK(cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES));' % k
                      for k in sorted(seen))
    src.append(r'''
struct Exp { int id, fill, lane_off, col_off; };
static const Exp kExps[] = {
%s
};
static const int kNum = sizeof(kExps) / sizeof(kExps[0]);

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 10) { fprintf(stderr, "needs a compute capability 10.x GPU (sm_100a), found %%d.%%d\n", prop.major, prop.minor); return 1; }
%s
  uint32_t* d_out; int* d_st;
  CK(cudaMalloc(&d_out, OUT_WORDS * 4));
  CK(cudaMalloc(&d_st, sizeof(int)));
  static uint32_t h[OUT_WORDS];
  for (int i = 0; i < kNum; ++i) {
    const Exp& c = kExps[i];
    const int zero = 0;
    CK(cudaMemcpy(d_st, &zero, sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xAB, OUT_WORDS * 4));   // poison: unwritten words read 0xabababab
    switch (c.id) {
%s
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int st = 0;
    CK(cudaMemcpy(&st, d_st, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, d_out, OUT_WORDS * 4, cudaMemcpyDeviceToHost));
    printf("{\"kind\":\"tcgen05\",\"id\":%%d,\"status\":\"%%s\",\"out_hex\":\"", c.id, st ? "timeout" : "ok");
    for (int k = 0; k < OUT_WORDS; ++k) printf("%%08x", h[k]);
    printf("\"}\n");
    fflush(stdout);
  }
  return 0;
}
''' % (table, attrs, cases))
    return ''.join(src)


def generate(out_dir):
    exps = experiments()
    with open(os.path.join(out_dir, 'tcgen05_probe.cu'), 'w') as f:
        f.write(emit(exps))
    with open(os.path.join(out_dir, 'manifest_tcgen05.json'), 'w') as f:
        json.dump({'experiments': exps, 'alloc_cols': ALLOC_COLS, 'sentinel': SENTINEL,
                   'out_layout': 'out[(32 w + t) * 128 + r] for ld probes (register r of thread t of warp w); '
                                 'out[lane * 128 + col] for st probes (columns 0..63); out[0..4] for alloc'}, f)
    return ['tcgen05_probe']
