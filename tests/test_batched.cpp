// The batched solver against the single-graph solver, bitwise (int32), on every backend: sizes
// 0..200 in one batch (the small ones in scratch, the large ones through the blocked path),
// disconnected graphs, negative weights, a negative cycle among good graphs, predecessors.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/batched.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/paths.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using Edge32 = apsp::batched::BatchEdge<int>;

struct Single {
  std::vector<int> dist, pred;  // V x V
  std::int64_t cycle = -1;
};

// The single-graph solver: default plan, predecessors by PredecessorRows.
template <class ExecSpace>
Single solve_single(const apsp::Graph& g, bool negative) {
  ExecSpace exec;
  const std::int64_t v = g.vertices;
  Single out;
  if (v == 0) return out;
  const apsp::Plan plan = apsp::make_plan<int>(exec, v, negative);
  apsp::DistanceMatrix<ExecSpace> dist("dist", plan.padded, plan.padded);
  const auto edges = apsp::upload_edges(exec, g.edges);
  apsp::fill_distance_matrix(exec, dist, edges);
  apsp::floyd_warshall(exec, dist, plan);
  if (negative) out.cycle = apsp::negative_cycle_vertex(exec, dist, 0, v);
  if (out.cycle < 0) {
    apsp::PredecessorRows<ExecSpace> rows(exec, dist, 0, v,
                                          apsp::select_path_edges(exec, dist, v, edges), v);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.compute(0, v));
    for (std::int64_t i = 0; i < v; ++i)
      out.pred.insert(out.pred.end(), &host(i, 0), &host(i, 0) + v);
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  for (std::int64_t i = 0; i < v; ++i)
    out.dist.insert(out.dist.end(), &host(i, 0), &host(i, 0) + v);
  return out;
}

// A batch of graphs, their edges in one array (own numbering) with offsets per graph, and by
// source in the concatenated numbering (predecessors).
template <class ExecSpace>
struct Batch {
  std::vector<apsp::Graph> graphs;
  std::vector<std::int64_t> sizes;
  apsp::batched::Offsets<ExecSpace> edge_offsets, source_offsets;
  Kokkos::View<Edge32*, typename ExecSpace::memory_space> edges;
  Kokkos::View<int*, typename ExecSpace::memory_space> targets, weights;

  explicit Batch(std::vector<apsp::Graph> all) : graphs(std::move(all)) {
    ExecSpace exec;
    std::vector<Edge32> list;
    std::vector<std::int64_t> offsets{0}, by_source{0};
    std::vector<int> to, w;
    for (const auto& g : graphs) {
      sizes.push_back(g.vertices);
      std::vector<std::vector<std::pair<int, int>>> out(std::size_t(g.vertices));
      for (const auto& e : g.edges) {
        list.push_back({e.src, e.dst, int(e.weight)});
        out[std::size_t(e.src)].push_back({e.dst, int(e.weight)});
      }
      offsets.push_back(std::int64_t(list.size()));
      for (const auto& targets_of : out) {
        for (const auto& [j, weight] : targets_of) {
          to.push_back(j);
          w.push_back(weight);
        }
        by_source.push_back(std::int64_t(to.size()));
      }
    }
    edge_offsets = upload<std::int64_t>(exec, offsets, "edge_offsets");
    source_offsets = upload<std::int64_t>(exec, by_source, "source_offsets");
    edges = upload<Edge32>(exec, list, "edges");
    targets = upload<int>(exec, to, "targets");
    weights = upload<int>(exec, w, "weights");
  }
  template <class X>
  static Kokkos::View<X*, typename ExecSpace::memory_space> upload(const ExecSpace& exec,
                                                                   const std::vector<X>& host,
                                                                   const char* label) {
    Kokkos::View<X*, typename ExecSpace::memory_space> out(std::string(label), host.size());
    Kokkos::deep_copy(
        exec, out,
        Kokkos::View<const X*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            host.data(), host.size()));
    exec.fence();
    return out;
  }
};

