// kernel.mma-descriptor: the canonical layout an MMA's shared-memory descriptor names equals
// the operand buffer's layout on every element the instruction reads.
//
// Subjects:
//   tcgen05.mma   a_desc (A in shared memory) and b_desc, plus the instruction descriptor
//   wgmma         a_desc and b_desc (Hopper variant)
//   tcgen05.cp    src_desc: the shared-memory rows the copy reads, against the TMEM cells the
//                 destination's layout gives the same elements
//   gemm_async    the descriptors TVM's dispatcher derives (kernel/lower_gemm.hpp), per
//                 instruction of its (mi, ni, ki) loop
//
// For operand element (mn, k) of the instruction's tile (A: M x K, B: N x K; with
// .cta_group::2 each CTA's descriptors cover M/2 rows of A and N/2 rows of B,
// hw/mma_kinds.hpp), the descriptor's bit address (hw::SmemDescriptor::element_bit_address:
// PTX ISA 9.1 §9.7.16.4.1 / §9.7.15.5.1.2 and the canonical layouts of §9.7.16.3.3, the base
// offset rule measured on the H200) must equal the bit address the operand region's layout
// gives region element (mn, k) (region_bits.hpp). The operand region must be exactly the
// tile. The instruction descriptor (tcgen05.mma idesc) must agree with the op (M, N), with
// the shared-memory descriptors (major-ness), with the buffers (dtypes, accepted by the kind:
// PTX Table 42) and the kind's K per instruction.
//
// Fixes: on a mismatch the descriptor the layout needs is searched (swizzle x major-ness x
// base offset; start, LBO and SBO read off the layout at elements (0,0), (8,0), (0,T), ...,
// every candidate verified on the whole tile); when one exists, the fields that differ are the
// fix ("SBO 1024 (not 512)"). None exists for a layout no canonical form expresses (a 16-byte
// row tile read through a swizzled descriptor needs the no-swizzle form, triton#7830).
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checks.hpp"
#include "region_bits.hpp"
#include "tirx_verify/hw/mma_kinds.hpp"
#include "tirx_verify/hw/smem_descriptor.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tcgen05_cp.hpp"
#include "tirx_verify/kernel/lower_gemm.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxRegionElements = std::int64_t{1} << 20;

// One operand read of one instruction.
struct OperandRead {
  const char* name = "A";                 // "A", "B", "source"
  const ResolvedBuffer* buf = nullptr;
  const Region* region = nullptr;
  bool transposed = false;                // the region is written (K, MN)
  std::int64_t row0 = 0, k0 = 0;          // the tile's origin inside the region (MN, K)
  std::int64_t rows = 0, k = 0;           // the tile: rows x K
  hw::SmemDescriptor desc;
  bool mn_major = false;
  int desc_bits = 0;                      // element size the hardware addresses (0: the buffer's)
  const KernelContext* ctx = nullptr;     // for the placement note
};

struct OperandResult {
  bool ok = true;
  std::string message;
  nlohmann::json witness;
  std::int64_t mismatches = 0, compared = 0;
};

nlohmann::json bits_json(std::int64_t bit) {
  if (bit % 8 == 0) return bit / 8;
  return {{"byte", floor_div(bit, 8)}, {"bit", floor_mod(bit, 8)}};
}
std::string bits_text(std::int64_t bit) {
  return bit % 8 ? fmt::format("byte {} bit {}", floor_div(bit, 8), floor_mod(bit, 8)) : fmt::format("byte {}", bit / 8);
}

std::string desc_text(const hw::SmemDescriptor& d, bool mn_major) {
  return fmt::format("start {}, LBO {}, SBO {}, swizzle {}, base offset {}, {}-major", d.start_address, d.lbo, d.sbo,
                     hw::to_string(d.swizzle), d.base_offset, mn_major ? "MN" : "K");
}

std::int64_t region_index(const OperandRead& r, std::int64_t mn, std::int64_t k) {
  const auto ks = r.region->kept_shape();
  return r.transposed ? (r.k0 + k) * ks[1] + (r.row0 + mn) : (r.row0 + mn) * ks[1] + (r.k0 + k);
}

