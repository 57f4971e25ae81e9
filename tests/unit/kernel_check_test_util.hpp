// Runs kernel checks on a model given as JSON text (tests of src/kernel/checks).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::test {

// A parsed model with its graph, target and context (addresses stay stable).
struct Loaded {
  KernelModel model;
  KernelGraph graph;
  hw::Target target;
  KernelContext ctx;
};

inline std::unique_ptr<Loaded> load(const std::string& text) {
  auto l = std::make_unique<Loaded>();
  l->model = parse_model(text, "test.json");
  l->graph = build_graph(l->model);
  l->target = hw::load_target(l->model.target);
  l->ctx = make_context(l->model, l->graph, l->target, prove::EngineLimits{});
  return l;
}

// The findings of check `id` about `subject`.
inline std::vector<KernelFinding> findings(const Loaded& l, std::string_view id, std::string_view subject) {
  std::vector<KernelFinding> out;
  for (auto& f : find_kernel_check(id)->run(l.ctx))
    if (f.subject == subject) out.push_back(f);
  return out;
}

inline KernelFinding the_finding(const Loaded& l, std::string_view id, std::string_view subject) {
  auto fs = findings(l, id, subject);
  EXPECT_EQ(fs.size(), 1u) << id << " " << subject;
  return fs.empty() ? KernelFinding{} : fs.front();
}

// Loading `text` must fail with a model.schema error naming ops[0] and containing `what`.
inline void expect_model_error(const std::string& text, const std::string& what) {
  try {
    load(text);
    ADD_FAILURE() << "accepted: " << what;
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "model.schema");
    EXPECT_NE(e.message().find("ops[0]"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
  }
}

}  // namespace tirx::kernel::test
