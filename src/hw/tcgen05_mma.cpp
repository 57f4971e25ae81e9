#include "tirx_verify/hw/tcgen05_mma.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void shape_error(std::string msg) { throw InputError("tcgen05.shape", std::move(msg)); }

// Table 39 for the kinds with K = 16/8/32 (f16, tf32, f8f6f4): legal N per layout.
void check_n(Datapath d, int n_total) {
  switch (d) {
    case Datapath::D:
    case Datapath::F:
      if (n_total < 8 || n_total > 256 || n_total % 8 != 0)
        shape_error(fmt::format("N = {} is not legal for layout {} (cta_group::1): N must be a multiple of 8 in "
                                "[8, 256]",
                                n_total, to_char(d)));
      return;
    case Datapath::A:
    case Datapath::B:
      if (n_total < 16 || n_total > 256 || n_total % 16 != 0)
        shape_error(fmt::format("N = {} is not legal for layout {} (cta_group::2): N must be a multiple of 16 in "
                                "[16, 256]",
                                n_total, to_char(d)));
      return;
    case Datapath::E:
    case Datapath::G:
      if (n_total != 64 && n_total != 128 && n_total != 256)
        shape_error(fmt::format("N = {} is not legal for layout {} (.ws): N must be 64, 128 or 256", n_total,
                                to_char(d)));
      return;
    case Datapath::C:
      return;
  }
}
}  // namespace

Datapath parse_datapath(std::string_view text) {
  if (text.size() == 1 && text[0] >= 'A' && text[0] <= 'G') return static_cast<Datapath>(text[0] - 'A');
  throw InputError("tmem.datapath", fmt::format("unknown data-path layout '{}' (A..G)", text));
}

char to_char(Datapath d) { return static_cast<char>('A' + static_cast<int>(d)); }

int datapath_m(Datapath d) {
  switch (d) {
    case Datapath::A: return 256;
    case Datapath::B:
    case Datapath::C:
    case Datapath::D: return 128;
    case Datapath::E:
    case Datapath::F: return 64;
    case Datapath::G: return 32;
  }
  return 0;
}

AccumulatorCell accumulator_cell(const Target& target, Datapath d, int n_total, int m, int n, TmemAddress base) {
  const TmemGeometry& g = target.require_tmem("tcgen05.mma");
  if (d == Datapath::C)
    throw InputError("tmem.datapath",
                     "unresolved: PTX and CUTLASS disagree on Layout C (M=128, cta_group::2, sparse A): PTX ISA 9.1 "
                     "§9.7.16.10.5 lists a 4x1 half-data-path organisation (like Layout F), CUTLASS's 2-SM sparse atom "
                     "uses the 2x2 fragment of Layout B; the simulator does not guess",
                     {}, std::nullopt, "only B200 hardware readback can settle this");
  check_n(d, n_total);
  int big_m = datapath_m(d);
  if (m < 0 || m >= big_m || n < 0 || n >= n_total)
    shape_error(fmt::format("element ({}, {}) is outside the {} x {} accumulator of layout {}", m, n, big_m, n_total,
                            to_char(d)));
  int l0 = base.lane(), c0 = base.col();
  const int kHalfSlab = 16;  // Layout F lane alignment unit (PTX §9.7.16.10.5: alignment 0 or 16)
  bool l0_ok = l0 == 0 || (d == Datapath::F && l0 == kHalfSlab);
  if (!l0_ok)
    throw InputError("tmem.datapath", fmt::format("layout {} needs the accumulator at TMEM lane 0{}, not lane {}",
                                                  to_char(d), d == Datapath::F ? " or 16" : "", l0));
  int sub = target.tmem_subpartition_lanes();  // 32
  int cols_used = n_total;
  AccumulatorCell c;
  switch (d) {
    case Datapath::D:
      c = {0, l0 + m, c0 + n};
      break;
    case Datapath::A:
      c = {m / g.lanes, l0 + m % g.lanes, c0 + n};
      break;
    case Datapath::F:
      c = {0, l0 + m % kHalfSlab + sub * (m / kHalfSlab), c0 + n};
      break;
    case Datapath::E:
      c = {0, l0 + m + 2 * sub * (n / (n_total / 2)), c0 + n % (n_total / 2)};
      cols_used = n_total / 2;
      break;
    case Datapath::G:
      c = {0, l0 + m + sub * (n / (n_total / 4)), c0 + n % (n_total / 4)};
      cols_used = n_total / 4;
      break;
    case Datapath::B: {
      int per_cta = big_m / 2;
      int ml = m % per_cta;
      c = {m / per_cta, l0 + ml + 2 * sub * (n / (n_total / 2)), c0 + n % (n_total / 2)};
      cols_used = n_total / 2;
      break;
    }
    case Datapath::C:
      break;
  }
  if (c0 + cols_used > g.columns)
    throw InputError("tmem.address", fmt::format("layout {} accumulator with N = {} at column {} needs columns up to "
                                                 "{}, past the last column {}",
                                                 to_char(d), n_total, c0, c0 + cols_used - 1, g.columns - 1));
  return c;
}

