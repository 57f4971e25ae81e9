// Internal: turning the symbolic engine's answers (symbolic_internal.hpp) into CheckResults —
// the counterexample binding minimized, then re-checked by the concrete check at that binding.
// Shared by check_symbolic.cpp (the layout checks) and check_symbolic_pairs.cpp (tmem.partition,
// tmem.datapath, layout.equivalent). No Z3 types here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "symbolic_internal.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace tirx::prove::symres {

// What a result needs besides the answer: the ranges, the limits, the concrete input of one
// binding (throws InputError for a binding that is not a valid input).
struct Context {
  const std::vector<ParamRange>& params;
  const EngineLimits& limits;
  const std::function<CheckInput(const Env&)>& at;
};

// One symbolic query over a box of bindings (narrowed ranges) under given limits.
using Query = std::function<symbolic::Answer(const std::vector<ParamRange>&, const EngineLimits&)>;
using ConcreteCheck = std::function<CheckResult(const CheckInput&)>;

// "N=8..4096:8 (512 bindings)".
std::string ranges_text(const std::vector<ParamRange>& ranges);
// "N=8, M=3".
std::string binding_text(const Env& env);
// The concrete result at `binding`, its message prefixed with the binding and witness.params set.
CheckResult at_binding(CheckResult r, const Env& binding);
// The first 8 bindings in odometer order, then the corners of the box (at most 16).
std::vector<Env> sample_bindings(const std::vector<ParamRange>& ranges);
// The concrete check at the sample bindings: the first failure (engine "sample+<engine>",
// marked with its binding), or nullopt. A binding that is not a valid input is skipped.
std::optional<CheckResult> sample_failure(const Context& c, const ConcreteCheck& run);
// The concrete check at the sample bindings; a failure there becomes a kFail answer at its
// binding (for from_answer to minimize and re-check), else `query` over all of c.params.
symbolic::Answer sampled_or_query(const Context& c, const ConcreteCheck& run, const Query& query);
// The failing binding with the smallest parameter values in --param order, starting from the
// failing binding `best` (bisection on each parameter's index with `query`; at most a quarter of
// the Z3 time; on a limit the best binding so far, still a failing one).
Env minimize(const Context& c, Env best, const Query& query);
// kPass: "for all <ranges>: <pass_message> (<solver note>)"; kFail: minimized (bisection per
// parameter in --param order, at most a quarter of the Z3 time) and confirmed by `run` at the
// binding (a concrete pass there: undecided "ENGINES DISAGREE"; a concrete undecided: undecided
// naming it); kUndecided: the answer's limit.
CheckResult from_answer(const Context& c, const std::string& id, const symbolic::Answer& a,
                        const std::string& pass_message, const ConcreteCheck& run, const Query& query);
// A result with status, engine "z3-symbolic" and message.
CheckResult plain(const std::string& id, Status status, std::string message);

// tmem.partition / tmem.datapath for every binding (check_symbolic_pairs.cpp; the scheme in
// prove/symbolic.hpp). `in0`: the first binding's input; `first`: tmem.datapath's concrete result
// there (pass, fail or undecided).
CheckResult tmem_partition_all(const SymbolicInput& in, const CheckInput& in0);
CheckResult tmem_datapath_all(const SymbolicInput& in, const CheckInput& in0, const CheckResult& first);
// A concrete layout as a symbolic one whose every integer is a constant.
SymLayout constant_layout(const Layout& l);

}  // namespace tirx::prove::symres
