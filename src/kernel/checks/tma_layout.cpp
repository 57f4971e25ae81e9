// kernel.tma-layout: a TMA load/store moves every element to (or from) the shared byte the
// shared buffer's layout declares.
//
// Subjects: every tma.load / tma.store, and every copy / copy_async with dispatch tma (lowered
// first to TMA instructions as TVM's planners do, kernel/lower_tma.hpp). For each box element
// of each instruction (hw::tma_box_geometry: PTX ISA 9.1 §9.7.9.25, §5.5.7, validated against
// the H200 readbacks h200_tma.json and h200_tma_nd.json):
//
//   global byte   G = base + sum_i (coords_i + e_i) * stride_i        (tensor map, stride_0 = element bytes)
//   global elem   the element of the op's `global` region whose storage holds G (global layout)
//   shared elem   the element of the `smem` region at the same row-major position
//   layout byte   L = placement + m(shared elem) * bits / 8           (swizzle included)
//   TMA byte      T = swizzle(dst + row * pitch + e_0 * element bytes) (absolute address)
//
// and T must equal L. Element sizes may differ between the tensor map and the buffers when one
// divides the other (a uint16 map over uint8 scale factors): the comparison then runs per piece
// of the smaller size, in bits. Also reported: a box element inside the tensor whose global
// byte is no element of the `global` region (the TMA touches bytes the op does not declare,
// e.g. a box that runs into the next pipeline stage), a region element no box element moves,
// element sizes that do not fit together, and every rule of the hardware model (tma.box,
// swizzle.legal) as a fail naming it. Box elements outside the tensor (zero fill on loads,
// clipped on stores) are counted, not compared.
//
// A swizzled shared buffer whose storage does not start on a period boundary gets the pattern
// phase in the message (the hardware swizzles absolute addresses; the layout assumes phase 0),
// and a fix naming the aligned placement. Other fixes come from re-running the comparison with
// the layout's own swizzle mode and with the tensor map TVM's planner derives from the two
// regions: when one of them passes, the fields that differ are the fix.
#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks.hpp"
#include "region_bits.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tma.hpp"
#include "tirx_verify/kernel/lower_tma.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxTmaRegionElements = std::int64_t{1} << 20;
constexpr std::int64_t kMaxBoxPieces = std::int64_t{1} << 23;

// One tensor map and the instructions issued with it.
struct TmaRun {
  int tbits = 0;
  std::vector<std::int64_t> dims, strides_bytes, box;
  hw::TmaSwizzle swizzle = hw::TmaSwizzle::kNone;
  std::int64_t global_base_bytes = 0;
  std::vector<TmaPlan::Issue> issues;
  // .tile::gather4: the four row coordinates; then `box` is the shared side's {box[0], 4} and
  // box row j reads tensor row gather4[j] (PTX ISA 9.1 §5.5.3.4).
  std::vector<std::int64_t> gather4;
};

TmaRun run_of_plan(const TmaPlan& p) {
  return TmaRun{p.elem_bits, p.dims, p.strides_bytes, p.box, p.swizzle, p.global_base_bytes, p.issues, {}};
}

// The op's two regions and their storage addresses. The global side is one region, or a
// gather4 load's four row regions taken one after the other (`grows`; `gr` is the first).
struct Sides {
  const ResolvedBuffer* g = nullptr;
  const ResolvedBuffer* s = nullptr;
  const Region* gr = nullptr;
  const Region* sr = nullptr;
  std::vector<const Region*> grows;
  RegionBits gb, sb;
  std::optional<BitIndex> gi;
  // gather4: per row region its addresses, their inverse and its first index on the global side
  // (a box row is looked up in its own row region: two row coordinates may name one row).
  std::vector<RegionBits> row_bits;
  std::vector<std::unique_ptr<BitIndex>> row_index;
  std::vector<std::int64_t> row_offset;
  // A tile copy whose box runs past its tensor (past_tensor): the global addresses are those of
  // `inside` (the box's part inside the tensor; nullptr when none is), and inside element k is
  // box element box_of_inside[k] -- the index both sides share.
  const Region* inside = nullptr;
  bool past = false;
  std::vector<std::int64_t> box_of_inside;

  // Global element `i` of the (concatenated) global side: its region and index there.
  std::pair<const Region*, std::int64_t> global_at(std::int64_t i) const {
    for (const Region* r : grows) {
      if (i < r->size()) return {r, i};
      i -= r->size();
    }
    return {gr, i};
  }
  std::vector<std::int64_t> global_coord(std::int64_t i) const {
    auto [r, k] = global_at(i);
    return r->coord(k);
  }
  std::string global_text() const {
    if (grows.size() <= 1) return gr->text;
    std::string t;
    for (const Region* r : grows) t += (t.empty() ? "" : " + ") + r->text;
    return t;
  }
};

