#include "tirx_verify/hw/mma_fragments.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
constexpr int kWarp = 32;          // these fragments are defined for 32-thread warps
constexpr int kWarpsPerGroup = 4;  // wgmma warpgroup
constexpr int kRowsPerWarp = 16;   // wgmma: warp w owns rows 16w..16w+15

void check(int t, int i, int elems, const char* what) {
  if (t < 0 || t >= kWarp) throw InputError("mma.shape", fmt::format("{}: thread {} is outside [0, {})", what, t, kWarp));
  if (i < 0 || i >= elems)
    throw InputError("mma.shape", fmt::format("{}: element {} is outside the fragment [0, {})", what, i, elems));
}

// The 8x8 "quad" pattern every fragment here is built from: thread (g, q) holds row g,
// columns 2q and 2q+1 of an 8x8 block.
RowCol quad(int t, int i) { return RowCol{t >> 2, 2 * (t & 3) + (i & 1)}; }
}  // namespace

RowCol mma_m16n8k16_a(int t, int i) {
  check(t, i, kMmaAElems, "mma.m16n8k16 A");
  RowCol b = quad(t, i);
  return RowCol{b.row + 8 * ((i >> 1) & 1), b.col + 8 * (i >> 2)};
}

RowCol mma_m16n8k16_b(int t, int i) {
  check(t, i, kMmaBElems, "mma.m16n8k16 B");
  RowCol b = quad(t, i);  // B is the quad pattern transposed: k along the pair
  return RowCol{b.col + 8 * (i >> 1), b.row};
}

RowCol mma_m16n8k16_c(int t, int i) {
  check(t, i, kMmaCElems, "mma.m16n8k16 C");
  RowCol b = quad(t, i);
  return RowCol{b.row + 8 * (i >> 1), b.col};
}

RowCol mma_m16n8k8_a(int t, int i) {
  check(t, i, kMmaK8AElems, "mma.m16n8k8 A");
  return mma_m16n8k16_a(t, i);  // its elements 0..3 are the k 0..7 half
}

RowCol mma_m16n8k8_b(int t, int i) {
  check(t, i, kMmaK8BElems, "mma.m16n8k8 B");
  return mma_m16n8k16_b(t, i);  // its elements 0..1 are the k 0..7 half
}

RowCol wgmma_m64nNk16_d(int w, int t, int i, int n_total) {
  if (n_total < 8 || n_total > 256 || n_total % 8 != 0)
    throw InputError("mma.shape", fmt::format("wgmma m64nNk16: N = {} must be a multiple of 8 in [8, 256]", n_total));
  if (w < 0 || w >= kWarpsPerGroup)
    throw InputError("mma.shape", fmt::format("wgmma: warp {} is outside the warpgroup [0, {})", w, kWarpsPerGroup));
  check(t, i, n_total / 2, "wgmma m64nNk16 D");
  RowCol b = quad(t, i);
  return RowCol{kRowsPerWarp * w + b.row + 8 * ((i >> 1) & 1), 8 * (i >> 2) + b.col};
}

RowCol wgmma_m64nNk16_a(int w, int t, int i) {
  if (w < 0 || w >= kWarpsPerGroup)
    throw InputError("mma.shape", fmt::format("wgmma: warp {} is outside the warpgroup [0, {})", w, kWarpsPerGroup));
  check(t, i, kWgmmaAElems, "wgmma m64nNk16 A");
  RowCol a = mma_m16n8k16_a(t, i);
  return RowCol{kRowsPerWarp * w + a.row, a.col};
}

}  // namespace tirx::hw
