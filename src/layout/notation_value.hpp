// src/layout/notation_value.hpp — the values the notation evaluator computes with (internal).
//
// Evaluating `S[8:4@laneid] + R[2:4@warpid] + 5@warpid` goes through the same kinds of
// intermediate values as TVM's Python builder does:
//
//   expression            value kind   contents
//   8, T.int64(8)         kInt         8
//   4@laneid              kOffset      {laneid: 4}, one term (usable as a stride)
//   1@laneid + 64         kOffset      {laneid: 1, m: 64}
//   S[8:4@laneid]         kSpec        shard [(8,4,laneid)]
//   ... + R[2:4@warpid]   kSpec        shard + replica [(2,4,warpid)]
//   TileLayout(<spec>)    kLayout      the TileLayout
//   Axis.laneid, laneid   kAxis
//   (64, 32), [..]        kTuple       items (is_list for [...])
//   tmem_datapath_layout  kFunc        a callable: builtin name (+ receiver for methods)
//
// Every value remembers the byte offset of the expression that produced it, so a wrong
// argument is reported with a caret under that argument.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layout/notation_internal.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/layout.hpp"

namespace tirx::notation {

// The pieces of a `S[...] + R[...] + offset` sum (TVM's _LayoutSpec).
struct Spec {
  bool has_shard = false;
  std::vector<Iter> shard;
  bool has_replica = false;
  std::vector<Iter> replica;
  OffsetMap offset;
};

struct Value {
  enum class Kind { kInt, kBool, kNone, kStr, kTuple, kDict, kAxis, kOffset, kSpec, kIter, kLayout, kSwizzle, kFunc };
  Kind kind = Kind::kNone;
  std::size_t pos = 0;

  std::int64_t i = 0;        // kInt
  bool b = false;            // kBool
  std::string s;             // kStr: contents; kFunc: builtin name
  Axis axis{};               // kAxis
  std::vector<Value> items;  // kTuple (elements), kDict (key0, value0, key1, value1, ...)
  bool is_list = false;      // kTuple written with [...]
  OffsetMap offset;          // kOffset
  bool single_term = false;  // kOffset written as one `v@axis` term (a valid stride)
  Spec spec;                 // kSpec
  Iter iter{};               // kIter
  std::shared_ptr<const Layout> layout;  // kLayout; kFunc: the receiver of a method
  SwizzleSpec swizzle{};     // kSwizzle (TVM's old SwizzleLayout object)

  static Value make_int(std::int64_t v, std::size_t pos) {
    Value r;
    r.kind = Kind::kInt;
    r.i = v;
    r.pos = pos;
    return r;
  }
  static Value make_layout(Layout l, std::size_t pos) {
    Value r;
    r.kind = Kind::kLayout;
    r.layout = std::make_shared<const Layout>(std::move(l));
    r.pos = pos;
    return r;
  }
  static Value make_func(std::string name, std::size_t pos, std::shared_ptr<const Layout> receiver = nullptr) {
    Value r;
    r.kind = Kind::kFunc;
    r.s = std::move(name);
    r.pos = pos;
    r.layout = std::move(receiver);
    return r;
  }
};

// "an integer", "a layout", ... for messages.
std::string kind_name(const Value& v);

// Evaluation context: the input text (for error positions) and the parameter bindings.
struct Ctx {
  std::string_view text;
  const Env& env;

  [[noreturn]] void fail(std::string_view id, std::size_t pos, std::string msg, std::string note = {}) const {
    throw InputError(std::string(id), std::move(msg), std::string(text), pos, std::move(note));
  }
  // Runs f(); an InputError raised below the notation (by the layout model, a factory, a dtype
  // parser: no text, or a text of its own such as the dtype name) is re-attributed to `pos` in
  // this text, keeping its check id, message and note.
  template <class F>
  auto at(std::size_t pos, F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const InputError& e) {
      if (e.text() != text) throw InputError(e.check_id(), e.message(), std::string(text), pos, e.note());
      throw;
    }
  }

  // ---- conversions (notation_eval.cpp); each throws InputError at v.pos on a kind mismatch ----
  std::int64_t as_int(const Value& v, std::string_view what) const;
  bool as_bool(const Value& v, std::string_view what) const;
  std::string as_str(const Value& v, std::string_view what) const;
  Axis as_axis(const Value& v, std::string_view what) const;        // kAxis or an axis-name string
  Axis axis_by_name(std::string_view name, std::size_t pos) const;  // unknown -> layout.well-formed
  std::vector<std::int64_t> as_int_list(const Value& v, std::string_view what) const;
  Layout as_layout(const Value& v, std::string_view what) const;    // kLayout, kSpec, kSwizzle
  TileLayout as_tile(const Value& v, std::string_view what) const;  // a TileLayout only
  Layout spec_to_layout(const Spec& s, std::size_t pos) const;
};

// A call's arguments, bound to a signature (notation_calls.cpp uses this for every builtin).
struct Args {
  const Ctx& ctx;
  std::string_view func;
  std::size_t call_pos;
  std::vector<const Value*> slots;  // one per parameter, nullptr when not given

  // params: names in order; the first `max_positional` may be given positionally.
  // Throws for too many positional arguments, unknown or duplicated keywords.
  Args(const Ctx& c, std::string_view f, std::size_t pos, const std::vector<Value>& positional,
       const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::string>& params,
       std::size_t max_positional, const std::vector<std::size_t>& kw_pos);

  bool has(std::size_t i) const { return slots[i] != nullptr && slots[i]->kind != Value::Kind::kNone; }
  const Value& need(std::size_t i) const;  // throws "missing argument"
  std::vector<std::string> names;
};

// Built-in callables and attribute access (notation_calls.cpp).
bool is_builtin(std::string_view name);  // S, R, TileLayout, factories, namespaces (T, Axis, ...)
// `obj.name` for namespaces and layouts; nullopt when the attribute does not exist.
std::optional<Value> builtin_attr(const Ctx& ctx, const Value& obj, std::string_view name, std::size_t pos);
Value call_builtin(const Ctx& ctx, const Value& fn, std::size_t call_pos, const std::vector<Value>& positional,
                   const std::vector<std::pair<std::string, Value>>& keywords,
                   const std::vector<std::size_t>& kw_pos);

// Constructors shared by both files (notation_eval.cpp).
Value make_spec(const Ctx& ctx, bool shard, const Value& key, const Value* strides, std::size_t pos);
Iter make_iter(const Ctx& ctx, const Value& extent, const Value& stride, const Value& axis, std::size_t pos);

}  // namespace tirx::notation