nlohmann::json tma_bits_json(std::int64_t bit) {
  if (bit % 8 == 0) return bit / 8;
  return {{"byte", floor_div(bit, 8)}, {"bit", floor_mod(bit, 8)}};
}

std::string elem_text(const Region& r, std::int64_t i) { return r.buffer + coord_text(r.coord(i)); }
std::string global_elem_text(const Sides& sd, std::int64_t i) {
  auto [r, k] = sd.global_at(i);
  return elem_text(*r, k);
}

struct Verdict {
  enum Kind { kPass, kRule, kMismatch, kOutside, kUncovered, kLimit } kind = kPass;
  std::string message;
  nlohmann::json witness;
  std::int64_t pieces = 0, mismatches = 0, outside = 0, oob = 0, uncovered = 0;
  std::int64_t past_tensor = 0;  // region elements whose box element lies past the tensor
};

Verdict simulate(const KernelContext& ctx, const TmaRun& run, const Sides& sd) {
  Verdict v;
  const std::int64_t gbits = sd.gb.elem_bits;
  const std::int64_t piece = std::min<std::int64_t>(run.tbits, gbits);
  const std::int64_t per = run.tbits / piece;
  const std::size_t rank = run.box.size();
  std::int64_t box_elems = 1;
  for (auto b : run.box) box_elems = checked_mul(box_elems, b);
  if (checked_mul(checked_mul(box_elems, per), static_cast<std::int64_t>(run.issues.size())) > kMaxBoxPieces) {
    v.kind = Verdict::kLimit;
    v.message = fmt::format("{} instruction(s) of {} box elements exceed the limit of {} compared pieces",
                            run.issues.size(), box_elems, kMaxBoxPieces);
    return v;
  }
  hw::GlobalTensor geo;
  geo.elem_bytes = run.tbits / 8;
  geo.dims = run.dims;
  geo.strides_bytes = run.strides_bytes;
  std::vector<std::int64_t> stride(rank);
  for (std::size_t i = 0; i < rank; ++i) stride[i] = i == 0 ? geo.elem_bytes : run.strides_bytes[i - 1];
  std::vector<char> covered(static_cast<std::size_t>(sd.sr->size()), 0);
  bool have_mismatch = false, have_outside = false;
  std::int64_t first_mismatch = -1;
  const bool gather = !run.gather4.empty();
  // The tensor coordinate of box element e in dim i: coords + e, except a gather4 row's.
  auto tensor_coord = [&](const TmaPlan::Issue& is, const std::vector<std::int64_t>& e, std::size_t i) {
    return gather && i == 1 ? run.gather4[static_cast<std::size_t>(e[1])] : is.coords[i] + e[i];
  };
  for (std::size_t k = 0; k < run.issues.size(); ++k) {
    const TmaPlan::Issue& is = run.issues[k];
    if (is.smem_byte < 0) {
      v.kind = Verdict::kRule;
      v.message = fmt::format("[smem.access] instruction {} names shared byte {}", k, is.smem_byte);
      v.witness = {{"rule", "smem.access"}, {"issue", k}};
      return v;
    }
    hw::TmaTileLoad load{run.box, is.coords, run.swizzle, static_cast<std::uint64_t>(is.smem_byte)};
    hw::TmaBoxGeometry g;
    try {
      g = hw::tma_box_geometry(*ctx.target, geo, load);
    } catch (const InputError& e) {
      v.kind = Verdict::kRule;
      v.message = fmt::format("the hardware refuses instruction {}: [{}] {}", k, e.check_id(), e.message());
      v.witness = {{"rule", std::string(e.check_id())}, {"issue", k}, {"message", e.message()}};
      if (!e.note().empty()) v.witness["note"] = e.note();
      return v;
    }
    // Bound every global byte the box reaches before walking it (no overflow in the loop).
    std::int64_t reach = std::abs(run.global_base_bytes);
    for (std::size_t i = 0; i < rank; ++i) {
      std::int64_t far = std::abs(is.coords[i]) + run.box[i];
      if (gather && i == 1)
        for (auto r : run.gather4) far = std::max(far, std::abs(r) + 1);
      reach = checked_add(reach, checked_mul(far, std::abs(stride[i]), "TMA global byte"), "TMA global byte");
    }
    checked_mul(reach, 8, "TMA global bit");
    std::vector<std::int64_t> e(rank, 0);
    std::int64_t run_left = 0, run_step = 0, last_index = 0, gbyte = 0;
    for (std::int64_t linear = 0; linear < box_elems; ++linear) {
      bool oob = false;
      for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t c = tensor_coord(is, e, i);
        if (c < 0 || c >= run.dims[i]) oob = true;
      }
      const std::int64_t row = linear / run.box[0];
      const std::int64_t tbyte = static_cast<std::int64_t>(g.address(row, e[0]));
      if (e[0] == 0) {  // a new box row: global bytes jump
        run_left = 0;
        gbyte = run.global_base_bytes;
        for (std::size_t i = 0; i < rank; ++i) gbyte += tensor_coord(is, e, i) * stride[i];
      }
      for (std::int64_t j = 0; j < per; ++j) {
        ++v.pieces;
        if (oob) {
          ++v.oob;
          run_left = 0;
          continue;
        }
        const std::int64_t tbit = tbyte * 8 + j * piece, gbit = gbyte * 8 + j * piece;
        // gather4: box row e[1] is looked up in its own row region, then placed on the global side
        const BitIndex& gi = gather ? *sd.row_index[static_cast<std::size_t>(e[1])] : *sd.gi;
        const std::int64_t row_off = gather ? sd.row_offset[static_cast<std::size_t>(e[1])] : 0;
        std::optional<BitIndex::Hit> hit;
        if (run_left > 0) {  // the next contiguous global element: no decoding
          hit = BitIndex::Hit{last_index + run_step, 0};
          --run_left;
        } else {
          hit = piece == gbits ? gi.find_run(gbit, run_left, run_step) : gi.find(gbit);
        }
        if (hit) last_index = hit->index;
        if (hit) hit->index += row_off;
        if (hit && sd.past) hit->index = sd.box_of_inside[static_cast<std::size_t>(hit->index)];
        if (!hit) {
          ++v.outside;
          if (!have_outside) {
            have_outside = true;
            std::vector<std::int64_t> tc(rank);
            for (std::size_t i = 0; i < rank; ++i) tc[i] = tensor_coord(is, e, i);
            v.witness["outside"] = {{"issue", k},         {"box_element", e},     {"tensor_coords", tc},
                                    {"global_byte", tma_bits_json(gbit)}, {"tma_byte", tma_bits_json(tbit)}};
          }
          continue;
        }
        const std::int64_t expected = sd.sb.bits[static_cast<std::size_t>(hit->index)] + hit->bit_off;
        if (tbit != expected) {
          ++v.mismatches;
          if (!have_mismatch) {
            have_mismatch = true;
            first_mismatch = hit->index;
            v.witness["mismatch"] = {{"issue", k},
                                     {"box_element", e},
                                     {"global_element", sd.global_coord(hit->index)},
                                     {"smem_element", sd.sr->coord(hit->index)},
                                     {"global_byte", tma_bits_json(gbit)},
                                     {"tma_byte", tma_bits_json(tbit)},
                                     {"layout_byte", tma_bits_json(expected)}};
          }
        }
        if (hit->bit_off == 0) covered[static_cast<std::size_t>(hit->index)] = 1;
      }
      gbyte += stride[0];
      for (std::size_t i = 0; i < rank; ++i) {  // next box element, dim 0 fastest
        if (++e[i] < run.box[i]) break;
        e[i] = 0;
      }
    }
  }
  if (sd.past) {  // box elements past the tensor: the TMA fills them (load) or skips them (store)
    std::vector<char> in_tensor(covered.size(), 0);
    for (std::int64_t b : sd.box_of_inside) in_tensor[static_cast<std::size_t>(b)] = 1;
    for (std::size_t i = 0; i < covered.size(); ++i)
      if (!in_tensor[i]) {
        covered[i] = 1;
        ++v.past_tensor;
      }
  }
  std::int64_t first_uncovered = -1;
  for (std::size_t i = 0; i < covered.size(); ++i)
    if (!covered[i]) {
      if (first_uncovered < 0) first_uncovered = static_cast<std::int64_t>(i);
      ++v.uncovered;
    }
  const std::int64_t compared = v.pieces - v.oob;
  if (v.mismatches) {
    v.kind = Verdict::kMismatch;
    const auto& w = v.witness["mismatch"];
    const std::int64_t idx = first_mismatch;
    const auto tb = w["tma_byte"], lb = w["layout_byte"];
    auto txt = [](const nlohmann::json& j) {
      return j.is_number() ? fmt::format("byte {}", j.get<std::int64_t>())
                           : fmt::format("byte {} bit {}", j["byte"].get<std::int64_t>(), j["bit"].get<int>());
    };
    v.message = fmt::format("element {} (global {}, box element {} of instruction {}): the TMA moves it to shared {}, "
                            "the layout puts it at {}; {} of {} compared box elements disagree",
                            elem_text(*sd.sr, idx), global_elem_text(sd, idx),
                            coord_text(w["box_element"].get<std::vector<std::int64_t>>()), w["issue"].get<int>(),
                            txt(tb), txt(lb), v.mismatches, compared);
  } else if (v.outside) {
    v.kind = Verdict::kOutside;
    const auto& w = v.witness["outside"];
    v.message = fmt::format("box element {} of instruction {} (tensor coordinates {}) is no element of region {}: the "
                            "TMA moves global byte {} to shared byte {}, which the op does not declare; {} of {} box "
                            "elements lie outside the regions",
                            coord_text(w["box_element"].get<std::vector<std::int64_t>>()), w["issue"].get<int>(),
                            coord_text(w["tensor_coords"].get<std::vector<std::int64_t>>()), sd.global_text(),
                            w["global_byte"].dump(), w["tma_byte"].dump(), v.outside, v.pieces);
  } else if (v.uncovered) {
    v.kind = Verdict::kUncovered;
    v.witness["uncovered"] = {{"global_element", sd.global_coord(first_uncovered)},
                              {"smem_element", sd.sr->coord(first_uncovered)},
                              {"count", v.uncovered}};
    v.message = fmt::format("element {} (global {}) is moved by no box element: {} of the region's {} elements are "
                            "not covered",
                            elem_text(*sd.sr, first_uncovered), global_elem_text(sd, first_uncovered), v.uncovered,
                            covered.size());
  }
  if (v.kind != Verdict::kPass) {
    v.witness["kind"] = v.kind == Verdict::kMismatch ? "mismatch" : v.kind == Verdict::kOutside ? "outside" : "uncovered";
    v.witness["mismatches"] = v.mismatches;
    v.witness["outside_elements"] = v.outside;
    v.witness["uncovered_elements"] = v.uncovered;
    v.witness["compared"] = compared;
  }
  return v;
}

