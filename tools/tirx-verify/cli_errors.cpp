#include "cli_errors.hpp"

#include <algorithm>
#include <limits>

#include <cctype>

#include <fmt/format.h>

#include "tirx_verify/layout/utf8.hpp"

namespace tirx::cli {

namespace {

// Optimal string alignment distance (Levenshtein plus swaps of neighbours).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string program_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a && a->get_parent(); a = a->get_parent())
    path = a->get_name() + (path.empty() ? "" : " " + path);
  return path.empty() ? "tirx-verify" : "tirx-verify " + path;
}

std::vector<CLI::App*> named_subcommands(CLI::App* app) {
  return app->get_subcommands([](CLI::App* s) { return !s->get_name().empty(); });
}

void all_apps(CLI::App* app, std::vector<CLI::App*>& out) {
  out.push_back(app);
  for (CLI::App* sub : named_subcommands(app)) all_apps(sub, out);
}

std::vector<std::string> option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app->get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::vector<std::string> positional_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app->get_options())
    if (!o->nonpositional()) {
      std::string n = o->get_name(true);
      for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      names.push_back(n);
    }
  return names;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool looks_like_option(const std::string& s) {
  if (s.size() < 2 || s[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.');  // -5, -.5 are values
}

// The innermost subcommand that was parsed (the app itself when none was).
CLI::App* innermost(CLI::App* app) {
  while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
  return app;
}

InputError unexpected(CLI::App* owner, const std::string& arg, const std::vector<CLI::App*>& apps) {
  const std::string where = program_path(owner);
  if (looks_like_option(arg)) {
    const std::string name = arg.substr(0, arg.find('='));
    std::string note = did_you_mean(suggestions(name, option_names(owner)));
    std::vector<std::string> elsewhere;
    for (CLI::App* a : apps) {
      if (a == owner) continue;
      const auto names = option_names(a);
      if (std::find(names.begin(), names.end(), name) != names.end()) elsewhere.push_back(program_path(a));
    }
    if (!elsewhere.empty())
      note += fmt::format("{}{} is an option of {}", note.empty() ? "" : "; ", name, join(elsewhere));
    if (note.empty()) note = fmt::format("'{} --help' lists the options", where);
    return InputError("cli.usage", fmt::format("unknown option '{}' for {}", name, where), arg, 0, note);
  }
  const auto subs = named_subcommands(owner);
  if (!subs.empty() && owner->get_subcommands().empty()) {
    std::vector<std::string> names;
    for (CLI::App* s : subs) names.push_back(s->get_name());
    std::string note = did_you_mean(suggestions(arg, names));
    if (note.empty()) note = "subcommands: " + join(names);
    return InputError("cli.usage",
                      owner->get_parent() ? fmt::format("unknown subcommand '{}' of {}", arg, where)
                                          : fmt::format("unknown subcommand '{}'", arg),
                      arg, 0, note);
  }
  const auto pos = positional_names(owner);
  return InputError("cli.usage", fmt::format("unexpected argument '{}' for {}", arg, where), arg, 0,
                    pos.empty() ? fmt::format("{} takes no positional arguments", where)
                                : fmt::format("{} takes the positional arguments {} (each once, in this order); "
                                              "quote a layout that contains spaces",
                                              where, join(pos)));
}

}  // namespace

std::vector<std::string> suggestions(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  const std::size_t limit = word.size() <= 4 ? 1 : 2;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d > limit || d == 0) continue;
    if (d < best_d) best.clear(), best_d = d;
    if (d == best_d && std::find(best.begin(), best.end(), c) == best.end()) best.push_back(c);
  }
  if (!best.empty() || word.size() < 3) return best;
  for (const auto& c : candidates)
    if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 &&
        std::find(best.begin(), best.end(), c) == best.end())
      best.push_back(c);
  return best;
}

std::string did_you_mean(const std::vector<std::string>& s) {
  if (s.empty()) return "";
  std::string out = "did you mean ";
  for (std::size_t i = 0; i < s.size(); ++i)
    out += fmt::format("{}'{}'", i == 0 ? "" : i + 1 == s.size() ? " or " : ", ", s[i]);
  return out + "?";
}

