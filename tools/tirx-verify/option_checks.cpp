#include "option_checks.hpp"

#include <sys/stat.h>

#include <cctype>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace tirx::cli {

namespace {

constexpr const char* kRangeName = "tirx-range";

// Reads -?[0-9]+ (no sign when !allow_minus). Returns false for anything else; `value` is
// capped just past 2^64 so a long digit string cannot overflow the accumulator.
bool parse_decimal(const std::string& s, bool allow_minus, __int128& value) {
  std::size_t i = 0;
  bool neg = false;
  if (allow_minus && !s.empty() && s[0] == '-') neg = true, i = 1;
  if (i == s.size()) return false;
  const __int128 cap = static_cast<__int128>(1) << 65;
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (v < cap) v = v * 10 + (s[i] - '0');
  }
  value = neg ? -v : v;
  return true;
}

std::string shown(const std::string& s) { return escape_invalid_utf8(s); }

std::string i128_text(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string out;
  while (u) out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10))), u /= 10;
  return neg ? "-" + out : out;
}

CLI::Validator range_validator(__int128 lo, __int128 hi, bool allow_minus) {
  CLI::Validator v(
      [lo, hi, allow_minus](std::string& value) -> std::string {
        __int128 x = 0;
        if (!parse_decimal(value, allow_minus, x))
          return fmt::format("'{}' is not a decimal integer{} (expected one in [{}, {}])", shown(value),
                             allow_minus ? "" : " without a sign", i128_text(lo), i128_text(hi));
        if (x < lo || x > hi)
          return fmt::format("{} is out of range: the value must lie in [{}, {}]",
                             value.size() > 40 ? value.substr(0, 40) + "..." : value, i128_text(lo), i128_text(hi));
        value = i128_text(x);  // canonical decimal: CLI11 then neither reads octal nor saturates
        return {};
      },
      "", kRangeName);
  return v;
}

bool has_range(CLI::Option* opt) {
  try {
    opt->get_validator(kRangeName);
    return true;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}

void all_apps(CLI::App* app, std::vector<CLI::App*>& out) {
  out.push_back(app);
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) all_apps(sub, out);
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a && a->get_parent(); a = a->get_parent())
    path = a->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

std::string option_label(const CLI::Option* opt) {
  if (!opt->get_lnames().empty()) return "--" + opt->get_lnames().front();
  if (!opt->get_snames().empty()) return "-" + opt->get_snames().front();
  std::string name = opt->get_name(true);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// The options whose values are layout notation (their bad bytes are layout.syntax).
bool is_layout_option(const CLI::Option* opt) {
  if (!opt->nonpositional()) {
    const std::string n = opt->get_name(true);
    return n == "layout" || n == "a" || n == "b";
  }
  for (const auto& l : opt->get_lnames())
    if (l == "access") return true;
  return false;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void check_layout_is_not_a_file(const std::string& value, const std::string& label) {
  struct stat st {};
  if (value.find('\0') != std::string::npos || ::stat(value.c_str(), &st) != 0) return;
  if (ends_with(value, ".json") || (S_ISDIR(st.st_mode) && value.find('/') != std::string::npos))
    throw InputError("cli.usage",
                     fmt::format("{} '{}' names a {} on disk, not a layout", label, value,
                                 S_ISDIR(st.st_mode) ? "directory" : "file"),
                     value, 0, fmt::format("to check the kernel model(s) in it: tirx-verify run {}", value));
}

}  // namespace

CLI::Validator int_range(std::int64_t lo, std::int64_t hi) { return range_validator(lo, hi, true); }

CLI::Validator uint_range(std::uint64_t lo, std::uint64_t hi) { return range_validator(lo, hi, false); }

CLI::Validator int32_range() {
  return range_validator(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), true);
}

