// Recognising TMEM data-path layouts and tcgen05 register fragments (prove/tmem_datapath.hpp).
#include "tirx_verify/prove/tmem_datapath.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::prove {

std::optional<TmemDatapathClass> classify_tmem_datapath(const TileLayout& stripped, std::int64_t rows,
                                                        std::int64_t cols) {
  const TileLayout c = canonicalize(stripped);
  auto same = [&](const TileLayout& f) { return canonicalize(f) == c; };
  try {
    if (rows == 128 && same(tmem_datapath_layout("D", 128, cols)))
      return TmemDatapathClass{hw::Datapath::D, 0, "Layout D"};
    if (rows == 64) {
      if (cols % 2 == 0 && same(tmem_datapath_layout("B", 64, cols)))
        return TmemDatapathClass{hw::Datapath::B, 0, "Layout B"};
      for (int s : {0, 1})
        if (same(tmem_datapath_layout("F", 64, cols, s)))
          return TmemDatapathClass{hw::Datapath::F, s, fmt::format("Layout F sub_slab {}", s)};
    }
  } catch (const InputError&) {
    // a factory refused (cols < 1): not a data-path layout
  }
  return std::nullopt;
}

std::optional<Tcgen05Fragment> match_tcgen05_fragment(const Layout& frag, std::int64_t rows, std::int64_t cols,
                                                      const DType& dt) {
  if (frag.is_compose() || dt.bits <= 0 || dt.bits > 32) return std::nullopt;
  const TileLayout c = canonicalize(frag.tile());
  const std::int64_t epb = 32 / dt.bits;  // elements per 32-bit register
  for (const char* shape : {"16x64b", "16x128b", "16x256b", "32x32b"}) {
    TileLayout atom;
    try {
      atom = tcgen05_atom_layout(shape, rows, cols, dt);
    } catch (const InputError&) {
      continue;
    }
    if (canonicalize(atom) != c) continue;
    Tcgen05Fragment m;
    m.shape = shape;
    m.instr.shape = hw::parse_ldst_shape(shape);
    // 32-bit columns one repetition covers: .16x64b 2, .16x128b 4, .16x256b 8 (PTX Table 49).
    const std::int64_t cols_per_rep = m.shape == "16x64b" ? 2 : m.shape == "16x128b" ? 4 : 8;
    if (m.shape == "32x32b")
      m.instr.num = static_cast<int>(rows == 64 ? cols / 2 : cols / epb);
    else
      m.instr.num = static_cast<int>(cols / (cols_per_rep * epb));
    return m;
  }
  return std::nullopt;
}

}  // namespace tirx::prove
