// tirx_verify/kernel/region.hpp — buffer regions and addresses as a kernel model writes them.
//
// A region is a TIRx buffer slice with literal bounds (docs/model-format.md):
//
//   Asmem                    every element of Asmem
//   Asmem[1, :, 0:64]        dim 0 fixed at 1 (dropped), dim 1 whole, dim 2 elements 0..63
//
// Its elements are visited in row-major order of the kept dimensions; two regions of one size
// correspond element by element in that order (TIRx copy semantics). For the (4, 128, 64)
// buffer above, element 65 of the region is Asmem[1, 1, 1].
//
// An address is one location a kernel computes: the byte address of a shared buffer's element
// (TIRx ptr_to) or a TMEM (lane, column) pair.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tirx::kernel {

struct RegionDim {
  std::int64_t lo = 0;
  std::int64_t hi = 0;   // exclusive
  bool point = false;    // written as a single index: the dimension is dropped
};

struct Region {
  std::string buffer;
  std::vector<RegionDim> dims;  // one per buffer dimension; empty = the whole buffer (until bound)
  std::string text;             // as written, for messages

  // Number of elements (product of hi - lo).
  std::int64_t size() const;
  // Extents of the kept (non-point) dimensions, outermost first.
  std::vector<std::int64_t> kept_shape() const;
  // The buffer coordinate of the region's i-th element (row-major over the kept dims);
  // i in [0, size()).
  std::vector<std::int64_t> coord(std::int64_t i) const;
  // Whether `c` (a buffer coordinate) lies in the region; and its index there.
  std::optional<std::int64_t> index_of(const std::vector<std::int64_t>& c) const;
};

// Parses "NAME" or "NAME[d0, d1, ...]" (each d: an integer, "lo:hi", "lo:", ":hi" or ":").
// Bounds are not checked here (bind_region does that). Throws InputError("model.schema") with
// the byte offset in `text` for anything else.
Region parse_region(std::string_view text);

// Completes a parsed region against its buffer's shape: an unsubscripted name becomes every
// element; open bounds are filled in. Throws InputError("model.schema") when the number of
// indices differs from the rank or a bound is outside [0, shape[d]] or empty. With
// `past_allowed` (a TMA box that runs past its tensor: a tile copy's `past_tensor`) an upper
// bound past shape[d] is accepted, up to kMaxPastExtent elements per dimension.
inline constexpr std::int64_t kMaxPastExtent = std::int64_t{1} << 32;
void bind_region(Region& r, const std::vector<std::int64_t>& shape, bool past_allowed = false);

// Whether a bound region lies inside `shape` (every upper bound at most the extent).
bool region_inside(const Region& r, const std::vector<std::int64_t>& shape);

// The part of a bound region inside `shape` (upper bounds cut to the extents; `text` rewritten
// with explicit bounds), or nullopt when the region lies wholly past it in some dimension.
std::optional<Region> clip_region(const Region& r, const std::vector<std::int64_t>& shape);

// A TMEM address relative to the allocation base: lane in bits 31..16, column in 15..0.
struct TmemRef {
  std::int64_t lane = 0;
  std::int64_t col = 0;   // 32-bit columns
};

// An address written either as a buffer element ("Asmem[0, 1, 0, 0]": that element's location)
// or as raw numbers ({"lane": L, "col": C} for TMEM), plus a byte offset for shared memory.
struct AddressRef {
  std::optional<Region> element;   // a region with every dimension a point index
  std::optional<TmemRef> tmem;     // raw TMEM lane/column
  std::int64_t offset_bytes = 0;   // shared memory: added to the element's byte address
  std::string text;                // for messages
};

}  // namespace tirx::kernel
