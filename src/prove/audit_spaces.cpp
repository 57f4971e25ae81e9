// The argument space of each audited factory (prove/audit.hpp) and the buffer each result
// describes. Sources of the legal ranges (TVM 5d4dc8721307cf9677becacf0395c19be130e206):
//   sf_tmem_layout / sf_smem_layout   python/tvm/backend/cuda/tile_primitive/gemm_async/tcgen05.py:67-187
//                                     (docstrings: rows multiple of 32 / 128, sf_per_mma in {1,2,4}
//                                     "nvfp4=4, mxfp4=2, fp8=1", sf_reuse = quant_size // mma_k,
//                                     pipe_depth "optional outer pipe-depth dim"); the TMEM pool derives
//                                     the allocation from span("TCol") (lang/alloc_pool.py:240-258)
//   tmem_datapath_layout              python/tvm/tirx/layout.py:622-722 (rows per letter, sub_slab for
//                                     C/F only, even cols for B/E, cols % 4 for G)
//   tmem_mma_operand_layout           python/tvm/tirx/layout.py:725-873 ((M, cta_group, ws) -> letter,
//                                     the accepted shapes of A and D)
//   tcgen05_atom_layout               python/tvm/tirx/layout.py:886-1010 (Table 49 .num sets, rows,
//                                     16/32-bit dtypes, the 32x32b 64-row Layout B image)
//   wg_local_layout                   python/tvm/tirx/layout.py:876-883 (validates nothing)
//   mma_shared_layout                 python/tvm/backend/cuda/tile_primitive/tma_utils.py:66-94 (rows
//                                     in 8-row atoms, K in atom widths; TVM checks neither)
// The ranges are bounded so that the whole audit runs in seconds; each is the documented set
// (every legal value) where it is small, and a prefix of it where it is not (said per factory).
#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/audit.hpp"

