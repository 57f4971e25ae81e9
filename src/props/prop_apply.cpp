// apply.forms — the three forms of apply() agree with each other and with the reference.
//
// For every element x of a random layout (and a few indices past the end, where the outermost
// digit extrapolates), with `shape` a shape the shard groups by and `other` an arbitrary
// two-factor shape of the same size (which usually takes the flatten-then-split path):
//
//   apply(x) == apply_iters(split(x)) == apply(rm(x, shape), shape) == apply(rm(x, other), other)
//            == images(split(x))[0] == reference D(x) + O (swizzled)
//
// compared on every axis's value (TVM's result.get(axis, 0): the shape= path may drop an axis
// that only occurs on unit iters).
#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::props {

namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> d;
  for (std::int64_t k = 1; k <= n; ++k)
    if (n % k == 0) d.push_back(k);
  return d;
}

// A layout with a shape its shard groups by and an arbitrary two-factor shape of its size.
struct ApplyCase {
  Layout layout;
  std::vector<std::int64_t> shape, other;
};

void showValue(const ApplyCase& c, std::ostream& os) {
  os << layout_text(c.layout) << " with shapes (" << show_ints(c.shape) << ") and (" << show_ints(c.other) << ")";
}

rc::Gen<ApplyCase> gen_apply_case() {
  return rc::gen::exec([] {
    ApplyCase c;
    c.layout = *gen_layout();
    c.shape = *gen_grouping_shape(c.layout.tile());
    const std::int64_t n = c.layout.size();
    const std::int64_t d0 = pick(divisors(n));
    c.other = {d0, n / d0};
    return c;
  });
}

}  // namespace

Property apply_forms_property() {
  return {"apply.forms", "apply(flat) == apply(per-iter digits) == apply(coord, shape) == reference", 300, [] {
            const ApplyCase ac = *gen_apply_case();
            const Layout& l = ac.layout;
            const TileLayout& t = l.tile();
            const std::vector<std::int64_t>& shape = ac.shape;
            const std::vector<std::int64_t>& other = ac.other;
            const std::int64_t n = l.size();
            const std::string text = shell_quote(layout_text(l));
            auto check = [&](std::int64_t x, bool in_range) {
              const Point want = ref_image(l, ref_digits(t, x), std::vector<std::int64_t>(t.replica.size(), 0));
              const std::vector<std::int64_t> digits = t.split(x);
              struct Form {
                std::string name, repro;
                Point got;
              };
              std::vector<Form> forms;
              try {
                forms.push_back({"apply(flat)", fmt::format("tirx-verify apply {} {}", text, x), point_of(l.apply(x))});
                forms.push_back({"apply(per-iter digits)", fmt::format("tirx-verify apply {} {}", text, show_ints(digits, " ")),
                                 point_of(l.apply_iters(digits))});
                // (A single shard iter makes the per-iter form one number: the flat form, same value.)
                forms.push_back({"images()[0]", fmt::format("tirx-verify apply {} {} --all-replicas", text, x),
                                 point_of(l.images(digits)[0])});
                if (in_range) {
                  for (const auto* s : {&shape, &other}) {
                    const auto c = rm_coord(x, *s);
                    forms.push_back({"apply(coord, shape=(" + show_ints(*s) + "))",
                                     fmt::format("tirx-verify apply {} {} --shape {}", text, show_ints(c, " "), show_ints(*s)),
                                     point_of(l.apply(c, *s))});
                  }
                }
              } catch (const InputError& e) {
                fail(fmt::format("apply on {} element {} throws:\n{}", layout_text(l), x, e.render()),
                     fmt::format("tirx-verify apply {} {}", text, x));
              }
              for (const Form& f : forms)
                if (f.got != want)
                  fail(fmt::format("{} of {} at element {} is {}, the reference D(x)+O{} is {}", f.name, layout_text(l), x,
                                   show_point(f.got), l.is_compose() ? " (swizzled)" : "", show_point(want)),
                       f.repro);
            };
            for (std::int64_t x = 0; x < n; ++x) check(x, true);
            for (std::int64_t x = n; x < n + 3; ++x) check(x, false);  // the outermost digit extrapolates
          }};
}

}  // namespace tirx::props
