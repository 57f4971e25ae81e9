// tirx_verify/render/svg.hpp — a Grid (grid.hpp) as plain SVG 1.1: no script, no external file.
//
// The DOM is built with pugixml, which escapes every text and attribute (a layout's text, a
// label, a witness); nothing here writes markup by hand. Layout of the picture:
//
//   title                                       (one line)
//         column numbers (every k-th)
//   rows  +--------------------------+  band labels (warp sub-partitions, swizzle periods)
//         | one <rect> per drawn cell |
//         | with a <title> to hover   |
//         +--------------------------+
//   notes (the finding's message, what the colours mean, the aggregation)
//
// Cells with entries are filled with their owner's colour (palette.hpp); empty cells show the
// grey background. Outline: red = a cell the witness names, red fill = a collision, blue = a
// --mark'ed element, dashed = only replica copies; hatched = outside the storage. A cell that
// is one full-resolution cell shows its labels (up to kMaxLabels lines, each cut to
// kMaxLabelChars); a block (aggregated grid) shows none, its <title> says what it holds.
//
// Size bound: one <rect> + <title> (<= ~400 bytes: labels are cut, the title lists at most
// kMaxLabels labels) per drawn cell with entries, at most max_rows x max_cols of them, plus
// O(rows + cols + bands + notes): with the CLI's 128 x 128 that is under 7 MB whatever the
// layout (measured: docs/render.md).
#pragma once

#include <string>

#include <pugixml.hpp>

#include "tirx_verify/render/grid.hpp"

namespace tirx::render {

inline constexpr std::size_t kMaxLabelChars = 14;

// Appends the picture as an <svg> element to `parent` (an XML document for a file, or an HTML
// element for an inline picture) and returns it.
pugi::xml_node append_svg(pugi::xml_node parent, const Grid& g);

// The picture as a standalone SVG file (XML declaration, the SVG namespace).
std::string svg_document(const Grid& g);

}  // namespace tirx::render
