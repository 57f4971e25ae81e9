"""Campaigns 3b and 4: wgmma accumulators and shared-memory descriptors.

Every experiment is one warpgroup running one
`wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16` with scale-d = 0 on a
48 KB shared-memory image built on the host and copied in with plain stores.

* "a"/"b" probes (campaign 4): the probed operand's descriptor points into
  the label region [0, 32768): every 16-bit element there holds the fp16 label
  0x0400 + byte_offset/2 (a positive normal number), whatever the layout.  The
  other operand is a 0/1 selection matrix in [32768, 49152) (K-major, no
  swizzle, LBO 128, SBO 256), so D[m][n] = A[m][n] (a probe, B = I16) or
  D[m][n] = B[m % 16][n] (b probe, A[m][k] = [k == m % 16]): each accumulator
  is the label of the shared-memory element the hardware fed at that (m, k) or
  (k, n).  Nothing about the probed layout is assumed when the image is built.
* "rs" experiments (campaign 3b): A comes from registers (wgmma ... {a0..a3}, b-desc); the
  per-thread A registers are part of the record.  rs_a_probe: A = fp16 labels placed through
  the PTX A-fragment map, B = I16, so D[m][n] is the label the hardware took as A[m][n];
  rs_random_*: small random integers in A (registers) and B (K-major, no swizzle).
* "id" experiments (campaign 3b): A[m][0] = m + 1, A[m][1] = 1, B[0][n] = 256,
  B[1][n] = n (other elements 0), both K-major without swizzle, so
  D[m][n] = 256 (m + 1) + n names its own (m, n).

Descriptors are recorded with their start-address field relative to the
1024-byte aligned image base; the kernel adds (base >> 4) to that field.
"""

import random
import struct

from rb_model import canonical_addr, f16_bits, f16_label, wgmma_a, wgmma_desc

IMG = 49152
LABEL_END = 32768
SEL_START = 32768
MODE_OF_SPAN = {0: 0, 128: 1, 64: 2, 32: 3}
ONE = f16_bits(1.0)


def _cfg(major, span, start, lbo, sbo, base_offset=0):
    return dict(major=major, span=span, start=start, lbo=lbo, sbo=sbo, base_offset=base_offset,
                mode=MODE_OF_SPAN[span])


def probe_configs():
    """(name, cfg, n_for_b_probe) for the probed operand."""
    out = []
    # K-major, no swizzle: core matrices 8 rows x 16 B
    out += [('K_none_lbo128_sbo256', _cfg('K', 0, 0, 128, 256), 32),
            ('K_none_mnadjacent', _cfg('K', 0, 0, 1024, 128), 32),
            ('K_none_padded', _cfg('K', 0, 0, 2048, 384), 32),
            ('K_none_start48', _cfg('K', 0, 48, 128, 256), 32)]
    # K-major swizzled: rows of `span` bytes, 8-row atoms SBO apart; LBO should be ignored
    for span, alt_sbo in ((32, 384), (64, 768), (128, 2048)):
        out += [('K_sw%d_dense' % span, _cfg('K', span, 0, 16, 8 * span), 32),
                ('K_sw%d_sbo%d_lbojunk' % (span, alt_sbo), _cfg('K', span, 0, 4096, alt_sbo), 32)]
    # base offset: operand not aligned to the swizzle period
    for span, start, bo in ((128, 256, 0), (128, 256, 2), (64, 128, 0), (64, 128, 1),
                            (32, 128, 0), (32, 128, 1)):
        out.append(('K_sw%d_start%d_bo%d' % (span, start, bo), _cfg('K', span, start, 16, 8 * span, bo), 32))
    # MN-major, no swizzle: core matrices 8 K-rows x 16 B of MN
    out += [('MN_none_sbo128_lbo1024', _cfg('MN', 0, 0, 1024, 128), 64),
            ('MN_none_sbo256_lbo128', _cfg('MN', 0, 0, 128, 256), 64)]
    # MN-major swizzled: rows = 8 K values of `span` bytes; MN groups LBO apart, K groups SBO apart
    for span in (32, 64, 128):
        atom = 8 * span
        n = 128 if span == 128 else 64
        groups = (n * 2) // span   # MN groups of the B operand
        out += [('MN_sw%d_mnfirst' % span, _cfg('MN', span, 0, atom, atom * max(groups, 4)), n),
                ('MN_sw%d_kfirst' % span, _cfg('MN', span, 0, 2 * atom, atom), n)]
    # base offset on a period-aligned operand: discriminates "(line - bo)" from "(line ^ bo)"
    out += [('K_sw128_start0_bo3', _cfg('K', 128, 0, 16, 1024, 3), 32),
            ('K_sw64_start0_bo1', _cfg('K', 64, 0, 16, 512, 1), 32),
            ('K_sw128_start384_bo5', _cfg('K', 128, 384, 16, 1024, 5), 32)]
    for bo in (0, 2):
        out.append(('MN_sw128_start256_bo%d' % bo, _cfg('MN', 128, 256, 2048, 1024, bo), 128))
    return out