InputError usage_error(const CLI::ParseError& e, CLI::App& app, std::span<const std::string> args) {
  try {
    for (std::size_t i = 0; i < args.size(); ++i)
      if (const auto at = invalid_utf8_at(args[i]))
        return InputError("cli.usage",
                          fmt::format("argument {} is not valid UTF-8: byte 0x{:02x} at byte {}", i + 1,
                                      static_cast<unsigned char>(args[i][*at]), *at),
                          escape_invalid_utf8(args[i]), *at, "every argument must be UTF-8 text");

    // Arguments nobody took explain the most: an unknown option or subcommand, an extra value.
    std::vector<CLI::App*> apps;
    all_apps(&app, apps);
    // The leftmost argument nobody took. CLI11 does not keep positions: an option is placed at
    // its first unused occurrence, a value at its last (earlier equal values are the ones CLI11
    // consumed as positionals).
    std::vector<bool> used(args.size(), false);
    std::size_t best = args.size();
    CLI::App *owner = nullptr, *any_owner = nullptr;
    std::string any_extra;
    for (CLI::App* a : apps)
      for (const std::string& extra : a->remaining(false)) {
        if (!any_owner) any_owner = a, any_extra = extra;
        const bool option = looks_like_option(extra);
        for (std::size_t k = 0; k < args.size(); ++k) {
          const std::size_t i = option ? k : args.size() - 1 - k;
          if (used[i] || args[i] != extra) continue;
          used[i] = true;
          if (i < best) best = i, owner = a;
          break;
        }
      }
    if (owner) return unexpected(owner, args[best], apps);
    if (any_owner) return unexpected(any_owner, any_extra, apps);  // CLI11 split it ("-v=1" -> "-=1")

    CLI::App* at = innermost(&app);
    const std::string where = program_path(at);
    const std::string help = fmt::format("'{} --help' shows the usage", where);
    if (e.get_name() == "RequiredError" && at->get_require_subcommand_min() > 0 && at->get_subcommands().empty()) {
      std::vector<std::string> names;
      for (CLI::App* s : named_subcommands(at)) names.push_back(s->get_name());
      return InputError("cli.usage", fmt::format("{} needs a subcommand: {}", where, join(names)), {}, std::nullopt,
                        help);
    }
    if (e.get_name() == "RequiredError" && app.get_subcommands().empty())
      return InputError("cli.usage", "no subcommand given", {}, std::nullopt,
                        "subcommands: apply, print, check, run, equiv, info, sim, fuzz, audit, extract; 'tirx-verify --help' shows the usage");
    if (e.get_name() == "ArgumentMismatch") {
      const std::string what = e.what();
      if (what.find(" was given a disallowed flag override") != std::string::npos) {
        std::string flag = what.substr(0, what.find(' '));
        if (flag.rfind("-", 0) != 0) flag = (flag.size() == 1 ? "-" : "--") + flag;
        return InputError("cli.usage", fmt::format("the flag {} of {} takes no value", flag, where), {},
                          std::nullopt, fmt::format("write {} alone", flag));
      }
      const std::string option = what.substr(0, what.find(':'));
      if (what.find("At Most") != std::string::npos)
        return InputError("cli.usage", fmt::format("option {} of {} is given more than once ({})", option, where, what),
                          {}, std::nullopt, "give it once");
      if (what.find("missing") != std::string::npos)
        return InputError("cli.usage", fmt::format("option {} of {} needs a value ({})", option, where, what), {},
                          std::nullopt, help);
      return InputError("cli.usage", fmt::format("{}: {}", where, what), {}, std::nullopt, help);
    }
    return InputError("cli.usage", fmt::format("{}: {}", where, e.what()), {}, std::nullopt, help);
  } catch (const std::exception& inner) {
    return InputError("cli.usage", fmt::format("bad command line: {}", inner.what()));
  }
}

}  // namespace tirx::cli
