// run_cli in-process (tools/tirx-verify/run_cli.hpp): the contract for any arguments, the
// command-line error mapping with suggestions (cli_errors.hpp), and the option checks
// (option_checks.hpp).
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_errors.hpp"
#include "option_checks.hpp"
#include "run_cli.hpp"

namespace tirx::cli {
namespace {

struct Outcome {
  int rc;
  std::string out, err;
};

Outcome run(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int rc = run_cli(args, out, err);
  return {rc, out.str(), err.str()};
}

nlohmann::json json_of(const Outcome& r) {
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(RunCli, ChecksALayoutInProcess) {
  const Outcome r = run({"check", "S[8:1]", "--json"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(json_of(r)["checks"][0]["id"], "layout.well-formed");
}

TEST(RunCli, TheStreamsAreTheCallersAndAreRestored) {
  std::streambuf* before = std::cout.rdbuf();
  const Outcome r = run({"print", "S[8:1]"});
  EXPECT_EQ(r.out, "S[8:1]\n");
  EXPECT_EQ(std::cout.rdbuf(), before);
  const Outcome again = run({"print", "S[4:2]"});  // a second call in one process
  EXPECT_EQ(again.out, "S[4:2]\n");
}

TEST(RunCli, BadBytesAreDiagnosticsAndJsonStaysValid) {
  Outcome r = run({"check", "S[8:1@\xff]", "--json"});
  EXPECT_EQ(r.rc, 2);
  nlohmann::json j = json_of(r);
  EXPECT_EQ(j["error"]["id"], "layout.syntax");
  EXPECT_EQ(j["error"]["pos"], 6);
  r = run({"check", "S[8:1]", "--dtype", "f\xc3", "--json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(json_of(r)["error"]["id"], "cli.usage");
  r = run({"--sc\xffpe", "--json"});
  EXPECT_EQ(json_of(r)["error"]["message"], "argument 1 is not valid UTF-8: byte 0xff at byte 4");
}

TEST(RunCli, ANulByteIsUsage) {
  const Outcome r = run({"check", std::string("S[8:1]\0x", 8), "--json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(json_of(r)["error"]["message"], "argument 2 contains a NUL byte at byte 6");
}

TEST(RunCli, ParserErrorsAreUsageWithSuggestionsInTextAndJson) {
  Outcome r = run({"chek", "S[8:1]"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("error[cli.usage]: unknown subcommand 'chek'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'check'?"), std::string::npos);
  r = run({"check", "S[8:1]", "--scoep", "shared", "--json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(json_of(r)["error"]["note"], "did you mean '--scope'?");
  r = run({"check", "S[8:1]", "--shape"});
  EXPECT_NE(r.err.find("option --shape of tirx-verify check needs a value"), std::string::npos) << r.err;
  r = run({"equiv", "S[8:1]", "--json"});
  EXPECT_EQ(json_of(r)["error"]["id"], "cli.usage");
  r = run({});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("error[cli.usage]: no subcommand given"), std::string::npos);
}

TEST(RunCli, HelpAndVersionAreJsonUnderJson) {
  Outcome r = run({"check", "--help", "--json"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(json_of(r)["help"].get<std::string>().find("--scope"), std::string::npos);
  r = run({"--version", "--json"});
  EXPECT_EQ(json_of(r)["version"], "tirx-verify 0.2.0");
  r = run({"--list-checks", "--json"});
  EXPECT_EQ(json_of(r)["checks"][0]["id"], "layout.syntax");
}

TEST(RunCli, IntegersNeitherWrapNorSaturate) {
  for (const char* v : {"-1", "99999999999999999999999", "0x10", "1e3", " 5", "+5", ""}) {
    const Outcome r = run({"fuzz", "--seed", v, "--cases", "1", "--property", "swizzle.bijection", "--json"});
    EXPECT_EQ(r.rc, 2) << v;
    EXPECT_EQ(json_of(r)["error"]["id"], "cli.usage") << v;
  }
  const Outcome octal = run({"fuzz", "--seed", "010", "--cases", "1", "--property", "swizzle.bijection", "--json"});
  EXPECT_EQ(octal.rc, 0);
  EXPECT_EQ(json_of(octal)["seed"], 10);  // decimal, not octal 8
}

TEST(RunCli, EveryIntegerOptionStatesItsRange) {
  // The only exception: --memory-limit (cli_budget.cpp), whose range [16, 2^24] MB start_budget
  // checks itself; the default range still keeps it from wrapping or saturating.
  for (const std::string& o : integer_options_without_range())
    EXPECT_NE(o.find(" --memory-limit"), std::string::npos) << o << " has no range of its own";
  // What harden_options reports for an option without a range of its own.
  CLI::App app;
  int value = 0;
  app.add_option("--unranged", value);
  app.add_option("--ranged", value)->transform(int_range(1, 5));
  EXPECT_EQ(harden_options(app), std::vector<std::string>{" --unranged"});
}

TEST(CliErrors, Suggestions) {
  const std::vector<std::string> subs = {"apply", "print", "check", "run", "equiv", "sim", "fuzz"};
  EXPECT_EQ(suggestions("chek", subs), std::vector<std::string>{"check"});
  EXPECT_EQ(suggestions("Check", subs), std::vector<std::string>{"check"});
  EXPECT_EQ(suggestions("rn", subs), std::vector<std::string>{"run"});
  EXPECT_EQ(suggestions("eqiuv", subs), std::vector<std::string>{"equiv"});  // a swap is one edit
  EXPECT_TRUE(suggestions("verify", subs).empty());
  EXPECT_TRUE(suggestions("check", subs).empty());  // an exact name is no suggestion
  const std::vector<std::string> opts = {"--alloc-cols", "--alloc-elems", "--scope", "--shape"};
  EXPECT_EQ(suggestions("--scoep", opts), std::vector<std::string>{"--scope"});
  EXPECT_EQ(suggestions("--alloc", opts), (std::vector<std::string>{"--alloc-cols", "--alloc-elems"}));
  EXPECT_EQ(did_you_mean({"a", "b", "c"}), "did you mean 'a', 'b' or 'c'?");
  EXPECT_EQ(did_you_mean({}), "");
}

TEST(OptionChecks, RangeTransformCanonicalizes) {
  CLI::App app;
  std::int64_t v = 0;
  app.add_option("--n", v)->transform(int_range(-5, 100));
  app.parse(std::vector<std::string>{"007", "--n"});
  EXPECT_EQ(v, 7);
  EXPECT_THROW(app.parse(std::vector<std::string>{"101", "--n"}), CLI::ValidationError);
  EXPECT_THROW(app.parse(std::vector<std::string>{"-6", "--n"}), CLI::ValidationError);
  app.parse(std::vector<std::string>{"-5", "--n"});
  EXPECT_EQ(v, -5);
  CLI::App u;
  std::uint64_t w = 0;
  u.add_option("--u", w)->transform(uint_range(0));
  u.parse(std::vector<std::string>{"18446744073709551615", "--u"});
  EXPECT_EQ(w, 18446744073709551615u);
  EXPECT_THROW(u.parse(std::vector<std::string>{"-1", "--u"}), CLI::ValidationError);
  CLI::App c;
  int b = 0;
  c.add_option("--b", b)->transform(int_choices({4, 8, 16}));
  c.parse(std::vector<std::string>{"16", "--b"});
  EXPECT_EQ(b, 16);
  EXPECT_THROW(c.parse(std::vector<std::string>{"12", "--b"}), CLI::ValidationError);
}

}  // namespace
}  // namespace tirx::cli
