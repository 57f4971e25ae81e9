// libFuzzer target: the notation parser (parse_layout), printer round trip, and what a layout
// that parses must survive (apply, canonicalize, every check with small engine limits).
//
//   any text  --parse_layout-->  InputError with a check id and an in-range position   (bad input)
//                                or a valid Layout L:
//                                  print(L, builder) and print(L, tvm) parse back to L
//                                  apply() on the first and last element, canonicalize()
//                                  prove::run_all() in four scopes (gf2 / enumeration <= 4096 points)
//            --parse_symbolic_layout (N, M, K symbolic)--> NotSymbolic, or a SymLayout whose
//                                  instantiate(env) equals parse_layout(text, env), or both reject
//
// Built by -DTIRX_BUILD_FUZZ=ON with clang (tests/fuzz/CMakeLists.txt); the same file is
// compiled with replay_main.cpp into fuzz_notation_replay, which ctest runs over the seed
// corpus and every input a campaign ever found (tests/fuzz/regressions/notation).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_check.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/check.hpp"

namespace {

using namespace tirx;

const Env& env() {
  static const Env e = {{"N", 128}, {"M", 64}, {"K", 32}, {"BLK_M", 128}, {"BLK_N", 256}, {"BLK_K", 64},
                        {"PIPELINE_DEPTH", 4}, {"self.BLK_K", 64}};
  return e;
}

void survive(const Layout& l, const std::string& text) {
  // A parsed layout is valid.
  try {
    l.validate();
  } catch (const InputError& e) {
    FUZZ_CHECK(false, "parse_layout returned an invalid layout (%s) for: %s", e.what(), text.c_str());
  }
  // Round trip in both printed forms.
  for (const PrintStyle style : {PrintStyle::kBuilder, PrintStyle::kTvm}) {
    const std::string printed = print_layout(l, style);
    Layout back;
    try {
      back = parse_layout(printed);
    } catch (const InputError& e) {
      FUZZ_CHECK(false, "printed form does not parse (%s): %s", e.what(), printed.c_str());
    }
    FUZZ_CHECK(back == l, "round trip changes the layout: %s -> %s", printed.c_str(), print_layout(back).c_str());
  }
  // Evaluation. Large outermost digits, replica counts and spans are legal; nothing may crash.
  try {
    const std::int64_t n = l.size();
    (void)l.apply(0);
    (void)l.apply(n - 1);
    if (l.tile().replica_count() <= 4096) (void)l.images(l.tile().split(n - 1));
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);
  }
  try {
    (void)canonicalize(l);
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);  // e.g. a scope chain canonicalize cannot fuse
  }
  // Every check, in the scopes that change which axes are storage.
  for (const prove::Scope scope : {prove::Scope::kUnknown, prove::Scope::kShared, prove::Scope::kTmem, prove::Scope::kLocal}) {
    prove::CheckInput in;
    in.layout = l;
    in.text = text;
    in.scope = scope;
    in.elem_bits = 16;
    in.dtype = "float16";
    in.machine.warp_size = 32;
    in.machine.warps_per_warpgroup = 4;
    in.machine.tmem_lanes = 128;
    in.machine.tmem_columns = 512;
    in.machine.tmem_alloc_min_columns = 32;
    in.machine.max_registers_per_thread = 255;
    in.limits.max_enumeration_points = 4096;
    in.limits.max_dense_cells = 1 << 16;
    in.limits.enum_crossover_points = INT64_MAX;  // gf2 / enumeration only: Z3 (ms per query) is
    in.limits.z3_timeout_ms = 50;                 // left to the property campaign
    try {
      (void)prove::run_all(in);
    } catch (const InputError& e) {
      tirx::fuzz::check_error(e, text);
    }
  }
}

// The symbolic reader (layout/symbolic.hpp) with N, M, K kept symbolic must agree with the
// notation at the bindings of env(): same layout, or both reject the text.
void symbolic_agrees(const std::string& text, const std::optional<Layout>& concrete) {
  Env rest = env();
  for (const char* p : {"N", "M", "K"}) rest.erase(p);
  SymLayout s;
  try {
    s = parse_symbolic_layout(text, {"N", "M", "K"}, rest);
  } catch (const NotSymbolic&) {
    return;  // outside the subset: the caller sweeps
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);
    return;
  }
  std::optional<Layout> a;
  try {
    a = s.instantiate(env());
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);
  }
  FUZZ_CHECK(a.has_value() == concrete.has_value(), "symbolic reading %s where the notation %s: %s",
             a ? "succeeds" : "fails", concrete ? "succeeds" : "fails", text.c_str());
  if (a) FUZZ_CHECK(*a == *concrete, "symbolic reading differs: %s vs %s for %s", print_layout(*a).c_str(),
                    print_layout(*concrete).c_str(), text.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 16)) return 0;  // the notation is short; campaigns cap inputs with -max_len
  const std::string text(reinterpret_cast<const char*>(data), size);
  Layout l;
  try {
    l = parse_layout(text, env());
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);
    symbolic_agrees(text, std::nullopt);
    return 0;
  }
  symbolic_agrees(text, l);
  survive(l, text);
  return 0;
}