// Compares every element of the tile; stops counting after the first mismatch only for speed
// when `first_only`.
OperandResult compare(const OperandRead& r, const RegionBits& rb, bool first_only) {
  OperandResult res;
  const int bits = r.desc_bits ? r.desc_bits : static_cast<int>(rb.elem_bits);
  std::optional<hw::CanonicalAddresser> addr;
  try {
    addr.emplace(r.desc, bits, r.mn_major);
    if (!r.mn_major && hw::tma_swizzle_span_bytes(r.desc.swizzle) && r.k > 0)
      (void)r.desc.element_bit_address(0, static_cast<int>(r.k - 1), bits, false);  // K within the span
  } catch (const InputError& e) {
    res.ok = false;
    res.message = fmt::format("the {} descriptor cannot address its {} x {} tile: [{}] {}", r.name, r.rows, r.k,
                              e.check_id(), e.message());
    res.witness = {{"operand", r.name}, {"rule", std::string(e.check_id())}};
    return res;
  }
  const auto ks = r.region->kept_shape();
  const std::int64_t cols = ks[1];
  for (std::int64_t mn = 0; mn < r.rows; ++mn) {
    for (std::int64_t k = 0; k < r.k; ++k) {
      const std::int64_t dbit = static_cast<std::int64_t>(addr->bit(static_cast<std::uint64_t>(mn), static_cast<std::uint64_t>(k)));
      const std::int64_t idx = r.transposed ? (r.k0 + k) * cols + (r.row0 + mn) : (r.row0 + mn) * cols + (r.k0 + k);
      const std::int64_t lbit = rb.bits[static_cast<std::size_t>(idx)];
      ++res.compared;
      if (dbit == lbit) continue;
      if (res.mismatches++ == 0) {
        res.ok = false;
        res.witness = {{"operand", r.name},
                       {"element", {mn, k}},
                       {"buffer_element", r.region->coord(idx)},
                       {"descriptor_byte", bits_json(dbit)},
                       {"layout_byte", bits_json(lbit)}};
        res.message = fmt::format("{} element (mn {}, k {}) = {}{}: the descriptor reads shared {}, the layout puts it "
                                  "at {}",
                                  r.name, mn, k, r.region->buffer, coord_text(r.region->coord(idx)), bits_text(dbit),
                                  bits_text(lbit));
      }
      if (first_only) return res;
    }
  }
  if (!res.ok) {
    res.message += fmt::format("; {} of {} elements disagree", res.mismatches, res.compared);
    res.witness["mismatches"] = res.mismatches;
    res.witness["compared"] = res.compared;
  }
  return res;
}

// The descriptor the layout needs for this tile, if a canonical one exists (header).
std::optional<std::pair<hw::SmemDescriptor, bool>> infer(const OperandRead& r, const RegionBits& rb) {
  const std::int64_t bits = r.desc_bits ? r.desc_bits : rb.elem_bits;
  if (bits <= 0 || 128 % bits != 0) return std::nullopt;
  const std::int64_t t = 128 / bits;
  auto addr = [&](std::int64_t mn, std::int64_t k) -> std::optional<std::int64_t> {
    if (mn >= r.rows || k >= r.k) return std::nullopt;
    return rb.bits[static_cast<std::size_t>(region_index(r, mn, k))];
  };
  const std::int64_t a00 = *addr(0, 0);
  if (a00 % 8 != 0) return std::nullopt;
  std::vector<hw::TmaSwizzle> modes = {r.desc.swizzle, hw::TmaSwizzle::k128B, hw::TmaSwizzle::k64B,
                                       hw::TmaSwizzle::k32B, hw::TmaSwizzle::kNone};
  if (r.desc.variant == hw::DescriptorVariant::kBlackwell && r.desc.swizzle == hw::TmaSwizzle::k128BAtom32B)
    modes.erase(modes.begin());
  for (const hw::TmaSwizzle mode : modes) {
    for (const bool mn_major : {r.mn_major, !r.mn_major}) {
      const std::int64_t span = hw::tma_swizzle_span_bytes(mode);
      const std::int64_t lines = span / 16;
      std::vector<int> bases = {r.desc.base_offset, 0};
      if (span) bases.push_back(static_cast<int>(floor_mod(floor_div(a00 / 8, 128), lines)));
      for (const int b : bases) {
        auto pre = [&](std::int64_t bit) -> std::int64_t {  // unswizzle a byte address
          const std::int64_t byte = floor_div(bit, 8);
          if (!span) return byte;
          return byte ^ (floor_mod(floor_div(byte, 128) - b, lines) << 4);
        };
        hw::SmemDescriptor d = r.desc;
        d.swizzle = mode;
        d.base_offset = span ? b : 0;
        const std::int64_t start = pre(a00);
        if (start < 0 || start % 16 != 0) continue;
        d.start_address = static_cast<std::uint32_t>(start);
        auto delta = [&](std::optional<std::int64_t> a, std::uint32_t keep) -> std::optional<std::uint32_t> {
          if (!a) return keep;
          const std::int64_t v = pre(*a) - start;
          if (v < 0 || v % 16 != 0 || v >= (1 << 18)) return std::nullopt;
          return static_cast<std::uint32_t>(v);
        };
        std::optional<std::uint32_t> lbo, sbo;
        if (!mn_major && span) {
          sbo = delta(addr(8, 0), r.desc.sbo);
          lbo = r.desc.lbo;
        } else if (!mn_major) {
          sbo = delta(addr(8, 0), r.desc.sbo);
          lbo = delta(addr(0, t), r.desc.lbo);
        } else if (span) {
          lbo = delta(addr(span * 8 / bits, 0), r.desc.lbo);
          sbo = delta(addr(0, 8), r.desc.sbo);
        } else {
          sbo = delta(addr(t, 0), r.desc.sbo);
          lbo = delta(addr(0, 8), r.desc.lbo);
        }
        if (!lbo || !sbo) continue;
        d.lbo = *lbo;
        d.sbo = *sbo;
        OperandRead cand = r;
        cand.desc = d;
        cand.mn_major = mn_major;
        if (compare(cand, rb, true).ok) return std::make_pair(d, mn_major);
      }
    }
  }
  return std::nullopt;
}

