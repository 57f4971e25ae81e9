// storage / unpack / pack / broadcast / permute_dims / permute_by_groups
// (TVM python/tvm/tirx/layout.py, Layout methods).
//
//   S[(8,4,2):(4@laneid,1@laneid,1)].storage()   = S[2:1]           what one thread holds
//   S[(8,8):(8,1)].unpack(2)                     = S[(8,8,2):(16,2,1)]
//   S[(8,16):(16,1)].pack(2)                     = S[(8,8):(8,1)]
//   S[(4,32):(4,1)].broadcast(4)                 = S[(4,32,4):(4,1,0)]
//   ComposeLayout(3,3,3,S[512:1]).unpack(2)      = ComposeLayout(4,3,3,S[(512,2):(2,1)])
#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

namespace {

[[noreturn]] void reshape_fail(std::string msg) { throw InputError("layout.well-formed", std::move(msg)); }

TileLayout storage_tile(const TileLayout& l) {
  TileLayout out;
  for (const Iter& it : l.shard)
    if (it.axis.is_memory()) out.shard.push_back(it);
  for (const Iter& it : l.replica)
    if (it.axis.is_memory()) out.replica.push_back(it);
  for (const auto& e : l.offset.entries())
    if (e.axis.is_memory()) out.offset.set(e.axis, e.value);
  return out;
}

TileLayout unpack_tile(const TileLayout& l, std::int64_t n) {
  TileLayout out = l;
  for (Iter& it : out.shard) it.stride = checked_mul(it.stride, n, "unpack stride");
  out.shard.push_back(Iter{n, 1, Axis(AxisId::m)});
  return out;
}

TileLayout pack_tile(const TileLayout& l, std::int64_t n) {
  if (l.shard.empty()) reshape_fail(fmt::format("pack({}): the layout has no shard iter", n));
  const Iter& last = l.shard.back();
  if (last.stride != 1 || !last.axis.is_memory() || last.extent % n != 0)
    reshape_fail(fmt::format("pack({}): the innermost shard iter ({}, {}@{}) must have stride 1 on a memory axis "
                     "and an extent divisible by {}",
                     n, last.extent, last.stride, last.axis.name(), n));
  TileLayout out = l;
  for (std::size_t k = 0; k + 1 < out.shard.size(); ++k) {
    Iter& it = out.shard[k];
    if (it.stride % n != 0)
      reshape_fail(fmt::format("pack({}): shard iter {} has stride {}, not a multiple of {}", n, k, it.stride, n));
    it.stride /= n;
  }
  out.shard.back().extent /= n;
  return out;
}

int log2_of_pow2(std::int64_t n, const char* op) {
  if (!is_pow2(n)) reshape_fail(fmt::format("{}({}) on a ComposeLayout: n must be a power of two", op, n));
  return log2_exact(n);
}

void check_count(std::int64_t n, const char* op) {
  if (n < 1) reshape_fail(fmt::format("{}({}): the count must be >= 1", op, n));
}

}  // namespace

Layout storage(const Layout& l) {
  if (!l.is_compose()) return Layout(storage_tile(l.tile()));
  const ComposeLayout& c = l.as_compose();
  return Layout(ComposeLayout(c.swizzle, storage_tile(c.tile)));
}

Layout unpack(const Layout& l, std::int64_t n) {
  check_count(n, "unpack");
  if (!l.is_compose()) return Layout(unpack_tile(l.tile(), n));
  const ComposeLayout& c = l.as_compose();
  SwizzleSpec s = c.swizzle;
  s.per_element += log2_of_pow2(n, "unpack");
  s.validate();
  return Layout(ComposeLayout(s, unpack_tile(c.tile, n)));
}

Layout pack(const Layout& l, std::int64_t n) {
  check_count(n, "pack");
  if (!l.is_compose()) return Layout(pack_tile(l.tile(), n));
  const ComposeLayout& c = l.as_compose();
  SwizzleSpec s = c.swizzle;
  const int k = log2_of_pow2(n, "pack");
  if (s.per_element < k)
    reshape_fail(fmt::format("pack({}) on a ComposeLayout: per_element {} is smaller than log2({}) = {}", n,
                     s.per_element, n, k));
  s.per_element -= k;
  return Layout(ComposeLayout(s, pack_tile(c.tile, n)));
}

Layout broadcast(const Layout& l, std::int64_t n, int position, Axis axis) {
  check_count(n, "broadcast");
  auto insert = [&](const TileLayout& t) {
    const auto len = static_cast<std::int64_t>(t.shard.size());
    const std::int64_t at = position >= 0 ? position : len + 1 + position;
    if (at < 0 || at > len)
      reshape_fail(fmt::format("broadcast: position {} is outside the {} shard iters", position, len));
    TileLayout out = t;
    out.shard.insert(out.shard.begin() + at, Iter{n, 0, axis, /*broadcast=*/true});  // a declared broadcast
    return out;
  };
  if (!l.is_compose()) return Layout(insert(l.tile()));
  const ComposeLayout& c = l.as_compose();
  return Layout(ComposeLayout(c.swizzle, insert(c.tile)));
}

Layout declare_broadcasts(const Layout& l) {
  Layout out = l;
  for (Iter& it : out.tile().shard)
    if (it.stride == 0) it.broadcast = true;
  return out;
}

TileLayout permute_dims(const TileLayout& l, std::span<const int> perm) {
  if (perm.size() != l.shard.size())
    reshape_fail(fmt::format("permute_dims: the permutation has {} entries but the shard has {} iters", perm.size(),
                     l.shard.size()));
  std::vector<bool> used(perm.size(), false);
  TileLayout out;
  out.replica = l.replica;
  out.offset = l.offset;
  for (int p : perm) {
    if (p < 0 || static_cast<std::size_t>(p) >= perm.size() || used[static_cast<std::size_t>(p)])
      reshape_fail("permute_dims: the argument is not a permutation of the shard iter indices");
    used[static_cast<std::size_t>(p)] = true;
    out.shard.push_back(l.shard[static_cast<std::size_t>(p)]);
  }
  return out;
}

TileLayout permute_by_groups(const TileLayout& l, std::span<const std::size_t> seps, std::span<const int> perm) {
  if (seps.size() < 2 || seps.front() != 0 || seps.back() != l.shard.size() ||
      !std::is_sorted(seps.begin(), seps.end()))
    reshape_fail("permute_by_groups: separators must rise from 0 to the number of shard iters");
  const std::size_t groups = seps.size() - 1;
  if (perm.size() != groups)
    reshape_fail(fmt::format("permute_by_groups: the permutation has {} entries for {} groups", perm.size(), groups));
  std::vector<bool> used(groups, false);
  TileLayout out;
  out.replica = l.replica;
  out.offset = l.offset;
  for (int p : perm) {
    if (p < 0 || static_cast<std::size_t>(p) >= groups || used[static_cast<std::size_t>(p)])
      reshape_fail("permute_by_groups: the argument is not a permutation of the group indices");
    used[static_cast<std::size_t>(p)] = true;
    const auto g = static_cast<std::size_t>(p);
    out.shard.insert(out.shard.end(), l.shard.begin() + static_cast<std::ptrdiff_t>(seps[g]),
                     l.shard.begin() + static_cast<std::ptrdiff_t>(seps[g + 1]));
  }
  return out;
}

}  // namespace tirx
