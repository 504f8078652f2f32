// Work distribution over a fixed number of worker threads.
//
// ParallelFor hands out indices dynamically; results must be written to per-index slots so that
// the outcome never depends on the thread count or on scheduling.
//   std::vector<Summary> out(n);
//   ParallelFor(n, threads, [&](size_t i) { out[i] = Summarize(i); });
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace cw {

// The CPUs this process may run on: its affinity mask, which a launcher's binding (mpirun binds
// each of one or two ranks to one core by default), taskset or a cgroup's cpuset narrow; at
// least 1.
unsigned UsableCpuCount();
// All the CPUs of the machine, whether this process may use them or not; at least 1.
unsigned MachineCpuCount();

// The number of worker threads to use when the user did not say: the CPUs this process may run
// on.
unsigned DefaultThreadCount();

template <typename Fn>
void ParallelFor(size_t count, unsigned threads, Fn&& fn) {
  if (threads <= 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) fn(i);
  };
  size_t spawn = std::min<size_t>(threads, count) - 1;
  std::vector<std::thread> pool;
  pool.reserve(spawn);
  for (size_t t = 0; t < spawn; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
}

}  // namespace cw
