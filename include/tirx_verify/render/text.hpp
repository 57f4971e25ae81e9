// tirx_verify/render/text.hpp — a Grid (grid.hpp) as a table for the terminal (like CuTe's
// print_layout): one line per row, one column per cell, bands as separator lines.
//
//   S[(8,16):(16,1)]  (logical view, shape (8,16))
//   row |  0  1  2 ...   col
//     0 | m0 m1 m2 ...
//
// A cell shows its first label and "+N" for N more entries (the SVG's hover title lists them),
// cut to kMaxTextCell characters, and a mark in front:
// '!' collision, 'X' named by the finding, '#' outside the storage, '*' --mark'ed,
// '~' replica copies only; '.' is an empty cell.
#pragma once

#include <cstdint>
#include <string>

#include "tirx_verify/render/grid.hpp"

namespace tirx::render {

inline constexpr std::size_t kMaxTextCell = 16;     // characters of one cell
inline constexpr std::int64_t kMaxTextRows = 512;   // rows a terminal table may have
inline constexpr std::int64_t kMaxTextWidth = 320;  // characters of one line

// The table. Throws InputError("render.size") naming the grid's size when it is aggregated or a
// line would pass kMaxTextWidth or the rows kMaxTextRows ("write an SVG instead").
std::string render_text(const Grid& g);

}  // namespace tirx::render
