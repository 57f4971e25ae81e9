// tirx_verify/render/palette.hpp — the colours of the pictures: a fixed table, no colour maths.
//
// Owners (a thread, a warp, a logical row, ...) take the palette's twelve fills in turn
// (owner % 12). The fills are light so that black labels stay readable on them; none is red
// or grey, which mark findings, collisions and cells outside the storage. The table is this
// project's own choice (no library in the dependency set offers a categorical palette; the
// colours were picked to be distinct from their neighbours in the table).
#pragma once

#include <string_view>

namespace tirx::render {

inline constexpr int kPaletteSize = 12;

// Fill of owner `owner` ("#rrggbb"); owner < 0 (no owner) is white.
std::string_view owner_fill(int owner);

// Fixed colours of the marks (SVG writer and HTML page).
inline constexpr std::string_view kFindingStroke = "#c00018";  // the witness's elements, collisions
inline constexpr std::string_view kCollisionFill = "#f4a3a3";  // two elements in one storage slot
inline constexpr std::string_view kMarkedStroke = "#1646c8";   // --mark
inline constexpr std::string_view kEmptyFill = "#f3f3f3";      // the grid background (no entry)
inline constexpr std::string_view kShadeFill = "#9a9a9a";      // hatching: outside the storage

}  // namespace tirx::render
