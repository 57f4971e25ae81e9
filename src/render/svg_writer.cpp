#include "tirx_verify/render/svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "tirx_verify/render/palette.hpp"

namespace tirx::render {

namespace {

constexpr double kCharWidth = 6.6;  // px per character of the 11 px monospace labels
constexpr double kLineHeight = 12;

std::string cut(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 1) + "~";
}

std::string num(double v) { return fmt::format("{:.1f}", v); }

// Every k-th index gets a number, k a power of two such that numbers are >= `min_gap` px apart.
std::int64_t label_step(double cell_px, double min_gap) {
  std::int64_t k = 1;
  while (k * cell_px < min_gap) k *= 2;
  return k;
}

std::string flag_words(unsigned f) {
  std::string s;
  auto add = [&](unsigned bit, const char* w) {
    if (f & bit) s += std::string(s.empty() ? "" : ", ") + w;
  };
  add(kCollision, "COLLISION: two elements in one slot");
  add(kFinding, "named by the finding");
  add(kOutOfBounds, "OUT OF BOUNDS");
  add(kMarked, "marked");
  add(kReplica, "replica copies only");
  return s;
}

pugi::xml_node text(pugi::xml_node parent, double x, double y, const std::string& s, const char* cls) {
  pugi::xml_node t = parent.append_child("text");
  t.append_attribute("x") = num(x).c_str();
  t.append_attribute("y") = num(y).c_str();
  t.append_attribute("class") = cls;
  t.text() = s.c_str();
  return t;
}

pugi::xml_node rect(pugi::xml_node parent, double x, double y, double w, double h) {
  pugi::xml_node r = parent.append_child("rect");
  r.append_attribute("x") = num(x).c_str();
  r.append_attribute("y") = num(y).c_str();
  r.append_attribute("width") = num(w).c_str();
  r.append_attribute("height") = num(h).c_str();
  return r;
}

}  // namespace