template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return {host.data(), host.data() + host.size()};
}

// Graph g's block of a ragged result.
std::vector<int> block(const std::vector<int>& values, std::int64_t at, std::int64_t n) {
  return {values.begin() + at, values.begin() + at + n * n};
}

template <class ExecSpace>
class Batched : public ::testing::Test {};
TYPED_TEST_SUITE(Batched, apsp_test::Backends, apsp_test::BackendName);

// Sizes 0..200 mixed (some beyond every scratch pad), sparse ones disconnected, negative
// weights: every path of the batch (in place, from edges, padded) equals the single solver.
TYPED_TEST(Batched, EverySliceEqualsTheSingleGraphSolver) {
  using Exec = TypeParam;
  Exec exec;
  for (const bool negative : {false, true}) {
    std::vector<apsp::Graph> graphs;
    unsigned seed = negative ? 1000 : 1;
    for (const int v : {0, 1, 2, 3, 5, 17, 30, 31, 33, 60, 64, 65, 0, 100, 129, 200, 7, 45}) {
      const double density = seed % 3 == 0 ? 0.01 : (v < 20 ? 0.3 : 0.08);
      graphs.push_back(negative ? apsp_test::potential_graph(v, density, seed)
                                : apsp_test::random_graph(v, density, seed));
      ++seed;
    }
    Batch<Exec> batch(graphs);
    std::int64_t largest = 0;
    for (const auto n : batch.sizes)
      largest = std::max(largest, n);

    // From edges into a ragged batch of int, in place, then predecessors.
    auto ragged = apsp::batched::make_ragged<Exec, int>(exec, batch.sizes);
    apsp::batched::fill_from_edges(exec, ragged, batch.edge_offsets, batch.edges);
    const auto cycles = apsp::batched::floyd_warshall(exec, ragged, negative);
    EXPECT_EQ(apsp::batched::first_negative_cycle(exec, cycles).graph, -1);
    Kokkos::View<int*, typename Exec::memory_space> pred("pred", ragged.values.extent(0));
    const auto layout = apsp::batched::detail::layout_of(ragged);
    apsp::batched::predecessors(exec, layout, ragged.values.data(), batch.source_offsets,
                                batch.targets, batch.weights, pred.data());
    // Straight from edges into a padded batch.
    Kokkos::View<int*, typename Exec::memory_space> padded(
        "padded", std::size_t(batch.sizes.size() * largest * largest));
    const apsp::detail::BatchLayout<typename Exec::memory_space> padded_layout{
        layout.offsets, {}, largest};
    apsp::batched::solve_edges<int>(exec, padded_layout, batch.edge_offsets, batch.edges, negative,
                                    padded.data(), -7);

    const auto values = to_host(ragged.values), preds = to_host(pred), pads = to_host(padded);
    const auto at = to_host(ragged.value_offsets);
    for (std::size_t g = 0; g < graphs.size(); ++g) {
      const std::int64_t n = batch.sizes[g];
      const Single single = solve_single<Exec>(graphs[g], negative);
      const std::string what = "graph " + std::to_string(g) + ", V = " + std::to_string(n) +
                               (negative ? ", negative weights" : "");
      EXPECT_EQ(block(values, at[g], n), single.dist) << what;
      EXPECT_EQ(block(preds, at[g], n), single.pred) << what;
      std::vector<int> slice;
      bool outside_ok = true;
      for (std::int64_t i = 0; i < largest; ++i)
        for (std::int64_t j = 0; j < largest; ++j) {
          const int x = pads[std::size_t((std::int64_t(g) * largest + i) * largest + j)];
          if (i < n && j < n)
            slice.push_back(x);
          else
            outside_ok = outside_ok && x == -7;
        }
      EXPECT_EQ(slice, single.dist) << what << ", padded";
      EXPECT_TRUE(outside_ok) << what << ", padded";
    }
  }
}

