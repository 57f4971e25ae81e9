// Buffer regions (region.hpp): parsing, binding to a shape, element order.
#include "tirx_verify/kernel/region.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

namespace {

[[noreturn]] void region_error(std::string_view text, std::size_t pos, const std::string& what) {
  throw InputError("model.schema", fmt::format("region '{}': {}", text, what), std::string(text), pos,
                   "a region is NAME or NAME[i, lo:hi, :, ...] with integer literals (docs/model-format.md)");
}

class Cursor {
 public:
  explicit Cursor(std::string_view t) : t_(t) {}
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  char peek() {
    ws();
    return i_ < t_.size() ? t_[i_] : '\0';
  }
  std::size_t pos() const { return i_; }
  bool at_end() {
    ws();
    return i_ >= t_.size();
  }
  std::optional<std::int64_t> integer() {
    ws();
    const std::size_t start = i_;
    bool neg = false;
    if (i_ < t_.size() && t_[i_] == '-') {
      neg = true;
      ++i_;
    }
    if (i_ >= t_.size() || !std::isdigit(static_cast<unsigned char>(t_[i_]))) {
      i_ = start;
      return std::nullopt;
    }
    std::int64_t v = 0;
    while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) {
      const std::int64_t d = t_[i_] - '0';
      if (v > (INT64_MAX - d) / 10) region_error(t_, start, "index does not fit int64");
      v = v * 10 + d;
      ++i_;
    }
    return neg ? -v : v;
  }
  std::string name() {
    ws();
    const std::size_t start = i_;
    while (i_ < t_.size() && t_[i_] != '[' && t_[i_] != ' ' && t_[i_] != '\t') ++i_;
    return std::string(t_.substr(start, i_ - start));
  }

 private:
  std::string_view t_;
  std::size_t i_ = 0;
};

constexpr std::int64_t kOpen = -1;  // an open bound before binding

}  // namespace

std::int64_t Region::size() const {
  std::int64_t n = 1;
  for (const auto& d : dims) n = checked_mul(n, d.hi - d.lo);
  return n;
}

std::vector<std::int64_t> Region::kept_shape() const {
  std::vector<std::int64_t> out;
  for (const auto& d : dims)
    if (!d.point) out.push_back(d.hi - d.lo);
  return out;
}

std::vector<std::int64_t> Region::coord(std::int64_t i) const {
  std::vector<std::int64_t> c(dims.size());
  for (std::size_t k = dims.size(); k-- > 0;) {
    const std::int64_t ext = dims[k].hi - dims[k].lo;
    c[k] = dims[k].lo + i % ext;
    i /= ext;
  }
  return c;
}

std::optional<std::int64_t> Region::index_of(const std::vector<std::int64_t>& c) const {
  if (c.size() != dims.size()) return std::nullopt;
  std::int64_t i = 0;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (c[k] < dims[k].lo || c[k] >= dims[k].hi) return std::nullopt;
    i = i * (dims[k].hi - dims[k].lo) + (c[k] - dims[k].lo);
  }
  return i;
}

Region parse_region(std::string_view text) {
  Region r;
  r.text = std::string(text);
  Cursor c(text);
  r.buffer = c.name();
  if (r.buffer.empty()) region_error(text, c.pos(), "expected a buffer name");
  if (c.at_end()) return r;
  if (!c.eat('[')) region_error(text, c.pos(), "expected '[' after the buffer name");
  while (true) {
    RegionDim d;
    const std::size_t start = c.pos();
    auto lo = c.integer();
    if (c.eat(':')) {
      auto hi = c.integer();
      d.lo = lo.value_or(0);
      d.hi = hi.value_or(kOpen);
    } else {
      if (!lo) region_error(text, start, "expected an index, lo:hi or ':'");
      d.lo = *lo;
      d.hi = *lo + 1;
      d.point = true;
      if (*lo < 0) region_error(text, start, "negative index");
    }
    if (d.lo < 0) region_error(text, start, "negative bound");
    r.dims.push_back(d);
    if (c.eat(',')) continue;
    if (c.eat(']')) break;
    region_error(text, c.pos(), "expected ',' or ']'");
  }
  if (!c.at_end()) region_error(text, c.pos(), "unexpected text after ']'");
  return r;
}

void bind_region(Region& r, const std::vector<std::int64_t>& shape, bool past_allowed) {
  if (r.dims.empty()) {
    for (auto e : shape) r.dims.push_back({0, e, false});
    return;
  }
  if (r.dims.size() != shape.size())
    throw InputError("model.schema",
                     fmt::format("region '{}' has {} indices but buffer '{}' has {} dimensions", r.text, r.dims.size(),
                                 r.buffer, shape.size()));
  for (std::size_t k = 0; k < shape.size(); ++k) {
    RegionDim& d = r.dims[k];
    if (d.hi == kOpen) d.hi = shape[k];
    if (d.lo >= d.hi || (!past_allowed && d.hi > shape[k]))
      throw InputError("model.schema",
                       fmt::format("region '{}': dimension {} selects [{}, {}) outside [0, {}) of buffer '{}'", r.text, k,
                                   d.lo, d.hi, shape[k], r.buffer));
    if (past_allowed && d.hi - d.lo > kMaxPastExtent)
      throw InputError("model.schema",
                       fmt::format("region '{}': dimension {} selects [{}, {}), more than {} elements", r.text, k, d.lo,
                                   d.hi, kMaxPastExtent));
  }
  if (past_allowed) {  // past the shape the buffer no longer bounds the element count
    std::int64_t n = 1;
    for (const RegionDim& d : r.dims)
      if (__builtin_mul_overflow(n, d.hi - d.lo, &n))
        throw InputError("model.schema", fmt::format("region '{}' selects more elements than int64 holds", r.text));
  }
}

bool region_inside(const Region& r, const std::vector<std::int64_t>& shape) {
  for (std::size_t k = 0; k < r.dims.size() && k < shape.size(); ++k)
    if (r.dims[k].hi > shape[k]) return false;
  return true;
}

std::optional<Region> clip_region(const Region& r, const std::vector<std::int64_t>& shape) {
  Region c = r;
  for (std::size_t k = 0; k < c.dims.size() && k < shape.size(); ++k) {
    RegionDim& d = c.dims[k];
    if (d.lo >= shape[k]) return std::nullopt;
    d.hi = std::min(d.hi, shape[k]);
  }
  std::string text = c.buffer + "[";
  for (std::size_t k = 0; k < c.dims.size(); ++k) {
    const RegionDim& d = c.dims[k];
    text += (k ? ", " : "") + (d.point ? std::to_string(d.lo) : fmt::format("{}:{}", d.lo, d.hi));
  }
  c.text = text + "]";
  return c;
}

}  // namespace tirx::kernel