pugi::xml_node append_svg(pugi::xml_node parent, const Grid& g) {
  // ---- geometry ----
  std::size_t label_chars = 1, lines = 1;
  if (!g.aggregated())
    for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
      for (std::int64_t c = 0; c < g.drawn_cols(); ++c) {
        const Cell& cell = g.drawn(r, c);
        lines = std::max(lines, cell.labels.size());
        for (const auto& l : cell.labels) label_chars = std::max(label_chars, std::min(l.size(), kMaxLabelChars));
      }
  const bool show_labels = !g.aggregated();
  const double cw = show_labels ? std::max(20.0, label_chars * kCharWidth + 6) : std::clamp(1400.0 / g.drawn_cols(), 5.0, 14.0);
  const double ch = show_labels ? lines * kLineHeight + 5 : std::clamp(1000.0 / g.drawn_rows(), 5.0, 14.0);
  std::size_t row_chars = g.row_axis.size();
  for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
    row_chars = std::max(row_chars, g.row_name(g.row0() + r * g.block_rows()).size());
  const std::string row_axis_text = g.row_axis + (g.block_rows() > 1 ? fmt::format(" (x{})", g.block_rows()) : "");
  const double left = 12 + std::max(row_chars, row_axis_text.size() + 1) * kCharWidth;
  const double sub = g.subtitle.empty() ? 0 : 16;  // the subtitle's line
  const double top = 52 + sub;
  const double gw = cw * g.drawn_cols(), gh = ch * g.drawn_rows();
  std::size_t band_chars = 0;
  for (const Band& b : g.row_bands) band_chars = std::max(band_chars, b.label.size());
  const double right = 16 + band_chars * kCharWidth;
  std::vector<std::string> notes = g.notes;
  for (const Band& b : g.col_bands)
    if (b.kind == Band::kShade && !b.label.empty())
      notes.push_back(fmt::format("hatched columns {}..{}: {}", b.begin, b.end - 1, b.label));
  const double legend_h = g.legend.empty() ? 0 : 22;
  const double notes_h = 8 + notes.size() * 15.0 + legend_h;
  double width = left + gw + right;
  for (const auto& n : notes) width = std::max(width, 24 + n.size() * kCharWidth);
  width = std::max(width, 16 + g.title.size() * 7.4);
  width = std::max(width, 16 + g.subtitle.size() * kCharWidth);
  const double height = top + gh + notes_h + 10;

  pugi::xml_node svg = parent.append_child("svg");
  svg.append_attribute("xmlns") = "http://www.w3.org/2000/svg";
  svg.append_attribute("version") = "1.1";
  svg.append_attribute("width") = num(width).c_str();
  svg.append_attribute("height") = num(height).c_str();
  svg.append_attribute("viewBox") = fmt::format("0 0 {} {}", num(width), num(height)).c_str();
  svg.append_child("title").text() = g.title.c_str();
  pugi::xml_node style = svg.append_child("style");
  style.append_attribute("type") = "text/css";
  style.text() = fmt::format(
                     "text{{font-family:monospace;font-size:11px;fill:#111}}"
                     ".h{{font-size:13px;font-weight:bold}}.n{{fill:#333}}.ax{{fill:#555;font-size:10px}}"
                     ".l{{font-size:11px}}.b{{fill:#333;font-size:11px}}.s{{fill:{0};font-weight:bold}}"
                     ".f{{stroke:{0};stroke-width:3}}.x{{fill:{1}}}.k{{stroke:{2};stroke-width:2}}"
                     ".r{{stroke:#444;stroke-width:1;stroke-dasharray:3,2}}",
                     kFindingStroke, kCollisionFill, kMarkedStroke)
                     .c_str();
  pugi::xml_node defs = svg.append_child("defs");
  pugi::xml_node pat = defs.append_child("pattern");
  pat.append_attribute("id") = "hatch";
  pat.append_attribute("width") = "6";
  pat.append_attribute("height") = "6";
  pat.append_attribute("patternUnits") = "userSpaceOnUse";
  pugi::xml_node hp = pat.append_child("path");
  hp.append_attribute("d") = "M0,6 L6,0";
  hp.append_attribute("stroke") = std::string(kShadeFill).c_str();
  hp.append_attribute("stroke-width") = "1.5";

  text(svg, 8, 18, g.title, "h");
  if (!g.subtitle.empty()) text(svg, 8, 34, g.subtitle, "s");
  text(svg, left, 34 + sub, g.col_axis + (g.block_cols() > 1 ? fmt::format(" (blocks of {})", g.block_cols()) : ""), "ax");
  text(svg, 4, 34 + sub, row_axis_text, "ax");
  // Column and row numbers.
  const std::int64_t cs = label_step(cw, 10 + 6.6 * std::to_string(g.col0() + g.cols()).size());
  for (std::int64_t c = 0; c < g.drawn_cols(); c += cs)
    text(svg, left + c * cw + 1, top - 4, std::to_string(g.col0() + c * g.block_cols()), "ax");
  const std::int64_t rs = label_step(ch, 12);
  for (std::int64_t r = 0; r < g.drawn_rows(); r += rs)
    text(svg, 4, top + r * ch + std::min(ch, 12.0) - 2, g.row_name(g.row0() + r * g.block_rows()), "ax");

  rect(svg, left, top, gw, gh).append_attribute("fill") = std::string(kEmptyFill).c_str();
  // ---- cells ----
  pugi::xml_node cells = svg.append_child("g");
  const double inset = std::min(0.5, cw / 10);
  for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
    for (std::int64_t c = 0; c < g.drawn_cols(); ++c) {
      const Cell& cell = g.drawn(r, c);
      if (cell.entries == 0) continue;
      const double x = left + c * cw, y = top + r * ch;
      pugi::xml_node e = rect(cells, x + inset, y + inset, cw - 2 * inset, ch - 2 * inset);
      std::string cls;
      if (cell.flags & kCollision) cls += " x";
      if (cell.flags & kFinding) cls += " f";
      else if (cell.flags & kMarked) cls += " k";
      else if (cell.flags & kReplica) cls += " r";
      e.append_attribute("fill") =
          (cell.flags & kOutOfBounds) ? "url(#hatch)" : std::string(cell.flags & kCollision ? kCollisionFill : owner_fill(cell.owner)).c_str();
      if (!cls.empty()) e.append_attribute("class") = cls.substr(1).c_str();
      std::string tip = g.where(r, c) + fmt::format(": {} entr{}", cell.entries, cell.entries == 1 ? "y" : "ies");
      for (const auto& l : cell.labels) tip += "\n  " + l;
      if (cell.entries > static_cast<std::int64_t>(cell.labels.size())) tip += "\n  ...";
      if (cell.mixed_owner) tip += "\nowners differ within the cell";
      if (const std::string w = flag_words(cell.flags); !w.empty()) tip += "\n" + w;
      e.append_child("title").text() = tip.c_str();
      if (show_labels)
        for (std::size_t i = 0; i < cell.labels.size(); ++i)
          text(cells, x + 3, y + kLineHeight * (i + 1), cut(cell.labels[i], kMaxLabelChars), "l");
    }
  // ---- bands ----
  auto row_y = [&](std::int64_t row) { return top + static_cast<double>(row - g.row0()) / g.block_rows() * ch; };
  auto col_x = [&](std::int64_t col) { return left + static_cast<double>(col - g.col0()) / g.block_cols() * cw; };
  auto line = [&](double x1, double y1, double x2, double y2, const char* stroke, double w, bool dashed) {
    pugi::xml_node l = svg.append_child("line");
    l.append_attribute("x1") = num(x1).c_str();
    l.append_attribute("y1") = num(y1).c_str();
    l.append_attribute("x2") = num(x2).c_str();
    l.append_attribute("y2") = num(y2).c_str();
    l.append_attribute("stroke") = stroke;
    l.append_attribute("stroke-width") = num(w).c_str();
    if (dashed) l.append_attribute("stroke-dasharray") = "4,3";
  };
  auto clamp_row = [&](std::int64_t v) { return std::clamp(v, g.row0(), g.row0() + g.rows()); };
  auto clamp_col = [&](std::int64_t v) { return std::clamp(v, g.col0(), g.col0() + g.cols()); };
  for (const Band& b : g.row_bands) {
    const double y0 = row_y(clamp_row(b.begin)), y1 = row_y(clamp_row(b.end));
    if (b.kind == Band::kShade) {
      rect(svg, left, y0, gw, y1 - y0).append_attribute("fill") = "url(#hatch)";
    } else if (b.begin > g.row0()) {
      line(left, y0, left + gw, y0, b.kind == Band::kMajor ? "#222" : "#666", b.kind == Band::kMajor ? 1.6 : 0.8,
           b.kind == Band::kMinor);
    }
    if (!b.label.empty() && b.begin < g.row0() + g.rows() && b.end > g.row0())
      text(svg, left + gw + 6, y0 + 11, b.label, "b");
  }
  for (const Band& b : g.col_bands) {
    const double x0 = col_x(clamp_col(b.begin)), x1 = col_x(clamp_col(b.end));
    if (b.kind == Band::kShade) {
      pugi::xml_node s = rect(svg, x0, top, x1 - x0, gh);
      s.append_attribute("fill") = "url(#hatch)";
      s.append_child("title").text() = b.label.c_str();
    } else if (b.begin > g.col0() && b.begin < g.col0() + g.cols()) {
      line(x0, top, x0, top + gh, b.kind == Band::kMajor ? "#222" : "#888", b.kind == Band::kMajor ? 1.6 : 0.6,
           false);
    }
  }
  pugi::xml_node frame = rect(svg, left, top, gw, gh);
  frame.append_attribute("fill") = "none";
  frame.append_attribute("stroke") = "#222";
  // ---- notes and the colour legend ----
  for (std::size_t i = 0; i < notes.size(); ++i) text(svg, 8, top + gh + 20 + 15.0 * i, notes[i], "n");
  double lx = 8;
  const double ly = top + gh + 12 + 15.0 * notes.size();
  for (const auto& [owner, name] : g.legend) {
    pugi::xml_node sw = rect(svg, lx, ly, 14, 14);
    sw.append_attribute("fill") = std::string(owner_fill(owner)).c_str();
    sw.append_attribute("stroke") = "#666";
    text(svg, lx + 18, ly + 11, name, "n");
    lx += 30 + name.size() * kCharWidth;
  }
  width = std::max(width, lx + 8);
  svg.attribute("width") = num(width).c_str();
  svg.attribute("viewBox") = fmt::format("0 0 {} {}", num(width), num(height)).c_str();
  return svg;
}

std::string svg_document(const Grid& g) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  append_svg(doc, g);
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);
  out << "\n";
  return out.str();
}

}  // namespace tirx::render