// "SBO 1024 (not 512), swizzle 128B (not 64B)": what to change in `bad` to get `good`.
std::string desc_diff(const hw::SmemDescriptor& bad, bool bad_mn, const hw::SmemDescriptor& good, bool good_mn,
                      const char* name) {
  std::vector<std::string> d;
  if (bad.swizzle != good.swizzle)
    d.push_back(fmt::format("swizzle {} (not {})", hw::to_string(good.swizzle), hw::to_string(bad.swizzle)));
  if (bad_mn != good_mn) d.push_back(fmt::format("major {} (not {})", good_mn ? "MN" : "K", bad_mn ? "MN" : "K"));
  if (bad.lbo != good.lbo) d.push_back(fmt::format("LBO {} (not {})", good.lbo, bad.lbo));
  if (bad.sbo != good.sbo) d.push_back(fmt::format("SBO {} (not {})", good.sbo, bad.sbo));
  if (bad.start_address != good.start_address)
    d.push_back(fmt::format("start address byte {} (not {}: {:+} bytes)", good.start_address, bad.start_address,
                            static_cast<std::int64_t>(good.start_address) - static_cast<std::int64_t>(bad.start_address)));
  if (bad.base_offset != good.base_offset)
    d.push_back(fmt::format("base offset {} (not {})", good.base_offset, bad.base_offset));
  std::string s;
  for (const auto& x : d) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? s : fmt::format("{} descriptor: {}", name, s);
}

// The whole check of one operand: region shape, descriptor fields, every element.
struct OperandVerdict {
  prove::Status status = prove::Status::kPass;
  std::string message, fix;
  std::string placement_fix;  // "place X at a multiple of ..." when the buffer's swizzle phase is off
  nlohmann::json witness;
};

// The verdict for an operand whose descriptor fields break an encoding rule (make_desc threw).
OperandVerdict descriptor_rule_verdict(const std::string& name, const InputError& e) {
  OperandVerdict v;
  v.status = prove::Status::kFail;
  v.message = fmt::format("{} descriptor: [{}] {}", name, e.check_id(), e.message());
  v.witness = {{"operand", name}, {"rule", std::string(e.check_id())}};
  return v;
}

OperandVerdict check_operand(const OperandRead& r, const RegionBits* cached = nullptr) {
  OperandVerdict v;
  if (!r.buf->layout) {
    v.status = prove::Status::kNotApplicable;
    v.message = fmt::format("the layout of '{}' did not parse", r.buf->model->name);
    return v;
  }
  try {
    (void)r.desc.encode();
  } catch (const InputError& e) {
    v.status = prove::Status::kFail;
    v.message = fmt::format("the {} descriptor ({}) cannot be encoded: [{}] {}", r.name, desc_text(r.desc, r.mn_major),
                            e.check_id(), e.message());
    v.witness = {{"operand", r.name}, {"rule", std::string(e.check_id())}};
    return v;
  }
  RegionBits own;
  if (!cached) own = region_bits(*r.buf, *r.region, kMaxRegionElements);
  const RegionBits& rb = cached ? *cached : own;
  if (!rb.ok()) {
    v.status = prove::Status::kUndecided;
    v.message = rb.why_not;
    return v;
  }
  const OperandResult res = compare(r, rb, false);
  if (res.ok) {
    v.message = fmt::format("{} ({} x {} of {}, {}) matches the layout", r.name, r.rows, r.k, r.region->text,
                            desc_text(r.desc, r.mn_major));
    return v;
  }
  v.status = prove::Status::kFail;
  v.message = fmt::format("{} descriptor ({}): {}", r.name, desc_text(r.desc, r.mn_major), res.message);
  if (r.ctx) {
    const std::string phase = swizzle_phase_note(*r.ctx, *r.buf, &v.placement_fix);
    if (!phase.empty()) v.message += "; " + phase;
  }
  v.witness = res.witness;
  v.witness["descriptor"] = {{"start", r.desc.start_address},
                             {"lbo_bytes", r.desc.lbo},
                             {"sbo_bytes", r.desc.sbo},
                             {"swizzle", std::string(hw::to_string(r.desc.swizzle))},
                             {"base_offset", r.desc.base_offset},
                             {"major", r.mn_major ? "MN" : "K"}};
  if (auto good = infer(r, rb)) {
    v.fix = desc_diff(r.desc, r.mn_major, good->first, good->second, r.name);
  } else {
    const auto mode = layout_hw_swizzle(*r.buf->layout, static_cast<int>(rb.elem_bits));
    v.message += fmt::format("; no canonical {} layout (any swizzle, major-ness, LBO, SBO) holds this {} x {} tile "
                             "of {}{}",
                             r.desc.variant == hw::DescriptorVariant::kHopper ? "wgmma" : "tcgen05", r.rows, r.k,
                             r.buf->model->name,
                             mode ? fmt::format(" (its layout swizzles {})", hw::to_string(*mode)) : std::string());
  }
  return v;
}

