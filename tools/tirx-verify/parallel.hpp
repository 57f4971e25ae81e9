// parallel_for: the kernels of `run` are independent, so `run --jobs N` loads and verifies them
// on N threads. Used only by cmd_run.cpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace tirx::cli {

// The default for --jobs: the machine's hardware threads (1 when unknown), at most 16.
inline unsigned default_jobs() { return std::clamp(std::thread::hardware_concurrency(), 1u, 16u); }

// Calls f(i) for every i in [0, n), on up to `jobs` threads (the calling thread is one of them;
// indices are handed out one at a time, so a slow kernel does not hold up the others). Every
// index runs even when another one throws; afterwards the exception of the LOWEST failing index
// is rethrown, so the command answers exactly as the serial loop would. A thread that cannot be
// started (std::system_error) leaves its share to the threads that did start. f must be safe to
// call concurrently for different i.
template <class F>
void parallel_for(std::size_t n, unsigned jobs, F&& f) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      try {
        f(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  const std::size_t extra = std::min<std::size_t>(jobs, n) > 1 ? std::min<std::size_t>(jobs, n) - 1 : 0;
  for (std::size_t t = 0; t < extra; ++t) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tirx::cli
