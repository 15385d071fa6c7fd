// The batched solver's compute time on molecule-like graphs (issue 27's data set): B graphs of
// 10-60 vertices, each a random tree plus n/8 extra edges, unweighted and undirected (both
// directions stored), closed from their edges in int32 into float64 results (what
// apsp.solve_batch does with SciPy's defaults). Prints the Kokkos configuration, then per run:
// compute (the batched kernel alone, fenced), and upload + compute + download (a device
// backend's round trip; equal to compute on a host backend), medians of RUNS.
//
//   apsp_bench_batched [GRAPHS] [RUNS] [--ragged|--padded]
#include <apsp/batched.hpp>
#include <apsp/detail/measure.hpp>

#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
using apsp::detail::Clock;
using apsp::detail::seconds_since;
using Edge = apsp::batched::BatchEdge<int>;

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int graphs = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const bool padded = argc > 3 && std::string(argv[3]) == "--padded";
  Kokkos::print_configuration(std::cout);

  std::mt19937_64 rng(27);
  std::vector<std::int64_t> sizes, edge_offsets{0};
  std::vector<Edge> edges;
  for (int g = 0; g < graphs; ++g) {
    const int n = 10 + int(rng() % 51);
    sizes.push_back(n);
    const auto add = [&](int a, int b) {
      edges.push_back({a, b, 1});
      edges.push_back({b, a, 1});
    };
    for (int v = 1; v < n; ++v)
      add(v, int(rng() % std::uint64_t(v)));
    for (int e = 0; e < n / 8; ++e) {
      const int a = int(rng() % std::uint64_t(n)), b = int(rng() % std::uint64_t(n));
      if (a != b) add(a, b);
    }
    edge_offsets.push_back(std::int64_t(edges.size()));
  }
  std::int64_t values = 0, largest = 0;
  std::vector<std::int64_t> value_offsets{0};
  for (const auto n : sizes) {
    values += n * n;
    largest = std::max(largest, n);
    value_offsets.push_back(values);
  }
  if (padded) values = std::int64_t(graphs) * largest * largest;
  std::printf("%d graphs, %zu directed edges, %lld distances (%s, float64 results)\n", graphs,
              edges.size(), static_cast<long long>(values), padded ? "padded" : "ragged");

  Exec exec;
  using HostEdges =
      Kokkos::View<const Edge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using HostOffsets =
      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  std::vector<double> host_out(static_cast<std::size_t>(values));
  Kokkos::View<double*, Mem> out("out", std::size_t(values));
  std::vector<double> compute, total;
  for (int r = 0; r < runs + 1; ++r) {  // the first run warms up
    exec.fence();
    const auto start = Clock::now();
    const auto device_edges =
        Kokkos::create_mirror_view_and_copy(Mem(), HostEdges(edges.data(), edges.size()));
    const auto device_edge_offsets = Kokkos::create_mirror_view_and_copy(
        Mem(), HostOffsets(edge_offsets.data(), edge_offsets.size()));
    const auto offsets = apsp::batched::offsets_of(exec, sizes, false, "offsets");
    const auto at = Kokkos::create_mirror_view_and_copy(
        Mem(), HostOffsets(value_offsets.data(), value_offsets.size()));
    const apsp::detail::BatchLayout<Mem> layout{offsets, padded ? decltype(at)() : at,
                                                padded ? largest : 0};
    exec.fence();
    const auto kernel = Clock::now();
    apsp::batched::solve_edges<int>(exec, layout, device_edge_offsets, device_edges, false,
                                    out.data());
    exec.fence();
    const double c = seconds_since(kernel);
    Kokkos::deep_copy(
        Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            host_out.data(), host_out.size()),
        out);
    const double t = seconds_since(start);
    if (r > 0) {
      compute.push_back(c);
      total.push_back(t);
    }
  }
  std::printf("backend %s: compute %.4f s (median of %d), upload + compute + download %.4f s\n",
              apsp::backend_name<Exec>().c_str(), median(compute), runs, median(total));
  double check = 0;
  for (std::int64_t i = 0; i < std::min<std::int64_t>(values, 1000); ++i)
    check +=
        host_out[std::size_t(i)] == apsp::Distance<double>::infinity ? 0 : host_out[std::size_t(i)];
  std::printf("checksum of the first 1000 distances: %.0f\n", check);
  return 0;
}
