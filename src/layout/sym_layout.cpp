// SymLayout (tirx_verify/layout/symbolic.hpp): one binding's concrete layout, the parameters
// used, and the builder-form text.
#include <fmt/format.h>

#include <set>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/symbolic.hpp"

namespace tirx {

namespace {

std::vector<Iter> instantiate_iters(const std::vector<SymIter>& iters, const Env& env, const char* which) {
  std::vector<Iter> out;
  out.reserve(iters.size());
  for (std::size_t k = 0; k < iters.size(); ++k) {
    Iter it;
    it.extent = iters[k].extent.eval(env);
    it.stride = iters[k].stride.eval(env);
    it.axis = iters[k].axis;
    if (it.extent < 1)
      throw InputError("layout.well-formed",
                       fmt::format("{} iter {}: extent {} = {} is not allowed (extents must be >= 1)", which, k,
                                   iters[k].extent.str(), it.extent));
    out.push_back(it);
  }
  return out;
}

}  // namespace

Layout SymLayout::instantiate(const Env& env) const {
  OffsetMap off;
  for (const auto& [a, v] : offset) off.add(a, v.eval(env));
  TileLayout t(instantiate_iters(shard, env, "shard"), instantiate_iters(replica, env, "replica"), std::move(off));
  if (!swizzle) {
    t.validate();
    return t;
  }
  ComposeLayout c(*swizzle, std::move(t));
  c.validate();
  return c;
}

std::vector<std::string> SymLayout::params() const {
  std::set<std::string> out;
  auto take = [&](const SymExpr& e) {
    for (auto& p : e.params()) out.insert(p);
  };
  for (const auto* list : {&shard, &replica})
    for (const SymIter& it : *list) {
      take(it.extent);
      take(it.stride);
    }
  for (const auto& [a, v] : offset) take(v);
  return {out.begin(), out.end()};
}

namespace {

std::string iters_text(const char* which, const std::vector<SymIter>& iters) {
  std::string ext, st;
  for (std::size_t k = 0; k < iters.size(); ++k) {
    ext += (k ? ", " : "") + iters[k].extent.str();
    const std::string s = iters[k].stride.str();
    const bool simple = iters[k].stride.is_const() || iters[k].stride.op() == SymExpr::Op::kParam;
    st += (k ? ", " : "") + (iters[k].axis == Axis(AxisId::m) ? s : fmt::format("{}@{}", simple ? s : "(" + s + ")", iters[k].axis.name()));
  }
  if (iters.size() == 1) return fmt::format("{}[{}:{}]", which, ext, st);
  return fmt::format("{}[({}):({})]", which, ext, st);
}

}  // namespace

std::string SymLayout::str() const {
  std::string s = iters_text("S", shard);
  if (!replica.empty()) s += " + " + iters_text("R", replica);
  for (const auto& [a, v] : offset) {
    const bool simple = v.is_const() || v.op() == SymExpr::Op::kParam;
    s += fmt::format(" + {}@{}", simple ? v.str() : "(" + v.str() + ")", a.name());
  }
  if (swizzle)
    s = fmt::format("ComposeLayout({}, {}, {}, {}{})", swizzle->per_element, swizzle->swizzle_len, swizzle->atom_len,
                    s, swizzle->swizzle_inner ? "" : ", swizzle_inner=False");
  return s;
}

}  // namespace tirx