CLI::Validator int_choices(std::vector<std::int64_t> choices) {
  std::string list;
  for (std::int64_t c : choices) list += (list.empty() ? "" : ", ") + std::to_string(c);
  return CLI::Validator(
      [choices, list](std::string& value) -> std::string {
        __int128 x = 0;
        if (!parse_decimal(value, true, x)) return fmt::format("'{}' is not a decimal integer (one of {})", shown(value), list);
        for (std::int64_t c : choices)
          if (x == c) {
            value = std::to_string(c);
            return {};
          }
        return fmt::format("{} is not one of {}", value.size() > 40 ? value.substr(0, 40) + "..." : value, list);
      },
      "", kRangeName);
}

std::vector<std::string> harden_options(CLI::App& app) {
  std::vector<std::string> defaulted;
  std::vector<CLI::App*> apps;
  all_apps(&app, apps);
  const CLI::Validator non_empty(
      [](std::string& value) -> std::string { return value.empty() ? "an empty value is not allowed" : ""; }, "",
      "tirx-non-empty");
  // CLI11 hands an option's value the next argument, whatever it is: "--access --json" would
  // read "--json" as the layout (and the output would not be JSON).
  const CLI::Validator not_an_option(
      [](std::string& value) -> std::string {
        return value.rfind("--", 0) == 0 ? fmt::format("'{}' is an option, not a value (the value is missing)", shown(value))
                                         : "";
      },
      "", "tirx-not-an-option");
  // A FLOAT value: -?digits[.digits][(e|E)[+-]digits] (no hexadecimal floats, inf, nan, spaces).
  const CLI::Validator decimal_number(
      [](std::string& value) -> std::string {
        std::size_t i = 0;
        const auto digits = [&] {
          const std::size_t from = i;
          while (i < value.size() && value[i] >= '0' && value[i] <= '9') ++i;
          return i > from;
        };
        if (i < value.size() && value[i] == '-') ++i;
        bool ok = digits();
        if (ok && i < value.size() && value[i] == '.') ++i, ok = digits();
        if (ok && i < value.size() && (value[i] == 'e' || value[i] == 'E')) {
          ++i;
          if (i < value.size() && (value[i] == '+' || value[i] == '-')) ++i;
          ok = digits();
        }
        if (ok && i == value.size()) return "";
        return fmt::format("'{}' is not a decimal number (digits, an optional fraction and exponent)", shown(value));
      },
      "", "tirx-number");
  for (CLI::App* a : apps)
    for (CLI::Option* opt : a->get_options()) {
      if (opt->get_expected_max() == 0) {  // a flag: "--json=0", "--cross-check=2" are refused
        opt->disable_flag_override();
        continue;
      }
      if (opt->nonpositional()) opt->check(not_an_option);
      if (!is_layout_option(opt)) opt->check(non_empty);  // the notation reports empty text itself
      if (has_range(opt)) continue;
      const std::string type = opt->get_type_name();
      if (type.rfind("FLOAT", 0) == 0) {
        opt->check(decimal_number);  // the range is the option's own (e.g. start_budget)
        continue;
      }
      const bool is_uint = type.rfind("UINT", 0) == 0, is_int = type.rfind("INT", 0) == 0;
      if (!is_uint && !is_int) continue;
      opt->transform(is_uint ? uint_range(0) : int_range(std::numeric_limits<std::int64_t>::min()));
      defaulted.push_back(command_path(a) + " " + option_label(opt));
    }
  return defaulted;
}

void check_parsed_values(const CLI::App& app) {
  std::vector<const CLI::App*> todo{&app};
  for (std::size_t i = 0; i < todo.size(); ++i) {
    for (const CLI::App* sub : todo[i]->get_subcommands()) todo.push_back(sub);
    for (const CLI::Option* opt : todo[i]->get_options()) {
      const bool layout = is_layout_option(opt);
      const std::string label = option_label(opt);
      for (const std::string& value : opt->results()) {
        require_utf8(value, layout ? "layout.syntax" : "cli.usage",
                     fmt::format("{} of {}", label, command_path(todo[i]).empty() ? "tirx-verify" : command_path(todo[i])));
        if (layout) check_layout_is_not_a_file(value, label);
      }
    }
  }
}

}  // namespace tirx::cli