// A dense (B, n, n) batch in place equals the single solver per slice.
TYPED_TEST(Batched, DenseBatchEqualsTheSingleGraphSolver) {
  using Exec = TypeParam;
  Exec exec;
  for (const int n : {1, 13, 50, 150}) {
    const int count = 5;
    apsp::batched::DenseBatch<Exec, int> dist("dist", count, n, n);
    auto host = Kokkos::create_mirror_view(dist);
    std::vector<apsp::Graph> graphs;
    for (int g = 0; g < count; ++g) {
      graphs.push_back(apsp_test::random_graph(n, g == 2 ? 0.0 : 0.1, unsigned(n * 10 + g)));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          host(g, i, j) = i == j ? 0 : apsp::Distance<int>::infinity;
      for (const auto& e : graphs.back().edges)
        if (e.src != e.dst) host(g, e.src, e.dst) = std::min(host(g, e.src, e.dst), int(e.weight));
    }
    Kokkos::deep_copy(dist, host);
    apsp::batched::floyd_warshall(exec, dist);
    Kokkos::deep_copy(host, dist);
    for (int g = 0; g < count; ++g) {
      const std::vector<int> slice(&host(g, 0, 0), &host(g, 0, 0) + n * n);
      EXPECT_EQ(slice, solve_single<Exec>(graphs[std::size_t(g)], false).dist)
          << "n = " << n << ", slice " << g;
    }
  }
}

// Batches whose every graph is empty: a dense (B, 0, 0) batch and a padded layout of stride 0
// (its blocks are empty) close without touching memory; the cycles say none.
TYPED_TEST(Batched, EmptyGraphsOnly) {
  using Exec = TypeParam;
  Exec exec;
  for (const int count : {1, 3}) {
    for (const bool negative : {false, true}) {
      const std::string what =
          std::to_string(count) + " empty graphs" + (negative ? ", negative weights" : "");
      apsp::batched::DenseBatch<Exec, int> dense("dense", count, 0, 0);
      EXPECT_EQ(to_host(apsp::batched::floyd_warshall(exec, dense, negative)),
                std::vector<std::int64_t>(std::size_t(count), -1))
          << what << ", dense";
      const Batch<Exec> batch{std::vector<apsp::Graph>(std::size_t(count))};
      const auto offsets = apsp::batched::offsets_of(exec, batch.sizes, false, "offsets");
      const apsp::detail::BatchLayout<typename Exec::memory_space> padded{offsets, {}, 0};
      const auto cycles = apsp::batched::solve_edges<int>(
          exec, padded, batch.edge_offsets, batch.edges, negative, static_cast<int*>(nullptr));
      EXPECT_EQ(to_host(cycles), std::vector<std::int64_t>(std::size_t(count), -1))
          << what << ", padded";
    }
  }
}

// One graph with a negative cycle among good ones (small and large): it alone is reported, by
// a vertex the single solver reports too; the others keep their exact distances.
TYPED_TEST(Batched, NegativeCycleIsReportedForItsGraphOnly) {
  using Exec = TypeParam;
  Exec exec;
  for (const int bad_size : {40, 190}) {
    std::vector<apsp::Graph> graphs;
    for (int g = 0; g < 6; ++g)
      graphs.push_back(
          apsp_test::potential_graph(g == 3 ? bad_size : 10 + 7 * g, 0.15, unsigned(g + 50)));
    // A cycle 5 -> 6 -> 7 -> 5 of weight -1 in graph 3.
    graphs[3].edges.push_back({5, 6, -3});
    graphs[3].edges.push_back({6, 7, 1});
    graphs[3].edges.push_back({7, 5, 1});
    Batch<Exec> batch(graphs);
    auto ragged = apsp::batched::make_ragged<Exec, int>(exec, batch.sizes);
    apsp::batched::fill_from_edges(exec, ragged, batch.edge_offsets, batch.edges);
    const auto cycles = to_host(apsp::batched::floyd_warshall(exec, ragged, true));
    const auto values = to_host(ragged.values);
    const auto at = to_host(ragged.value_offsets);
    for (std::size_t g = 0; g < graphs.size(); ++g) {
      const Single single = solve_single<Exec>(graphs[g], true);
      if (g == 3) {
        EXPECT_GE(single.cycle, 0);
        EXPECT_GE(cycles[g], 0) << "bad graph of " << bad_size;
        EXPECT_LE(cycles[g], 7);
      } else {
        EXPECT_EQ(cycles[g], -1) << "graph " << g;
        EXPECT_EQ(block(values, at[g], batch.sizes[g]), single.dist) << "graph " << g;
      }
    }
    Kokkos::View<std::int64_t*, typename Exec::memory_space> device_cycles("cycles", cycles.size());
    Kokkos::deep_copy(device_cycles, Kokkos::View<const std::int64_t*, Kokkos::HostSpace,
                                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                         cycles.data(), cycles.size()));
    EXPECT_EQ(apsp::batched::first_negative_cycle(exec, device_cycles).graph, 3);
  }
}