hw::SmemDescriptor make_desc(const KernelContext& ctx, const DescriptorModel& m, hw::DescriptorVariant var) {
  hw::SmemDescriptor d;
  const std::int64_t start = smem_address(ctx, m.start);
  if (start < 0 || start >= (1 << 18))
    throw InputError("smem.descriptor", fmt::format("descriptor start address {} is outside [0, 2^18)", start));
  d.start_address = static_cast<std::uint32_t>(start);
  d.lbo = static_cast<std::uint32_t>(m.lbo_bytes);
  d.sbo = static_cast<std::uint32_t>(m.sbo_bytes);
  d.swizzle = m.swizzle;
  d.base_offset = m.base_offset;
  d.variant = var;
  return d;
}

// Shape of the operand region against the tile; empty when it fits.
std::string tile_mismatch(const OperandRead& r) {
  const auto ks = r.region->kept_shape();
  const std::int64_t mn = r.transposed ? ks[1] : ks[0], k = r.transposed ? ks[0] : ks[1];
  if (mn == r.rows && k == r.k) return {};
  return fmt::format("region {} is {} x {} ({}), but the instruction's {} tile is {} x {}", r.region->text, mn, k,
                     r.transposed ? "K x MN as written: MN x K" : "MN x K", r.name, r.rows, r.k);
}

void add_problem(std::vector<std::string>& problems, nlohmann::json& list, const std::string& text) {
  problems.push_back(text);
  list.push_back(text);
}

// Combines operand verdicts and instruction-descriptor problems into the op's finding.
KernelFinding combine(const KernelContext& ctx, std::size_t i, const std::vector<OperandVerdict>& ops,
                      std::vector<std::string> problems, nlohmann::json problem_list,
                      const std::vector<std::string>& related, std::string pass_prefix) {
  KernelFinding f = op_finding(ctx, i, prove::Status::kPass, "");
  f.related = related;
  const OperandVerdict* first_fail = nullptr;
  bool undecided = false;
  std::vector<std::string> pass_parts;
  for (const auto& v : ops) {
    if (v.status == prove::Status::kFail && !first_fail) first_fail = &v;
    if (v.status == prove::Status::kUndecided) undecided = true;
    if (v.status == prove::Status::kPass) pass_parts.push_back(v.message);
  }
  if (first_fail || !problems.empty()) {
    f.status = prove::Status::kFail;
    if (first_fail) {
      f.message = first_fail->message;
      f.witness = first_fail->witness;
      f.fix = first_fail->fix;
      for (const auto& v : ops)
        if (&v != first_fail && v.status == prove::Status::kFail) {
          f.message += "; also " + v.message;
          if (f.fix.empty()) f.fix = v.fix;
        }
      if (!problems.empty()) f.message += "; also: " + fmt::format("{}", fmt::join(problems, "; "));
    } else {
      f.message = fmt::format("{}", fmt::join(problems, "; "));
      f.witness = nlohmann::json::object();
    }
    if (!problem_list.empty()) f.witness["idesc_problems"] = problem_list;
    return f;
  }
  if (undecided) {
    f.status = prove::Status::kUndecided;
    for (const auto& v : ops)
      if (v.status == prove::Status::kUndecided) f.message = v.message;
    return f;
  }
  if (pass_parts.empty()) {
    f.status = prove::Status::kNotApplicable;
    f.message = "no shared-memory operand region to compare with";
    for (const auto& v : ops)
      if (v.status == prove::Status::kNotApplicable) f.message = v.message;
    return f;
  }
  f.message = pass_prefix + fmt::format("{}", fmt::join(pass_parts, "; "));
  return f;
}

// Whether a buffer of `buf` elements holds what the instruction descriptor calls `idt`: the
// same type, or for .kind::f8f6f4 / mxf8f6f4 raw bytes (uint8/int8) holding 8-bit floats or
// the 8-bit containers of unpacked E2M1 (hw/mma_kinds.hpp).
bool buffer_holds(hw::MmaKind kind, const std::string& buf, const std::string& idt) {
  if (buf == idt) return true;
  const bool f8 = kind == hw::MmaKind::kF8F6F4 || kind == hw::MmaKind::kMxF8F6F4;
  if (!f8) return false;
  const bool raw8 = buf == "uint8" || buf == "int8";
  const bool float8 = buf.rfind("float8_", 0) == 0;
  if (idt == "float4_e2m1fn") return raw8 || float8;
  return raw8 && idt.rfind("float8_", 0) == 0;
}

