// TMA tile-load probe for tensor maps of rank 2..5 whose global strides are not increasing
// (the maps TVM's tma_auto builds for a swizzled tile wider than one swizzle row: the box
// walks the 64-element row chunk first, then the rows, then the next chunk at a byte stride
// *smaller* than the row stride), overlapping rows, a zero stride, and partial boxes.
// Produced h200_tma_nd.json (tirx-readback/1, campaign "tma_tile_load_nd").
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a h200_tma_nd.probe.cu -o probe -lcuda
// Run:   ./probe list           (case ids)
//        ./probe case <id>      (one case per process: one JSON object on stdout)
// Global memory holds 16-bit labels: the element at byte offset b holds b / 2 + 1. Shared
// memory is pre-filled with 0xFF; the dump reports per 2-byte shared element the global
// element index (label - 1), -1 untouched, -2 zero fill.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct Case {
  const char* tag;
  int rank;
  unsigned long long gdim[5];
  unsigned long long stride[4];  // bytes, dims 1..
  unsigned box[5];
  int coord[5];
  int swz;                       // CUtensorMapSwizzle
  int smem_off;                  // bytes past a 1024-aligned base
  int gbytes;                    // global allocation (bytes)
  int dump;                      // bytes of shared memory dumped
};

// clang-format off
static const Case kCases[] = {
  // 0: 64 rows x 128 fp16 (row pitch 256 B) as (64-chunk, row, chunk): strides 256, 128
  {"perm3_128B", 3, {64, 64, 2}, {256, 128}, {64, 64, 2}, {0, 0, 0}, 3, 0, 64 * 256, 16384},
  // 1: the same map, box of 16 rows of the second chunk, from row 8
  {"perm3_128B_part", 3, {64, 64, 2}, {256, 128}, {64, 16, 1}, {0, 8, 1}, 3, 0, 64 * 256, 4096},
  // 2: FA4-style 4-D: (d chunk 64, head 4, row 16, d-half 2), head stride 256, row stride 1024, half 128
  {"perm4_fa4_128B", 4, {64, 4, 16, 2}, {256, 1024, 128}, {64, 4, 16, 2}, {0, 0, 0, 0}, 3, 0, 16 * 1024, 16384},
  // 3: 64B swizzle: 32 rows x 128 fp16 as (32-chunk, row, chunk 4): strides 256, 64
  {"perm3_64B", 3, {32, 32, 4}, {256, 64}, {32, 32, 4}, {0, 0, 0}, 2, 0, 32 * 256, 8192},
  // 4: no swizzle, rank 3, decreasing strides
  {"perm3_none", 3, {8, 16, 4}, {64, 16}, {8, 16, 4}, {0, 0, 0}, 0, 0, 16 * 64, 1024},
  // 5: overlapping rows: row stride 64 B < row extent 128 B
  {"overlap2_none", 2, {64, 8}, {64}, {64, 8}, {0, 0}, 0, 0, 8 * 64 + 64, 1024},
  // 6: overlapping rows under 128B swizzle
  {"overlap2_128B", 2, {64, 8}, {64}, {64, 8}, {0, 0}, 3, 0, 8 * 64 + 64, 1024},
  // 7: a zero stride (dim 2 repeats the same rows)
  {"zero_stride3", 3, {64, 4, 2}, {128, 0}, {64, 4, 2}, {0, 0, 0}, 3, 0, 4 * 128, 1024},
  // 8: rank 5: (16-chunk, row 4, chunk 2, plane 2, batch 2), strides 64, 32, 256, 512 (no swizzle)
  {"perm5_none", 5, {16, 4, 2, 2, 2}, {64, 32, 256, 512}, {16, 4, 2, 2, 2}, {0, 0, 0, 0, 0}, 0, 0, 1024, 1024},
  // 9: perm3_128B at a destination 384 bytes past the 1024-byte boundary (phase 3)
  {"perm3_128B_off384", 3, {64, 8, 2}, {256, 128}, {64, 8, 2}, {0, 0, 0}, 3, 384, 8 * 256, 2048 + 384},
};
// clang-format on
static const int kNumCases = sizeof(kCases) / sizeof(kCases[0]);
static const int kSmemBytes = 32 * 1024 + 2048;

