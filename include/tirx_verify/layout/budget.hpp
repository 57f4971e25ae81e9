// tirx_verify/layout/budget.hpp — the time and memory one command may spend.
//
// Every subcommand that computes (check, equiv, run, apply, sim, fuzz, print) runs under one
// Budget: a wall-clock deadline for the whole command (--time-limit SECONDS, default 60 s) and
// a memory allowance (--memory-limit MB, default min(4096 MB, half of physical memory)). The
// work itself enforces it, where the cost is:
//
//   loop / structure                          time                       memory
//   enumeration sweeps (enum engine)          Pacer, every 2^16 points   owner array / hash map charged
//   bank-conflict and TMEM access sweeps      Pacer                      per-slot tables charged
//   witness construction (image sets)         Pacer                      the sets charged
//   Z3 queries                                the time that is left      (Z3's own memory ceiling)
//   output documents (apply, equiv)           Pacer                      the listing charged
//
// A budget that runs out throws BudgetExceeded, which the check (or the CLI) turns into the
// answer "undecided" (exit 3) naming the budget and how far the work got:
//
//   time limit of 60 s reached in layout.injective (enumeration, 1.2e9 of 4.0e9 points)
//   memory limit of 4096 MB reached in layout.equivalent (witness image sets: 2 x 268435456 images need 8192 MB)
//
// Memory is accounted, not measured: a structure that grows with the input asks `charge()`
// for its size BEFORE allocating it; the charge is returned when the MemoryCharge is
// destroyed. std::bad_alloc (an allocation nobody charged, or the process limit the CLI sets
// a little above the budget) is caught by the same handlers and reported the same way.
//
// A Budget is a small mutable value owned by the command; everything else holds a pointer
// (EngineLimits::budget). A null pointer means "unlimited" (library callers, unit tests).
// Thread-safe: the deadline is read-only after construction and charges are atomic, so the
// threads of `run --jobs` share the command's one budget (time and memory for all of them).
//
// A budget can also be interrupted from another thread (interrupt(): the Python module does it
// on Ctrl-C). Every loop that checks the deadline then stops as if time had run out, with the
// limit named "interrupt"; a Z3 query in flight is stopped through the hook its Session
// registers (InterruptHook). So an interrupt takes effect within one Pacer stride or one Z3
// cancellation, milliseconds in practice.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tirx {

enum class BudgetKind { kTime, kMemory };

// Thrown when a budget runs out. `limit()` names the budget ("time limit of 60 s"),
// `where()` what was being done and how far it got ("enumeration, 1.2e9 of 4.0e9 points").
class BudgetExceeded : public std::runtime_error {
 public:
  BudgetExceeded(BudgetKind kind, std::string limit, std::string where);
  BudgetKind kind() const { return kind_; }
  const std::string& limit() const { return limit_; }
  const std::string& where() const { return where_; }
  // "<limit> reached in <context> (<where>)"; `context` is a check id or a subcommand name
  // (empty: "<limit> reached (<where>)").
  std::string describe(std::string_view context) const;

 private:
  BudgetKind kind_;
  std::string limit_, where_;
};

class Budget;

// Memory charged against a Budget; returned when destroyed (move-only). `grow()` charges more
// (e.g. a hash table that doubles); it throws BudgetExceeded like Budget::charge.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;
  MemoryCharge(MemoryCharge&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.budget_ = nullptr, o.bytes_ = 0; }
  MemoryCharge& operator=(MemoryCharge&& o) noexcept;
  ~MemoryCharge() { release(); }
  // Charges `bytes` more (>= 0) for `what` (a phrase for the message).
  void grow(std::int64_t bytes, std::string_view what);
  void release();
  std::int64_t bytes() const { return bytes_; }

 private:
  friend class Budget;
  MemoryCharge(Budget* b, std::int64_t bytes) : budget_(b), bytes_(bytes) {}
  Budget* budget_ = nullptr;
  std::int64_t bytes_ = 0;
};

class Budget {
 public:
  static constexpr double kDefaultSeconds = 60;
  // The default memory allowance in megabytes: min(4096, half of the machine's physical memory),
  // at least 256.
  static std::int64_t default_memory_mb();
  // Physical memory of the machine in megabytes (sysconf), 0 if unknown.
  static std::int64_t physical_memory_mb();

  // Unlimited time and memory.
  Budget();
  // `seconds` > 0 of wall time from now (infinity: no deadline); `memory_bytes` > 0
  // (INT64_MAX: no memory limit). Throws std::invalid_argument on values out of range.
  Budget(double seconds, std::int64_t memory_bytes);