KernelFinding check_tcgen05_mma(const KernelContext& ctx, std::size_t i, const Op& op, const MmaOp& m) {
  std::vector<OperandVerdict> verdicts;
  std::vector<std::string> problems;
  nlohmann::json plist = nlohmann::json::array();
  std::vector<std::string> related;
  hw::MmaKind kind = hw::parse_mma_kind(m.mma_kind);
  const bool sparse = m.idesc && m.idesc->sparse;
  if (sparse)
    return op_finding(ctx, i, prove::Status::kUndecided, "sparse A (the metadata-selected K pairs) is not modelled");
  const int kk = hw::tcgen05_mma_k(kind, false);
  if (m.k != kk)
    add_problem(problems, plist,
                fmt::format("k = {}, but one kind::{} instruction has K = {} (PTX ISA 9.1 §9.7.16.2.1)", m.k,
                            m.mma_kind, kk));
  hw::MmaOperandRows rows;
  try {
    rows = hw::tcgen05_operand_rows(static_cast<int>(m.m), static_cast<int>(m.n), op.cta_group);
  } catch (const InputError& e) {
    return op_finding(ctx, i, prove::Status::kFail, fmt::format("[{}] {}", e.check_id(), e.message()));
  }
  auto operand = [&](const char* name, const std::optional<DescriptorModel>& dm, const std::optional<Region>& reg,
                     bool transposed, std::int64_t nrows) {
    if (!dm || !reg) return;
    const ResolvedBuffer* b = ctx.buffer(reg->buffer);
    related.push_back(b->model->name);
    OperandRead r;
    r.ctx = &ctx;
    r.name = name;
    r.buf = b;
    r.region = &*reg;
    r.transposed = transposed;
    r.rows = nrows;
    r.k = m.k;
    r.mn_major = dm->mn_major;
    const std::string& idt =
        m.idesc ? (std::string(name) == "A" ? m.idesc->a_dtype : m.idesc->b_dtype) : b->model->dtype;
    r.desc_bits = hw::tcgen05_smem_element_bits(kind, idt);
    try {
      r.desc = make_desc(ctx, *dm, hw::DescriptorVariant::kBlackwell);
    } catch (const InputError& e) {
      verdicts.push_back(descriptor_rule_verdict(name, e));
      return;
    }
    if (const std::string tm = tile_mismatch(r); !tm.empty()) {
      OperandVerdict v;
      v.status = prove::Status::kFail;
      v.message = fmt::format("{} descriptor: {}{}", name, tm,
                              op.cta_group == 2 ? " (with .cta_group::2 each CTA's descriptors cover M/2 rows of A "
                                                  "and N/2 rows of B)"
                                                : "");
      v.witness = {{"operand", name}, {"kind", "tile"}, {"region", reg->text}, {"tile", {nrows, m.k}}};
      verdicts.push_back(v);
      return;
    }
    verdicts.push_back(check_operand(r));
  };
  operand("A", m.a_desc, m.a_desc ? m.a : std::nullopt, m.a_km, rows.a_rows);
  operand("B", m.b_desc, m.b, m.b_kn, rows.b_rows);
  // The instruction descriptor against the op, the descriptors and the buffers.
  if (m.idesc) {
    const InstrDescriptorModel& id = *m.idesc;
    if (id.m != m.m) add_problem(problems, plist, fmt::format("idesc M = {}, the instruction's m = {}", id.m, m.m));
    if (id.n != m.n) add_problem(problems, plist, fmt::format("idesc N = {}, the instruction's n = {}", id.n, m.n));
    if (m.a_desc && id.a_mn_major != m.a_desc->mn_major)
      add_problem(problems, plist,
                  fmt::format("idesc says A is {}-major, the A descriptor is {}-major", id.a_mn_major ? "MN" : "K",
                              m.a_desc->mn_major ? "MN" : "K"));
    if (m.a_tmem && id.a_mn_major)
      add_problem(problems, plist, "idesc says A is MN-major, but A in TMEM is read K-major (no transpose)");
    if (id.b_mn_major != m.b_desc.mn_major)
      add_problem(problems, plist,
                  fmt::format("idesc says B is {}-major, the B descriptor is {}-major", id.b_mn_major ? "MN" : "K",
                              m.b_desc.mn_major ? "MN" : "K"));
    auto dtype_rule = [&](const char* name, const std::string& idt, const std::optional<Region>& reg,
                          hw::MmaOperand which) {
      if (!hw::tcgen05_kind_accepts(kind, which, idt))
        add_problem(problems, plist,
                    fmt::format("idesc {} type {} is not a kind::{} type ({}; PTX ISA 9.1 Table 42)", name, idt,
                                m.mma_kind, hw::tcgen05_kind_dtypes(kind, which)));
      if (reg) {
        const std::string& bt = ctx.buffer(reg->buffer)->model->dtype;
        if (!buffer_holds(kind, bt, idt))
          add_problem(problems, plist,
                      fmt::format("idesc {} type {}, but {} holds {}", name, idt, reg->buffer, bt));
      }
    };
    dtype_rule("A", id.a_dtype, m.a, hw::MmaOperand::kA);
    dtype_rule("B", id.b_dtype, m.b, hw::MmaOperand::kB);
    dtype_rule("D", id.d_dtype, m.d_region, hw::MmaOperand::kD);
  }
  return combine(ctx, i, verdicts, problems, plist, related,
                 fmt::format("kind::{} {}x{}x{}{}: ", m.mma_kind, m.m, m.n, m.k,
                             op.cta_group == 2 ? " .cta_group::2 (per CTA)" : ""));
}