def _place(nonzero, cfg, rows_mn, cols_k, value_of, base):
    for mn in range(rows_mn):
        for k in range(cols_k):
            v = value_of(mn, k)
            if v:
                a = base + canonical_addr(cfg['major'], cfg['span'], cfg['start'], cfg['lbo'],
                                          cfg['sbo'], mn, k)
                assert a not in nonzero or nonzero[a] == v
                nonzero[a] = v


def _desc(cfg):
    return wgmma_desc(cfg['start'], cfg['lbo'], cfg['sbo'], cfg['base_offset'], cfg['mode'])


SEL_CFG = _cfg('K', 0, 0, 128, 256)


def experiments():
    exps = []
    for name, cfg, nb in probe_configs():
        ta = 1 if cfg['major'] == 'MN' else 0
        # a probe: A = labels through cfg, B = I16 (N = 16)
        sel = {}
        _place(sel, SEL_CFG, 16, 16, lambda n, k: ONE if n == k else 0, SEL_START)
        exps.append(dict(name='a_' + name, probe='a', n=16, trans_a=ta, trans_b=0,
                         a_cfg=cfg, b_cfg=dict(SEL_CFG, start=SEL_START),
                         desc_a=_desc(cfg), desc_b=_desc(dict(SEL_CFG, start=SEL_START)),
                         label_region=[0, LABEL_END], nonzero=sorted(sel.items())))
        # b probe: B = labels through cfg, A[m][k] = [k == m % 16]
        sel = {}
        _place(sel, SEL_CFG, 64, 16, lambda m, k: ONE if k == m % 16 else 0, SEL_START)
        exps.append(dict(name='b_' + name, probe='b', n=nb, trans_a=0, trans_b=ta,
                         a_cfg=dict(SEL_CFG, start=SEL_START), b_cfg=cfg,
                         desc_a=_desc(dict(SEL_CFG, start=SEL_START)), desc_b=_desc(cfg),
                         label_region=[0, LABEL_END], nonzero=sorted(sel.items())))
    for n in (8, 16, 64, 256):
        img = {}
        a_cfg = _cfg('K', 0, 0, 128, 256)
        b_cfg = _cfg('K', 0, 16384, 128, 256)
        _place(img, a_cfg, 64, 16, lambda m, k: f16_bits(float(m + 1)) if k == 0 else (ONE if k == 1 else 0), 0)
        _place(img, b_cfg, n, 16, lambda nn, k: f16_bits(256.0) if k == 0 else (f16_bits(float(nn)) if k == 1 else 0), 0)
        exps.append(dict(name='id_n%d' % n, probe='id', n=n, trans_a=0, trans_b=0, a_cfg=a_cfg, b_cfg=b_cfg,
                         desc_a=_desc(a_cfg), desc_b=_desc(b_cfg), label_region=None,
                         nonzero=sorted(img.items())))
    rng = random.Random(20261130)

    def a_regs(value_of):
        regs = []
        for tid in range(128):
            el = [value_of(*wgmma_a(tid, i)) for i in range(8)]
            regs.append([el[2 * j] | (el[2 * j + 1] << 16) for j in range(4)])
        return regs

    sel = {}
    _place(sel, SEL_CFG, 16, 16, lambda n, k: ONE if n == k else 0, SEL_START)
    exps.append(dict(name='rs_a_probe', probe='rs', n=16, trans_a=0, trans_b=0, a_cfg=None,
                     b_cfg=dict(SEL_CFG, start=SEL_START), desc_a=0,
                     desc_b=_desc(dict(SEL_CFG, start=SEL_START)), label_region=None,
                     nonzero=sorted(sel.items()), a_regs=a_regs(lambda m, k: f16_label(16 * m + k))))
    for n in (16, 64):
        A = [[f16_bits(float(rng.randint(-4, 4))) for _ in range(16)] for _ in range(64)]
        img = {}
        b_cfg = _cfg('K', 0, 16384, 128, 256)
        Bv = [[f16_bits(float(rng.randint(-4, 4))) for _ in range(16)] for _ in range(n)]
        _place(img, b_cfg, n, 16, lambda nn, k: Bv[nn][k], 0)
        exps.append(dict(name='rs_random_n%d' % n, probe='rs', n=n, trans_a=0, trans_b=0, a_cfg=None,
                         b_cfg=b_cfg, desc_a=0, desc_b=_desc(b_cfg), label_region=None,
                         nonzero=sorted(img.items()), a_regs=a_regs(lambda m, k: A[m][k])))
    for i, e in enumerate(exps):
        e['id'] = i
    return exps


