// swizzle.legal — the XOR swizzle of a ComposeLayout is one the hardware can produce.
//
//   * S >= B (else the swizzle is not a bijection on its period) — TVM ComposeLayoutNode.
//   * swizzle_inner = true when B > 0: TMA and UMMA/GMMA descriptors only implement the
//     "high bits XOR-ed into low bits" direction (PTX ISA 9.1 §5.5.7 Swizzling Modes;
//     TVM's get_swizzle_mode_from_layout rejects the other direction).
//   * per_element = log2(16 bytes / element size) when the dtype is known: the swizzle unit is
//     one 16-byte chunk (PTX ISA 9.1 §5.5.7: 16-byte chunks within 32/64/128-byte spans).
//   * atom_len = 3 (128-byte lines, 8 chunks) and swizzle_len <= 3 for the TMA/UMMA modes
//     32B/64B/128B (= Swizzle<1..3,4,3> on byte addresses).
#include <fmt/format.h>

#include "checks_internal.hpp"

namespace tirx::prove {

CheckResult check_swizzle_legal(const CheckInput& in) {
  CheckResult res;
  res.id = "swizzle.legal";
  res.engine = "structural";
  const SwizzleSpec* z = in.layout.swizzle();
  if (!z) {
    res.status = Status::kNotApplicable;
    res.message = "no swizzle";
    return res;
  }
  if (in.software_swizzle) {
    // The XOR is the threads' own address arithmetic (a model's "software_swizzle": true), not a
    // TMA/UMMA mode: the hardware's rules do not apply. Injectivity and bounds still do.
    res.status = Status::kNotApplicable;
    res.message = "software swizzle: computed by thread address arithmetic, not a TMA/UMMA swizzle mode";
    return res;
  }
  nlohmann::json params = {{"per_element", z->per_element},
                           {"swizzle_len", z->swizzle_len},
                           {"atom_len", z->atom_len},
                           {"swizzle_inner", z->swizzle_inner}};
  auto fail = [&](std::string msg) {
    res.status = Status::kFail;
    res.message = std::move(msg);
    res.witness = {{"params", params}};
    return res;
  };
  if (z->atom_len < z->swizzle_len)
    return fail(fmt::format("atom_len S={} < swizzle_len B={}", z->atom_len, z->swizzle_len));
  if (z->swizzle_len == 0) {
    res.status = Status::kPass;
    res.message = "swizzle_len 0: identity";
    return res;
  }
  if (!z->swizzle_inner)
    return fail("swizzle_inner=False (low bits XOR-ed into high bits) has no TMA or MMA descriptor mode");
  if (in.elem_bits > 0) {
    int expected = -1;
    for (int pe = 0; pe < 16; ++pe)
      if ((std::int64_t{1} << pe) * in.elem_bits == 128) expected = pe;
    params["expected_per_element"] = expected;
    if (expected >= 0 && z->per_element != expected)
      return fail(fmt::format("per_element {} keeps 2^{} x {} bits = {} bytes together, but the hardware swizzle "
                              "unit is 16 bytes: per_element must be {} for {}",
                              z->per_element, z->per_element, in.elem_bits,
                              ((std::int64_t{1} << z->per_element) * in.elem_bits) / 8, expected, in.dtype));
  }
  if (z->atom_len != 3 || z->swizzle_len > 3)
    return fail(fmt::format("(swizzle_len {}, atom_len {}) is not one of the 32B/64B/128B modes "
                            "(swizzle_len 1..3 with atom_len 3)",
                            z->swizzle_len, z->atom_len));
  res.status = Status::kPass;
  res.message = fmt::format("{}B swizzle, 16-byte unit", 16 << z->swizzle_len);
  return res;
}

}  // namespace tirx::prove
