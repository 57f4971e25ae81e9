// tirx_verify/layout/notation.hpp — reading and writing layouts as text.
//
// Accepted input (all forms may be mixed; whitespace is free):
//   builder form     S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
//                    S[8:'laneid'], S[(8,4):((4,'laneid'),1)], S[8,4,2] (extents only), S[(512,)]
//   TVM printed form T.TileLayout(T.S[(8, 4):(4 @ Axis.laneid, 1)] + 1 @ Axis.laneid)
//                    T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[512:1]), swizzle_inner=False)
//                    T.TileLayout.from_iters(offset={"m": 5})
//   Python calls     TileLayout(S[...]), ComposeLayout(3, 3, 3, TileLayout(S[512:1])),
//                    ComposeLayout(3, 3, 3, S[512:1]), keyword arguments per_element= ...
//   factory calls    tmem_datapath_layout("F", 64, 32, sub_slab=1)
//                    tcgen05_atom_layout("16x64b", (64, 32), "float32")
//                    mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64))
//                    wg_local_layout(16), sf_tmem_layout(...), sf_smem_layout(...), ...
//   method chains    <layout>.tile(<outer>, (8,4), (8,64)), .unpack(4), .pack(2),
//                    .broadcast(8), .canonicalize(), .storage(), .slice(shape, region)
//   old TVM form     ComposeLayout(SwizzleLayout(3, 3, 3, swizzle_inner=True), TileLayout(...)),
//                    SwizzleLayout(3, 3, 3) alone = a bare swizzle over S[512:1]
// Integer positions accept arithmetic (+ - * // %) over literals and parameter names; a
// parameter (also a dotted one such as self.BLK_K) must be bound in the Env (e.g. from
// --param N=128), else it is an error naming every unbound parameter.
// The user guide with the grammar and every error kind is docs/notation.md.
//
// Deliberate differences from TVM (docs/notation.md "Stricter than TVM"): a stride list whose
// length differs from the extent list is an error (TVM silently drops extents); unknown axis
// names are errors; zero or negative extents are errors; int64 overflow is an error.
//
// Errors: InputError with id "layout.syntax" (does not parse) or "layout.well-formed" (parses
// but is not a valid layout), text = the input, pos = byte offset of the offending token.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/layout/layout.hpp"

namespace tirx {

using Env = std::map<std::string, std::int64_t, std::less<>>;

// Parses any of the forms above into a validated Layout. Throws InputError ("layout.syntax" or
// "layout.well-formed", or the check id of a factory/swizzle rule such as "swizzle.legal") with
// `text` and the byte offset of the offending token. Never crashes or hangs: nesting deeper
// than 2048 levels (brackets, calls, subscripts, unary operators, postfix steps; a chain of
// binary operators such as `+ 1@laneid + 1@laneid ...` is flat and may be any length) and
// integer literals outside int64 are errors too.
Layout parse_layout(std::string_view text, const Env& env = {});

// Names the notation gives a meaning of its own: the axis names (laneid, m, TLane, ...), the
// built-in functions and namespaces (S, R, TileLayout, tmem_datapath_layout, T, Axis, ...) and
// True, False, None. A parameter (Env key, --param NAME) with one of these names would shadow it.
bool is_reserved_name(std::string_view name);

// The integer sub-language on its own, for model files and the CLI: "BLK_M * 2" -> 256,
// "(PIPELINE_DEPTH, 128, 64)" -> {4, 128, 64} (a single integer gives a one-entry shape).
// Same errors as parse_layout.
std::int64_t parse_int_expr(std::string_view text, const Env& env = {});
std::vector<std::int64_t> parse_shape(std::string_view text, const Env& env = {});

enum class PrintStyle { kBuilder, kTvm };
// Builder:  S[(8,4):(4@laneid,1)] + R[2:4@warpid] + 5@warpid ; ComposeLayout(3, 3, 3, S[512:1])
// TVM:      T.TileLayout(T.S[(8, 4):(4 @ Axis.laneid, 1)] + ...), exactly as TVM's printer.
// parse_layout(print_layout(L, style)) == L for both styles.
std::string print_layout(const Layout& l, PrintStyle style = PrintStyle::kBuilder);

// Streams the builder form (so GoogleTest and logs show layouts as text).
std::ostream& operator<<(std::ostream& os, const Layout& l);
std::ostream& operator<<(std::ostream& os, const TileLayout& l);

}  // namespace tirx
