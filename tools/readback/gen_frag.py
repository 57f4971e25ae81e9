"""Campaign 3a: warp-level fragments (ldmatrix, stmatrix, mma.sync m16n8k16).

ldmatrix: shared memory is written with plain 16-bit stores, element at byte
offset o holding label o/2; lane t supplies a 16-byte row address row_addr[t]
(a scattered permutation of 16-byte slots); the registers the instruction
returns are dumped raw per (lane, register).

stmatrix: lane t's register j holds the two 16-bit labels 1 + 8t + 2j + h
(h = 0 in bits 15..0); shared memory starts zeroed and is dumped with plain
loads after the instruction.

mma.sync: each experiment gives every lane's A/B/C registers explicitly; the
D registers come back raw.  Inputs are either label probes (one operand holds
fp16 labels, the other a 0/1 selection, so each D element *is* the label of
the A/B element the hardware multiplied there) or small random integers
(all products and sums exact in f32).
"""

import random

from rb_model import (f16_bits, f16_label, f32_bits, mma_m16n8k16_a, mma_m16n8k16_b,
                      mma_m16n8_c)

SMEM_ELEMS = 4096      # 8 KB of 16-bit elements
SLOTS = SMEM_ELEMS * 2 // 16


def row_addrs(seed):
    """32 distinct 16-byte aligned row addresses (a permutation of slots)."""
    mul = (37, 53, 101, 77)[seed % 4]
    return [16 * ((mul * t + 5 + 11 * seed) % SLOTS) for t in range(32)]


def ldst_cases():
    out = []
    k = 0
    for op in ('ldmatrix', 'stmatrix'):
        for num in (1, 2, 4):
            for trans in (False, True):
                out.append(dict(id=k, op=op, num=num, trans=trans, row_addr=row_addrs(k)))
                k += 1
    return out


def _pack2(lo, hi):
    return (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)


def mma_experiments(seed=20261130):
    """List of dicts {name, a[32][4], b[32][2], c[32][4]} (register words)."""
    rng = random.Random(seed)
    exps = []

    def regs_from(Am, Bm, Cm):
        a = [[_pack2(Am[mma_m16n8k16_a(t, 2 * r)[0]][mma_m16n8k16_a(t, 2 * r)[1]],
                     Am[mma_m16n8k16_a(t, 2 * r + 1)[0]][mma_m16n8k16_a(t, 2 * r + 1)[1]])
              for r in range(4)] for t in range(32)]
        b = [[_pack2(Bm[mma_m16n8k16_b(t, 2 * r)[0]][mma_m16n8k16_b(t, 2 * r)[1]],
                     Bm[mma_m16n8k16_b(t, 2 * r + 1)[0]][mma_m16n8k16_b(t, 2 * r + 1)[1]])
              for r in range(2)] for t in range(32)]
        c = [[Cm[mma_m16n8_c(t, r)[0]][mma_m16n8_c(t, r)[1]] for r in range(4)] for t in range(32)]
        return a, b, c

    one, zero = f16_bits(1.0), 0
    Z8 = [[0] * 8 for _ in range(16)]
    # A probes: A = labels, B selects column n + 8s of A into D column n
    for s in (0, 1):
        A = [[f16_label(16 * m + k) for k in range(16)] for m in range(16)]
        B = [[one if k == n + 8 * s else zero for n in range(8)] for k in range(16)]
        a, b, c = regs_from(A, B, Z8)
        exps.append(dict(name='a_probe_k%d' % (8 * s), a=a, b=b, c=c))
    # B probe: A = identity, B = labels
    A = [[one if k == m else zero for k in range(16)] for m in range(16)]
    B = [[f16_label(8 * k + n) for n in range(8)] for k in range(16)]
    a, b, c = regs_from(A, B, Z8)
    exps.append(dict(name='b_probe', a=a, b=b, c=c))
    # C probe: A = B = 0, C = distinct f32 labels
    A = [[0] * 16 for _ in range(16)]
    B = [[0] * 8 for _ in range(16)]
    C = [[f32_bits(1000.0 + 8 * m + n) for n in range(8)] for m in range(16)]
    a, b, c = regs_from(A, B, C)
    exps.append(dict(name='c_probe', a=a, b=b, c=c))
    # random small integers: a full check of A, B, C and D together
    for r in range(4):
        A = [[f16_bits(float(rng.randint(-4, 4))) for _ in range(16)] for _ in range(16)]
        B = [[f16_bits(float(rng.randint(-4, 4))) for _ in range(8)] for _ in range(16)]
        C = [[f32_bits(float(rng.randint(-64, 64))) for _ in range(8)] for _ in range(16)]
        a, b, c = regs_from(A, B, C)
        exps.append(dict(name='random_%d' % r, a=a, b=b, c=c))
    return exps


