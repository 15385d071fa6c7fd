// Google Benchmark of the solver's kernels: apsp::floyd_warshall on a device-resident matrix, for
// every backend of the build, every distance type (int32, float32, float64), every tile shape
// the device can run for it (`apsp shapes`) and a few V,
// plus the register-only min-plus loop of the peak probe (peak_probe.hpp), so that one run gives
// both sides of the efficiency ratio.
//   apsp_bench_kernels [--benchmark_filter=REGEX] [Google Benchmark options] [Kokkos options]
// (e.g. --benchmark_filter=floyd_warshall/cuda/float32/shape:0).
// APSP_BENCH_SIZES=512,1024 overrides the V of every backend (multiples of 128 need no padding).
//
// Timing: manual time, fence - timer - solve - fence, after one untimed warm-up solve (launch
// and first-touch costs). Floyd-Warshall's work does not depend on the distances (every update
// is one add and one min), so solving the already-solved matrix again costs the same: the matrix
// is filled once.
#include "peak_probe.hpp"

#include <apsp/floyd_warshall.hpp>
#include <apsp/version.hpp>

#include "platform/backends.hpp"

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::int64_t> sizes_for(bool host) {
  std::vector<std::int64_t> sizes;
  if (const char* env = std::getenv("APSP_BENCH_SIZES")) {
    std::stringstream list(env);
    for (std::string item; std::getline(list, item, ',');)
      if (!item.empty()) sizes.push_back(std::stoll(item));
    return sizes;
  }
  if (host) return {512, 1024, 2048};
  return {4096, 8192, 16384};
}

// A reproducible graph with about 8 edges per vertex (the cost of Floyd-Warshall does not
// depend on density).
std::vector<apsp::Edge> random_edges(std::int64_t vertices) {
  std::vector<apsp::Edge> edges;
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (std::int64_t e = 0; e < 8 * vertices; ++e) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    edges.push_back({std::int32_t(x % vertices), std::int32_t((x >> 20) % vertices),
                     std::int32_t((x >> 40) % 1001)});
  }
  return edges;
}

template <class ExecSpace, class T>
void floyd_warshall_benchmark(benchmark::State& state, const apsp::ShapeChoice& shape,
                              std::int64_t vertices) {
  const ExecSpace exec;
  apsp::ShapeRequest request;
  request.shape = shape.index;
  const apsp::Plan plan = apsp::make_plan<T>(exec, vertices, false, request);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace, T> dist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::bench::dist"), n, n);
  apsp::fill_distance_matrix(exec, dist, random_edges(vertices));
  apsp::floyd_warshall(exec, dist, plan);  // warm-up
  double seconds = 0;
  for (auto _ : state) {
    exec.fence();
    Kokkos::Timer timer;
    apsp::floyd_warshall(exec, dist, plan);
    exec.fence();
    const double t = timer.seconds();
    state.SetIterationTime(t);
    seconds += t;
  }
  const double updates = double(n) * double(n) * double(n);
  state.counters["V"] = double(vertices);
  state.counters["tile"] = shape.tile;
  state.counters["distance_bytes"] = double(sizeof(T));
  state.counters["updates_per_second"] = updates * double(state.iterations()) / seconds;
  state.SetLabel(shape.name + ", " + apsp::distance_type_name(apsp::Distance<T>::type));
}

// Every shape the device runs for distances of type T, at every size.
template <class ExecSpace, class T>
void register_floyd_warshall(const ExecSpace& exec, const std::string& backend,
                             const std::vector<std::int64_t>& sizes) {
  const std::string type = apsp::distance_type_name(apsp::Distance<T>::type);
  for (const auto& shape : apsp::available_shapes<ExecSpace, T>(exec)) {
    for (const std::int64_t v : sizes) {
      // The 4x4 host shape exists so that tests cover the GPU code path on a CPU; it is
      // two orders of magnitude slower: its smallest size only.
      if (shape.tile < 16 && v != sizes.front()) continue;
      const std::string name = "floyd_warshall/" + backend + "/" + type +
                               "/shape:" + std::to_string(shape.index) + "/V:" + std::to_string(v);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [shape, v](benchmark::State& state) {
                                     floyd_warshall_benchmark<ExecSpace, T>(state, shape, v);
                                   })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.5);
    }
  }
}