std::string run_text(const TmaRun& r) {
  const std::string box = r.gather4.empty() ? fmt::format("box {}", coord_text(r.box))
                                            : fmt::format("gather4 rows {} of {} elements", coord_text(r.gather4),
                                                          r.box.front());
  const std::string base = r.global_base_bytes ? fmt::format(", base {} bytes into the buffer", r.global_base_bytes) : "";
  return fmt::format("{}, dims {}, strides_bytes {}{}, swizzle {}, {} instruction(s)", box, coord_text(r.dims),
                     coord_text(r.strides_bytes), base, hw::to_string(r.swizzle), r.issues.size());
}

// "box [64, 64] (not [64, 128]), coords [0, 64] (not [0, 0])": the fields of `good` that
// differ from `bad` (same element size), or nothing.
std::string plan_diff(const TmaRun& bad, const TmaRun& good) {
  std::vector<std::string> d;
  auto add = [&](const char* what, const std::vector<std::int64_t>& b, const std::vector<std::int64_t>& g) {
    if (b != g) d.push_back(fmt::format("{} {} (not {})", what, coord_text(g), coord_text(b)));
  };
  if (bad.tbits != good.tbits) return {};
  if (bad.swizzle != good.swizzle)
    d.push_back(fmt::format("swizzle {} (not {})", hw::to_string(good.swizzle), hw::to_string(bad.swizzle)));
  add("box", bad.box, good.box);
  add("dims", bad.dims, good.dims);
  add("strides_bytes", bad.strides_bytes, good.strides_bytes);
  if (bad.global_base_bytes != good.global_base_bytes)
    d.push_back(fmt::format("base_offset_bytes {} (not {})", good.global_base_bytes, bad.global_base_bytes));
  if (good.issues.size() == 1 && bad.issues.size() == 1) {
    add("coords", bad.issues[0].coords, good.issues[0].coords);
    if (bad.issues[0].smem_byte != good.issues[0].smem_byte)
      d.push_back(fmt::format("shared destination byte {} (not {})", good.issues[0].smem_byte, bad.issues[0].smem_byte));
  } else if (good.issues.size() != bad.issues.size()) {
    d.push_back(fmt::format("{} instructions (not {})", good.issues.size(), bad.issues.size()));
  }
  std::string s;
  for (const auto& x : d) s += (s.empty() ? "" : ", ") + x;
  return s;
}

