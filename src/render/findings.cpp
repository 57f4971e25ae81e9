// A failed check drawn where it is (views.hpp build_finding): the witness's elements marked on
// the view of the buffer, or, for bank conflicts, the worst instruction on the banks.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/render/views.hpp"
#include "view_context.hpp"

namespace tirx::render {

namespace {

// A witness's element as (flat, replica; -1 = every copy): an {"flat": F, "replica": R} object
// (prove's point_json), or a logical coordinate [i, j, ...] (the kernel checks' "element"),
// flattened row-major over the shape. nullopt when it is neither or lies outside the layout.
std::optional<std::pair<std::int64_t, std::int64_t>> point_of(const nlohmann::json& j, const prove::CheckInput& in) {
  if (j.is_object() && j.contains("flat") && j["flat"].is_number_integer()) {
    const std::int64_t rep =
        j.contains("replica") && j["replica"].is_number_integer() ? j["replica"].get<std::int64_t>() : -1;
    return std::make_pair(j["flat"].get<std::int64_t>(), rep);
  }
  if (!j.is_array() || j.empty()) return std::nullopt;
  const std::vector<std::int64_t> shape = in.shape ? *in.shape : std::vector<std::int64_t>{in.layout.size()};
  if (j.size() != shape.size()) return std::nullopt;
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (!j[d].is_number_integer()) return std::nullopt;
    const std::int64_t v = j[d].get<std::int64_t>();
    if (v < 0 || v >= shape[d] || __builtin_mul_overflow(flat, shape[d], &flat) || __builtin_add_overflow(flat, v, &flat))
      return std::nullopt;
  }
  if (flat >= in.layout.size()) return std::nullopt;
  return std::make_pair(flat, std::int64_t{-1});
}

// smem.bank-conflicts: the witness's 32 thread addresses (bytes) of one instruction, each
// access_bytes wide, on the 128-byte lines they touch x the banks.
Grid bank_grid(const prove::CheckInput& in, const prove::CheckResult& r, const RenderOptions& opt) {
  const nlohmann::json& w = r.witness;
  const std::int64_t banks = in.target && in.target->banks > 0 ? in.target->banks : 32;
  const std::int64_t bank_bytes = in.target && in.target->bank_bytes > 0 ? in.target->bank_bytes : 4;
  const std::int64_t line = banks * bank_bytes;
  const std::int64_t width = in.access_bytes > 0 ? in.access_bytes : bank_bytes;
  std::vector<std::int64_t> addr;
  for (const auto& a : w["addresses"])
    if (a.is_number_integer()) addr.push_back(a.get<std::int64_t>());
  std::set<std::int64_t> bad_threads;
  if (w.contains("threads"))
    for (const auto& t : w["threads"])
      if (t.is_number_integer()) bad_threads.insert(t.get<std::int64_t>());
  const std::int64_t bank = w.value("bank", std::int64_t{-1});
  // The lines touched, in address order, one row each.
  std::map<std::int64_t, std::int64_t> row_of;
  for (std::int64_t a : addr)
    for (std::int64_t k = 0; k < width; k += bank_bytes) row_of[floor_div(a + k, line)] = 0;
  Grid g;
  std::int64_t i = 0;
  for (auto& [l, row] : row_of) {
    row = i++;
    g.row_names.push_back(fmt::format("byte {}", l * line));
  }
  g.title = fmt::format("smem.bank-conflicts: warp {} instruction {}: {} wavefronts, ideal {} ({})",
                        w.value("warp", 0), w.value("instruction", 0), w.value("wavefronts", 0), w.value("ideal", 0),
                        in.access_bytes > 0 ? fmt::format("{}-byte accesses", width)
                                            : std::string("each thread's first word; the width is in the message"));
  g.row_axis = "line";
  g.col_axis = "bank";
  g.owner_kind = "the thread (cycling through the palette); red outline: the threads of the worst phase";
  g.init(std::max<std::int64_t>(i, 1), banks, 0, 0, opt.max_rows, opt.max_cols);
  for (std::size_t t = 0; t < addr.size(); ++t)
    for (std::int64_t k = 0; k < width; k += bank_bytes) {
      const std::int64_t word = floor_div(addr[t] + k, bank_bytes);
      const unsigned flags = bad_threads.count(static_cast<std::int64_t>(t)) ? kFinding : 0u;
      g.add(row_of[floor_div(addr[t] + k, line)], floor_mod(word, banks), static_cast<int>(t), flags,
            [&] { return fmt::format("t{}", t); });
    }
  if (bank >= 0 && bank < banks)
    g.col_bands.push_back({bank, bank + 1,
                           fmt::format("bank {}: phase {} needs one wavefront per distinct word", bank,
                                       w.value("phase", 0)),
                           Band::kShade});
  for (std::int64_t b = 16 / bank_bytes; b < banks; b += 16 / bank_bytes) g.col_bands.push_back({b, b + 16 / bank_bytes, "", Band::kMinor});
  g.notes.push_back("each cell is one 4-byte word of a 128-byte line; it lists the threads that read or write it");
  if (in.access_bytes <= 0)
    g.notes.push_back("the access width is not known here: each thread's first 4-byte word is drawn");
  return g;
}

}  // namespace

Grid build_finding(const prove::CheckInput& in, const prove::CheckResult& r, const RenderOptions& opt) {
  Grid g;
  if (r.id == "smem.bank-conflicts" && r.witness.is_object() && r.witness.contains("addresses") &&
      r.witness["addresses"].is_array()) {
    g = bank_grid(in, r, opt);
  } else {
    std::vector<std::pair<std::int64_t, std::int64_t>> pts;
    if (r.witness.is_object()) {
      for (const char* key : {"a", "b", "element"})
        if (r.witness.contains(key))
          if (auto p = point_of(r.witness[key], in)) pts.push_back(*p);
      // A kernel check names the op's element that writes or reads the buffer.
      for (const char* key : {"writer", "reader"})
        if (r.witness.contains(key) && r.witness[key].is_object() && r.witness[key].contains("element"))
          if (auto p = point_of(r.witness[key]["element"], in)) pts.push_back(*p);
    }
    const View v = opt.view == View::kAuto ? default_view(in) : opt.view;
    const ViewContext x(in, opt, v, pts);
    g = build_view_with(x);
    if (!pts.empty())
      g.notes.insert(g.notes.begin(), "red outline: the element(s) the witness names");
    if (r.witness.is_object() && r.witness.contains("cell"))
      g.notes.insert(g.notes.begin(), "witness cell: " + r.witness["cell"].dump());
  }
  g.subtitle = fmt::format("{} [{}]: {}", r.id, prove::status_name(r.status), r.message);
  g.notes.insert(g.notes.begin(), g.subtitle);
  return g;
}

}  // namespace tirx::render
