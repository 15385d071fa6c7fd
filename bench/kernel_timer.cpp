// A Kokkos Tools library that says where a run's device time goes, kernel by kernel: for each
// kernel name its launches and seconds, for each profiling region (apsp::supernodal_factor, ...)
// its wall seconds, the kernel launches and seconds inside it, its allocations and deep copies.
// No Kokkos headers: the tools interface is C (Kokkos 3.4 ... 5.x). Built by hand on the node:
//   g++ -O2 -shared -fPIC bench/kernel_timer.cpp -o kernel_timer.so
// and loaded by Kokkos (3.4 reads KOKKOS_PROFILE_LIBRARY, 4 and later KOKKOS_TOOLS_LIBS):
//   KOKKOS_PROFILE_LIBRARY=$PWD/kernel_timer.so KERNEL_TIMER_OUT=report.txt
//   CUDA_LAUNCH_BLOCKING=1 apsp ...
// Kokkos does not fence around kernels for a tool: with CUDA_LAUNCH_BLOCKING=1 each launch
// returns when its kernel is done, so a kernel's seconds are its launch and its run; without it
// they are the launch alone. Allocations and frees are counted (each a cudaMalloc or cudaFree on
// a GPU, a free synchronizing the device).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double now() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

struct Tally {
  std::int64_t count = 0;
  double seconds = 0;
};

struct Region {
  std::string name;
  double start = 0;
  Tally kernels, allocations, frees, copies;
};

struct RegionTotal {
  Tally wall, kernels, allocations, frees, copies;
};

struct State {
  std::map<std::string, Tally> kernels;  // by name
  std::map<std::string, RegionTotal> regions;
  std::vector<Region> open;
  std::vector<std::pair<std::string, double>> running;  // by kernel id
  double copy_start = 0;
  Tally allocations, frees, copies;
};

State& state() {
  static State s;
  return s;
}

void add(Tally& t, double seconds) {
  ++t.count;
  t.seconds += seconds;
}

std::uint64_t begin_kernel(const char* name) {
  State& s = state();
  s.running.emplace_back(name, now());
  return s.running.size() - 1;
}

void end_kernel(std::uint64_t id) {
  State& s = state();
  const double seconds = now() - s.running[id].second;
  add(s.kernels[s.running[id].first], seconds);
  for (Region& r : s.open)
    add(r.kernels, seconds);
}

void count(Tally State::*whole, Tally Region::*in_region) {
  State& s = state();
  add(s.*whole, 0);
  for (Region& r : s.open)
    add(r.*in_region, 0);
}

}  // namespace

struct SpaceHandle {
  char name[64];
};

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = begin_kernel(name);
}
void kokkosp_end_parallel_for(std::uint64_t id) {
  end_kernel(id);
}
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = begin_kernel(name);
}
void kokkosp_end_parallel_reduce(std::uint64_t id) {
  end_kernel(id);
}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = begin_kernel(name);
}
void kokkosp_end_parallel_scan(std::uint64_t id) {
  end_kernel(id);
}

void kokkosp_push_profile_region(const char* name) {
  Region r;
  r.name = name;
  r.start = now();
  state().open.push_back(r);
}

void kokkosp_pop_profile_region() {
  State& s = state();
  if (s.open.empty()) return;
  const Region& r = s.open.back();
  RegionTotal& t = s.regions[r.name];
  add(t.wall, now() - r.start);
  t.kernels.count += r.kernels.count;
  t.kernels.seconds += r.kernels.seconds;
  t.allocations.count += r.allocations.count;
  t.frees.count += r.frees.count;
  t.copies.count += r.copies.count;
  t.copies.seconds += r.copies.seconds;
  s.open.pop_back();
}

void kokkosp_allocate_data(SpaceHandle, const char*, const void*, std::uint64_t) {
  count(&State::allocations, &Region::allocations);
}

void kokkosp_deallocate_data(SpaceHandle, const char*, const void*, std::uint64_t) {
  count(&State::frees, &Region::frees);
}

void kokkosp_begin_deep_copy(SpaceHandle, const char*, const void*, SpaceHandle, const char*,
                             const void*, std::uint64_t) {
  state().copy_start = now();
}

void kokkosp_end_deep_copy() {
  State& s = state();
  const double seconds = now() - s.copy_start;
  add(s.copies, seconds);
  for (Region& r : s.open)
    add(r.copies, seconds);
}

void kokkosp_finalize_library() {
  State& s = state();
  const char* path = std::getenv("KERNEL_TIMER_OUT");
  std::FILE* f = path ? std::fopen(path, "w") : stderr;
  if (!f) f = stderr;
  std::vector<std::pair<std::string, Tally>> by_time(s.kernels.begin(), s.kernels.end());
  std::sort(by_time.begin(), by_time.end(),
            [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  std::fprintf(f,
               "regions: wall s (count) | kernels: launches, s | allocations, frees | deep "
               "copies, s\n");
  for (const auto& [name, t] : s.regions)
    std::fprintf(f, "  %-40s %10.4f (%lld) | %8lld %10.4f | %6lld %6lld | %6lld %8.4f\n",
                 name.c_str(), t.wall.seconds, (long long)t.wall.count, (long long)t.kernels.count,
                 t.kernels.seconds, (long long)t.allocations.count, (long long)t.frees.count,
                 (long long)t.copies.count, t.copies.seconds);
  std::fprintf(f, "kernels: launches, s, us a launch\n");
  for (const auto& [name, t] : by_time)
    std::fprintf(f, "  %-48s %8lld %10.4f %10.1f\n", name.c_str(), (long long)t.count, t.seconds,
                 t.count ? 1e6 * t.seconds / double(t.count) : 0.0);
  std::fprintf(f, "whole run: allocations %lld, frees %lld, deep copies %lld (%.4f s)\n",
               (long long)s.allocations.count, (long long)s.frees.count, (long long)s.copies.count,
               s.copies.seconds);
  if (f != stderr) std::fclose(f);
}

}  // extern "C"