def _ld_kernel(num, trans):
    tr = '.trans' if trans else ''
    regs = ','.join('%%%d' % i for i in range(num))
    outs = ', '.join('"=r"(r[%d])' % i for i in range(num))
    return '''
__global__ void ldsm_x%d%s(const uint32_t* row_addr, uint32_t* out) {
  __shared__ __align__(1024) uint16_t sm[%d];
  const int t = threadIdx.x;
  for (int i = t; i < %d; i += 32) sm[i] = (uint16_t)i;
  __syncwarp();
  const uint32_t a = (uint32_t)__cvta_generic_to_shared(sm) + row_addr[t];
  uint32_t r[%d];
  asm volatile("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {%s}, [%%%d];" : %s : "r"(a) : "memory");
  for (int j = 0; j < %d; ++j) out[t * 4 + j] = r[j];
}
''' % (num, '_trans' if trans else '', SMEM_ELEMS, SMEM_ELEMS, num, num, tr, regs, num, outs, num)


def _st_kernel(num, trans):
    tr = '.trans' if trans else ''
    regs = ','.join('%%%d' % (i + 1) for i in range(num))
    ins = ', '.join('"r"(r[%d])' % i for i in range(num))
    return '''
__global__ void stsm_x%d%s(const uint32_t* row_addr, uint32_t* out) {
  __shared__ __align__(1024) uint16_t sm[%d];
  const int t = threadIdx.x;
  for (int i = t; i < %d; i += 32) sm[i] = 0;
  __syncwarp();
  const uint32_t a = (uint32_t)__cvta_generic_to_shared(sm) + row_addr[t];
  uint32_t r[%d];
  for (int j = 0; j < %d; ++j) r[j] = (uint32_t)(1 + 8 * t + 2 * j) | ((uint32_t)(2 + 8 * t + 2 * j) << 16);
  asm volatile("stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%0], {%s};" :: "r"(a), %s : "memory");
  __syncwarp();
  for (int i = t; i < %d; i += 32) out[i] = sm[i];
}
''' % (num, '_trans' if trans else '', SMEM_ELEMS, SMEM_ELEMS, num, num, num, tr, regs, ins, SMEM_ELEMS)