template <class ExecSpace, class Lane, int Half>
void peak_probe_benchmark(benchmark::State& state) {
  using Probe = apsp::bench::MinPlusRegisters<ExecSpace, Lane, Half>;
  const ExecSpace exec;
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  const std::int64_t items = std::int64_t(exec.concurrency()) * (host ? 64 : 4);
  Kokkos::View<int*, typename ExecSpace::memory_space> seeds("apsp::bench::seeds", 1024);
  Kokkos::deep_copy(exec, seeds, 7);  // run-time data: the compiler cannot see it
  Kokkos::View<int*, typename ExecSpace::memory_space> sink("apsp::bench::sink", items);
  const Probe probe{seeds, sink, host ? 256 : 1024};
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(exec, 0, items);
  Kokkos::parallel_for("apsp::bench::min_plus_registers", policy, probe);  // warm-up
  double seconds = 0;
  for (auto _ : state) {
    exec.fence();
    Kokkos::Timer timer;
    Kokkos::parallel_for("apsp::bench::min_plus_registers", policy, probe);
    exec.fence();
    const double t = timer.seconds();
    state.SetIterationTime(t);
    seconds += t;
  }
  state.counters["updates_per_second"] = double(items) *
                                         double(Probe::updates_per_item(probe.iterations)) *
                                         double(state.iterations()) / seconds;
  state.SetLabel(Probe::block() + " registers");
}

template <class ExecSpace>
void register_backend() {
  const ExecSpace exec;
  const std::string backend = apsp::backend_name<ExecSpace>();
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  benchmark::AddCustomContext("apsp.device." + backend, apsp::describe_device(exec));

  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
#if defined(APSP_BENCH_HOST_VECTORS)
    benchmark::RegisterBenchmark(("peak_probe/" + backend + "/simd").c_str(),
                                 peak_probe_benchmark<ExecSpace, apsp::bench::HostVector, 12>)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
#else
    benchmark::RegisterBenchmark(("peak_probe/" + backend + "/int").c_str(),
                                 peak_probe_benchmark<ExecSpace, int, 6>)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
#endif
  } else {
    benchmark::RegisterBenchmark(("peak_probe/" + backend + "/int").c_str(),
                                 peak_probe_benchmark<ExecSpace, int, 32>)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }

  const auto sizes = sizes_for(host);
  register_floyd_warshall<ExecSpace, int>(exec, backend, sizes);
  register_floyd_warshall<ExecSpace, float>(exec, backend, sizes);
  register_floyd_warshall<ExecSpace, double>(exec, backend, sizes);
}

template <std::size_t... I>
void register_all(std::index_sequence<I...>) {
  (register_backend<std::tuple_element_t<I, apsp::EnabledBackends>>(), ...);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  // Kokkos' configuration on one line: the options it was built with that are on.
  std::ostringstream printed;
  Kokkos::print_configuration(printed, false);
  std::string configuration;
  std::istringstream lines(printed.str());
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": yes");
    if (colon == std::string::npos) continue;
    const auto name = line.find_first_not_of(' ');
    configuration += (configuration.empty() ? "" : " ") + line.substr(name, colon - name);
  }
  benchmark::AddCustomContext("apsp.version", APSP_VERSION);
  benchmark::AddCustomContext("kokkos.version", apsp::kokkos_version());
  benchmark::AddCustomContext("kokkos.configuration", configuration);
  std::string backends;
  for (const auto& n : apsp::backend_names())
    backends += (backends.empty() ? "" : ",") + n;
  benchmark::AddCustomContext("apsp.backends", backends);

  register_all(std::make_index_sequence<std::tuple_size<apsp::EnabledBackends>::value>{});
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
