// src/layout/notation_factories.hpp — factory calls and layout methods in the notation (internal).
//
// Implemented in notation_factories.cpp; used by notation_calls.cpp. Every function here
// dispatches to the public layout API (factories.hpp, ops.hpp) and re-attributes the errors
// it raises to the call's position in the text.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "layout/notation_value.hpp"

namespace tirx::notation {

// True for the factory names TVM users call: tmem_datapath_layout, tcgen05_atom_layout,
// wg_local_layout, sf_tmem_layout, sf_smem_layout, mma_shared_layout,
// tmem_mma_operand_layout, default_tmem_layout (also spelled _default_tmem_layout).
bool is_factory(std::string_view name);

// `SwizzleMode.<MODE>` (an integer 0..3) and `<layout>.<method>` (a bound method value);
// nullopt when `obj` has no such attribute.
std::optional<Value> factory_attr(const Ctx& ctx, const Value& obj, std::string_view name, std::size_t pos);

// Calls a factory by name (fn.s) / a bound layout method (fn.layout is the receiver).
Value call_factory(const Ctx& ctx, const Value& fn, std::size_t pos, const std::vector<Value>& positional,
                   const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::size_t>& kw_pos);
Value call_method(const Ctx& ctx, const Value& fn, std::size_t pos, const std::vector<Value>& positional,
                  const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::size_t>& kw_pos);

}  // namespace tirx::notation
