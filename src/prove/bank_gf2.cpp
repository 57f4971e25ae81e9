// smem.bank-conflicts by GF(2) (tirx_verify/prove/bank_engines.hpp): the phase models of the
// calibrated wavefront model and the rank count of one access.
#include <fmt/format.h>

#include <bit>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/bank_engines.hpp"

namespace tirx::prove::banks {

namespace {

bool pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
int log2_of(std::uint64_t v) { return std::countr_zero(v); }

// Rank over GF(2) of a set of 64-bit vectors.
int rank(std::vector<std::uint64_t> v) {
  int r = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i]) continue;
    ++r;
    const std::uint64_t pivot = std::uint64_t{1} << (63 - std::countl_zero(v[i]));
    for (std::size_t j = i + 1; j < v.size(); ++j)
      if (v[j] & pivot) v[j] ^= v[i];
  }
  return r;
}

}  // namespace

PhaseModel phase_model(const hw::Target& t, int width_bytes, bool is_store) {
  const auto it = t.wavefront.phase_threads.find(width_bytes);
  if (it == t.wavefront.phase_threads.end())
    throw InputError("smem.access", fmt::format("shared-memory access width {} bytes is not in the target's wavefront model",
                                                width_bytes));
  PhaseModel m;
  m.width_bytes = width_bytes;
  m.phase_threads = it->second;
  if (!is_store && t.wavefront.uniform_pair_widths.count(width_bytes)) {
    m.merged_phase_threads = std::min(2 * m.phase_threads, t.warp_size);
    m.pair_masks = t.wavefront.uniform_pair_xor;
  }
  return m;
}

PhaseModel ldmatrix_phase_model(const hw::Target& t) {
  PhaseModel m;
  m.width_bytes = 16;  // one 8 x 16-bit matrix row (PTX ISA 9.1 §9.7.14.5.15)
  m.phase_threads = t.wavefront.ldmatrix_phase_rows;
  return m;
}

std::variant<hw::WavefrontCount, std::string> gf2_wavefronts(const hw::Target& t, const std::vector<std::uint64_t>& addr,
                                                            std::uint64_t mask, const PhaseModel& m) {
  const int ws = t.warp_size;
  if (static_cast<int>(addr.size()) != ws) return fmt::format("{} addresses for a warp of {}", addr.size(), ws);
  if (ws > 64 || !pow2(static_cast<std::uint64_t>(ws))) return "the warp size is not a power of two up to 64";
  if (!pow2(static_cast<std::uint64_t>(t.banks)) || !pow2(static_cast<std::uint64_t>(t.bank_bytes)))
    return "the bank count or bank width is not a power of two";
  if (!pow2(static_cast<std::uint64_t>(m.width_bytes)) || m.width_bytes < t.bank_bytes)
    return "the access width is not a power-of-two multiple of the bank width";
  if (!pow2(static_cast<std::uint64_t>(m.phase_threads)) ||
      (m.merged_phase_threads && !pow2(static_cast<std::uint64_t>(m.merged_phase_threads))))
    return "a phase size is not a power of two";
  if (ws < 64) mask &= (std::uint64_t{1} << ws) - 1;
  hw::WavefrontCount out;
  if (!mask) return out;  // nothing requested
  // Active lanes: c XOR span(E).
  const int c = std::countr_zero(mask);
  std::uint64_t e = 0;
  for (int l = 0; l < ws; ++l)
    if ((mask >> l) & 1u) e |= static_cast<std::uint64_t>(l ^ c);
  if (std::popcount(mask) != (1 << std::popcount(e))) return "the active lanes are not a cube c XOR span{lane bits}";
  for (int l = 0; l < ws; ++l)
    if ((mask >> l) & 1u && (addr[static_cast<std::size_t>(l)] % static_cast<std::uint64_t>(m.width_bytes)) != 0)
      return fmt::format("lane {} address is not {}-byte aligned", l, m.width_bytes);
  // Columns L e_b and the affine check over every active lane.
  std::vector<std::uint64_t> col(static_cast<std::size_t>(log2_of(static_cast<std::uint64_t>(ws))), 0);
  const std::uint64_t a0 = addr[static_cast<std::size_t>(c)];
  for (std::size_t b = 0; b < col.size(); ++b)
    if ((e >> b) & 1u) col[b] = addr[static_cast<std::size_t>(c ^ (1 << b))] ^ a0;
  for (int l = 0; l < ws; ++l) {
    if (!((mask >> l) & 1u)) continue;
    std::uint64_t v = a0;
    for (std::size_t b = 0; b < col.size(); ++b)
      if (((l ^ c) >> b) & 1u) v ^= col[b];
    if (v != addr[static_cast<std::size_t>(l)]) return fmt::format("lane {} address is not affine in the lane bits", l);
  }
  int phase = m.phase_threads;
  if (m.merged_phase_threads)
    for (int k : m.pair_masks) {
      if (!pow2(static_cast<std::uint64_t>(k)) || k >= ws) return fmt::format("pair mask {} is not one lane bit", k);
      const int b = log2_of(static_cast<std::uint64_t>(k));
      if (!((e >> b) & 1u) || col[static_cast<std::size_t>(b)] == 0) {
        phase = m.merged_phase_threads;
        break;
      }
    }
  const int pbits = log2_of(static_cast<std::uint64_t>(std::min(phase, ws)));
  const int word_shift = log2_of(static_cast<std::uint64_t>(t.bank_bytes));
  const std::uint64_t bank_mask = static_cast<std::uint64_t>(t.banks) - 1;
  std::vector<std::uint64_t> words, bank_cols;
  int phases = 1;
  for (std::size_t b = 0; b < col.size(); ++b) {
    if (!((e >> b) & 1u)) continue;
    if (static_cast<int>(b) >= pbits) {
      phases *= 2;
      continue;
    }
    words.push_back(col[b] >> word_shift);
  }
  for (int j = 1; j < m.width_bytes / t.bank_bytes; j *= 2) words.push_back(static_cast<std::uint64_t>(j));
  for (std::uint64_t w : words) bank_cols.push_back(w & bank_mask);
  const int rw = rank(words), rb = rank(bank_cols);
  const std::int64_t distinct = std::int64_t{1} << rw;
  out.wavefronts = phases * (1 << (rw - rb));
  out.ideal = phases * static_cast<int>((distinct + t.banks - 1) / t.banks);
  return out;
}

SymLayout constant_layout(const Layout& l) {
  SymLayout s;
  const TileLayout& t = l.tile();
  for (const Iter& it : t.shard) s.shard.push_back(SymIter{SymExpr(it.extent), SymExpr(it.stride), it.axis});
  for (const Iter& it : t.replica) s.replica.push_back(SymIter{SymExpr(it.extent), SymExpr(it.stride), it.axis});
  for (const OffsetMap::Entry& e : t.offset.entries()) s.offset.emplace_back(e.axis, SymExpr(e.value));
  if (const SwizzleSpec* z = l.swizzle()) s.swizzle = *z;
  return s;
}

}  // namespace tirx::prove::banks
