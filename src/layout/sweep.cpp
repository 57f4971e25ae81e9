#include "tirx_verify/layout/sweep.hpp"

#include "tirx_verify/layout/checked.hpp"

namespace tirx {

Sweep::Sweep(const TileLayout& l, bool include_replicas, bool exclude_declared_broadcast) {
  l.validate();
  std::uint32_t mask = 0;
  for (const Iter& it : l.shard) mask |= 1u << it.axis.index();
  if (include_replicas)
    for (const Iter& it : l.replica) mask |= 1u << it.axis.index();
  for (const auto& e : l.offset.entries()) mask |= 1u << e.axis.index();
  for (const auto& info : axis_registry())
    if ((mask >> static_cast<int>(info.id)) & 1u) {
      slot_[static_cast<int>(info.id)] = static_cast<int>(axes_.size());
      axes_.push_back(info.id);
    }
  base_.assign(axes_.size(), 0);
  for (const auto& e : l.offset.entries()) base_[slot_[e.axis.index()]] = e.value;
  min_ = base_;
  max_ = base_;
  auto extend = [&](const Iter& it) {
    const std::int64_t reach = checked_mul(it.extent - 1, it.stride, "coordinate range");
    const int s = slot_[it.axis.index()];
    if (reach >= 0)
      max_[s] = checked_add(max_[s], reach, "coordinate range");
    else
      min_[s] = checked_add(min_[s], reach, "coordinate range");
  };
  // flat weights: product of extents of the iters inside
  std::vector<std::int64_t> weight(l.shard.size(), 1);
  for (std::size_t k = l.shard.size(); k-- > 1;) weight[k - 1] = checked_mul(weight[k], l.shard[k].extent, "size");
  elements_ = l.size();
  std::int64_t visited = 1;
  for (std::size_t k = 0; k < l.shard.size(); ++k) {
    const Iter& it = l.shard[k];
    if (exclude_declared_broadcast && it.is_declared_broadcast()) continue;  // digit fixed at 0
    extend(it);
    if (it.extent > 1)
      dims_.push_back(Step{slot_[it.axis.index()], it.extent, it.stride, weight[k],
                           checked_mul(it.extent - 1, it.stride, "coordinate range"), 0});
    visited = checked_mul(visited, it.extent, "sweep size");
  }
  if (include_replicas) {
    for (const Iter& it : l.replica) {
      extend(it);
      replicas_ = checked_mul(replicas_, it.extent, "replica count");
    }
    // The replica ordinal: last replica iter fastest.
    std::int64_t rw = 1;
    std::vector<Step> reps;
    for (std::size_t k = l.replica.size(); k-- > 0;) {
      const Iter& it = l.replica[k];
      if (it.extent > 1)
        reps.push_back(Step{slot_[it.axis.index()], it.extent, it.stride, 0,
                            checked_mul(it.extent - 1, it.stride, "coordinate range"), rw});
      rw *= it.extent;  // <= replicas_, checked above
    }
    dims_.insert(dims_.end(), reps.rbegin(), reps.rend());
  }
  points_ = checked_mul(visited, replicas_, "sweep size");
}

}  // namespace tirx