struct Prepared {
  Sides sd;
  std::optional<KernelFinding> early;  // n/a / undecided / fail before simulating
};

// `past`: a box past its tensor, whose part inside is `inside` (nullptr: none).
Prepared prepare(const KernelContext& ctx, std::size_t op_index, const Region& global, const Region& smem,
                 const std::vector<Region>* gather_rows = nullptr, bool past = false,
                 const Region* inside = nullptr) {
  Prepared p;
  Sides& sd = p.sd;
  sd.g = ctx.buffer(global.buffer);
  sd.s = ctx.buffer(smem.buffer);
  sd.gr = &global;
  sd.sr = &smem;
  sd.past = past;
  sd.inside = inside;
  if (gather_rows)
    for (const Region& r : *gather_rows) sd.grows.push_back(&r);
  for (const ResolvedBuffer* b : {sd.g, sd.s})
    if (!b->layout) {
      p.early = op_finding(ctx, op_index, prove::Status::kNotApplicable,
                           fmt::format("the layout of '{}' did not parse: {}", b->model->name, b->layout_error));
      return p;
    }
  const Region& addressed = past ? (inside ? *inside : global) : global;
  if (past && inside) {
    sd.box_of_inside.reserve(static_cast<std::size_t>(inside->size()));
    for (std::int64_t k = 0; k < inside->size(); ++k) sd.box_of_inside.push_back(*global.index_of(inside->coord(k)));
  }
  sd.gb = past && !inside ? RegionBits{}  // wholly past the tensor: no global address is ever looked up
                          : region_bits(*sd.g, addressed, kMaxTmaRegionElements, /*want_bits=*/false);  // only inverted
  if (past && !inside) sd.gb.elem_bits = sd.g->elem_bits;
  std::int64_t offset = 0;
  for (const Region* r : sd.grows) {
    sd.row_bits.push_back(region_bits(*sd.g, *r, kMaxTmaRegionElements));
    if (!sd.row_bits.back().ok()) {
      p.early = op_finding(ctx, op_index, prove::Status::kUndecided, sd.row_bits.back().why_not);
      return p;
    }
    sd.row_offset.push_back(offset);
    offset += r->size();
  }
  for (const RegionBits& rb : sd.row_bits) sd.row_index.push_back(std::make_unique<BitIndex>(rb));
  sd.sb = region_bits(*sd.s, smem, kMaxTmaRegionElements);
  for (const RegionBits* rb : {&sd.gb, &sd.sb})
    if (!rb->ok()) {
      p.early = op_finding(ctx, op_index, prove::Status::kUndecided, rb->why_not);
      return p;
    }
  if (sd.gb.elem_bits != sd.sb.elem_bits) {
    KernelFinding f = op_finding(
        ctx, op_index, prove::Status::kFail,
        fmt::format("global '{}' is {} ({} bits) but shared '{}' is {} ({} bits): a TMA moves bytes, and the regions "
                    "correspond element by element",
                    sd.g->model->name, sd.g->model->dtype, sd.gb.elem_bits, sd.s->model->name, sd.s->model->dtype,
                    sd.sb.elem_bits));
    f.witness = {{"rule", "dtype"}, {"global_dtype", sd.g->model->dtype}, {"smem_dtype", sd.s->model->dtype}};
    f.fix = "give the global and shared buffers elements of one size";
    p.early = std::move(f);
    return p;
  }
  if (past && !inside) return p;
  sd.gi.emplace(sd.gb);
  if (!sd.gi->usable()) {
    sd.gb = region_bits(*sd.g, addressed, kMaxTmaRegionElements);
    sd.gi.emplace(sd.gb);
  }
  return p;
}

