// tests/fuzz/fuzz_check.hpp — what the fuzz targets treat as a bug.
//
// Bad input must end in an InputError with a check id (and a position that lies inside the
// text, if it has one); good input must survive every operation the target applies. Anything
// else is a bug: a crash, a hang, a leak or a sanitizer report (libFuzzer and ASan/UBSan catch
// those), another exception type escaping, or a broken invariant, which FUZZ_CHECK turns into
// an abort so libFuzzer records the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tirx_verify/layout/error.hpp"

#define FUZZ_CHECK(cond, ...)                                              \
  do {                                                                     \
    if (!(cond)) {                                                         \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s\n  ", #cond);            \
      std::fprintf(stderr, __VA_ARGS__);                                   \
      std::fprintf(stderr, "\n");                                          \
      std::abort();                                                        \
    }                                                                      \
  } while (0)

namespace tirx::fuzz {

// An InputError must name a check id and, when it points into `text`, point inside it; its
// rendering must not fail.
inline void check_error(const InputError& e, const std::string& text) {
  FUZZ_CHECK(!e.check_id().empty(), "error without a check id: %s", e.what());
  if (e.pos() && !e.text().empty())
    FUZZ_CHECK(*e.pos() <= e.text().size(), "position %zu past the end of a %zu-byte text (%s)", *e.pos(),
               e.text().size(), e.check_id().c_str());
  const std::string r = e.render();
  FUZZ_CHECK(r.find(e.check_id()) != std::string::npos, "rendering lacks the check id");
  (void)text;
}

}  // namespace tirx::fuzz