// BatchedSolver in float32: graph by graph, the single-graph solver's verdict (negative_cycles.hpp)
// where float32 rounding hides a negative cycle (1 + -1.0000000000000002 < 0 in float64, 0 in
// float32); the graphs around it keep their distances, and the verdict of a good graph is none.
TYPED_TEST(Batched, SolverTakesDoublesWordOnAFloat32Cycle) {
  using Exec = TypeParam;
  if (!apsp::distance_type_compiled<float>) GTEST_SKIP() << "float32 not compiled";
  apsp::OneRank one;
  apsp::batched::BatchOptions<float> options;
  options.negative_weights = true;
  apsp::BatchedSolver<Exec, float> solver(Exec(), one, {2, 2, 3}, options);
  solver.check_memory({std::uint64_t(1) << 30, 0, "the test"}, 6, std::uint64_t(1) << 30);
  const std::vector<apsp::batched::BatchEdge<double>> edges{
      {0, 1, 1.5}, {0, 1, 1.0}, {1, 0, -1.0000000000000002}, {0, 1, 2.0}, {1, 2, 0.5}, {2, 0, 1}};
  solver.load({0, 1, 3, 6}, edges);
  std::vector<float> dist(std::size_t(solver.values()));
  solver.compute(dist.data());
  const auto& verdicts = solver.verdicts();
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0].vertex, -1);
  EXPECT_EQ(verdicts[1].vertex, 0);
  EXPECT_TRUE(verdicts[1].rounding_suspected);
  EXPECT_FALSE(verdicts[1].made);
  EXPECT_EQ(verdicts[2].vertex, -1);
  EXPECT_EQ(solver.first_negative_cycle(), 1);
  try {
    solver.throw_negative_cycle(1);
    ADD_FAILURE() << "graph 1's negative cycle not thrown";
  } catch (const apsp::NegativeCycleError& e) {
    EXPECT_EQ(e.facts().graph, 1);  // named, as the batch's drivers report it
  }
  const float inf = apsp::Distance<float>::infinity;
  EXPECT_EQ(std::vector<float>(dist.begin(), dist.begin() + 4),
            (std::vector<float>{0, 1.5f, inf, 0}));
  EXPECT_EQ(std::vector<float>(dist.begin() + 8, dist.end()),
            (std::vector<float>{0, 2, 2.5f, 1.5f, 0, 0.5f, 1, 3, 0}));
}

// BatchedSolver's memory check: a MemoryError that says what it needs, before any work.
TYPED_TEST(Batched, SolverChecksItsMemoryFirst) {
  using Exec = TypeParam;
  apsp::OneRank one;
  apsp::batched::BatchOptions<int> options;
  options.predecessors = true;
  options.padded = true;
  const apsp::BatchedSolver<Exec, int> solver(Exec(), one, {1, 3000}, options);
  EXPECT_EQ(solver.values(), 2 * 3000 * 3000);
  const std::uint64_t need = solver.device_bytes(0) + solver.host_bytes(0);
  EXPECT_GE(need, std::uint64_t(2) * 3000 * 3000 * (sizeof(int) + sizeof(int)));
  try {
    solver.check_memory({need / 2, 0, "the test"}, 0, need / 2);
    FAIL() << "no MemoryError";
  } catch (const apsp::MemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("2 graphs (18000000 distances of int32, padded) needs"),
              std::string::npos)
        << e.what();
  }
  solver.check_memory({need, 0, "the test"}, 0, need);
}

