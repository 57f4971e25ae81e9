// canonicalize.replicas — canonicalize() keeps where every element lives, replicas included.
//
// For every logical element x: the set of all physical images of x (every replica combination,
// swizzled for a ComposeLayout) under canonicalize(L) equals that under L. The images are
// computed by the naive reference evaluator (props_internal.hpp), not by apply(). This is
// stronger than apply() equality: canonicalize drops unit iters, drops zero offsets, fuses
// shard iters and reorders replica iters, and only the replica *set* must survive that.
#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::props {

Property canonicalize_replicas_property() {
  return {"canonicalize.replicas", "canonicalize(L) maps every element to the same replica set as L", 200, [] {
            const Layout l = *gen_layout();
            Layout c;
            try {
              c = canonicalize(l);
            } catch (const InputError& e) {
              fail(fmt::format("canonicalize({}) throws on a well-formed layout:\n{}", layout_text(l), e.render()),
                   "tirx-verify print --canonical " + shell_quote(layout_text(l)));
            }
            const std::int64_t n = l.size();
            if (c.size() != n)
              fail(fmt::format("canonicalize({}) = {} has {} elements, not {}", layout_text(l), layout_text(c), c.size(), n),
                   "tirx-verify print --canonical " + shell_quote(layout_text(l)));
            for (std::int64_t x = 0; x < n; ++x) {
              const auto want = ref_images(l, x), got = ref_images(c, x);
              if (want != got) {
                std::string w, g;
                for (const Point& p : want) w += " " + show_point(p);
                for (const Point& p : got) g += " " + show_point(p);
                fail(fmt::format("element {} of {} has images{} but canonicalize() gives {} with images{}", x,
                                 layout_text(l), w, layout_text(c), g),
                     fmt::format("tirx-verify apply {} {} --all-replicas; tirx-verify apply {} {} --all-replicas",
                                 shell_quote(layout_text(l)), x, shell_quote(layout_text(c)), x));
              }
            }
          }};
}

}  // namespace tirx::props
