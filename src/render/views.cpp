// The four layout views (views.hpp): enumerate every point, place it, mark what is wrong.
#include "tirx_verify/render/views.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "view_context.hpp"

namespace tirx::render {

View parse_view(std::string_view s) {
  if (s == "auto") return View::kAuto;
  if (s == "logical") return View::kLogical;
  if (s == "tmem") return View::kTmem;
  if (s == "smem") return View::kSmem;
  if (s == "threads") return View::kThreads;
  throw InputError("cli.usage", fmt::format("unknown view '{}' (auto, logical, tmem, smem, threads)", s),
                   std::string(s), 0);
}

std::string_view view_name(View v) {
  switch (v) {
    case View::kAuto: return "auto";
    case View::kLogical: return "logical";
    case View::kTmem: return "tmem";
    case View::kSmem: return "smem";
    case View::kThreads: return "threads";
  }
  return "?";
}

namespace {
constexpr std::array<std::pair<ColorBy, std::string_view>, 9> kColorNames = {{{ColorBy::kAuto, "auto"},
                                                                               {ColorBy::kThread, "thread"},
                                                                               {ColorBy::kWarp, "warp"},
                                                                               {ColorBy::kLaneBlock, "lane-block"},
                                                                               {ColorBy::kChunk, "chunk"},
                                                                               {ColorBy::kRow, "row"},
                                                                               {ColorBy::kOuter, "outer"},
                                                                               {ColorBy::kVector, "vector"},
                                                                               {ColorBy::kNone, "none"}}};
}  // namespace

ColorBy parse_color_by(std::string_view s) {
  for (const auto& [c, name] : kColorNames)
    if (name == s) return c;
  throw InputError("cli.usage",
                   fmt::format("unknown --color-by '{}' (auto, thread, warp, lane-block, chunk, row, outer, vector, none)", s),
                   std::string(s), 0);
}

std::string_view color_by_name(ColorBy c) {
  for (const auto& [k, name] : kColorNames)
    if (k == c) return name;
  return "?";
}

MarkPattern parse_mark(const std::string& text, const std::string& option) {
  MarkPattern out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, end - start);
    if (part == "*") {
      out.emplace_back(std::nullopt);
    } else {
      std::int64_t v = 0;
      const char* b = part.data();
      const auto [p, ec] = std::from_chars(b, b + part.size(), v);
      if (part.empty() || ec != std::errc() || p != b + part.size() || v < 0)
        throw InputError("cli.usage",
                         fmt::format("{}: '{}' is not a logical coordinate (non-negative integers or *, comma-separated)",
                                     option, text),
                         text, start);
      out.emplace_back(v);
    }
    if (end == text.size()) return out;
    start = end + 1;
  }
}

bool uses_thread_axis(const Layout& l) {
  for (Axis a : l.tile().axes())
    if (a.is_thread()) return true;
  return false;
}

View default_view(const prove::CheckInput& in) {
  const TileLayout& t = in.layout.tile();
  const bool tmem_axes = t.uses_axis(AxisId::TLane) || t.uses_axis(AxisId::TCol);
  if (in.scope == prove::Scope::kTmem && tmem_axes) return View::kTmem;
  if ((in.scope == prove::Scope::kShared || in.scope == prove::Scope::kGlobal) && in.elem_bits > 0 &&
      !uses_thread_axis(in.layout) && !tmem_axes)
    return View::kSmem;
  if (in.scope == prove::Scope::kLocal && uses_thread_axis(in.layout)) return View::kThreads;
  if (in.scope == prove::Scope::kUnknown && tmem_axes && !uses_thread_axis(in.layout)) return View::kTmem;
  return View::kLogical;
}

