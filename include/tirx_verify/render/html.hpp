// tirx_verify/render/html.hpp — the main job's report as one self-contained HTML page.
//
// `run --html report.html`: one file, no network, no script, no external style sheet or font
// (a <style> element and system monospace/sans-serif fonts). Built as a DOM with pugixml (every
// layout text, message and witness escaped by the library). Contents:
//
//   summary      kernels, buffers, ops, verified, findings new/known by severity, exit code,
//                results by check id
//   per kernel   its file and target; its buffers (name, scope, shape, dtype, layout, verdict);
//                its ops (name, kind, reads, writes) when the model has them; each failed item
//                (new and known) with its message, fix, witness (JSON) and — for a finding about
//                a buffer (its layout checks, and kernel checks such as kernel.coverage, whose
//                witness's writer/reader element is marked) — its picture inline
//                (render/views.hpp build_finding, as SVG)
//
// Bounds: a picture is at most HtmlOptions::picture_cells per side (blocks past that, grid.hpp);
// at most max_pictures pictures per page (later findings say "picture limit reached"). With the
// defaults (48, 64) the pictures take at most 64 x 48 x 48 cells, ~30 MB in the worst case; the
// bundled corpus gives ~4 MB (docs/render.md). An op's smem.bank-conflicts finding is drawn
// from its witness (the worst instruction's addresses on the banks, each thread's first word:
// the access width is not in the witness); other findings about an op or the kernel show their
// witness only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::render {

struct HtmlOptions {
  std::int64_t picture_cells = 48;  // drawn cells per side of one picture
  std::int64_t max_pictures = 64;   // pictures per page
  Budget* budget = nullptr;         // polled while pictures are drawn
};

// The page. Never throws for a picture that cannot be drawn (that finding says why instead);
// throws BudgetExceeded when the budget runs out.
std::string html_report(const std::vector<kernel::KernelReport>& ks, const std::vector<report::Item>& items,
                        const report::Summary& s, const HtmlOptions& opt = {});

}  // namespace tirx::render