def emit(ldst, exps):
    src = [r'''// Generated by tools/readback/gen_frag.py: ldmatrix / stmatrix / mma.sync readback (campaign 3).
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a frag.cu -o frag
// Run:   ./frag   (one JSON object per line on stdout)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("{\"status\":\"cuda_error\",\"where\":\"%s\",\"error\":\"%s\"}\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)
''']
    seen = set()
    for c in ldst:
        key = (c['op'], c['num'], c['trans'])
        if key in seen:
            continue
        seen.add(key)
        src.append((_ld_kernel if c['op'] == 'ldmatrix' else _st_kernel)(c['num'], c['trans']))
    src.append(r'''
__global__ void mma_m16n8k16(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  const int t = threadIdx.x, e = blockIdx.x;
  const uint32_t* A = a + (e * 32 + t) * 4;
  const uint32_t* B = b + (e * 32 + t) * 2;
  const uint32_t* C = c + (e * 32 + t) * 4;
  uint32_t D[4];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"
               " {%10,%11,%12,%13};"
               : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
  for (int i = 0; i < 4; ++i) d[(e * 32 + t) * 4 + i] = D[i];
}
''')
    # ldmatrix/stmatrix case table
    rows = []
    for c in ldst:
        rows.append('  {%d, %d, %d, %d, {%s}},' % (c['id'], 0 if c['op'] == 'ldmatrix' else 1, c['num'],
                                                 1 if c['trans'] else 0, ','.join(map(str, c['row_addr']))))
    ne = len(exps)
    words = lambda key, n: ','.join('%uu' % w for e in exps for t in range(32) for w in e[key][t][:n])
    dispatch = []
    for c in ldst:
        k = '%s_x%d%s' % ('ldsm' if c['op'] == 'ldmatrix' else 'stsm', c['num'], '_trans' if c['trans'] else '')
        dispatch.append('      case %d: %s<<<1, 32>>>(d_ra, d_out); break;' % (c['id'], k))
    src.append(r'''
struct LdSt { int id, is_st, num, trans; uint32_t row_addr[32]; };
static const LdSt kLdSt[] = {
%s
};
static const int kNumLdSt = sizeof(kLdSt) / sizeof(kLdSt[0]);
static const int kNumExp = %d;
static const uint32_t kA[] = {%s};
static const uint32_t kB[] = {%s};
static const uint32_t kC[] = {%s};
static const char* kExpNames[] = {%s};

int main() {
  uint32_t *d_ra, *d_out;
  CK(cudaMalloc(&d_ra, 32 * 4));
  CK(cudaMalloc(&d_out, %d * 4));
  static uint32_t h[%d];
  for (int i = 0; i < kNumLdSt; ++i) {
    const LdSt& c = kLdSt[i];
    CK(cudaMemcpy(d_ra, c.row_addr, 32 * 4, cudaMemcpyHostToDevice));
    switch (c.id) {
%s
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (!c.is_st) {
      CK(cudaMemcpy(h, d_out, 32 * 4 * 4, cudaMemcpyDeviceToHost));
      printf("{\"kind\":\"ldmatrix\",\"id\":%%d,\"regs\":[", c.id);
      for (int t = 0; t < 32; ++t) {
        printf(t ? ",[" : "[");
        for (int j = 0; j < c.num; ++j) printf(j ? ",%%u" : "%%u", h[t * 4 + j]);
        printf("]");
      }
      printf("]}\n");
    } else {
      CK(cudaMemcpy(h, d_out, %d * 4, cudaMemcpyDeviceToHost));
      printf("{\"kind\":\"stmatrix\",\"id\":%%d,\"smem_nonzero\":[", c.id);
      int first = 1;
      for (int i = 0; i < %d; ++i) if (h[i]) { printf(first ? "[%%d,%%u]" : ",[%%d,%%u]", 2 * i, h[i]); first = 0; }
      printf("]}\n");
    }
  }
  uint32_t *da, *db, *dc, *dd;
  CK(cudaMalloc(&da, sizeof(kA))); CK(cudaMalloc(&db, sizeof(kB))); CK(cudaMalloc(&dc, sizeof(kC)));
  CK(cudaMalloc(&dd, sizeof(kC)));
  CK(cudaMemcpy(da, kA, sizeof(kA), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, kB, sizeof(kB), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, kC, sizeof(kC), cudaMemcpyHostToDevice));
  mma_m16n8k16<<<kNumExp, 32>>>(da, db, dc, dd);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  static uint32_t hd[sizeof(kC) / 4];
  CK(cudaMemcpy(hd, dd, sizeof(kC), cudaMemcpyDeviceToHost));
  for (int e = 0; e < kNumExp; ++e) {
    printf("{\"kind\":\"mma\",\"exp\":%%d,\"name\":\"%%s\",\"d\":[", e, kExpNames[e]);
    for (int t = 0; t < 32; ++t)
      printf(t ? ",[%%u,%%u,%%u,%%u]" : "[%%u,%%u,%%u,%%u]", hd[(e * 32 + t) * 4], hd[(e * 32 + t) * 4 + 1],
             hd[(e * 32 + t) * 4 + 2], hd[(e * 32 + t) * 4 + 3]);
    printf("]}\n");
  }
  return 0;
}
''' % ('\n'.join(rows), ne, words('a', 4), words('b', 2), words('c', 4),
       ','.join('"%s"' % e['name'] for e in exps), SMEM_ELEMS, SMEM_ELEMS, '\n'.join(dispatch),
       SMEM_ELEMS, SMEM_ELEMS))
    return ''.join(src)