def image_bytes(e):
    img = bytearray(IMG)
    if e['label_region']:
        lo, hi = e['label_region']
        for o in range(lo, hi, 2):
            struct.pack_into('<H', img, o, f16_label(o // 2))
    for o, v in e['nonzero']:
        struct.pack_into('<H', img, o, v)
    return bytes(img)


def _wgmma_fn(n, ta, tb):
    nd = n // 2
    dl = ','.join('%%%d' % i for i in range(nd))
    outs = ', '.join('"+f"(d[%d])' % i for i in range(nd))
    return '''
__device__ __forceinline__ void wgmma_n%d_t%d%d(float* d, uint64_t da, uint64_t db) {
  asm volatile("{\\n .reg .pred p;\\n setp.ne.b32 p, %%%d, 0;\\n"
               " wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {%s}, %%%d, %%%d, p, 1, 1, %d, %d;\\n}\\n"
               : %s : "l"(da), "l"(db), "r"(0) : "memory");
}
''' % (n, ta, tb, nd + 2, n, dl, nd, nd + 1, ta, tb, outs)


def _wgmma_rs_fn(n, tb):
    nd = n // 2
    dl = ','.join('%%%d' % i for i in range(nd))
    outs = ', '.join('"+f"(d[%d])' % i for i in range(nd))
    return '''
__device__ __forceinline__ void wgmma_rs_n%d_t%d(float* d, const uint32_t* a, uint64_t db) {
  asm volatile("{\\n .reg .pred p;\\n setp.ne.b32 p, %%%d, 0;\\n"
               " wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {%s}, {%%%d, %%%d, %%%d, %%%d}, %%%d, p, 1, 1, %d;\\n}\\n"
               : %s : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(0) : "memory");
}
''' % (n, tb, nd + 5, n, dl, nd, nd + 1, nd + 2, nd + 3, nd + 4, tb, outs)


def emit(exps):
    groups, rs_groups = {}, {}
    for e in exps:
        if e['probe'] == 'rs':
            rs_groups.setdefault((e['n'], e['trans_b']), []).append(e['id'])
        else:
            groups.setdefault((e['n'], e['trans_a'], e['trans_b']), []).append(e['id'])
    src = [r'''// Generated by tools/readback/gen_wgmma.py: wgmma accumulator + descriptor readback (campaigns 3, 4).
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a wgmma.cu -o wgmma
// Run:   ./wgmma images.bin   (images: %d bytes per experiment; one JSON object per line on stdout)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define IMG %d
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("{\"status\":\"cuda_error\",\"where\":\"%%s\",\"error\":\"%%s\"}\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)
''' % (IMG, IMG)]
    for (n, ta, tb) in groups:
        src.append(_wgmma_fn(n, ta, tb))
    for (n, tb) in rs_groups:
        src.append(_wgmma_rs_fn(n, tb))
    src.append(r'''
template <int N, int TA, int TB> struct Mma;
template <int N, int TB> struct MmaRs;
''')
    for (n, tb) in rs_groups:
        src.append('template <> struct MmaRs<%d, %d> { __device__ static void run(float* d, const uint32_t* a, uint64_t b)'
                   ' { wgmma_rs_n%d_t%d(d, a, b); } };\n' % (n, tb, n, tb))
    for (n, ta, tb) in groups:
        src.append('template <> struct Mma<%d, %d, %d> { __device__ static void run(float* d, uint64_t a, uint64_t b)'
                   ' { wgmma_n%d_t%d%d(d, a, b); } };\n' % (n, ta, tb, n, ta, tb))
    src.append(r'''
template <int N, int TA, int TB>
__global__ void __launch_bounds__(128) wgmma_probe(const uint8_t* images, const int* ids,
                                                   const uint64_t* descs, uint32_t* out) {
  extern __shared__ uint8_t raw[];
  uint8_t* sm = (uint8_t*)(((uintptr_t)raw + 1023) & ~uintptr_t(1023));
  const int e = ids[blockIdx.x];
  const uint4* src = (const uint4*)(images + (size_t)e * IMG);
  for (int i = threadIdx.x; i < IMG / 16; i += blockDim.x) ((uint4*)sm)[i] = src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint64_t base16 = ((uint32_t)__cvta_generic_to_shared(sm)) >> 4;
  const uint64_t da = descs[2 * e] + base16, db = descs[2 * e + 1] + base16;
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  Mma<N, TA, TB>::run(d, da, db);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  uint32_t* o = out + ((size_t)e * 128 + threadIdx.x) * 128;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) o[i] = __float_as_uint(d[i]);
}
''')
    src.append(r'''
// A from registers: a_regs holds 128 threads x 4 registers per experiment (areg_index[e] = its slot).
template <int N, int TB>
__global__ void __launch_bounds__(128) wgmma_rs_probe(const uint8_t* images, const int* ids, const uint64_t* descs,
                                                      const uint32_t* a_regs, const int* areg_index, uint32_t* out) {
  extern __shared__ uint8_t raw[];
  uint8_t* sm = (uint8_t*)(((uintptr_t)raw + 1023) & ~uintptr_t(1023));
  const int e = ids[blockIdx.x];
  const uint4* src = (const uint4*)(images + (size_t)e * IMG);
  for (int i = threadIdx.x; i < IMG / 16; i += blockDim.x) ((uint4*)sm)[i] = src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint64_t base16 = ((uint32_t)__cvta_generic_to_shared(sm)) >> 4;
  const uint64_t db = descs[2 * e + 1] + base16;
  uint32_t a[4];
  for (int j = 0; j < 4; ++j) a[j] = a_regs[((size_t)areg_index[e] * 128 + threadIdx.x) * 4 + j];
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  MmaRs<N, TB>::run(d, a, db);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  uint32_t* o = out + ((size_t)e * 128 + threadIdx.x) * 128;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) o[i] = __float_as_uint(d[i]);
}
''')
    rs_ids = [e['id'] for e in exps if e['probe'] == 'rs']
    areg_index = ','.join(str(rs_ids.index(e['id']) if e['id'] in rs_ids else 0) for e in exps)
    aregs = ','.join('%uu' % w for e in exps if e['probe'] == 'rs' for t in range(128) for w in e['a_regs'][t]) or '0u'
    descs = ','.join('0x%016xull,0x%016xull' % (e['desc_a'], e['desc_b']) for e in exps)
    names = ','.join('"%s"' % e['name'] for e in exps)
    ns = ','.join(str(e['n']) for e in exps)
    launches = []
    for gi, ((n, ta, tb), ids) in enumerate(groups.items()):
        launches.append('''  {
    static const int ids[] = {%s};
    int* d_ids; CK(cudaMalloc(&d_ids, sizeof(ids)));
    CK(cudaMemcpy(d_ids, ids, sizeof(ids), cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(wgmma_probe<%d, %d, %d>, cudaFuncAttributeMaxDynamicSharedMemorySize, IMG + 1024));
    wgmma_probe<%d, %d, %d><<<%d, 128, IMG + 1024>>>(d_img, d_ids, d_desc, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }''' % (','.join(map(str, ids)), n, ta, tb, n, ta, tb, len(ids)))
    for (n, tb), ids in rs_groups.items():
        launches.append('''  {
    static const int ids[] = {%s};
    int* d_ids; CK(cudaMalloc(&d_ids, sizeof(ids)));
    CK(cudaMemcpy(d_ids, ids, sizeof(ids), cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(wgmma_rs_probe<%d, %d>, cudaFuncAttributeMaxDynamicSharedMemorySize, IMG + 1024));
    wgmma_rs_probe<%d, %d><<<%d, 128, IMG + 1024>>>(d_img, d_ids, d_desc, d_aregs, d_aidx, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }''' % (','.join(map(str, ids)), n, tb, n, tb, len(ids)))
    src.append(r'''
static const uint32_t kARegs[] = {%s};
static const int kARegIndex[] = {%s};
''' % (aregs, areg_index))
    src.append(r'''
static const int kNum = %d;
static const uint64_t kDesc[] = {%s};
static const char* kNames[] = {%s};
static const int kN[] = {%s};

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: %%s images.bin\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "cannot open %%s\n", argv[1]); return 2; }
  std::vector<uint8_t> img((size_t)kNum * IMG);
  if (fread(img.data(), 1, img.size(), f) != img.size()) { fprintf(stderr, "short image file\n"); return 2; }
  fclose(f);
  uint8_t* d_img; uint64_t* d_desc; uint32_t* d_out;
  CK(cudaMalloc(&d_img, img.size()));
  CK(cudaMalloc(&d_desc, sizeof(kDesc)));
  CK(cudaMalloc(&d_out, (size_t)kNum * 128 * 128 * 4));
  CK(cudaMemcpy(d_img, img.data(), img.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_desc, kDesc, sizeof(kDesc), cudaMemcpyHostToDevice));
  uint32_t* d_aregs; int* d_aidx;
  CK(cudaMalloc(&d_aregs, sizeof(kARegs)));
  CK(cudaMalloc(&d_aidx, sizeof(kARegIndex)));
  CK(cudaMemcpy(d_aregs, kARegs, sizeof(kARegs), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_aidx, kARegIndex, sizeof(kARegIndex), cudaMemcpyHostToDevice));
%s
  std::vector<uint32_t> h((size_t)kNum * 128 * 128);
  CK(cudaMemcpy(h.data(), d_out, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int e = 0; e < kNum; ++e) {
    printf("{\"kind\":\"wgmma\",\"id\":%%d,\"name\":\"%%s\",\"d_hex\":\"", e, kNames[e]);
    for (int t = 0; t < 128; ++t)
      for (int i = 0; i < kN[e] / 2; ++i) printf("%%08x", h[((size_t)e * 128 + t) * 128 + i]);
    printf("\"}\n");
  }
  return 0;
}
''' % (len(exps), descs, names, ns, '\n'.join(launches)))
    return ''.join(src)