ScaleVec parse_scale_vec(std::string_view text) {
  if (text == "1X") return ScaleVec::k1X;
  if (text == "2X") return ScaleVec::k2X;
  if (text == "4X") return ScaleVec::k4X;
  shape_error(fmt::format("unknown scale_vec '{}' (1X, 2X, 4X)", text));
}

std::vector<SfCell> scale_factor_cells(const Target& target, SfDatapath dp, ScaleVec vec, int x, int s, int sf_id,
                                       int mn_total, TmemAddress sf_base) {
  const TmemGeometry& g = target.require_tmem("tcgen05.mma block scaling");
  const int kMaxMn = 256;  // largest N (Table 39)
  if (mn_total < 1 || mn_total > kMaxMn) shape_error(fmt::format("MN extent {} is outside [1, {}]", mn_total, kMaxMn));
  if (x < 0 || x >= mn_total) shape_error(fmt::format("MN index {} is outside [0, {})", x, mn_total));
  bool ok = false;
  switch (vec) {
    case ScaleVec::k1X: ok = s == 0 && sf_id >= 0 && sf_id <= 3; break;
    case ScaleVec::k2X: ok = s >= 0 && s <= 1 && (sf_id == 0 || sf_id == 2); break;
    case ScaleVec::k4X: ok = s >= 0 && s <= 3 && sf_id == 0; break;
  }
  if (!ok)
    shape_error(fmt::format("scale index {} with SF_ID {} is not allowed for scale_vec::{} (1X: s 0, id 0..3; 2X: "
                            "s 0..1, id 0/2; 4X: s 0..3, id 0)",
                            s, sf_id, vec == ScaleVec::k1X ? "1X" : vec == ScaleVec::k2X ? "2X" : "4X"));
  if (sf_base.lane() != 0)
    throw InputError("tmem.address", fmt::format("scale factors are replicated over all lanes; the base must be at "
                                                 "lane 0, not lane {}",
                                                 sf_base.lane()));
  int sub = target.tmem_subpartition_lanes();  // 32
  std::vector<SfCell> cells;
  if (dp == SfDatapath::k4x1) {
    for (int j = 0; j < target.warps_per_warpgroup; ++j) cells.push_back({x % sub + sub * j, sf_base.col() + x / sub, s + sf_id});
  } else {
    if (mn_total % 2 != 0) shape_error(fmt::format("the 2x2 SFB layout needs an even N, not {}", mn_total));
    int half = mn_total / 2;
    int group = x / half;  // 0: lanes 0..63, 1: lanes 64..127
    int col = sf_base.col() + (x % half) / sub;
    for (int j = 0; j < 2; ++j) cells.push_back({2 * sub * group + sub * j + x % sub, col, s + sf_id});
  }
  for (const auto& c : cells)
    if (c.col >= g.columns)
      throw InputError("tmem.address", fmt::format("scale factor of MN index {} lands in column {}, past the last "
                                                   "column {}",
                                                   x, c.col, g.columns - 1));
  return cells;
}

}  // namespace tirx::hw
