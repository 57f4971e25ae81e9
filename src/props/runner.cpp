// Running one property through RapidCheck with explicit parameters (properties.hpp).
#include <chrono>
#include <sstream>

#include <rapidcheck.h>

#include "tirx_verify/props/properties.hpp"

namespace tirx::props {

namespace {

// Counts finished cases for progress output; prints nothing itself.
class ProgressListener : public rc::detail::TestListener {
 public:
  explicit ProgressListener(const std::function<void(int)>& cb) : cb_(cb) {}
  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    if (d.result.type != rc::detail::CaseResult::Type::Success) return;
    ++done_;
    if (cb_) cb_(done_);
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

 private:
  const std::function<void(int)>& cb_;
  int done_ = 0;
};

std::string reproduce_line(const std::string& description) {
  const std::string key = "reproduce: ";
  const auto at = description.rfind(key);
  if (at == std::string::npos) return {};
  const auto end = description.find('\n', at);
  return description.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
}

}  // namespace

RunResult run_property(const Property& p, const RunOptions& opt) {
  rc::detail::TestParams params;
  params.seed = opt.seed;
  params.maxSuccess = opt.cases;
  params.maxSize = opt.max_size;
  params.disableShrinking = !opt.shrink;
  rc::detail::TestMetadata meta;
  meta.id = std::string(p.name);
  meta.description = std::string(p.description);
  ProgressListener listener(opt.on_case);
  const auto t0 = std::chrono::steady_clock::now();
  const rc::detail::TestResult result =
      rc::detail::checkProperty(rc::detail::toProperty(p.body), meta, params, listener, {});
  RunResult out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (result.is<rc::detail::SuccessResult>()) {
    const auto& ok = result.get<rc::detail::SuccessResult>();
    out.passed = true;
    out.cases = ok.numSuccess;
    for (const auto& [tags, count] : ok.distribution) {
      std::string t;
      for (std::string tag : tags) {
        if (tag.size() >= 2 && tag.front() == '"' && tag.back() == '"') tag = tag.substr(1, tag.size() - 2);
        t += (t.empty() ? "" : ", ") + tag;
      }
      out.distribution.emplace_back(t, count);
    }
  } else if (result.is<rc::detail::FailureResult>()) {
    const auto& f = result.get<rc::detail::FailureResult>();
    out.cases = f.numSuccess;
    out.failure = f.description;
    // RapidCheck prefixes "<file>:<line>:\nRC_FAIL(<expression>)\n\n": keep only the message.
    if (const auto cut = out.failure.find(")\n\n"); out.failure.find("RC_FAIL(") != std::string::npos && cut != std::string::npos)
      out.failure = out.failure.substr(cut + 3);
    out.counterexample = f.counterExample;
    out.reproduce = reproduce_line(out.failure);
    if (const auto at = out.failure.rfind("\nreproduce: "); at != std::string::npos) out.failure.erase(at);
  } else {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    out.failure = ss.str();
  }
  return out;
}

std::string shell_quote(std::string_view s) {
  std::string r = "'";
  for (char c : s) {
    if (c == '\'')
      r += "'\\''";
    else
      r += c;
  }
  return r + "'";
}

}  // namespace tirx::props
