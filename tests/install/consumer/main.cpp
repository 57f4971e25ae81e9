// Uses the installed library: parses a layout, asks TVM's queries, runs every check.
// Prints one line per fact and exits 0 only when each has its known value.
#include <iostream>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/check.hpp"

int main() {
  using namespace tirx;
  int bad = 0;
  auto expect = [&](bool ok, const char* what) {
    std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
    bad += ok ? 0 : 1;
  };
  const Layout l = parse_layout("S[(8,4,4,8,8,8):(4@laneid,1@laneid,4,8,8,8)]");
  expect(l.size() == 8 * 4 * 4 * 8 * 8 * 8, "size");
  expect(print_layout(canonicalize(l)) == "S[(32,4,8,8,8):(1@laneid,4,8,8,8)]", "canonicalize (TVM test fact)");
  const hw::Target target = hw::load_target("sm_100a");  // found under the install prefix's share/
  prove::CheckInput in;
  in.layout = parse_layout("S[(4,4):(2,1)]");
  in.scope = prove::Scope::kShared;
  in.machine = prove::machine_limits(target);
  in.target = &target;
  bool injective_fails = false;
  for (const auto& r : prove::run_all(in))
    if (r.id == "layout.injective") injective_fails = r.status == prove::Status::kFail;
  expect(injective_fails, "layout.injective finds the collision of S[(4,4):(2,1)]");
  return bad == 0 ? 0 : 1;
}