KernelFinding finish_fail(const KernelContext& ctx, std::size_t i, const Sides& sd, const Verdict& v,
                          const std::string& what, std::string fix) {
  std::string fix_from_phase;
  const std::string phase = swizzle_phase_note(ctx, *sd.s, &fix_from_phase);
  std::string msg = fmt::format("{}: {}", what, v.message);
  if (!phase.empty()) {
    msg += "; " + phase;
    if (fix.empty()) fix = fix_from_phase;
  }
  KernelFinding f = op_finding(ctx, i, prove::Status::kFail, msg);
  f.related = {sd.g->model->name, sd.s->model->name};
  f.witness = v.witness;
  if (!phase.empty()) {
    const std::int64_t base = sd.s->smem_base_bytes;
    f.witness["smem_base_bytes"] = base;
  }
  f.fix = std::move(fix);
  return f;
}

std::string dtype_note(const TensorMapModel& tm, const Sides& sd) {
  if (tm.dtype == sd.g->model->dtype) return {};
  const int tbits = tm.elem_bytes * 8;
  if (tbits == sd.gb.elem_bits)
    return fmt::format("; the tensor map's {} elements are {}'s {} bits (no conversion)", tm.dtype, sd.g->model->name,
                       sd.gb.elem_bits);
  if (tbits > sd.gb.elem_bits)
    return fmt::format("; each {} element of the tensor map is {} {} elements", tm.dtype, tbits / sd.gb.elem_bits,
                       sd.g->model->dtype);
  return fmt::format("; each {} element is {} {} elements of the tensor map", sd.g->model->dtype,
                     sd.gb.elem_bits / tbits, tm.dtype);
}

