#include "tirx_verify/render/text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::render {

namespace {

char mark_of(const Cell& c) {
  if (c.flags & kCollision) return '!';
  if (c.flags & kFinding) return 'X';
  if (c.flags & kOutOfBounds) return '#';
  if (c.flags & kMarked) return '*';
  if (c.flags & kReplica) return '~';
  return ' ';
}

std::string content(const Cell& c) {
  if (c.entries == 0) return ".";
  std::string s = c.labels.front();
  if (c.entries > 1) s += fmt::format("+{}", c.entries - 1);
  std::string out = mark_of(c) == ' ' ? s : std::string(1, mark_of(c)) + s;
  if (out.size() > kMaxTextCell) out = out.substr(0, kMaxTextCell - 1) + "~";
  return out;
}

}  // namespace

std::string render_text(const Grid& g) {
  auto too_big = [&](const std::string& why) {
    throw InputError("render.size",
                     fmt::format("the picture has {} x {} cells ({} {} x {} {}); {}", g.rows(), g.cols(), g.rows(),
                                 g.row_axis, g.cols(), g.col_axis, why),
                     "", std::nullopt, "write an SVG instead: -o FILE.svg (large grids are drawn as blocks)");
  };
  if (g.aggregated() || g.rows() > kMaxTextRows)
    too_big(fmt::format("--format text shows at most {} rows and {}-character lines", kMaxTextRows, kMaxTextWidth));
  std::size_t w = 1;
  for (std::int64_t r = 0; r < g.rows(); ++r)
    for (std::int64_t c = 0; c < g.cols(); ++c) w = std::max(w, content(g.drawn(r, c)).size());
  for (std::int64_t c = 0; c < g.cols(); ++c) w = std::max(w, std::to_string(g.col0() + c).size());
  std::size_t rw = g.row_axis.size();
  for (std::int64_t r = 0; r < g.rows(); ++r) rw = std::max(rw, g.row_name(g.row0() + r).size());
  const std::size_t line_width = rw + 3 + g.cols() * (w + 1);
  if (line_width > static_cast<std::size_t>(kMaxTextWidth))
    too_big(fmt::format("a line would be {} characters, more than {}", line_width, kMaxTextWidth));
  std::string out = g.title + "\n";
  out += fmt::format("{:>{}} |", g.row_axis, rw);
  for (std::int64_t c = 0; c < g.cols(); ++c) out += fmt::format(" {:>{}}", g.col0() + c, w);
  out += "   " + g.col_axis + "\n";
  const std::string rule(line_width, '-');
  for (std::int64_t r = 0; r < g.rows(); ++r) {
    const std::int64_t row = g.row0() + r;
    for (const Band& b : g.row_bands)
      if (b.begin == row && b.kind != Band::kMinor)
        out += rule.substr(0, std::min(rule.size(), static_cast<std::size_t>(rw + 2))) + " " + b.label + "\n";
    out += fmt::format("{:>{}} |", g.row_name(row), rw);
    for (std::int64_t c = 0; c < g.cols(); ++c) out += fmt::format(" {:>{}}", content(g.drawn(r, c)), w);
    out += "\n";
  }
  for (const Band& b : g.col_bands)
    if (b.kind == Band::kShade && !b.label.empty()) out += fmt::format("columns {}..{}: {}\n", b.begin, b.end - 1, b.label);
  for (const auto& n : g.notes) out += n + "\n";
  out += "marks: ! collision, X named by the finding, # outside the storage, * --mark, ~ replica copies only, . empty\n";
  return out;
}

}  // namespace tirx::render
