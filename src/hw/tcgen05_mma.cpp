#include "tirx_verify/hw/tcgen05_mma.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void mma_shape_error(std::string msg) { throw InputError("tcgen05.shape", std::move(msg)); }

// Legal N per layout for the kinds with K = 16/8/32 (f16, tf32, f8f6f4): PTX ISA 9.1
// §9.7.16.2.1 Table 39, which CUTLASS enforces with static_asserts on its SM100 UMMA atoms
// (cute/arch/mma_sm100_umma.hpp): M=64 ::1 N % 8, M=128 ::1 N % 16, M=256 ::2 N % 16,
// M=128 ::2 N % 32, all up to 256.
void check_n(Datapath d, int n_total) {
  auto need = [&](int step, const char* group) {
    if (n_total < step || n_total > 256 || n_total % step != 0)
      mma_shape_error(fmt::format("N = {} is not legal for layout {} (M={}, {}): N must be a multiple of {} in [{}, 256] "
                              "(PTX ISA 9.1 Table 39)",
                              n_total, to_char(d), datapath_m(d), group, step, step));
  };
  switch (d) {
    case Datapath::F: return need(8, "cta_group::1");
    case Datapath::D: return need(16, "cta_group::1");
    case Datapath::A: return need(16, "cta_group::2");
    case Datapath::B: return need(32, "cta_group::2");
    case Datapath::E:
    case Datapath::G:
      if (n_total != 64 && n_total != 128 && n_total != 256)
        mma_shape_error(fmt::format("N = {} is not legal for layout {} (.ws): N must be 64, 128 or 256", n_total,
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

namespace {

// The checks of accumulator_cell that do not depend on (m, n); returns the layout's M.
int check_accumulator(const Target& target, Datapath d, int n_total, TmemAddress base) {
  const TmemGeometry& g = target.require_tmem("tcgen05.mma");
  if (d == Datapath::C)
    throw InputError("tmem.datapath",
                     "unresolved: PTX and CUTLASS disagree on Layout C (M=128, cta_group::2, sparse A): PTX ISA 9.1 "
                     "§9.7.16.10.5 lists a 4x1 half-data-path organisation (like Layout F), CUTLASS's 2-SM sparse atom "
                     "uses the 2x2 fragment of Layout B; the simulator does not guess",
                     {}, std::nullopt, "only B200 hardware readback can settle this");
  check_n(d, n_total);
  const int l0 = base.lane(), c0 = base.col();
  const int kHalfSlab = 16;  // Layout F lane alignment unit (PTX §9.7.16.10.5: alignment 0 or 16)
  if (!(l0 == 0 || (d == Datapath::F && l0 == kHalfSlab)))
    throw InputError("tmem.datapath", fmt::format("layout {} needs the accumulator at TMEM lane 0{}, not lane {}",
                                                  to_char(d), d == Datapath::F ? " or 16" : "", l0));
  const int cols_used = d == Datapath::E || d == Datapath::B ? n_total / 2 : d == Datapath::G ? n_total / 4 : n_total;
  if (c0 + cols_used > g.columns)
    throw InputError("tmem.address", fmt::format("layout {} accumulator with N = {} at column {} needs columns up to "
                                                 "{}, past the last column {}",
                                                 to_char(d), n_total, c0, c0 + cols_used - 1, g.columns - 1));
  return datapath_m(d);
}

// The table of the header, for (m, n) in range (check_accumulator done); sub = lanes of a
// sub-partition (32), lanes = TMEM lanes (128).
AccumulatorCell cell_of(int sub, int lanes, Datapath d, int n_total, int m, int n, TmemAddress base) {
  const int l0 = base.lane(), c0 = base.col();
  const int kHalfSlab = 16;
  switch (d) {
    case Datapath::D: return {0, l0 + m, c0 + n};
    case Datapath::A: return {m / lanes, l0 + m % lanes, c0 + n};
    case Datapath::F: return {0, l0 + m % kHalfSlab + sub * (m / kHalfSlab), c0 + n};
    case Datapath::E: return {0, l0 + m + 2 * sub * (n / (n_total / 2)), c0 + n % (n_total / 2)};
    case Datapath::G: return {0, l0 + m + sub * (n / (n_total / 4)), c0 + n % (n_total / 4)};
    case Datapath::B: {
      const int per_cta = datapath_m(d) / 2;
      return {m / per_cta, l0 + m % per_cta + 2 * sub * (n / (n_total / 2)), c0 + n % (n_total / 2)};
    }
    case Datapath::C: break;
  }
  return {};
}

}  // namespace

AccumulatorCell accumulator_cell(const Target& target, Datapath d, int n_total, int m, int n, TmemAddress base) {
  const int big_m = check_accumulator(target, d, n_total, base);
  if (m < 0 || m >= big_m || n < 0 || n >= n_total)
    mma_shape_error(fmt::format("element ({}, {}) is outside the {} x {} accumulator of layout {}", m, n, big_m, n_total,
                            to_char(d)));
  return cell_of(target.tmem_subpartition_lanes(), target.tmem->lanes, d, n_total, m, n, base);
}

std::vector<AccumulatorCell> accumulator_tile(const Target& target, Datapath d, int n_total, int rows,
                                              TmemAddress base) {
  const int big_m = check_accumulator(target, d, n_total, base);
  if (rows < 0 || rows > big_m)
    mma_shape_error(fmt::format("{} rows are outside the {}-row accumulator of layout {}", rows, big_m, to_char(d)));
  std::vector<AccumulatorCell> cells;
  cells.reserve(static_cast<std::size_t>(rows) * n_total);
  const int sub = target.tmem_subpartition_lanes(), lanes = target.tmem->lanes;
  for (int m = 0; m < rows; ++m)
    for (int n = 0; n < n_total; ++n) cells.push_back(cell_of(sub, lanes, d, n_total, m, n, base));
  return cells;
}

Datapath mma_datapath(int m, int cta_group, bool ws, bool sparse) {
  if (cta_group == 1) {
    if (ws) {
      if (m == 32) return Datapath::G;
      if (m == 64) return Datapath::E;
      if (m == 128) return Datapath::D;
    } else {
      if (m == 64) return Datapath::F;
      if (m == 128) return Datapath::D;
    }
  } else if (cta_group == 2 && !ws) {
    if (m == 128) return sparse ? Datapath::C : Datapath::B;
    if (m == 256) return Datapath::A;
  }
  mma_shape_error(fmt::format("no data-path layout for M = {}, cta_group::{}{}{} (PTX ISA 9.1 §9.7.16.10.5: ::1 M 64/128, "
                          ".ws M 32/64/128; ::2 M 128/256, no .ws)",
                          m, cta_group, ws ? ", .ws" : "", sparse ? ", sparse" : ""));
}

int datapath_rows_per_cta(Datapath d) {
  switch (d) {
    case Datapath::A: return datapath_m(d) / 2;
    case Datapath::B:
    case Datapath::C: return datapath_m(d) / 2;
    default: return datapath_m(d);
  }
}

std::vector<TmemBitCell> a_operand_cells(const Target& target, Datapath d, int m, int k, int elem_bits,
                                         TmemAddress base) {
  const TmemGeometry& g = target.require_tmem("tcgen05.mma A in TMEM");
  if (d == Datapath::C || d == Datapath::G)
    throw InputError("tmem.datapath",
                     fmt::format("A in TMEM with layout {} is not modelled (the PTX figures of its A placement are "
                                 "unread)",
                                 to_char(d)));
  if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32)
    mma_shape_error(fmt::format("A elements of {} bits cannot be read from TMEM (8, 16 or 32)", elem_bits));
  const int rows = datapath_rows_per_cta(d);
  if (m < 0 || m >= rows || k < 0) mma_shape_error(fmt::format("A element ({}, {}) is outside the {}-row operand", m, k, rows));
  const int kHalfSlab = 16;  // Layout F lane alignment unit, as accumulator_cell
  const int l0 = base.lane();
  if (!(l0 == 0 || (d == Datapath::F && l0 == kHalfSlab)))
    throw InputError("tmem.datapath", fmt::format("layout {} needs A at TMEM lane 0{}, not lane {}", to_char(d),
                                                  d == Datapath::F ? " or 16" : "", l0));
  const int sub = target.tmem_subpartition_lanes();  // 32
  const int col = base.col() + k * elem_bits / g.cell_bits;
  const int bit = (k * elem_bits) % g.cell_bits;
  switch (d) {
    case Datapath::D:
    case Datapath::A: return {{l0 + m, col, bit}};
    case Datapath::F: return {{l0 + m % kHalfSlab + sub * (m / kHalfSlab), col, bit}};
    case Datapath::B:
    case Datapath::E: return {{l0 + m, col, bit}, {l0 + m + 2 * sub, col, bit}};
    default: break;
  }
  return {};
}

int mma_kind_k(std::string_view kind) {
  if (kind == "f16") return 16;
  if (kind == "tf32") return 8;
  if (kind == "f8f6f4" || kind == "i8" || kind == "mxf8f6f4") return 32;
  if (kind == "mxf4" || kind == "mxf4nvf4") return 64;
  mma_shape_error(fmt::format("unknown tcgen05.mma kind '{}'", kind));
}

bool is_block_scaled_kind(std::string_view kind) { return kind == "mxf8f6f4" || kind == "mxf4" || kind == "mxf4nvf4"; }

int scale_vec_scales(ScaleVec v) {
  switch (v) {
    case ScaleVec::k1X: return 1;
    case ScaleVec::k2X: return 2;
    case ScaleVec::k4X: return 4;
  }
  return 1;
}

std::string_view to_string(ScaleVec v) {
  switch (v) {
    case ScaleVec::k1X: return "1X";
    case ScaleVec::k2X: return "2X";
    case ScaleVec::k4X: return "4X";
  }
  return "?";
}

void validate_block_scaling(std::string_view kind, ScaleVec vec, int k, std::string_view sf_dtype) {
  if (!is_block_scaled_kind(kind))
    mma_shape_error(fmt::format("kind::{} is not block-scaled (mxf8f6f4, mxf4, mxf4nvf4)", kind));
  const bool ok = (kind == "mxf8f6f4" && vec == ScaleVec::k1X) || (kind == "mxf4" && vec == ScaleVec::k2X) ||
                  (kind == "mxf4nvf4" && (vec == ScaleVec::k2X || vec == ScaleVec::k4X));
  if (!ok)
    mma_shape_error(fmt::format("kind::{} does not take scale_vec::{} (PTX ISA 9.1 §9.7.16.10.7.1: mxf8f6f4 1X, mxf4 2X, "
                            "mxf4nvf4 2X or 4X)",
                            kind, to_string(vec)));
  const int kk = mma_kind_k(kind);
  if (k != kk)
    mma_shape_error(fmt::format("kind::{} has K = {}, not {}: scale_vec::{} gives one scale factor per {} elements of K",
                            kind, kk, k, to_string(vec), kk / scale_vec_scales(vec)));
  if (sf_dtype.empty()) return;
  const bool ue8m0 = sf_dtype == "float8_e8m0fnu", ue4m3 = sf_dtype == "float8_e4m3fn";
  if (vec == ScaleVec::k4X ? !(ue8m0 || ue4m3) : !ue8m0)
    mma_shape_error(fmt::format("scale_vec::{} takes {} scale factors, not {} (PTX ISA 9.1 §9.7.16.10.7.1)",
                            to_string(vec), vec == ScaleVec::k4X ? "UE8M0 (float8_e8m0fnu) or UE4M3 (float8_e4m3fn)"
                                                                 : "UE8M0 (float8_e8m0fnu)",
                            sf_dtype));
}

SfDatapath sf_datapath(int m, int cta_group, bool for_b) {
  if ((cta_group == 1 && m == 128) || (cta_group == 2 && m == 256)) return SfDatapath::k4x1;
  if (cta_group == 2 && m == 128) {
    if (for_b) return SfDatapath::k2x2;
    throw InputError("tmem.datapath", "the SFA placement of M = 128, cta_group::2 is not modelled (PTX ISA 9.1 "
                                      "§9.7.16.10.7 figures unread)");
  }
  mma_shape_error(fmt::format("block-scaled tcgen05.mma has no M = {} with cta_group::{} (::1 M 128; ::2 M 128/256)", m,
                          cta_group));
}

ScaleVec parse_scale_vec(std::string_view text) {
  if (text == "1X") return ScaleVec::k1X;
  if (text == "2X") return ScaleVec::k2X;
  if (text == "4X") return ScaleVec::k4X;
  mma_shape_error(fmt::format("unknown scale_vec '{}' (1X, 2X, 4X)", text));
}

std::vector<SfCell> scale_factor_cells(const Target& target, SfDatapath dp, ScaleVec vec, int x, int s, int sf_id,
                                       int mn_total, TmemAddress sf_base) {
  const TmemGeometry& g = target.require_tmem("tcgen05.mma block scaling");
  const int kMaxMn = 256;  // largest N (Table 39)
  if (mn_total < 1 || mn_total > kMaxMn) mma_shape_error(fmt::format("MN extent {} is outside [1, {}]", mn_total, kMaxMn));
  if (x < 0 || x >= mn_total) mma_shape_error(fmt::format("MN index {} is outside [0, {})", x, mn_total));
  bool ok = false;
  switch (vec) {
    case ScaleVec::k1X: ok = s == 0 && sf_id >= 0 && sf_id <= 3; break;
    case ScaleVec::k2X: ok = s >= 0 && s <= 1 && (sf_id == 0 || sf_id == 2); break;
    case ScaleVec::k4X: ok = s >= 0 && s <= 3 && sf_id == 0; break;
  }
  if (!ok)
    mma_shape_error(fmt::format("scale index {} with SF_ID {} is not allowed for scale_vec::{} (1X: s 0, id 0..3; 2X: "
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
    if (mn_total % 2 != 0) mma_shape_error(fmt::format("the 2x2 SFB layout needs an even N, not {}", mn_total));
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
