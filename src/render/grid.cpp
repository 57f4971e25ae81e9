#include "tirx_verify/render/grid.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace tirx::render {

namespace {
// ceil(n / b) for n, b >= 1, without forming n + b - 1 (n may be close to 2^63).
std::int64_t ceil_div(std::int64_t n, std::int64_t b) { return n / b + (n % b != 0); }

// Smallest power of two b with ceil(n / b) <= max (b <= 2^62: n < 2^63 and max >= 1).
std::int64_t block_for(std::int64_t n, std::int64_t max) {
  std::int64_t b = 1;
  while (ceil_div(n, b) > max) b *= 2;
  return b;
}
}  // namespace

void Grid::init(std::int64_t rows, std::int64_t cols, std::int64_t row0, std::int64_t col0, std::int64_t max_rows,
                std::int64_t max_cols) {
  if (rows < 1 || cols < 1 || max_rows < 1 || max_cols < 1)
    throw std::invalid_argument("Grid::init: sizes and maxima must be positive");
  rows_ = rows, cols_ = cols, row0_ = row0, col0_ = col0;
  block_rows_ = block_for(rows, max_rows);
  block_cols_ = block_for(cols, max_cols);
  drawn_rows_ = ceil_div(rows, block_rows_);
  drawn_cols_ = ceil_div(cols, block_cols_);
  cells_.assign(static_cast<std::size_t>(drawn_rows_ * drawn_cols_), Cell{});
}

std::string Grid::row_name(std::int64_t row) const {
  const std::int64_t i = row - row0_;
  if (i >= 0 && i < static_cast<std::int64_t>(row_names.size())) return row_names[static_cast<std::size_t>(i)];
  return std::to_string(row);
}

std::string Grid::where(std::int64_t r, std::int64_t c) const {
  const std::int64_t r_lo = row0_ + r * block_rows_, c_lo = col0_ + c * block_cols_;
  const std::int64_t r_hi = r_lo + std::min(block_rows_, rows_ - r * block_rows_) - 1;  // never past row0 + rows
  const std::int64_t c_hi = c_lo + std::min(block_cols_, cols_ - c * block_cols_) - 1;
  auto range = [](std::int64_t lo, std::int64_t hi) {
    return lo == hi ? std::to_string(lo) : fmt::format("{}..{}", lo, hi);
  };
  const std::string rows = row_names.empty() ? range(r_lo, r_hi)
                           : r_lo == r_hi    ? row_name(r_lo)
                                             : row_name(r_lo) + " .. " + row_name(r_hi);
  return fmt::format("{} {}, {} {}", row_axis, rows, col_axis, range(c_lo, c_hi));
}

Occupancy::Occupancy(const Grid& g, int slots) : row0_(g.row0()), col0_(g.col0()), cols_(g.cols()), slots_(slots) {
  // rows * cols * slots without overflow: each factor is below 2^62 and the bound is tested
  // factor by factor.
  if (slots < 1 || g.rows() > kMaxOccupancy || g.cols() > kMaxOccupancy) return;
  if (g.rows() * g.cols() > kMaxOccupancy / slots) return;
  first_.assign(static_cast<std::size_t>(g.rows() * g.cols() * slots), -1);
}

bool Occupancy::record(std::int64_t row, std::int64_t col, int slot, std::int64_t flat) {
  if (first_.empty()) return false;
  std::int64_t& f = first_[static_cast<std::size_t>(((row - row0_) * cols_ + (col - col0_)) * slots_ + slot)];
  if (f < 0) {
    f = flat;
    return false;
  }
  return f != flat;
}

}  // namespace tirx::render