KernelFinding check_wgmma(const KernelContext& ctx, std::size_t i, const WgmmaOp& w) {
  std::vector<OperandVerdict> verdicts;
  std::vector<std::string> problems;
  nlohmann::json plist = nlohmann::json::array();
  std::vector<std::string> related;
  const ResolvedBuffer* ab = ctx.buffer(w.a.buffer);
  const ResolvedBuffer* bb = ctx.buffer(w.b.buffer);
  const std::string& at = ab->model->dtype;
  const std::string& bt = bb->model->dtype;
  const int kk = hw::wgmma_k(at);
  if (kk == 0)
    add_problem(problems, plist, fmt::format("wgmma has no {} operands (PTX ISA 9.1 §9.7.15.5.1)", at));
  else if (w.k != kk)
    add_problem(problems, plist, fmt::format("k = {}, but one wgmma on {} has K = {}", w.k, at, kk));
  if (hw::wgmma_k(bt) != kk || (kk == 16 && at != bt))
    add_problem(problems, plist, fmt::format("A is {} but B is {}", at, bt));
  for (const auto& [name, dm, dt] :
       {std::tuple<const char*, const DescriptorModel*, std::string>{"A", &w.a_desc, at}, {"B", &w.b_desc, bt}})
    if (dm->mn_major && !hw::wgmma_mn_major_allowed(dt))
      add_problem(problems, plist,
                  fmt::format("{} is read MN-major, which wgmma allows for 16-bit types only, not {}", name, dt));
  auto operand = [&](const char* name, const DescriptorModel& dm, const Region& reg, bool transposed,
                     std::int64_t nrows) {
    const ResolvedBuffer* b = ctx.buffer(reg.buffer);
    related.push_back(b->model->name);
    OperandRead r;
    r.ctx = &ctx;
    r.name = name;
    r.buf = b;
    r.region = &reg;
    r.transposed = transposed;
    r.rows = nrows;
    r.k = w.k;
    r.mn_major = dm.mn_major;
    try {
      r.desc = make_desc(ctx, dm, hw::DescriptorVariant::kHopper);
    } catch (const InputError& e) {
      verdicts.push_back(descriptor_rule_verdict(name, e));
      return;
    }
    if (const std::string tm = tile_mismatch(r); !tm.empty()) {
      OperandVerdict v;
      v.status = prove::Status::kFail;
      v.message = fmt::format("{} descriptor: {}", name, tm);
      v.witness = {{"operand", name}, {"kind", "tile"}, {"region", reg.text}, {"tile", {nrows, w.k}}};
      verdicts.push_back(v);
      return;
    }
    verdicts.push_back(check_operand(r));
  };
  operand("A", w.a_desc, w.a, w.a_km, w.m);
  operand("B", w.b_desc, w.b, w.b_kn, w.n);
  return combine(ctx, i, verdicts, problems, plist, related, fmt::format("wgmma m{}n{}k{}: ", w.m, w.n, w.k));
}

