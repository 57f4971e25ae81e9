// Shared-memory wavefront probe for the tirx-verify bank model (run under ncu); produced
// h200_banks_pairs.json (two runs: the run-1 and run-2 pattern blocks were run separately).
// Build: nvcc -arch=sm_90a -O2 -o probe h200_banks_pairs.probe.cu
// Run:   ncu --clock-control none --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//            l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum ./probe
// One launch per pattern: one warp, REPS executions of one ld.shared (v2/v4/u32), repetition i
// adds 8192*i bytes (same banks). Inactive lanes return before the load.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <string>

#define REPS 4

__global__ void pat_ld(const unsigned* addrs, int width, unsigned mask, unsigned* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  unsigned base = (unsigned)__cvta_generic_to_shared(smem);
  base = (base + 1023u) & ~1023u;
  unsigned t = threadIdx.x;
  unsigned a = base + addrs[t];
  if (!((mask >> t) & 1u)) return;
  unsigned acc = 0, x, y, z, w;
  #pragma unroll
  for (int i = 0; i < REPS; ++i) {
    unsigned ai = a + 8192u * i;
    if (width == 4) { asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(ai)); acc += x; }
    else if (width == 8) { asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(ai)); acc += x + y; }
    else { asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(ai)); acc += x + y + z + w; }
  }
  out[t] = acc;
}

struct Pat { std::string name; int width; unsigned mask; std::vector<unsigned> a; };

int main() {
  std::vector<Pat> ps;
  auto add = [&](std::string n, int w, unsigned m, auto f) { Pat p{n, w, m, {}}; for (unsigned t = 0; t < 32; ++t) p.a.push_back(f(t)); ps.push_back(p); };
  const unsigned F = 0xFFFFFFFFu;
  // run 1 (first ncu run): baselines already in h200_banks.json, then the open questions
  add("ld16_pairs_xor1", 16, F, [](unsigned t) { return 16 * (t / 2); });
  add("ld8_broadcast", 8, F, [](unsigned) { return 0u; });
  add("ld8_xor4", 8, F, [](unsigned t) { return 8 * ((t % 4) + 4 * (t / 8)); });
  add("ld8_xor8", 8, F, [](unsigned t) { return 8 * ((t % 8) + 8 * (t / 16)); });
  add("ld16_xor8", 16, F, [](unsigned t) { return 16 * ((t % 8) + 8 * (t / 16)); });
  add("ld8_xor3", 8, F, [](unsigned t) { unsigned x[4] = {0, 8, 8, 0}; return x[t % 4] + 32 * (t / 4); });
  add("ld8_pairs_lane1_off", 8, F & ~2u, [](unsigned t) { return 8 * (t / 2); });
  add("ld16_pairs_lane1_off", 16, F & ~2u, [](unsigned t) { return 16 * (t / 2); });
  add("ld16_pairs_low_half", 16, 0x0000FFFFu, [](unsigned t) { return 16 * (t / 2); });
  add("ld16_pairs_odd_pairs_off", 16, 0x33333333u, [](unsigned t) { return 16 * (t / 2); });
  add("ld16_pairs_two_groups", 16, F, [](unsigned t) { unsigned p = t / 2; unsigned q = p % 8, h = p / 8;
        return (q < 4 ? 128 * q : 16 + 128 * (q - 4)) + 512 * h; });
  add("ld8_pairs_two_groups", 8, F, [](unsigned t) { unsigned p = t / 2; return p < 8 ? 128 * p : 8 + 128 * (p - 8); });
  add("ld16_xor2_two_groups", 16, F, [](unsigned t) { unsigned p = (t / 4) * 2 + (t % 2); unsigned q = p % 8, h = p / 8;
        return (q < 4 ? 128 * q : 16 + 128 * (q - 4)) + 512 * h; });
  // run 2 (second ncu run): inactive partners everywhere, mixed pair masks
  add("ld16_pairs_xor1_ref", 16, F, [](unsigned t) { return 16 * (t / 2); });
  add("ld16_even_lanes_contig", 16, 0x55555555u, [](unsigned t) { return 16 * t; });
  add("ld8_even_lanes_contig", 8, 0x55555555u, [](unsigned t) { return 8 * t; });
  add("ld16_mixed_xor1_xor2", 16, F, [](unsigned t) { if (t < 16) return 16 * (t / 2);
        unsigned u = t - 16; return 128 + 16 * ((u / 4) * 2 + u % 2); });
  add("ld8_mixed_xor1_xor2", 8, F, [](unsigned t) { if (t < 16) return 8 * (t / 2);
        unsigned u = t - 16; return 64 + 8 * ((u / 4) * 2 + u % 2); });
  add("ld16_even_lanes_stride32", 16, 0x55555555u, [](unsigned t) { return 32 * (t / 2) + 16 * (t % 2); });
  add("ld16_pairs_quarter3_off", 16, 0x00FFFFFFu, [](unsigned t) { return 16 * (t / 2); });
  unsigned *d_a, *d_out;
  cudaMalloc(&d_a, 32 * 4); cudaMalloc(&d_out, 32 * 4);
  cudaFuncSetAttribute(pat_ld, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  for (auto& p : ps) {
    cudaMemcpy(d_a, p.a.data(), 32 * 4, cudaMemcpyHostToDevice);
    pat_ld<<<1, 32, 40 * 1024>>>(d_a, p.width, p.mask, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("PATTERN %s width %d mask 0x%08x addr", p.name.c_str(), p.width, p.mask);
    for (unsigned v : p.a) printf(" %u", v);
    printf(" %s\n", e ? cudaGetErrorString(e) : "ok");
  }
  return 0;
}
