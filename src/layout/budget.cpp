// The time and memory budget of one command (budget.hpp).
#include "tirx_verify/layout/budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace tirx {

namespace {

constexpr std::int64_t kMb = std::int64_t{1} << 20;

std::string seconds_text(double s) {
  if (s == std::floor(s) && s < 1e15) return fmt::format("{:.0f} s", s);
  return fmt::format("{:g} s", s);
}

std::string mb_text(std::int64_t bytes) {
  if (bytes % kMb == 0) return fmt::format("{} MB", bytes / kMb);
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / static_cast<double>(kMb));
}

}  // namespace

BudgetExceeded::BudgetExceeded(BudgetKind kind, std::string limit, std::string where)
    : std::runtime_error(limit + " reached (" + where + ")"), kind_(kind), limit_(std::move(limit)), where_(std::move(where)) {}

std::string BudgetExceeded::describe(std::string_view context) const {
  if (limit_ == "interrupt") {  // Budget::interrupt(): not a limit that was reached
    if (context.empty()) return fmt::format("interrupted ({})", where_);
    return fmt::format("interrupted in {} ({})", context, where_);
  }
  if (context.empty()) return fmt::format("{} reached ({})", limit_, where_);
  return fmt::format("{} reached in {} ({})", limit_, context, where_);
}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void MemoryCharge::grow(std::int64_t bytes, std::string_view what) {
  if (!budget_) return;
  MemoryCharge more = budget_->charge(bytes, what);
  bytes_ += more.bytes_;
  more.budget_ = nullptr;  // now part of this charge
  more.bytes_ = 0;
}

void MemoryCharge::release() {
  if (budget_) budget_->give_back(bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

std::int64_t Budget::physical_memory_mb() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::int64_t>(pages) * page / kMb;
}

std::int64_t Budget::default_memory_mb() {
  const std::int64_t phys = physical_memory_mb();
  if (phys <= 0) return 4096;
  return std::max<std::int64_t>(256, std::min<std::int64_t>(4096, phys / 2));
}

Budget::Budget() : start_(std::chrono::steady_clock::now()) {}

Budget::Budget(double seconds, std::int64_t memory_bytes) : start_(std::chrono::steady_clock::now()) {
  if (!(seconds > 0)) throw std::invalid_argument("Budget: the time limit must be > 0 seconds");
  if (memory_bytes <= 0) throw std::invalid_argument("Budget: the memory limit must be > 0 bytes");
  has_deadline_ = std::isfinite(seconds);
  seconds_ = seconds;
  memory_bytes_ = memory_bytes;
}

double Budget::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Budget::seconds_left() const {
  if (interrupted()) return 0;
  if (!has_deadline_) return std::numeric_limits<double>::infinity();
  return std::max(0.0, seconds_ - elapsed_seconds());
}

bool Budget::expired() const { return interrupted() || (has_deadline_ && elapsed_seconds() >= seconds_); }

void Budget::check_time(const std::function<std::string()>& where) const {
  if (expired()) throw BudgetExceeded(BudgetKind::kTime, time_text(), where ? where() : std::string("work"));
}

std::string Budget::time_text() const {
  if (interrupted()) return "interrupt";
  return has_deadline_ ? "time limit of " + seconds_text(seconds_) : std::string("no time limit");
}

std::string Budget::memory_text() const {
  return memory_bytes_ == INT64_MAX ? std::string("the machine's memory limit") : "memory limit of " + mb_text(memory_bytes_);
}

MemoryCharge Budget::charge(std::int64_t bytes, std::string_view what) {
  // Compare-and-swap, so threads charging at once never take more than the limit together.
  std::int64_t cur = charged_.load(std::memory_order_relaxed);
  do {
    if (bytes < 0 || bytes > memory_bytes_ - cur)
      throw BudgetExceeded(BudgetKind::kMemory, memory_text(),
                           fmt::format("{} needs {}, {} left", what,
                                       bytes < 0 ? std::string("more than 8 EB") : mb_text(bytes),
                                       mb_text(memory_bytes_ - cur)));
  } while (!charged_.compare_exchange_weak(cur, cur + bytes, std::memory_order_relaxed));
  return MemoryCharge(this, bytes);
}

BudgetExceeded Budget::out_of_memory(std::string_view what) const {
  return BudgetExceeded(BudgetKind::kMemory, memory_text(), fmt::format("{}: an allocation failed", what));
}

void Budget::interrupt() {
  interrupted_.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(hooks_mu_);
  for (auto* h : hooks_) (*h)();
}

InterruptHook::InterruptHook(Budget* b, std::function<void()> on_interrupt) : budget_(b), fn_(std::move(on_interrupt)) {
  if (!budget_) return;
  std::lock_guard<std::mutex> lock(budget_->hooks_mu_);
  budget_->hooks_.push_back(&fn_);
  if (budget_->interrupted()) fn_();
}

InterruptHook::~InterruptHook() {
  if (!budget_) return;
  std::lock_guard<std::mutex> lock(budget_->hooks_mu_);
  std::erase(budget_->hooks_, &fn_);
}

MemoryCharge charge(Budget* b, std::int64_t bytes, std::string_view what) {
  if (!b) return MemoryCharge();
  return b->charge(bytes, what);
}

void Pacer::poll() const {
  if (budget_ && budget_->expired()) throw BudgetExceeded(BudgetKind::kTime, budget_->time_text(), progress());
}

std::string Pacer::progress() const {
  return fmt::format("{}, {} of {} {}", what_, count_text(static_cast<double>(done_)), count_text(total_), unit_);
}

std::string count_text(double n) {
  if (!std::isfinite(n)) return "inf";
  if (n < 1e6 && n == std::floor(n)) return fmt::format("{:.0f}", n);
  if (n < 1e6) return fmt::format("{:.2g}", n);
  int exp = static_cast<int>(std::floor(std::log10(n)));
  double mant = std::round(n / std::pow(10.0, exp) * 10) / 10;
  if (mant >= 10) mant /= 10, ++exp;
  return fmt::format("{:.1f}e{}", mant, exp);
}

BudgetExceeded out_of_memory(const Budget* b, std::string_view what) {
  return b ? b->out_of_memory(what) : Budget().out_of_memory(what);
}

}  // namespace tirx
