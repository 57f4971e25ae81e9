// tirx_verify/props/properties.hpp — the property campaign: tirx-verify checking itself.
//
// Example tests check what someone thought of; a property is checked on inputs nobody thought
// of. Each property draws random valid inputs (generators.hpp), computes one thing two
// independent ways (the layout model against the machine simulator, one prover against brute
// force, the printer against the parser) and demands equality, element by element. A failing
// case is shrunk by RapidCheck to a small counterexample and reported with a ready-to-run
// `tirx-verify` command line that shows the disagreement.
//
//   name                   what must agree
//   notation.roundtrip     parse(print(L)) == L in builder and TVM form; a factory call's text
//                          parses to the C++ factory's result
//   canonicalize.replicas  canonicalize(L) maps every element to the same replica set as L
//   apply.forms            apply(flat) == apply(per-iter digits) == apply(coord, shape), with a
//                          grouping and an arbitrary shape; images()[0] == apply()
//   tcgen05.atom_vs_sim    tcgen05_atom_layout x data-path layout: every register the simulated
//                          tcgen05.ld fills (and every cell tcgen05.st writes) holds the element
//                          apply() names
//   swizzle.bijection      a swizzle permutes every aligned period; the layout's and the
//                          simulator's swizzle implementations agree
//   tma.vs_compose         a TMA-swizzled tile load in the simulator places every element where
//                          ComposeLayout.apply() / mma_shared_layout says
//   prove.injective        enum, gf2, z3 and the check (auto, cross-check) == brute force; a "no"
//                          witness is two real points in one cell
//   prove.bounds           enum, interval, gf2, z3 and the check == brute force; a "no" witness is
//                          really out of range
//   prove.equivalent       enum, gf2, z3 and equivalent() == brute force on L vs canonicalize(L) and
//                          L vs a changed L; the named first differing element really differs
//   smem.wavefronts        the wavefront model == a brute-force count of distinct 4-byte words per
//                          bank per phase
//
// The same registry runs under ctest (tests/property, a bounded case count each) and from
// `tirx-verify fuzz --seed S --cases N [--property NAME]` for long campaigns (docs/fuzzing.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tirx::props {

struct Property {
  std::string_view name;         // stable: used by --property and in ctest names
  std::string_view description;  // one line
  int ctest_cases;               // cases per ctest run (RC_PARAMS max_success overrides)
  // A RapidCheck testable: draws inputs with *gen, asserts with RC_ASSERT / RC_FAIL. A failure
  // message ends with a "reproduce: tirx-verify ..." line.
  std::function<void()> body;
};

// Every property, in the order of the table above.
const std::vector<Property>& properties();
// nullptr if no property has this name.
const Property* find_property(std::string_view name);

struct RunOptions {
  std::uint64_t seed = 0;
  int cases = 100;          // successful cases required
  int max_size = 100;       // RapidCheck size ramp (0..max_size)
  bool shrink = true;
  // Called after every finished case with the number of cases so far (progress output).
  std::function<void(int)> on_case;
};

struct RunResult {
  bool passed = false;
  int cases = 0;             // successful cases before the end (or before the failure)
  double seconds = 0;
  std::string failure;       // shrunk failure message (empty on success), without the reproduce line
  // The shrunk counterexample: (type, value) of every generated input, values as RapidCheck shows them.
  std::vector<std::pair<std::string, std::string>> counterexample;
  std::string reproduce;     // the "reproduce: ..." command of the shrunk case, if any
  // Case classification (RC_TAG), e.g. which engine decided: ("pass, structural", 212), ...
  std::vector<std::pair<std::string, int>> distribution;
};

// Runs one property with explicit parameters (RC_PARAMS is not read). Deterministic: the same
// property, seed, case count and size give the same cases (RapidCheck derives each property's
// random stream from the seed and the property name). Never throws for a failing case.
RunResult run_property(const Property& p, const RunOptions& opt);

// Quotes `s` for a POSIX shell ('...' with embedded quotes escaped).
std::string shell_quote(std::string_view s);

}  // namespace tirx::props