// tcgen05.cp: every byte the copy reads through src_desc is an element of `smem`, and lands in
// the TMEM cell the destination layout gives that element (PTX ISA 9.1 §9.7.16.9.2).
KernelFinding check_cp(const KernelContext& ctx, std::size_t i, const CpOp& c) {
  const ResolvedBuffer* sb = ctx.buffer(c.smem.buffer);
  const ResolvedBuffer* tb = ctx.buffer(c.tmem.buffer);
  for (const ResolvedBuffer* b : {sb, tb})
    if (!b->layout)
      return op_finding(ctx, i, prove::Status::kNotApplicable,
                        fmt::format("the layout of '{}' did not parse", b->model->name));
  if (!ctx.target->tmem) return op_finding(ctx, i, prove::Status::kNotApplicable, "the target has no TMEM");
  hw::SmemDescriptor d;
  try {
    d = make_desc(ctx, c.src_desc, hw::DescriptorVariant::kBlackwell);
    (void)d.encode();
  } catch (const InputError& e) {
    KernelFinding f = op_finding(ctx, i, prove::Status::kFail,
                                 fmt::format("source descriptor: [{}] {}", e.check_id(), e.message()));
    f.witness = {{"rule", std::string(e.check_id())}};
    return f;
  }
  const RegionBits rb = region_bits(*sb, c.smem, kMaxRegionElements);
  if (!rb.ok()) return op_finding(ctx, i, prove::Status::kUndecided, rb.why_not);
  if (c.smem.size() != c.tmem.size()) {
    KernelFinding f = op_finding(ctx, i, prove::Status::kFail,
                                 fmt::format("region {} has {} elements but {} has {}; the copy pairs them element by "
                                             "element",
                                             c.smem.text, c.smem.size(), c.tmem.text, c.tmem.size()));
    f.related = {sb->model->name, tb->model->name};
    f.witness = {{"kind", "tile"}};
    return f;
  }
  if (rb.elem_bits % 8 != 0)
    return op_finding(ctx, i, prove::Status::kUndecided,
                      fmt::format("{}-bit source elements (sub-byte tcgen05.cp) are not modelled", rb.elem_bits));
  auto fail = [&](std::string msg, nlohmann::json w) {
    KernelFinding f = op_finding(ctx, i, prove::Status::kFail, std::move(msg));
    f.related = {sb->model->name, tb->model->name};
    f.witness = std::move(w);
    return f;
  };
  // Forward: every source byte (row r, byte b) and the shared byte the descriptor reads for it.
  const int rows = hw::cp_rows(c.shape), row_bytes = hw::cp_row_bits(c.shape) / 8;
  const TmemRef t0 = tmem_address(ctx, c.taddr);
  std::vector<std::pair<std::int64_t, std::int64_t>> read;  // (shared byte, r * row_bytes + b)
  for (int r = 0; r < rows; ++r)
    for (int b = 0; b < row_bytes; ++b)
      read.emplace_back(static_cast<std::int64_t>(d.chunk_address(r, b / 16)) + b % 16, r * row_bytes + b);
  std::sort(read.begin(), read.end());
  // Every byte read must be a byte of some element of the region.
  {
    std::vector<std::int64_t> bytes;
    for (std::int64_t e = 0; e < c.smem.size(); ++e)
      for (std::int64_t j = 0; j < rb.elem_bits / 8; ++j) bytes.push_back(rb.bits[static_cast<std::size_t>(e)] / 8 + j);
    std::sort(bytes.begin(), bytes.end());
    for (const auto& [a, rb_idx] : read)
      if (!std::binary_search(bytes.begin(), bytes.end(), a)) {
        const int r = static_cast<int>(rb_idx / row_bytes), b = static_cast<int>(rb_idx % row_bytes);
        return fail(fmt::format("source row {} byte {}: the descriptor ({}) reads shared byte {}, which is no byte of "
                                "{}",
                                r, b, desc_text(d, false), a, c.smem.text),
                    {{"kind", "outside"}, {"row", r}, {"byte", b}, {"descriptor_byte", a}});
      }
  }
  // Backward: each element's bytes are read by some source byte, which lands in one of the
  // TMEM cells the destination layout gives the element.
  std::vector<std::vector<int>> lanes_of(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) lanes_of[static_cast<std::size_t>(r)] = hw::cp_destination_lanes(c.shape, static_cast<int>(t0.lane), r);
  for (std::int64_t e = 0; e < c.smem.size(); ++e) {
    const auto tcoord = c.tmem.coord(e);
    const auto cells = tmem_images(*tb, tcoord);
    for (std::int64_t j = 0; j < rb.elem_bits / 8; ++j) {
      const std::int64_t a = rb.bits[static_cast<std::size_t>(e)] / 8 + j;
      auto it = std::lower_bound(read.begin(), read.end(), std::make_pair(a, std::int64_t{-1}));
      if (it == read.end() || it->first != a)
        return fail(fmt::format("element {}{} (shared byte {}) is read by no source row of tcgen05.cp.{} through the "
                                "descriptor ({})",
                                c.smem.buffer, coord_text(c.smem.coord(e)), a, hw::to_string(c.shape),
                                desc_text(d, false)),
                    {{"kind", "uncovered"}, {"smem_element", c.smem.coord(e)}, {"smem_byte", a}});
      const int r = static_cast<int>(it->second / row_bytes), b = static_cast<int>(it->second % row_bytes);
      const std::int64_t col = t0.col + b / 4;
      const int byte_in_cell = b % 4;
      for (int lane : lanes_of[static_cast<std::size_t>(r)]) {
        bool found = false;
        for (const TmemCell& cell : cells) {
          const std::int64_t cb = cell.bit / 8 + j;
          if (cell.lane == lane && cell.col + cb / 4 == col && cb % 4 == byte_in_cell) found = true;
        }
        if (found) continue;
        const TmemCell& c0 = cells.front();
        return fail(fmt::format("element {}{} (shared byte {}, source row {} byte {}): tcgen05.cp.{} puts it in TMEM "
                                "lane {}, column {}, byte {}; the layout of {} puts {}{} at lane {}, column {}, byte {}",
                                c.smem.buffer, coord_text(c.smem.coord(e)), a, r, b, hw::to_string(c.shape), lane, col,
                                byte_in_cell, tb->model->name, c.tmem.buffer, coord_text(tcoord), c0.lane, c0.col,
                                c0.bit / 8 + j),
                    {{"kind", "mismatch"},
                     {"row", r},
                     {"byte", b},
                     {"smem_element", c.smem.coord(e)},
                     {"tmem_element", tcoord},
                     {"descriptor_byte", a},
                     {"cp_cell", {{"lane", lane}, {"col", col}, {"byte", byte_in_cell}}},
                     {"layout_cell", {{"lane", c0.lane}, {"col", c0.col}, {"byte", c0.bit / 8 + j}}}});
      }
    }
  }
  KernelFinding f = op_finding(ctx, i, prove::Status::kPass,
                               fmt::format("tcgen05.cp.{} through the source descriptor ({}) moves every element of {} "
                                           "into the TMEM cells {}'s layout gives it",
                                           hw::to_string(c.shape), desc_text(d, false), c.smem.text, c.tmem.text));
  f.related = {sb->model->name, tb->model->name};
  return f;
}

