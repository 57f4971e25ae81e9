// Internal: the hashed owner map of the enumeration engine's injectivity sweep — which point
// first occupied a storage cell, for cells spread too far apart for an owner array.
//
// Open addressing with linear probing over two flat arrays (keys: `width` int64 per slot;
// owners: the ordinal of the first point plus one, 0 = empty), load factor at most 1/2, doubled
// when full. 8 * (width + 1) bytes per slot, so 16-32 bytes per point for the usual one-value
// key (the cell's index in its bounding box); every allocation is charged to the budget first
// (BudgetExceeded names the memory limit). No per-point allocation, unlike a node-based map.
// The arrays come zeroed from calloc, so a large table costs nothing until its slots are used:
// the system's zero pages fill in as the sweep (which polls the budget) touches them, and a sweep
// stopped early (a collision, the time limit, Ctrl-C in the Python module) frees only what it
// touched. Filling 512 MB up front took 100-300 ms nothing could interrupt.
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "tirx_verify/layout/budget.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

class CellTable {
 public:
  static constexpr std::uint64_t kEmpty = UINT64_MAX;

  // `width` int64 values per key; `expected` points (sizes the first table; it grows anyway).
  // The first table holds every expected point at load 1/2 (no rehash on the way) when the budget
  // has room for it, else it starts at 2^16 slots and doubles until the budget says no (a
  // collision may well come before that).
  CellTable(std::size_t width, std::int64_t expected, Budget* budget)
      : width_(width), budget_(budget) {
    std::size_t cap = 1024;
    const std::int64_t want = std::min<std::int64_t>(expected, std::int64_t{1} << 31) * 2;
    while (static_cast<std::int64_t>(cap) < want) cap <<= 1;
    if (budget_ && !budget_->fits(slot_bytes(width_) * static_cast<std::int64_t>(cap))) cap = std::min<std::size_t>(cap, 1 << 16);
    allocate(cap);
  }

  // Bytes one slot takes (for estimates).
  static std::int64_t slot_bytes(std::size_t width) { return static_cast<std::int64_t>(8 * (width + 1)); }

  // Inserts `key` (width_ values) with owner `ordinal` unless present; returns the existing
  // owner, or kEmpty when the key was new.
  std::uint64_t insert(const std::int64_t* key, std::uint64_t ordinal) {
    if ((size_ + 1) * 2 > cap_) grow();
    std::size_t i = hash(key) & mask_;
    while (true) {
      if (owners_[i] == 0) {
        std::memcpy(&keys_[i * width_], key, width_ * sizeof(std::int64_t));
        owners_[i] = ordinal + 1;
        ++size_;
        return kEmpty;
      }
      if (std::memcmp(&keys_[i * width_], key, width_ * sizeof(std::int64_t)) == 0) return owners_[i] - 1;
      i = (i + 1) & mask_;
    }
  }

  std::size_t size() const { return size_; }

 private:
  static std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  std::uint64_t hash(const std::int64_t* key) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t k = 0; k < width_; ++k) h = mix(h ^ static_cast<std::uint64_t>(key[k]));
    return h;
  }
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  template <class T>
  using Zeroed = std::unique_ptr<T[], Free>;
  template <class T>
  static Zeroed<T> zeroed(std::size_t n) {  // calloc: zero pages, untouched until used
    Zeroed<T> p(static_cast<T*>(std::calloc(n, sizeof(T))));
    if (!p) throw std::bad_alloc();
    return p;
  }
  void allocate(std::size_t cap) {
    MemoryCharge c = charge(budget_, slot_bytes(width_) * static_cast<std::int64_t>(cap), "the hashed owner map");
    keys_ = zeroed<std::int64_t>(cap * width_);
    owners_ = zeroed<std::uint64_t>(cap);
    cap_ = cap;
    mask_ = cap - 1;
    charge_ = std::move(c);
  }
  // Doubles the table. Strongly exception-safe: the new arrays are charged (the old ones are
  // still held, so the budget sees the peak) and allocated before anything changes, so a
  // BudgetExceeded or bad_alloc leaves the table as it was.
  void grow() {
    const std::size_t old_cap = cap_, cap = cap_ * 2;
    MemoryCharge c = charge(budget_, slot_bytes(width_) * static_cast<std::int64_t>(cap), "the hashed owner map");
    Zeroed<std::int64_t> keys = zeroed<std::int64_t>(cap * width_);
    Zeroed<std::uint64_t> owners = zeroed<std::uint64_t>(cap);
    keys.swap(keys_);
    owners.swap(owners_);
    cap_ = cap;
    mask_ = cap - 1;
    size_ = 0;
    for (std::size_t i = 0; i < old_cap; ++i)
      if (owners[i] != 0) insert(&keys[i * width_], owners[i] - 1);
    keys.reset();
    owners.reset();
    charge_ = std::move(c);  // the old arrays are gone: their charge goes back
  }

  std::size_t width_;
  Budget* budget_;
  Zeroed<std::int64_t> keys_;
  Zeroed<std::uint64_t> owners_;
  std::size_t cap_ = 0, mask_ = 0, size_ = 0;
  MemoryCharge charge_;
};

}  // namespace tirx::prove