// A driver's memory on both sides of a solve (check_device_and_host, memory.hpp): on a host
// backend one memory holds the sum, and what it leaves a solver is the free memory less the
// host's part; on a device each side has its own.
TYPED_TEST(Batched, DeviceAndHostMemoryCheckedTogether) {
  using Exec = TypeParam;
  const std::uint64_t mib = std::uint64_t(1) << 20;
  const apsp::MemoryLimits limits{1000 * mib, 0, "the test"};
  const apsp::MemoryLimits left =
      apsp::check_device_and_host<Exec>("it", 400 * mib, 600 * mib, limits, 600 * mib);
  EXPECT_EQ(left.free, (apsp::host_memory<Exec> ? 400 : 1000) * mib);
  try {
    apsp::check_device_and_host<Exec>("it", 400 * mib, 601 * mib, limits, 600 * mib);
    FAIL() << "no MemoryError";
  } catch (const apsp::MemoryError& e) {
    EXPECT_EQ(std::string(e.what()),
              apsp::host_memory<Exec>
                  ? "it needs 1001.00 MiB of memory, 1000.00 MiB available"
                  : "it needs 400.00 MiB on the test (1000.00 MiB available) and 601.00 MiB on "
                    "the host (600.00 MiB available)");
    EXPECT_EQ(e.facts().needed, (apsp::host_memory<Exec> ? 1001 : 601) * mib);
  }
}

// from(i) = the pattern DownloadsArriveWholeThroughTheChunks expects.
template <class ExecSpace, class View>
void fill_pattern(const ExecSpace& exec, const View& from) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, from.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { from(i) = int(i * 2654435761u); });
  exec.fence();
}

// A download larger than two pinned chunks (detail/staging.hpp) arrives whole on every backend:
// ragged last chunk, odd count; HostCopiers splits odd byte counts over 1 to 7 threads exactly.
TYPED_TEST(Batched, DownloadsArriveWholeThroughTheChunks) {
  using ExecSpace = TypeParam;
  ExecSpace exec;
  const std::size_t chunk = apsp::detail::download_chunk_bytes / sizeof(int);
  const std::size_t count = 2 * chunk + chunk / 3 + 7;
  Kokkos::View<int*, typename ExecSpace::memory_space> from(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "from"), count);
  fill_pattern(exec, from);
  std::vector<int> to(count + 1, -1);
  apsp::detail::download_to_host(exec, from, to.data(), count);
  for (std::size_t i = 0; i < count; ++i)
    if (to[i] != int(i * 2654435761u)) FAIL() << "value " << i << " of " << count;
  EXPECT_EQ(to[count], -1);  // nothing past the end

  std::vector<char> source(1001), target(1001);
  for (std::size_t i = 0; i < source.size(); ++i)
    source[i] = char(i * 7 + 3);
  for (int threads = 1; threads <= 7; ++threads) {
    std::fill(target.begin(), target.end(), char(0));
    apsp::detail::HostCopiers copiers(threads);
    copiers.copy(target.data(), source.data(), 999);
    EXPECT_TRUE(std::equal(source.begin(), source.begin() + 999, target.begin())) << threads;
    EXPECT_EQ(target[999], 0) << threads;
    std::fill(target.begin(), target.end(), char(0));
    copiers.copy(target.data(), source.data(), 3);  // fewer bytes than threads
    EXPECT_TRUE(std::equal(source.begin(), source.begin() + 3, target.begin())) << threads;
    EXPECT_EQ(target[3], 0) << threads;
  }
}

}  // namespace