KernelFinding check_gemm_async(const KernelContext& ctx, std::size_t i, const Op& op, const GemmAsyncOp& g) {
  const GemmLowering low = lower_gemm_async(ctx, g, op.cta_group);
  std::vector<std::string> related = {g.a.buffer, g.b.buffer};
  if (!low.plan) {
    KernelFinding f = op_finding(ctx, i, low.not_modelled ? prove::Status::kUndecided : prove::Status::kFail,
                                 low.not_modelled ? low.error
                                                  : fmt::format("TVM's gemm_async dispatcher cannot derive the MMA "
                                                                "descriptors: {}",
                                                                low.error));
    f.related = related;
    if (!low.not_modelled) f.witness = {{"kind", "lowering"}, {"reason", low.error}};
    return f;
  }
  const GemmPlan& p = *low.plan;
  std::vector<OperandVerdict> verdicts;
  // Every instruction reads a tile of the same two regions: their addresses once.
  const ResolvedBuffer* abuf = ctx.buffer(g.a.buffer);
  const ResolvedBuffer* bbuf = ctx.buffer(g.b.buffer);
  std::optional<RegionBits> rb_a;
  if (abuf->scope == prove::Scope::kShared && abuf->layout) rb_a = region_bits(*abuf, g.a, kMaxRegionElements);
  const RegionBits rb_b = bbuf->layout ? region_bits(*bbuf, g.b, kMaxRegionElements) : RegionBits{};
  for (const GemmPlan::Instr& in : p.instrs) {
    for (const bool is_a : {true, false}) {
      if (is_a && !in.a) continue;
      const GemmPlan::OperandDesc* od = is_a ? &*in.a : &in.b;
      OperandRead r;
      r.ctx = &ctx;
      r.name = is_a ? "A" : "B";
      r.buf = ctx.buffer(is_a ? g.a.buffer : g.b.buffer);
      r.region = is_a ? &g.a : &g.b;
      r.transposed = is_a ? g.a_km : g.b_kn;
      r.row0 = od->row0;
      r.k0 = od->k0;
      r.rows = od->rows;
      r.k = p.k;
      r.desc = od->desc;
      r.mn_major = od->mn_major;
      OperandVerdict v = check_operand(r, is_a ? (rb_a ? &*rb_a : nullptr) : (bbuf->layout ? &rb_b : nullptr));
      if (v.status == prove::Status::kFail) {
        v.message = fmt::format("instruction (mi {}, ni {}, ki {}): {}", in.mi, in.ni, in.ki, v.message);
        // TVM always encodes base offset 0: the actionable fix is the placement.
        if (!v.placement_fix.empty()) v.fix = v.placement_fix;
        v.witness["instruction"] = {in.mi, in.ni, in.ki};
        KernelFinding f = combine(ctx, i, {v}, {}, nlohmann::json::array(), related, "");
        f.message = fmt::format("TVM's gemm_async plan ({}): {}", p.summary, f.message);
        return f;
      }
      if (v.status != prove::Status::kPass) {
        KernelFinding f = op_finding(ctx, i, v.status, v.message);
        f.related = related;
        return f;
      }
    }
  }
  KernelFinding f =
      op_finding(ctx, i, prove::Status::kPass,
                 fmt::format("TVM's gemm_async plan ({}): every instruction's descriptors match the operand layouts",
                             p.summary));
  f.related = related;
  return f;
}

}  // namespace

std::vector<KernelFinding> mma_descriptor(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i) {
    const Op& op = ctx.op(i);
    try {
      if (const auto* m = std::get_if<MmaOp>(&op.data)) out.push_back(check_tcgen05_mma(ctx, i, op, *m));
      else if (const auto* w = std::get_if<WgmmaOp>(&op.data)) out.push_back(check_wgmma(ctx, i, *w));
      else if (const auto* c = std::get_if<CpOp>(&op.data)) out.push_back(check_cp(ctx, i, *c));
      else if (const auto* g = std::get_if<GemmAsyncOp>(&op.data)) out.push_back(check_gemm_async(ctx, i, op, *g));
    } catch (const InputError& e) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kFail, fmt::format("[{}] {}", e.check_id(), e.message()));
      f.witness = {{"rule", std::string(e.check_id())}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tirx::kernel::checks