namespace tirx::prove {

namespace {

using Emit = std::function<void(AuditCase)>;
using Shape = std::vector<std::int64_t>;

struct Buffer {
  Scope scope = Scope::kUnknown;
  std::string dtype;
  Shape shape;
  bool tmem_alloc_from_span = false;  // TMEM: the pool's allocation (TCol span in 32-bit columns)
  bool alloc_elems_from_shape = false;  // shared: the shape's elements
  std::string access;                 // a register fragment in notation, or empty
};

std::string quote(std::string_view s) { return fmt::format("'{}'", s); }

// The smallest legal tcgen05.alloc (a power of two in [min, max] columns) holding `cols`, or
// the largest when none does (then tmem.alloc / layout.bounds say the layout does not fit).
std::int64_t legal_alloc(const hw::Target& t, std::int64_t cols) {
  std::int64_t a = t.tmem->alloc_min_columns;
  while (a < cols && a < t.tmem->alloc_max_columns) a *= 2;
  return a;
}

AuditSubject subject(const AuditContext& ctx, std::string role, const std::string& text, const Buffer& b) {
  AuditSubject s;
  s.role = std::move(role);
  std::string flags = fmt::format(" --scope {} --dtype {} --shape {}", scope_name(b.scope), b.dtype,
                                  fmt::join(b.shape, ","));
  try {
    CheckInput in;
    in.text = text;
    in.layout = parse_layout(text);
    in.layout.validate();
    in.shape = b.shape;
    in.dtype = b.dtype;
    in.elem_bits = DType::parse(b.dtype).bits;
    in.scope = b.scope;
    in.machine = machine_limits(*ctx.target);
    in.target = ctx.target;
    in.limits = ctx.limits;
    if (b.tmem_alloc_from_span) {
      // TVM's TMEMPool._resolve_cols: span("TCol") elements x bits / 32 (rounded up here).
      const std::int64_t bits = in.layout.tile().span(AxisId::TCol) * in.elem_bits;
      in.alloc_cols = legal_alloc(*ctx.target, (bits + 31) / 32);
      flags += fmt::format(" --alloc-cols {}", *in.alloc_cols);
    }
    if (b.alloc_elems_from_shape) {
      std::int64_t n = 1;
      for (std::int64_t e : b.shape) n *= e;
      in.alloc_elems = n;
      flags += fmt::format(" --alloc-elems {}", n);
    }
    if (!b.access.empty()) {
      in.access = parse_layout(b.access);
      in.access->validate();
      in.access_text = b.access;
      flags += " --access " + quote(b.access);
    }
    s.input = std::move(in);
  } catch (const InputError& e) {
    s.rejected = fmt::format("[{}] {}", e.check_id(), e.message());
  }
  s.command = "tirx-verify check " + quote(text) + flags;
  return s;
}

AuditCase one(const AuditContext& ctx, std::string call, Shape size, const Buffer& b) {
  AuditCase c;
  c.size = std::move(size);
  c.subjects.push_back(subject(ctx, "buffer", call, b));
  c.call = std::move(call);
  return c;
}

// ---- block-scaled MMA scale factors ----

constexpr std::array<std::int64_t, 3> kSfPerMma = {1, 2, 4};  // fp8, mxfp4, nvfp4
constexpr std::array<std::int64_t, 3> kSfReuse = {1, 2, 4};
constexpr std::array<std::int64_t, 5> kPipe = {0, 1, 2, 3, 4};  // 0: pipe_depth=None

std::string sf_call(const char* f, std::int64_t rows, std::int64_t sf_k, std::int64_t per, std::int64_t reuse,
                    std::int64_t pipe) {
  std::string s = fmt::format("{}({}, {}, {}", f, rows, sf_k, per);
  if (reuse != 1) s += fmt::format(", sf_reuse={}", reuse);
  if (pipe != 0) s += fmt::format(", pipe_depth={}", pipe);
  return s + ")";
}

Shape sf_shape(std::int64_t rows, std::int64_t sf_k, std::int64_t reuse, std::int64_t pipe) {
  Shape s;
  if (pipe != 0) s.push_back(pipe);
  s.push_back(rows);
  s.push_back(sf_k * reuse);
  return s;
}

void sf_tmem_cases(const AuditContext& ctx, const Emit& emit) {
  for (std::int64_t rows = 32; rows <= 256; rows += 32)
    for (std::int64_t per : kSfPerMma)
      for (std::int64_t k = 1; k <= 16; ++k)
        for (std::int64_t reuse : kSfReuse)
          for (std::int64_t pipe : kPipe) {
            Buffer b{Scope::kTmem, "float8_e8m0fnu", sf_shape(rows, per * k, reuse, pipe), true, false, {}};
            emit(one(ctx, sf_call("sf_tmem_layout", rows, per * k, per, reuse, pipe),
                     {rows, per * k, per, reuse, pipe}, b));
          }
}

void sf_smem_cases(const AuditContext& ctx, const Emit& emit) {
  for (std::int64_t rows = 128; rows <= 512; rows += 128)
    for (std::int64_t per : kSfPerMma)
      for (std::int64_t sf_k = 4; sf_k <= 32; sf_k += 4)
        for (std::int64_t reuse : kSfReuse)
          for (std::int64_t pipe : kPipe) {
            Buffer b{Scope::kShared, "float8_e8m0fnu", sf_shape(rows, sf_k, reuse, pipe), false, true, {}};
            emit(one(ctx, sf_call("sf_smem_layout", rows, sf_k, per, reuse, pipe), {rows, sf_k, per, reuse, pipe}, b));
          }
}

// ---- TMEM accumulators ----

struct Letter {
  char letter;
  std::int64_t rows;
  std::int64_t col_multiple;  // B/E: even, G: 4
  bool sub_slab;              // C/F take sub_slab=1
};
constexpr std::array<Letter, 7> kLetters = {{{'A', 128, 1, false},
                                             {'B', 64, 2, false},
                                             {'C', 64, 1, true},
                                             {'D', 128, 1, false},
                                             {'E', 64, 2, false},
                                             {'F', 64, 1, true},
                                             {'G', 32, 4, false}}};

void tmem_datapath_cases(const AuditContext& ctx, const Emit& emit) {
  const std::int64_t tmem_cols = ctx.target->tmem->columns;
  for (const Letter& l : kLetters)
    for (int slab = 0; slab <= (l.sub_slab ? 1 : 0); ++slab)
      for (const auto& [dtype, per_cell] : {std::pair<const char*, std::int64_t>{"float32", 1}, {"float16", 2}})
        // TVM's pool needs whole 32-bit columns (cols x bits % 32 == 0).
        for (std::int64_t cols = per_cell; cols <= tmem_cols * per_cell; cols += per_cell) {
          if (cols % l.col_multiple != 0) continue;  // TVM raises
          std::string call = fmt::format("tmem_datapath_layout(\"{}\", {}, {}{})", l.letter, l.rows, cols,
                                         slab ? ", sub_slab=1" : "");
          Buffer b{Scope::kTmem, dtype, {l.rows, cols}, true, false, {}};
          emit(one(ctx, std::move(call), {l.rows, cols, slab, per_cell}, b));
        }
}

void tmem_operand_cases(const AuditContext& ctx, const Emit& emit) {
  struct Mma {
    std::int64_t M;
    int cta;
    bool ws;
    char letter;
  };
  constexpr std::array<Mma, 5> mmas = {{{128, 1, false, 'D'}, {64, 1, false, 'F'}, {64, 1, true, 'E'},
                                        {256, 2, false, 'A'}, {128, 2, false, 'B'}}};
  for (const Mma& mma : mmas) {
    const std::int64_t m = mma.M / mma.cta;
    const bool folded = mma.letter == 'B' || mma.letter == 'E';
    const std::string tail = fmt::format("M={}, cta_group={}{}", mma.M, mma.cta, mma.ws ? ", ws=True" : "");
    auto emit_shape = [&](const char* operand, const char* dtype, const Shape& shape, const std::string& extra,
                          std::int64_t n) {
      std::string call = fmt::format("tmem_mma_operand_layout(\"{}\", ({}), \"{}\", {}{})", operand,
                                     fmt::join(shape, ", "), dtype, tail, extra);
      Buffer b{Scope::kTmem, dtype, shape, true, false, {}};
      emit(one(ctx, std::move(call), {mma.M, mma.cta, mma.ws ? 1 : 0, n}, b));
    };
    // Accumulators: N in [8, 512] step 8 (tcgen05.mma N, PTX ISA 9.1 Table 39, at fp32 columns).
    for (std::int64_t n = 8; n <= 512; n += 8) {
      emit_shape("D", "float32", {m, n}, "", n);
      if (!folded) continue;
      emit_shape("D", "float32", {2, m, n / 2}, "", n);
      emit_shape("D", "float32", {m, 2, n / 2}, "", n);
      for (std::int64_t s : {2, 4})
        if (n % (2 * s) == 0) {
          emit_shape("D", "float32", {m, s, 2, n / (2 * s)}, "", n);
          emit_shape("D", "float32", {m, n}, fmt::format(", group=({}, 2, {})", s, n / (2 * s)), n);
        }
    }
    // A in TMEM: K in [16, 256] step 16 elements of bfloat16.
    for (std::int64_t k = 16; k <= 256; k += 16) {
      if (mma.letter != 'E') emit_shape("A", "bfloat16", {m, k}, "", k);
      if (folded) emit_shape("A", "bfloat16", {2, m, k}, "", k);
    }
  }
}

// ---- register fragments ----

struct AtomShape {
  const char* name;
  std::int64_t cols_fp32;  // 32-bit columns per repetition (TVM _TCGEN05_COL_FACTOR_FP32)
  std::int64_t max_num;    // PTX ISA 9.1 Table 49
};
constexpr std::array<AtomShape, 4> kAtoms = {{{"32x32b", 1, 128}, {"16x64b", 2, 128}, {"16x128b", 4, 64},
                                              {"16x256b", 8, 32}}};

void atom_cases(const AuditContext& ctx, const Emit& emit) {
  for (const AtomShape& a : kAtoms)
    for (std::int64_t rows : {64, 128})
      for (const auto& [dtype, per_cell] : {std::pair<const char*, std::int64_t>{"float32", 1}, {"float16", 2}})
        for (std::int64_t num = 1; num <= a.max_num; num *= 2) {
          const bool image_b = std::string_view(a.name) == "32x32b" && rows == 64;  // Layout B read-back
          if (image_b && per_cell != 1) continue;  // TVM raises: fp32 only
          const std::int64_t cols = image_b ? 2 * num : a.cols_fp32 * per_cell * num;
          const std::string atom = fmt::format("tcgen05_atom_layout(\"{}\", ({}, {}), \"{}\")", a.name, rows, cols, dtype);
          AuditCase c;
          c.call = atom;
          c.size = {rows, cols, num, per_cell};
          c.subjects.push_back(subject(ctx, "fragment", atom, Buffer{Scope::kLocal, dtype, {rows, cols}, false, false, {}}));
          // The TMEM data paths this fragment reads (TVM layout.py:862-870 and the dispatcher's
          // datapath/atom pairs): 128 rows Layout D; 16x*b 64 rows Layout F (both sub-slabs);
          // 32x32b 64 rows Layout B.
          std::vector<std::string> paths;
          if (rows == 128) paths.push_back(fmt::format("tmem_datapath_layout(\"D\", 128, {})", cols));
          else if (image_b) paths.push_back(fmt::format("tmem_datapath_layout(\"B\", 64, {})", cols));
          else
            for (int slab : {0, 1})
              paths.push_back(fmt::format("tmem_datapath_layout(\"F\", 64, {}{})", cols, slab ? ", sub_slab=1" : ""));
          for (const std::string& p : paths)
            c.subjects.push_back(
                subject(ctx, "read from " + p, p, Buffer{Scope::kTmem, dtype, {rows, cols}, true, false, atom}));
          emit(std::move(c));
        }
}

void wg_local_cases(const AuditContext& ctx, const Emit& emit) {
  for (std::int64_t rows = 16; rows <= 256; rows += 16)
    for (std::int64_t cols = 1; cols <= 256; ++cols) {
      std::string call = rows == 128 ? fmt::format("wg_local_layout({})", cols)
                                     : fmt::format("wg_local_layout({}, rows={})", cols, rows);
      emit(one(ctx, std::move(call), {cols, rows}, Buffer{Scope::kLocal, "float32", {rows, cols}, false, false, {}}));
    }
}

// ---- shared-memory MMA operands ----

void mma_shared_cases(const AuditContext& ctx, const Emit& emit) {
  constexpr std::array<const char*, 4> modes = {"SwizzleMode.SWIZZLE_NONE", "SwizzleMode.SWIZZLE_32B_ATOM",
                                                "SwizzleMode.SWIZZLE_64B_ATOM", "SwizzleMode.SWIZZLE_128B_ATOM"};
  for (const auto& [dtype, bits] : {std::pair<const char*, std::int64_t>{"float4_e2m1fn", 4},
                                    {"float8_e4m3fn", 8},
                                    {"float16", 16},
                                    {"float32", 32}})
    for (int mode = 0; mode <= 3; ++mode) {
      // The K atom: 16 bytes without swizzle (TVM's packed-16B atom), else the swizzle width.
      const std::int64_t atom_k = (mode == 0 ? 128 : (16 << mode) * 8) / bits;
      for (std::int64_t rows = 8; rows <= 256; rows += 8)
        for (std::int64_t ka = 1; ka <= 4; ++ka)
          for (std::int64_t lead : {0, 2}) {
            Shape shape;
            if (lead) shape.push_back(lead);
            shape.push_back(rows);
            shape.push_back(ka * atom_k);
            std::string call = fmt::format("mma_shared_layout(\"{}\", {}, ({}))", dtype, modes[mode], fmt::join(shape, ", "));
            emit(one(ctx, std::move(call), {bits, mode, rows, ka * atom_k, lead},
                     Buffer{Scope::kShared, dtype, shape, false, true, {}}));
          }
    }
}

}  // namespace

const std::vector<AuditFactory>& audit_factories() {
  static const std::vector<AuditFactory> list = {
      {"sf_tmem_layout",
       "rows 32..256 step 32, sf_per_mma 1/2/4, SF_K = sf_per_mma x 1..16, sf_reuse 1/2/4, pipe_depth None/1..4 "
       "(tcgen05.py:121-187); tmem, 8-bit, the pool's allocation",
       sf_tmem_cases},
      {"sf_smem_layout",
       "rows 128..512 step 128, sf_per_mma 1/2/4, SF_K 4..32 step 4, sf_reuse 1/2/4, pipe_depth None/1..4 "
       "(tcgen05.py:67-118); shared, 8-bit, the shape's bytes",
       sf_smem_cases},
      {"tmem_datapath_layout",
       "datapaths A..G with their rows, sub_slab 0/1 (C, F), cols 1..512 (float32) / 2..1024 step 2 (float16) as "
       "TVM accepts them (layout.py:622-722); tmem, the pool's allocation",
       tmem_datapath_cases},
      {"tmem_mma_operand_layout",
       "(M, cta_group, ws) in {(128,1), (64,1), (64,1,ws), (256,2), (128,2)}; D: N 8..512 step 8 in every accepted "
       "shape and group; A: K 16..256 step 16 (layout.py:725-873); tmem, the pool's allocation",
       tmem_operand_cases},
      {"tcgen05_atom_layout",
       "32x32b/16x64b/16x128b/16x256b, rows 64/128, float32/float16, every .num of PTX Table 49 (layout.py:886-1010); "
       "the fragment (local) and the fragment reading the data path it belongs to (tmem.partition, tmem.datapath)",
       atom_cases},
      {"wg_local_layout", "cols 1..256, rows 16..256 step 16 (layout.py:876-883; TVM validates neither); local, float32",
       wg_local_cases},
      {"mma_shared_layout",
       "float4/float8/float16/float32, swizzle NONE/32B/64B/128B, rows 8..256 step 8, K 1..4 atoms, with and without a "
       "leading dim of 2 (tma_utils.py:66-94); shared, the shape's elements",
       mma_shared_cases},
  };
  return list;
}

const AuditFactory* find_audit_factory(std::string_view name) {
  for (const AuditFactory& f : audit_factories())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace tirx::prove