// The shared byte the instruction writes first: its address operand, else `smem`'s first element.
std::int64_t destination_byte(const KernelContext& ctx, const TmaOp& t, const ResolvedBuffer& s) {
  if (t.smem_address) return smem_address(ctx, *t.smem_address);
  std::vector<std::int64_t> first;
  for (const auto& d : t.smem.dims) first.push_back(d.lo);
  return smem_byte_images(s, first).front();
}

KernelFinding check_instruction(const KernelContext& ctx, std::size_t i, const TmaOp& t) {
  const TensorMapModel& tm = t.tensor_map;
  for (auto s : tm.elem_strides)
    if (s != 1)
      return op_finding(ctx, i, prove::Status::kUndecided,
                        fmt::format("element strides {} are not modelled (only 1)", coord_text(tm.elem_strides)));
  if (tm.interleave != "none")
    return op_finding(ctx, i, prove::Status::kUndecided,
                      fmt::format("interleave {} is not modelled", tm.interleave));
  if (t.global.buffer.empty()) {  // a box wholly outside the tensor (the reader checked): no byte to compare
    // The instruction is still the hardware's: its map and shared address obey every TMA rule
    // (hw::tma_box_geometry), and `smem` is the filled box, bit for bit.
    std::int64_t n = 1;
    for (auto b : tm.box) n = checked_mul(n, b);
    const ResolvedBuffer* s = ctx.buffer(t.smem.buffer);
    if (!s || s->elem_bits == 0)
      return op_finding(ctx, i, prove::Status::kUndecided,
                        fmt::format("the element size of '{}' is unknown", t.smem.buffer));
    const std::int64_t box_bits = checked_mul(n, std::int64_t{tm.elem_bytes} * 8);
    if (checked_mul(t.smem.size(), std::int64_t{s->elem_bits}) != box_bits) {
      KernelFinding f = op_finding(
          ctx, i, prove::Status::kFail,
          fmt::format("region '{}' has {} {}-bit elements, but the box {} the TMA fills has {} bits ({} {}-byte "
                      "elements): `smem` names the filled box",
                      t.smem.text, t.smem.size(), s->elem_bits, coord_text(tm.box), box_bits, n, tm.elem_bytes));
      f.related = {t.smem.buffer};
      f.witness = {{"rule", "box size"}, {"smem_bits", t.smem.size() * s->elem_bits}, {"box_bits", box_bits}};
      return f;
    }
    const std::int64_t dst = destination_byte(ctx, t, *s);
    hw::GlobalTensor geo;
    geo.elem_bytes = tm.elem_bytes;
    geo.dims = tm.dims;
    geo.strides_bytes = tm.strides_bytes;
    try {
      if (dst < 0) throw InputError("smem.access", fmt::format("the instruction names shared byte {}", dst));
      hw::tma_box_geometry(*ctx.target, geo,
                           hw::TmaTileLoad{tm.box, t.coords, tm.swizzle, static_cast<std::uint64_t>(dst)});
    } catch (const InputError& e) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kFail,
                                   fmt::format("the hardware refuses the instruction: [{}] {}", e.check_id(), e.message()));
      f.related = {t.smem.buffer};
      f.witness = {{"rule", std::string(e.check_id())}, {"message", e.message()}};
      return f;
    }
    KernelFinding f = op_finding(
        ctx, i, prove::Status::kPass,
        fmt::format("the box {} at {} lies wholly outside the tensor's dims {}: the TMA fills its {} elements with {} "
                    "and reads no global memory",
                    coord_text(tm.box), coord_text(t.coords), coord_text(tm.dims), n,
                    tm.oob_fill == "nan" ? "NaN" : "zeros"));
    f.related = {t.smem.buffer};
    return f;
  }
  Prepared p = prepare(ctx, i, t.global, t.smem, t.is_gather4() ? &t.global_rows : nullptr);
  if (p.early) return *p.early;
  const Sides& sd = p.sd;
  const int tbits = tm.elem_bytes * 8;
  if (tbits % sd.gb.elem_bits != 0 && sd.gb.elem_bits % tbits != 0) {
    KernelFinding f = op_finding(
        ctx, i, prove::Status::kFail,
        fmt::format("the tensor map's {} elements ({} bits) and {}'s {} elements ({} bits) do not divide one another",
                    tm.dtype, tbits, sd.g->model->name, sd.g->model->dtype, sd.gb.elem_bits));
    f.related = {sd.g->model->name, sd.s->model->name};
    f.witness = {{"rule", "dtype"}, {"tensor_map_dtype", tm.dtype}, {"global_dtype", sd.g->model->dtype}};
    f.fix = fmt::format("tensor map dtype {}", sd.g->model->dtype);
    return f;
  }
  TmaRun run;
  run.tbits = tbits;
  run.dims = tm.dims;
  run.strides_bytes = tm.strides_bytes;
  run.box = t.smem_box();
  run.gather4 = t.gather4;
  run.swizzle = tm.swizzle;
  run.global_base_bytes = tm.base_offset_bytes;
  TmaPlan::Issue is;
  is.coords = t.box_origin();
  is.smem_byte = destination_byte(ctx, t, *sd.s);
  run.issues.push_back(is);
  if (t.is_gather4()) {
    // The four rows land one box row apart; PTX ISA §5.5.3.4 does not say how far apart when a
    // swizzled row is narrower than its span (a tile box pads it to the span, H200 readback),
    // and no gather4 hardware was measured (the H200 has none): only rows as wide as the pitch.
    hw::GlobalTensor geo;
    geo.elem_bytes = tm.elem_bytes;
    hw::TmaTileLoad load{run.box, is.coords, run.swizzle, 0};
    const std::int64_t pitch = hw::tma_box_row_pitch(geo, load);
    if (pitch != tm.box[0] * tm.elem_bytes)
      return op_finding(ctx, i, prove::Status::kUndecided,
                        fmt::format("gather4 rows of {} bytes under the {} swizzle (span {} bytes): where the next "
                                    "row lands is not documented (PTX ISA §5.5.3.4) nor measured",
                                    tm.box[0] * tm.elem_bytes, hw::to_string(run.swizzle), pitch));
  }
  const Verdict v = simulate(ctx, run, sd);
  const std::string what = t.store ? "tma.store" : "tma.load";
  if (v.kind == Verdict::kLimit) return op_finding(ctx, i, prove::Status::kUndecided, v.message);
  if (v.kind == Verdict::kPass) {
    KernelFinding f = op_finding(
        ctx, i, prove::Status::kPass,
        fmt::format("every element of {} is {} shared memory where the layout puts it ({} elements, {}){}{}",
                    sd.sr->text, t.store ? "read from" : "written to", sd.sr->size(), run_text(run), dtype_note(tm, sd),
                    v.oob ? fmt::format("; {} box elements outside the tensor are {}", v.oob,
                                        t.store ? "clipped" : "zero-filled")
                          : ""));
    f.related = {sd.g->model->name, sd.s->model->name};
    return f;
  }
  // Fixes: the layout's own swizzle mode, then TVM's plan for these regions.
  std::string fix;
  const auto mode = layout_hw_swizzle(*sd.s->layout, sd.s->elem_bits);
  if (mode && *mode != run.swizzle && v.kind != Verdict::kRule) {
    TmaRun alt = run;
    alt.swizzle = *mode;
    if (simulate(ctx, alt, sd).kind == Verdict::kPass)
      fix = fmt::format("tensor map swizzle {} (not {}) to match the layout of {}", hw::to_string(*mode),
                        hw::to_string(run.swizzle), sd.s->model->name);
  }
  if (fix.empty() && !t.is_gather4()) {
    const TmaLowering low = lower_tma_copy(ctx, t.smem, t.global);
    if (low.plan) {
      const TmaRun good = run_of_plan(*low.plan);
      if (simulate(ctx, good, sd).kind == Verdict::kPass) {
        const std::string d = plan_diff(run, good);
        fix = d.empty() ? fmt::format("TVM's {} plan for these regions works: {}", low.plan->planner, run_text(good))
                        : d;
      }
    }
  }
  KernelFinding f = finish_fail(ctx, i, sd, v, what, fix);
  f.witness["tensor_map"] = {{"box", tm.box}, {"dims", run.dims}, {"strides_bytes", run.strides_bytes},
                             {"swizzle", std::string(hw::to_string(run.swizzle))}};
  if (run.global_base_bytes) f.witness["tensor_map"]["base_offset_bytes"] = run.global_base_bytes;
  if (t.is_gather4()) f.witness["gather4"] = t.gather4;
  return f;
}

