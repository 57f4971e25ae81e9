// The one list of op kinds and their parsers (docs/model-format.md "Ops").
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel {

namespace detail {
namespace {

struct KindEntry {
  const char* kind;
  OpParser parse;
};

const std::vector<KindEntry>& kinds() {
  static const std::vector<KindEntry> k = {
      {"copy", parse_copy},
      {"copy_async", parse_copy},
      {"gemm_async", parse_gemm_async},
      {"tma.load", parse_tma},
      {"tma.store", parse_tma},
      {"tcgen05.mma", parse_tcgen05_mma},
      {"tcgen05.ld", parse_tcgen05_ldst},
      {"tcgen05.st", parse_tcgen05_ldst},
      {"tcgen05.cp", parse_tcgen05_cp},
      {"tcgen05.alloc", parse_tcgen05_alloc},
      {"tcgen05.dealloc", parse_tcgen05_alloc},
      {"wgmma", parse_wgmma},
      {"ldmatrix", parse_ldmatrix},
      {"stmatrix", parse_ldmatrix},
      {"mma.sync", parse_mma_sync},
      {"smem.access", parse_smem_access},
      {"cast", parse_cast},
  };
  return k;
}

}  // namespace

OpParser find_op_parser(std::string_view kind) {
  for (const auto& e : kinds())
    if (kind == e.kind) return e.parse;
  return nullptr;
}

bool read_operand_dims(ObjectReader& o, const char* key, const char* normal, const char* transposed) {
  return o.opt_choice(key, {normal, transposed}).value_or(normal) == transposed;
}

void require_kept_rank(ObjectReader& o, const char* key, const Region& r, std::size_t rank) {
  if (r.kept_shape().size() != rank)
    o.fail(key, fmt::format("region '{}' keeps {} dimensions; this operand needs {} (index the others)", r.text,
                            r.kept_shape().size(), rank));
}

}  // namespace detail

const std::vector<std::string>& op_kinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& e : detail::kinds()) out.emplace_back(e.kind);
    return out;
  }();
  return names;
}

}  // namespace tirx::kernel