  // ---- time ----
  bool has_deadline() const { return has_deadline_; }
  double time_limit_seconds() const { return seconds_; }
  double elapsed_seconds() const;
  // Seconds until the deadline (>= 0); +infinity without one.
  double seconds_left() const;
  bool expired() const;
  // Throws BudgetExceeded(kTime) when the deadline has passed; `where()` is called only then.
  void check_time(const std::function<std::string()>& where) const;
  // "time limit of 60 s" (or "interrupt" once interrupted)
  std::string time_text() const;

  // ---- interruption (thread-safe; any thread) ----
  // Makes expired() true from now on (seconds_left() 0) and calls every registered hook once.
  void interrupt();
  bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }

  // ---- memory ----
  std::int64_t memory_limit_bytes() const { return memory_bytes_; }
  std::int64_t memory_charged_bytes() const { return charged_.load(std::memory_order_relaxed); }
  std::int64_t memory_left_bytes() const { return memory_bytes_ - memory_charged_bytes(); }
  bool fits(std::int64_t bytes) const { return bytes >= 0 && bytes <= memory_left_bytes(); }
  // Charges `bytes` (>= 0; negative or overflowing sizes count as "too much") for `what`;
  // throws BudgetExceeded(kMemory) "memory limit of 4096 MB" / "<what> needs N MB, M MB left"
  // when it does not fit.
  MemoryCharge charge(std::int64_t bytes, std::string_view what);
  // "memory limit of 4096 MB"
  std::string memory_text() const;
  // The BudgetExceeded for an allocation that failed (std::bad_alloc) while doing `what`.
  BudgetExceeded out_of_memory(std::string_view what) const;

 private:
  friend class MemoryCharge;
  void give_back(std::int64_t bytes) { charged_.fetch_sub(bytes, std::memory_order_relaxed); }
  std::chrono::steady_clock::time_point start_;
  bool has_deadline_ = false;
  double seconds_ = 0;
  std::int64_t memory_bytes_ = INT64_MAX;
  std::atomic<std::int64_t> charged_{0};  // atomic: `run --jobs` verifies kernels on several threads
  std::atomic<bool> interrupted_{false};
  friend class InterruptHook;
  std::mutex hooks_mu_;
  std::vector<std::function<void()>*> hooks_;
};

// While alive, Budget::interrupt() calls `on_interrupt` (from the interrupting thread); used to
// cancel work that does not poll the budget (a Z3 query: z3::context::interrupt). A null budget
// registers nothing. If the budget is already interrupted, `on_interrupt` runs at once.
class InterruptHook {
 public:
  InterruptHook(Budget* b, std::function<void()> on_interrupt);
  InterruptHook(const InterruptHook&) = delete;
  InterruptHook& operator=(const InterruptHook&) = delete;
  ~InterruptHook();

 private:
  Budget* budget_;
  std::function<void()> fn_;
};

// Null-safe helpers for code that holds a `Budget*` (nullptr = unlimited).
inline void check_time(const Budget* b, const std::function<std::string()>& where) {
  if (b) b->check_time(where);
}
// Charges on `b`, or returns an empty charge when b is null.
MemoryCharge charge(Budget* b, std::int64_t bytes, std::string_view what);
// b->out_of_memory(what), or the same answer of an unlimited budget when b is null.
BudgetExceeded out_of_memory(const Budget* b, std::string_view what);

// Checks the deadline cheaply from a hot loop: step() counts, and every 2^16 steps reads the
// clock; when the deadline has passed it throws BudgetExceeded whose where() reads
// "<what>, <done> of <total> <unit>" (numbers in %.2g form).
class Pacer {
 public:
  static constexpr std::int64_t kStride = std::int64_t{1} << 16;
  Pacer(const Budget* b, std::string what, double total, std::string unit = "points")
      : budget_(b), what_(std::move(what)), unit_(std::move(unit)), total_(total) {}
  void step() {
    if (++done_ % kStride == 0) poll();
  }
  // Counts `n` steps at once (for loops whose body is itself O(n)).
  void step(std::int64_t n) {
    const std::int64_t before = done_ / kStride;
    done_ += n;
    if (done_ / kStride != before) poll();
  }
  std::int64_t done() const { return done_; }
  // Reads the clock now.
  void poll() const;
  // "<what>, <done> of <total> <unit>"
  std::string progress() const;

 private:
  const Budget* budget_;
  std::string what_, unit_;
  double total_;
  std::int64_t done_ = 0;
};

// 1234567890 -> "1.2e9", 65536 -> "65536" (counts up to 10^6 are written in full).
std::string count_text(double n);

}  // namespace tirx