KernelFinding check_tile(const KernelContext& ctx, std::size_t i, const CopyOp& c) {
  const ResolvedBuffer* dst = ctx.buffer(c.dst.buffer);
  const bool load = dst->scope == prove::Scope::kShared;
  const Region& smem = load ? c.dst : c.src;
  const Region& global = load ? c.src : c.dst;  // the box as written (past_tensor: past the tensor)
  Prepared p = prepare(ctx, i, global, smem, nullptr, c.past_tensor, c.global_touched(!load));
  if (p.early) return *p.early;
  const Sides& sd = p.sd;
  const TmaLowering low = lower_tma_copy(ctx, smem, global);
  if (!low.plan) {
    if (low.stage == "not-modelled" || low.stage == "issues")
      return op_finding(ctx, i, prove::Status::kUndecided, low.error);
    KernelFinding f = op_finding(ctx, i, prove::Status::kFail,
                                 fmt::format("TVM cannot lower this TMA copy between {} and {}: {}", global.text,
                                             smem.text, low.error));
    f.related = {sd.g->model->name, sd.s->model->name};
    f.witness = {{"kind", "lowering"}, {"stage", low.stage}, {"reason", low.error}};
    return f;
  }
  const TmaRun run = run_of_plan(*low.plan);
  const Verdict v = simulate(ctx, run, sd);
  if (v.kind == Verdict::kLimit) return op_finding(ctx, i, prove::Status::kUndecided, v.message);
  nlohmann::json plan_json = {{"planner", low.plan->planner},
                               {"dtype", low.plan->dtype},
                               {"box", run.box},
                               {"dims", run.dims},
                               {"strides_bytes", run.strides_bytes},
                               {"swizzle", std::string(hw::to_string(run.swizzle))},
                               {"instructions", run.issues.size()},
                               {"first_coords", run.issues.front().coords},
                               {"first_smem_byte", run.issues.front().smem_byte}};
  if (c.past_tensor) plan_json["past_tensor_elements"] = v.past_tensor;
  const nlohmann::json& plan = plan_json;
  if (!c.reduce.empty()) plan_json["reduce"] = c.reduce;
  if (v.kind == Verdict::kPass) {
    std::string past;
    if (c.past_tensor)
      past = c.inside ? fmt::format("; {} of its elements pair with box elements past tensor '{}' {}, which the TMA {}",
                                    v.past_tensor, sd.g->model->name, coord_text(sd.g->model->shape),
                                    load ? "fills with zeros" : "does not write")
                      : fmt::format("; the box lies wholly past tensor '{}' {}: the TMA {} (PTX ISA, tensor out-of-bound "
                                    "access)",
                                    sd.g->model->name, coord_text(sd.g->model->shape),
                                    load ? "reads no global memory and fills every element with zeros"
                                         : "writes no global memory");
    KernelFinding f = op_finding(ctx, i, prove::Status::kPass,
                                 fmt::format("TVM's {} plan ({}) {} every element of {} where the layout puts it{}{}",
                                             low.plan->planner, run_text(run), load ? "writes" : "reads", smem.text,
                                             c.reduce.empty() ? "" : fmt::format(" (reduction .{} into global)", c.reduce),
                                             past));
    f.related = {sd.g->model->name, sd.s->model->name};
    f.witness = {{"plan", plan}};
    return f;
  }
  std::string fix;
  const SwizzleSpec* swz = sd.s->layout->swizzle();
  const auto mode = layout_hw_swizzle(*sd.s->layout, sd.s->elem_bits);
  std::string why = fmt::format("TVM's {} plan ({})", low.plan->planner, run_text(run));
  if (swz && swz->swizzle_len > 0 && !mode) {
    why += fmt::format(" takes the TMA swizzle from swizzle_len alone, but the layout's ComposeLayout({}, {}, {}) is "
                       "not a hardware pattern for {} (16-byte chunks need per_element {}, 8-line atoms atom_len 3)",
                       swz->per_element, swz->swizzle_len, swz->atom_len, sd.s->model->dtype,
                       log2_exact(128 / std::max(1, sd.s->elem_bits)));
    fix = fmt::format("lay {} out with a hardware swizzle: mma_shared_layout(\"{}\", ...) or ComposeLayout({}, {}, 3, "
                      "...)",
                      sd.s->model->name, sd.s->model->dtype, log2_exact(128 / std::max(1, sd.s->elem_bits)),
                      swz->swizzle_len);
  }
  KernelFinding f = finish_fail(ctx, i, sd, v, why, fix);
  f.witness["plan"] = plan;
  return f;
}

}  // namespace

std::vector<KernelFinding> tma_layout(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i) {
    const Op& op = ctx.op(i);
    try {
      if (const auto* t = std::get_if<TmaOp>(&op.data)) {
        out.push_back(check_instruction(ctx, i, *t));
      } else if (const auto* c = std::get_if<CopyOp>(&op.data); c && c->dispatch == "tma") {
        out.push_back(check_tile(ctx, i, *c));
      }
    } catch (const InputError& e) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kFail, fmt::format("[{}] {}", e.check_id(), e.message()));
      f.witness = {{"rule", std::string(e.check_id())}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tirx::kernel::checks
