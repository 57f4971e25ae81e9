// group_many — the minimal common refinement of several logical shapes (TVM GroupMany in
// src/tirx/ir/layout/tile_tile_ops.cc), with concrete int64 extents.
//
// Every shape, and the layout's own shard, is turned into its sequence of cumulative products
// ("boundaries", starting at 1). The sequences are merged into one sorted list in which a
// value appears as often as the sequence that repeats it most (a repeated boundary is an
// extent-1 dimension and must survive as a unit iter). Consecutive merged boundaries must
// divide each other; their quotients are the refined extents.
//
//   S[30:1] with ([1,6,1,5,1], [2,1,3,5]):
//     boundaries  [1,1,6,6,30,30]  [1,2,2,6,30]  layout [1,30]
//     merged      1 1 2 2 6 6 30 30   -> extents (1,2,1,3,1,5,1), strides 30/.. = (30,15,15,5,5,1,1)
//     seps        [[0,1,4,5,6,7], [0,2,3,4,7]]
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

namespace {

[[noreturn]] void group_fail(std::string msg) { throw InputError("layout.well-formed", "group_many: " + msg); }

using Boundaries = std::vector<std::int64_t>;

struct BoundaryClass {
  std::int64_t value;
  std::vector<std::size_t> counts;  // occurrences per sequence
  std::size_t start = 0;            // first position in the merged list
  std::size_t multiplicity = 0;
};

// Position of each boundary of `seq` in the merged list: the k-th repeat of a value takes
// the k-th copy; the first boundary is 0 and the last is the last copy of the total.
std::vector<std::size_t> positions_of(const Boundaries& seq, const std::vector<BoundaryClass>& classes,
                                      std::size_t merged_size, const char* what) {
  std::vector<std::size_t> seen(classes.size(), 0);
  std::vector<std::size_t> pos;
  pos.reserve(seq.size());
  for (std::size_t b = 0; b < seq.size(); ++b) {
    auto it = std::find_if(classes.begin(), classes.end(),
                           [&](const BoundaryClass& c) { return c.value == seq[b]; });
    const std::size_t k = static_cast<std::size_t>(it - classes.begin());
    std::size_t p = it->start + seen[k]++;
    if (b == 0) p = it->start;
    if (b + 1 == seq.size()) p = it->start + it->multiplicity - 1;
    if (b > 0 && p <= pos.back())
      group_fail(fmt::format("could not keep the repeated boundary {} of {}", seq[b], what));
    pos.push_back(p);
  }
  if (pos.front() != 0 || pos.back() + 1 != merged_size)
    group_fail(fmt::format("boundaries of {} do not span the refinement", what));
  return pos;
}

}  // namespace

GroupedMany group_many(const TileLayout& l, std::span<const Shape> shapes) {
  l.validate();
  if (shapes.empty()) group_fail("needs at least one shape");

  std::vector<Boundaries> seqs;
  seqs.reserve(shapes.size() + 1);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i].empty()) group_fail(fmt::format("shape {} is empty", i));
    Boundaries b{1};
    for (std::size_t d = 0; d < shapes[i].size(); ++d) {
      if (shapes[i][d] < 1) group_fail(fmt::format("shape {} has extent {} at dimension {} (must be >= 1)", i, shapes[i][d], d));
      b.push_back(checked_mul(b.back(), shapes[i][d], "group_many shape product"));
    }
    seqs.push_back(std::move(b));
  }
  Boundaries layout_seq{1};
  for (const Iter& it : l.shard) layout_seq.push_back(checked_mul(layout_seq.back(), it.extent, "layout size"));

  const std::int64_t total = seqs.front().back();
  for (std::size_t i = 1; i < seqs.size(); ++i)
    if (seqs[i].back() != total)
      group_fail(fmt::format("shapes 0 and {} have different sizes ({} vs {})", i, total, seqs[i].back()));
  if (layout_seq.back() != total)
    group_fail(fmt::format("the layout has {} elements but the shapes have {}", layout_seq.back(), total));
  seqs.push_back(layout_seq);

  // Merge: one class per distinct boundary value, in increasing order.
  std::map<std::int64_t, std::vector<std::size_t>> counts;
  for (std::size_t s = 0; s < seqs.size(); ++s)
    for (std::int64_t v : seqs[s]) {
      auto& c = counts[v];
      c.resize(seqs.size(), 0);
      ++c[s];
    }
  std::vector<BoundaryClass> classes;
  Boundaries merged;
  for (auto& [value, cnt] : counts) {
    BoundaryClass c{value, cnt};
    c.start = merged.size();
    c.multiplicity = *std::max_element(cnt.begin(), cnt.end());
    merged.insert(merged.end(), c.multiplicity, value);
    classes.push_back(std::move(c));
  }
  std::vector<std::int64_t> refined;
  for (std::size_t i = 1; i < merged.size(); ++i) {
    if (merged[i] % merged[i - 1] != 0)
      group_fail(fmt::format("incompatible cumulative boundaries: {} does not divide {}", merged[i - 1], merged[i]));
    refined.push_back(merged[i] / merged[i - 1]);
  }

  // Split every layout iter over the refined extents it covers (outer part first).
  const auto lpos = positions_of(seqs.back(), classes, merged.size(), "the layout");
  GroupedMany out;
  out.layout.replica = l.replica;
  out.layout.offset = l.offset;
  for (std::size_t k = 0; k < l.shard.size(); ++k) {
    const std::size_t start = lpos[k], end = lpos[k + 1];
    if (start >= end) group_fail(fmt::format("cannot keep layout iter {}", k));
    if (merged[end] != merged[start] * l.shard[k].extent)
      group_fail(fmt::format("refinement changed the extent of layout iter {}", k));
    for (std::size_t p = start; p < end; ++p) {
      const std::int64_t inner = merged[end] / merged[p + 1];
      out.layout.shard.push_back(
          Iter{refined[p], checked_mul(l.shard[k].stride, inner, "group_many stride"), l.shard[k].axis});
    }
  }
  for (std::size_t i = 0; i < shapes.size(); ++i)
    out.seps.push_back(positions_of(seqs[i], classes, merged.size(), fmt::format("shape {}", i).c_str()));
  return out;
}

}  // namespace tirx