namespace {

std::string lanes_text(std::int64_t lo, std::int64_t hi) { return fmt::format("{}..{}", lo, hi); }

// Rows or columns of a grid spanning [lo, hi] (checked: a layout may reach both ends of int64).
std::int64_t extent(std::int64_t lo, std::int64_t hi) {
  return checked_add(checked_sub(hi, lo, "picture extent"), 1, "picture extent");
}

// Bands repeated every `step` over [lo, hi] are drawn only while there are at most this many
// (a layout reaching 2^62 would otherwise ask for 2^60 lines).
constexpr std::int64_t kMaxRepeatedBands = 1024;
bool few_bands(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  return step > 0 && (hi - lo) / step < kMaxRepeatedBands;  // hi - lo fits: extent() succeeded
}

// ---- logical ----
Grid logical_view(const ViewContext& x) {
  Grid g;
  g.title = fmt::format("{}  (logical view, shape {})", x.in.text.empty() ? print_text(x.in.layout) : x.in.text,
                        shape_text(x.shape));
  g.row_axis = x.shape.size() > 1 ? "row" : "-";
  g.col_axis = "col";
  const MemoryCharge held = x.charge_picture(x.in.layout.size() / x.last, x.last, 0);
  g.init(x.in.layout.size() / x.last, x.last, 0, 0, x.opt.max_rows, x.opt.max_cols);
  g.owner_kind = x.owner_name();
  x.sweep([&](std::int64_t flat, std::int64_t rep, const Point& c) {
    const unsigned flags = x.point_flags(flat, rep, c);
    g.add(flat / x.last, flat % x.last, x.owner(flat, c), flags, [&] { return (rep ? "+" : "") + x.image_label(c); });
  });
  g.notes.push_back("each cell is one logical element; it lists its physical image(s): " + x.abbreviations());
  if (x.in.layout.tile().replica_count() > 1)
    g.notes.push_back(fmt::format("each element has {} copies (replica iters); a label starting with '+' is a "
                                  "replica copy",
                                  x.in.layout.tile().replica_count()));
  return g;
}

// ---- tmem ----
Grid tmem_view(const ViewContext& x) {
  const TileLayout& t = x.in.layout.tile();
  if (!t.uses_axis(AxisId::TLane) && !t.uses_axis(AxisId::TCol))
    throw InputError("cli.usage", "the tmem view draws a layout on TLane and TCol; this one uses neither",
                     x.in.text, 0, "use --view logical, or --scope tmem with a TMEM layout");
  if (x.in.machine.tmem_lanes <= 0)
    throw InputError("cli.usage", "the target has no tensor memory: the tmem view cannot be drawn", x.in.text, 0);
  const std::int64_t lanes = x.in.machine.tmem_lanes;
  const std::int64_t per_col = x.elems_per_tmem_col();
  const std::int64_t base = checked_mul(x.in.tmem_col_offset, per_col, "TMEM column offset");
  const std::int64_t machine_width = checked_mul(x.in.machine.tmem_columns, per_col, "TMEM width");
  const std::int64_t width = x.in.alloc_cols ? checked_mul(*x.in.alloc_cols, per_col, "TMEM allocation") : machine_width;
  std::int64_t lmin = 0, lmax = lanes - 1, cmin = 0, cmax = x.in.alloc_cols ? width - 1 : 0;
  x.sweep([&](std::int64_t, std::int64_t, const Point& c) {
    lmin = std::min(lmin, c[AxisId::TLane]), lmax = std::max(lmax, c[AxisId::TLane]);
    const std::int64_t col = checked_add(c[AxisId::TCol], base, "TMEM column");
    cmin = std::min(cmin, col), cmax = std::max(cmax, col);
  });
  Grid g;
  g.title = fmt::format("{}  (TMEM view: {} lanes x {} columns{})", x.title_text(), lanes, width / per_col,
                        x.in.alloc_cols ? " allocated" : "");
  g.row_axis = "TLane";
  g.col_axis = per_col > 1 ? fmt::format("TCol (elements, {} per 32-bit column)", per_col) : "TCol";
  const MemoryCharge held = x.charge_picture(extent(lmin, lmax), extent(cmin, cmax), 1);
  g.init(extent(lmin, lmax), extent(cmin, cmax), lmin, cmin, x.opt.max_rows, x.opt.max_cols);
  g.owner_kind = x.owner_name();
  Occupancy occ(g, 1);
  x.sweep([&](std::int64_t flat, std::int64_t rep, const Point& c) {
    const std::int64_t lane = c[AxisId::TLane], col = c[AxisId::TCol] + base;  // checked in the first pass
    unsigned flags = x.point_flags(flat, rep, c);
    if (lane < 0 || lane >= lanes || col < 0 || col >= width) flags |= kOutOfBounds;
    if (occ.record(lane, col, 0, flat)) flags |= kCollision;
    g.add(lane, col, x.owner(flat, c), flags, [&] { return x.logical_label(flat, rep); });
  });
  // Warp sub-partitions (PTX ISA 9.1 §9.7.16.8.1) and their 16-lane half-slabs, the lanes a
  // .16x*b access reaches (§9.7.16.10.5; hw/tcgen05_dispatch.hpp): half a sub-partition.
  const std::int64_t sub = x.in.target ? x.in.target->tmem_subpartition_lanes() : lanes / 4;
  for (std::int64_t w = 0; w * sub < lanes; ++w) {
    g.row_bands.push_back({w * sub, (w + 1) * sub,
                           fmt::format("warp {} sub-partition (lanes {})", w, lanes_text(w * sub, (w + 1) * sub - 1)),
                           Band::kMajor});
    g.row_bands.push_back({w * sub + sub / 2, (w + 1) * sub,
                           fmt::format("upper half-slab (lanes {})", lanes_text(w * sub + sub / 2, (w + 1) * sub - 1)),
                           Band::kMinor});
  }
  if (lmax >= lanes) g.row_bands.push_back({lanes, lmax + 1, fmt::format("lanes >= {}: no TMEM", lanes), Band::kShade});
  if (lmin < 0) g.row_bands.push_back({lmin, 0, "negative lanes", Band::kShade});
  if (cmax >= width)
    g.col_bands.push_back({width, cmax + 1,
                           x.in.alloc_cols ? fmt::format("past the {}-column allocation", *x.in.alloc_cols)
                                           : fmt::format("past the {} TMEM columns", x.in.machine.tmem_columns),
                           Band::kShade});
  if (cmin < 0) g.col_bands.push_back({cmin, 0, "negative columns", Band::kShade});
  if (per_col > 1 && few_bands(cmin, cmax, per_col))
    for (std::int64_t c = floor_div(cmin, per_col) * per_col; c <= cmax; c += per_col)
      if (c > cmin) g.col_bands.push_back({c, c + per_col, "", Band::kMinor});
  g.notes.push_back("each cell is one TMEM cell (lane, TCol); it lists the logical element(s) it holds" +
                    std::string(t.replica_count() > 1 ? "; 'rK' = replica copy K (dashed outline)" : ""));
  if (!occ.enabled()) g.notes.push_back("grid too large to mark every shared cell: only the witness is marked");
  return g;
}

// ---- smem ----
Grid smem_view(const ViewContext& x) {
  if (x.bits <= 0)
    throw InputError("cli.usage", "the smem view needs the element type (--dtype) to turn elements into bytes",
                     x.in.text, 0);
  if (uses_thread_axis(x.in.layout) || x.in.layout.tile().uses_axis(AxisId::TLane) ||
      x.in.layout.tile().uses_axis(AxisId::TCol))
    throw InputError("cli.usage", "the smem view draws a memory layout on m; this one uses thread or TMEM axes",
                     x.in.text, 0, "use --view logical or --view threads");
  const std::int64_t banks = x.banks(), bank_bytes = x.bank_bytes();
  const std::int64_t word_bits = bank_bytes * 8;
  const int slots = x.bits < word_bits ? static_cast<int>((word_bits + x.bits - 1) / x.bits) : 1;  // 6-bit types straddle
  const std::int64_t words_per_elem = x.bits > word_bits ? x.bits / word_bits : 1;
  auto word_of = [&](std::int64_t m) { return floor_div(checked_mul(m, x.bits, "bit address"), word_bits); };
  std::int64_t wmin = std::numeric_limits<std::int64_t>::max(), wmax = std::numeric_limits<std::int64_t>::min();
  x.sweep([&](std::int64_t, std::int64_t, const Point& c) {
    const std::int64_t w = word_of(c[AxisId::m]);
    wmin = std::min(wmin, w), wmax = std::max(wmax, w + words_per_elem - 1);
  });
  const std::int64_t rmin = floor_div(std::min<std::int64_t>(wmin, 0), banks), rmax = floor_div(wmax, banks);
  Grid g;
  const std::int64_t line = banks * bank_bytes;
  g.title = fmt::format("{}  (shared-memory view: {}-byte lines x {} banks of {} B, {})", x.title_text(), line, banks,
                        bank_bytes, x.in.dtype.empty() ? fmt::format("{}-bit elements", x.bits) : x.in.dtype);
  g.row_axis = fmt::format("line ({} B)", line);
  g.col_axis = "bank";
  const MemoryCharge held = x.charge_picture(extent(rmin, rmax), banks, slots);
  g.init(extent(rmin, rmax), banks, rmin, 0, x.opt.max_rows, x.opt.max_cols);
  g.owner_kind = x.owner_name();
  Occupancy occ(g, slots);
  x.sweep([&](std::int64_t flat, std::int64_t rep, const Point& c) {
    const std::int64_t m = c[AxisId::m];
    const std::int64_t bit = checked_mul(m, x.bits, "bit address");
    unsigned flags = x.point_flags(flat, rep, c);
    if (m < 0 || (x.in.alloc_elems && m >= *x.in.alloc_elems)) flags |= kOutOfBounds;
    for (std::int64_t k = 0; k < words_per_elem; ++k) {
      const std::int64_t w = floor_div(bit, word_bits) + k;
      const int slot = slots > 1 ? static_cast<int>(floor_mod(bit, word_bits) / x.bits) : 0;
      unsigned f = flags;
      if (occ.record(floor_div(w, banks), floor_mod(w, banks), slot, flat)) f |= kCollision;
      g.add(floor_div(w, banks), floor_mod(w, banks), x.owner(flat, c), f, [&] { return x.logical_label(flat, rep); });
    }
  });
  if (const SwizzleSpec* z = x.in.layout.swizzle()) {
    const std::int64_t period_bytes = checked_mul(z->period(), x.bits, "swizzle period") / 8;
    if (period_bytes >= line && period_bytes % line == 0 && few_bands(rmin, rmax, period_bytes / line)) {
      const std::int64_t pr = period_bytes / line;
      for (std::int64_t r = floor_div(rmin, pr) * pr; r <= rmax; r += pr)
        g.row_bands.push_back({r, r + pr, fmt::format("swizzle period ({} B) at byte {}", period_bytes, r * line),
                               Band::kMajor});
    }
  }
  const std::int64_t chunk_banks = 16 / bank_bytes;  // a 16-byte vector, the widest access (banks.hpp)
  for (std::int64_t b = chunk_banks; b < banks; b += chunk_banks) g.col_bands.push_back({b, b + chunk_banks, "", Band::kMinor});
  if (x.in.alloc_elems) {
    const std::int64_t end_row = floor_div(word_of(*x.in.alloc_elems), banks);
    if (end_row <= rmax) g.row_bands.push_back({std::max(end_row, rmin), rmax + 1, "past the allocation", Band::kShade});
  }
  g.notes.push_back(fmt::format("each cell is one {}-byte word (bank = word % {}); it lists the logical element(s) in "
                                "it; thin lines: 16-byte chunks",
                                bank_bytes, banks));
  return g;
}

// ---- threads ----
Grid threads_view(const ViewContext& x) {
  if (!uses_thread_axis(x.in.layout))
    throw InputError("cli.usage", "the threads view draws a register fragment: the layout has no thread axis",
                     x.in.text, 0, "use --view logical");
  std::int64_t tmin = 0, tmax = 0, smin = 0, smax = 0;
  bool first = true;
  x.sweep([&](std::int64_t, std::int64_t, const Point& c) {
    const std::int64_t t = x.thread_of(c), s = c[AxisId::m];
    if (first) tmin = tmax = t, smin = smax = s, first = false;
    tmin = std::min(tmin, t), tmax = std::max(tmax, t), smin = std::min(smin, s), smax = std::max(smax, s);
  });
  tmin = std::min<std::int64_t>(tmin, 0), smin = std::min<std::int64_t>(smin, 0);
  Grid g;
  const std::int64_t per_reg = x.bits > 0 && x.bits < 32 ? 32 / x.bits : 1;
  g.title = fmt::format("{}  (threads view: thread x register slot)", x.title_text());
  g.row_axis = "thread";
  g.col_axis = per_reg > 1 ? fmt::format("slot m ({} per 32-bit register)", per_reg) : "slot m";
  const MemoryCharge held = x.charge_picture(extent(tmin, tmax), extent(smin, smax), 1);
  g.init(extent(tmin, tmax), extent(smin, smax), tmin, smin, x.opt.max_rows, x.opt.max_cols);
  g.owner_kind = x.owner_name();
  Occupancy occ(g, 1);
  const std::int64_t reg_limit = x.in.machine.max_registers_per_thread > 0
                                     ? checked_mul(x.in.machine.max_registers_per_thread, per_reg, "register slots")
                                     : std::numeric_limits<std::int64_t>::max();
  x.sweep([&](std::int64_t flat, std::int64_t rep, const Point& c) {
    const std::int64_t t = x.thread_of(c), s = c[AxisId::m];
    unsigned flags = x.point_flags(flat, rep, c);
    if (s < 0 || s >= reg_limit) flags |= kOutOfBounds;
    if (occ.record(t, s, 0, flat)) flags |= kCollision;
    g.add(t, s, x.owner(flat, c), flags, [&] { return x.logical_label(flat, rep); });
  });
  const std::int64_t ws = x.warp_size();
  if (few_bands(tmin, tmax, ws))
    for (std::int64_t w = floor_div(tmin, ws); w * ws <= tmax; ++w)
    g.row_bands.push_back({w * ws, (w + 1) * ws, fmt::format("warp {}", w), Band::kMajor});
  if (per_reg > 1 && few_bands(smin, smax, per_reg))
    for (std::int64_t s = floor_div(smin, per_reg) * per_reg + per_reg; s <= smax; s += per_reg)
      g.col_bands.push_back({s, s + per_reg, "", Band::kMinor});
  if (smax >= reg_limit)
    g.col_bands.push_back({reg_limit, smax + 1, "past the register budget", Band::kShade});
  g.notes.push_back("each cell is one register slot of one thread (thread = " + x.thread_formula() +
                    "); it lists the logical element(s) it holds");
  return g;
}

}  // namespace

Grid build_view_with(const ViewContext& x) {
  Grid g;
  switch (x.view) {
    case View::kTmem: g = tmem_view(x); break;
    case View::kSmem: g = smem_view(x); break;
    case View::kThreads: g = threads_view(x); break;
    default: g = logical_view(x); break;
  }
  if (!g.owner_kind.empty()) g.notes.push_back("colours: " + g.owner_kind);
  x.fill_legend(g);
  if (!x.opt.marks.empty()) g.notes.push_back("blue outline: the elements --mark names");
  if (g.aggregated())
    g.notes.push_back(fmt::format("{} x {} cells drawn as blocks of {} x {} (hover a block for its contents)", g.rows(),
                                  g.cols(), g.block_rows(), g.block_cols()));
  return g;
}

Grid build_view(const prove::CheckInput& in, const RenderOptions& opt) {
  const ViewContext x(in, opt, opt.view == View::kAuto ? default_view(in) : opt.view, {});
  return build_view_with(x);
}

}  // namespace tirx::render
