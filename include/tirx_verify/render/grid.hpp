// tirx_verify/render/grid.hpp — the picture model: a 2-D grid of cells, before any output format.
//
// Every picture tirx-verify draws (render/views.hpp) is one Grid: rows x columns of cells at
// full resolution (a logical element, a TMEM cell, a 4-byte shared-memory word, a register
// slot), each holding the *entries* placed in it (one per (element, replica) point), plus
// bands that mark row or column ranges (a warp's 32-lane sub-partition, a swizzle period, the
// columns past the allocation) and notes (the finding's message). The writers (svg.hpp,
// text.hpp) only lay the grid out; they never look at a layout.
//
// Aggregation keeps a picture bounded. A grid is drawn with at most max_rows x max_cols cells;
// a larger one is cut into blocks of block_rows x block_cols full-resolution cells (each a power
// of two, the smallest that fits, so that block edges stay on the 16- and 32-lane boundaries
// of TMEM and on bank boundaries), and each drawn cell is one block: it counts its entries,
// keeps the first kMaxLabels labels and ORs its entries' flags.
//
//   full grid 128 x 512 (TMEM, float32), max 128 x 128  ->  blocks 1 x 4, drawn 128 x 128
//   full grid 256 x 256 (2^16 elements),  max 128 x 128  ->  blocks 2 x 2, drawn 128 x 128
//
// Memory: one Cell per drawn cell (at most max_rows * max_cols), whatever the layout's size.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tirx::render {

// What an entry or a cell is (bits, OR-ed over a block).
enum CellFlag : unsigned {
  kReplica = 1u << 0,      // a replica copy (replica index > 0), not the element's base image
  kCollision = 1u << 1,    // the cell holds two different logical elements at one storage slot
  kOutOfBounds = 1u << 2,  // the cell lies outside the storage it should be in (lane >= 128, past the allocation)
  kMarked = 1u << 3,       // an element the user asked to see (--mark)
  kFinding = 1u << 4,      // an element or thread named by the finding's witness
};

// Most labels a cell keeps (the SVG shows them, the hover title lists them).
inline constexpr std::size_t kMaxLabels = 3;
// Most owners a legend lists (one palette's worth: past it colours repeat).
inline constexpr std::size_t kMaxLegend = 12;

struct Cell {
  std::int64_t entries = 0;  // points placed in the cell (or block)
  std::vector<std::string> labels;  // the first kMaxLabels entries' labels, in placement order
  int owner = -1;            // colour key of the first entry (-1: none)
  bool mixed_owner = false;  // a later entry had another owner
  // The entries' flags: kReplica only when every entry is a replica copy, the others when any
  // entry has them.
  unsigned flags = 0;
};

// A range of full-resolution rows or columns [begin, end) with a meaning.
struct Band {
  enum Kind { kMajor, kMinor, kShade };  // a labelled boundary line, a thin line, a shaded range
  std::int64_t begin = 0, end = 0;
  std::string label;
  Kind kind = kMajor;
};

class Grid {
 public:
  std::string title;            // one line: what is drawn
  std::string subtitle;         // one line under it, in the finding's colour (a finding's message); may be empty
  std::string row_axis, col_axis;  // "TLane", "TCol (elements)", "thread", ...
  std::string owner_kind;       // what the colours mean ("thread", "logical row", ...)
  std::vector<std::string> notes;  // legend lines under the picture
  // Colour swatches: (owner, its name), when the picture has at most kMaxLegend owners.
  std::vector<std::pair<int, std::string>> legend;
  std::vector<Band> row_bands, col_bands;
  // Names of the full-resolution rows when they are not numbers (a bank-conflict picture's rows
  // are the 128-byte lines the warp touches); empty: rows are numbered from row0.
  std::vector<std::string> row_names;

  // Sets the full-resolution size (rows x cols, the first row/column numbered row0/col0) and
  // chooses the block size so that at most max_rows x max_cols cells are drawn. Throws
  // std::invalid_argument for a non-positive size or maximum.
  void init(std::int64_t rows, std::int64_t cols, std::int64_t row0, std::int64_t col0, std::int64_t max_rows,
            std::int64_t max_cols);

  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  std::int64_t row0() const { return row0_; }
  std::int64_t col0() const { return col0_; }
  std::int64_t block_rows() const { return block_rows_; }
  std::int64_t block_cols() const { return block_cols_; }
  bool aggregated() const { return block_rows_ > 1 || block_cols_ > 1; }
  std::int64_t drawn_rows() const { return drawn_rows_; }
  std::int64_t drawn_cols() const { return drawn_cols_; }
  bool contains(std::int64_t row, std::int64_t col) const {
    return row >= row0_ && row < row0_ + rows_ && col >= col0_ && col < col0_ + cols_;
  }

  // The drawn cell holding full-resolution cell (row, col) (numbered from row0/col0; must be
  // contained) and the drawn cell (r, c) directly.
  Cell& at(std::int64_t row, std::int64_t col) { return cells_[index(row, col)]; }
  const Cell& drawn(std::int64_t r, std::int64_t c) const {
    return cells_[static_cast<std::size_t>(r * drawn_cols_ + c)];
  }

  // Places one entry; `label()` is called only while the cell keeps fewer than kMaxLabels.
  template <class LabelFn>
  void add(std::int64_t row, std::int64_t col, int owner, unsigned flags, LabelFn&& label) {
    Cell& c = at(row, col);
    if (c.entries == 0) {
      c.owner = owner;
      c.flags = flags;
    } else {
      c.mixed_owner = c.mixed_owner || owner != c.owner;
      c.flags = ((c.flags | flags) & ~unsigned{kReplica}) | (c.flags & flags & kReplica);
    }
    ++c.entries;
    if (c.labels.size() < kMaxLabels) c.labels.push_back(label());
  }

  // "rows 0..1, TCol 4..7" style description of drawn cell (r, c) for hover titles.
  std::string where(std::int64_t r, std::int64_t c) const;
  // The name of full-resolution row `row` (row_names or the number).
  std::string row_name(std::int64_t row) const;

 private:
  std::size_t index(std::int64_t row, std::int64_t col) const {
    return static_cast<std::size_t>(((row - row0_) / block_rows_) * drawn_cols_ + (col - col0_) / block_cols_);
  }
  std::int64_t rows_ = 0, cols_ = 0, row0_ = 0, col0_ = 0;
  std::int64_t block_rows_ = 1, block_cols_ = 1, drawn_rows_ = 0, drawn_cols_ = 0;
  std::vector<Cell> cells_;
};

// Full-resolution occupancy for collision marking: for each (cell, slot) the first logical
// element placed there. Used only while rows * cols * slots <= kMaxOccupancy (4 Mi entries,
// 32 MiB); past that collisions are marked from the witness only (the picture's note says so).
class Occupancy {
 public:
  static constexpr std::int64_t kMaxOccupancy = std::int64_t{1} << 22;
  // Enabled when the grid's full size times `slots` fits kMaxOccupancy.
  Occupancy(const Grid& g, int slots);
  bool enabled() const { return !first_.empty(); }
  // Records element `flat` at (row, col, slot); true when another element was there first.
  bool record(std::int64_t row, std::int64_t col, int slot, std::int64_t flat);

 private:
  std::int64_t row0_ = 0, col0_ = 0, cols_ = 0;
  int slots_ = 1;
  std::vector<std::int64_t> first_;
};

}  // namespace tirx::render
