#include "tirx_verify/render/palette.hpp"

#include <array>

namespace tirx::render {

namespace {
// Light blue, peach, light green, lavender, light yellow, aqua, pink, pale olive, light orange,
// periwinkle, tan, pale cyan.
constexpr std::array<std::string_view, kPaletteSize> kFills = {
    "#9ecae9", "#fdd49e", "#b5e2b0", "#d4b9f0", "#fff59d", "#a7e3dc",
    "#f5c2d8", "#d5e39a", "#ffcc80", "#b3c7f7", "#e6d3b3", "#c5e8f7",
};
}  // namespace

std::string_view owner_fill(int owner) {
  if (owner < 0) return "#ffffff";
  return kFills[static_cast<std::size_t>(owner % kPaletteSize)];
}

}  // namespace tirx::render
