#include "tirx_verify/layout/compose_layout.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx {

void SwizzleSpec::validate() const {
  if (per_element < 0 || swizzle_len < 0 || atom_len < swizzle_len || per_element + swizzle_len + atom_len > 62)
    throw InputError("swizzle.legal",
                     fmt::format("swizzle (per_element={}, swizzle_len={}, atom_len={}) is not legal: "
                                 "need per_element >= 0, swizzle_len >= 0, atom_len >= swizzle_len "
                                 "and per_element+swizzle_len+atom_len <= 62",
                                 per_element, swizzle_len, atom_len),
                     {}, std::nullopt,
                     atom_len < swizzle_len ? "S < B would XOR a bit field into itself; raise atom_len" : "");
}

std::int64_t SwizzleSpec::apply(std::int64_t m) const {
  if (swizzle_len == 0) return m;
  const std::int64_t low_mask = (std::int64_t{1} << per_element) - 1;
  const std::int64_t mask = (std::int64_t{1} << swizzle_len) - 1;
  const std::int64_t low = m & low_mask;
  std::int64_t q = m >> per_element;  // arithmetic shift == floor division by 2^M
  if (swizzle_inner)
    q ^= (q >> atom_len) & mask;
  else
    q ^= (q & mask) << atom_len;
  return (q << per_element) | low;
}

void ComposeLayout::validate() const {
  swizzle.validate();
  tile.validate();
  for (const Axis a : tile.axes())
    if (a != Axis(AxisId::m))
      throw InputError("layout.well-formed",
                       fmt::format("ComposeLayout tile must map onto axis m only, but it uses {}", a.name()),
                       {}, std::nullopt, "a swizzle permutes linear memory addresses; put thread axes elsewhere");
}

bool ComposeLayout::is_swizzle_only() const {
  return tile.shard.size() == 1 && tile.shard[0].stride == 1 && tile.shard[0].axis == Axis(AxisId::m) &&
         tile.replica.empty() && tile.offset.empty();
}

namespace {
Coord swizzled(const SwizzleSpec& s, Coord c) {
  if (c.has(AxisId::m)) c.set(AxisId::m, s.apply(c.get(AxisId::m)));
  return c;
}
}  // namespace

Coord ComposeLayout::apply(std::int64_t flat) const { return swizzled(swizzle, tile.apply(flat)); }
Coord ComposeLayout::apply_iters(std::span<const std::int64_t> d) const {
  return swizzled(swizzle, tile.apply_iters(d));
}
Coord ComposeLayout::apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const {
  return swizzled(swizzle, tile.apply(coord, shape));
}

}  // namespace tirx