__global__ void tma_load(const __grid_constant__ CUtensorMap map, uint8_t* out, int dump, int off, int bytes,
                         int rank, int c0, int c1, int c2, int c3, int c4, int* status) {
  extern __shared__ uint8_t raw[];
  uint8_t* sm = (uint8_t*)(((uintptr_t)raw + 1023) & ~uintptr_t(1023));
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < dump; i += blockDim.x) sm[i] = 0xFF;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t bar_a = (uint32_t)__cvta_generic_to_shared(&bar);
  uint32_t dst = (uint32_t)__cvta_generic_to_shared(sm + off);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_a) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_a), "r"(bytes) : "memory");
    if (rank == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(dst), "l"(&map), "r"(c0), "r"(c1), "r"(bar_a) : "memory");
    else if (rank == 3)
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                   ::"r"(dst), "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(bar_a) : "memory");
    else if (rank == 4)
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                   ::"r"(dst), "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar_a) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                   ::"r"(dst), "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar_a) : "memory");
    long long t0 = clock64();
    uint32_t done = 0;
    while (!done) {
      asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}"
                   : "=r"(done) : "r"(bar_a) : "memory");
      if (!done && clock64() - t0 > 400000000LL) { *status = 1; break; }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < dump; i += blockDim.x) out[i] = sm[i];
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("{\"id\":%d,\"status\":\"cuda_error\",\"where\":\"%s\",\"error\":\"%s\"}\n", id, #x, cudaGetErrorString(e_)); \
  fflush(stdout); exit(3); } } while (0)

static void run_case(int id) {
  const Case& c = kCases[id];
  std::vector<uint8_t> h(c.gbytes);
  for (int b = 0; b + 1 < c.gbytes; b += 2) { uint16_t label = (uint16_t)(b / 2 + 1); memcpy(&h[b], &label, 2); }
  uint8_t *g = nullptr, *o = nullptr; int* st = nullptr;
  CK(cudaMalloc(&g, c.gbytes)); CK(cudaMalloc(&o, c.dump)); CK(cudaMalloc(&st, sizeof(int)));
  CK(cudaMemcpy(g, h.data(), c.gbytes, cudaMemcpyHostToDevice));
  CUtensorMap map; memset(&map, 0, sizeof(map));
  cuuint64_t dims[5], strides[4]; cuuint32_t box[5], es[5];
  int box_elems = 1;
  for (int i = 0; i < c.rank; ++i) { dims[i] = c.gdim[i]; box[i] = c.box[i]; es[i] = 1; box_elems *= c.box[i]; }
  for (int i = 0; i + 1 < c.rank; ++i) strides[i] = c.stride[i];
  CUresult enc = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, c.rank, g, dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)c.swz,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("{\"id\":%d,\"tag\":\"%s\",\"encode\":%d", id, c.tag, (int)enc);
  if (enc != CUDA_SUCCESS) {
    const char* name = nullptr; cuGetErrorName(enc, &name);
    printf(",\"status\":\"encode_failed\",\"error\":\"%s\"}\n", name ? name : "?");
    fflush(stdout); return;
  }
  int zero = 0;
  CK(cudaMemcpy(st, &zero, sizeof(int), cudaMemcpyHostToDevice));
  tma_load<<<1, 128, kSmemBytes>>>(map, o, c.dump, c.smem_off, box_elems * 2, c.rank, c.coord[0], c.coord[1],
                                   c.coord[2], c.coord[3], c.coord[4], st);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<uint8_t> d(c.dump);
  CK(cudaMemcpy(d.data(), o, c.dump, cudaMemcpyDeviceToHost));
  int s = 0; CK(cudaMemcpy(&s, st, sizeof(int), cudaMemcpyDeviceToHost));
  printf(",\"status\":\"%s\",\"dump_bytes\":%d,\"src\":[", s ? "timeout" : "ok", c.dump);
  for (int i = 0; i + 1 < c.dump; i += 2) {
    uint16_t v; memcpy(&v, &d[i], 2);
    long long code = v == 0xFFFF ? -1 : v == 0 ? -2 : (long long)v - 1;
    printf(i ? ",%lld" : "%lld", code);
  }
  printf("]}\n");
  fflush(stdout);
}

int main(int argc, char** argv) {
  if (argc >= 2 && !strcmp(argv[1], "list")) { for (int i = 0; i < kNumCases; ++i) printf("%d\n", i); return 0; }
  if (argc < 3 || strcmp(argv[1], "case")) { fprintf(stderr, "usage: %s list | case <id>\n", argv[0]); return 2; }
  if (cudaFuncSetAttribute(tma_load, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes) != cudaSuccess) {
    fprintf(stderr, "cannot raise dynamic shared memory\n"); return 1;
  }
  int id = atoi(argv[2]);
  if (id < 0 || id >= kNumCases) return 2;
  run_case(id);
  return 0;
}
