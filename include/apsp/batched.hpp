// apsp::batched: all-pairs shortest paths of many graphs in one call (a data set of molecules,
// say: 10^5 graphs of 10-60 vertices).
//
// Each graph small enough for a team's scratch pad is closed there by one team (one CPU thread,
// or a block of GPU threads; detail/batched_kernels.hpp), with the relaxation of the blocked
// kernels (plain, or with negative weights and a negative-cycle report per graph); a graph too
// large for the scratch pad goes, alone, to the blocked solver (floyd_warshall.hpp). Distances
// equal the single-graph solver's (bitwise for int32, where every sum is exact; floats sum in
// the plain Floyd-Warshall order, the same on every backend).
//
// A batch is dense, (B, n, n) (DenseBatch), or ragged: graph g has n_g vertices, its n_g x n_g
// matrix row-major in one flat array after those of graphs 0 .. g-1 (RaggedBatch):
//
//   auto batch = apsp::batched::make_ragged<Exec, int>(exec, sizes);     // every matrix empty
//   apsp::batched::fill_from_edges(exec, batch, edge_offsets, edges);   // or write the matrices
//   const auto cycles = apsp::batched::floyd_warshall(exec, batch, negative);
//
// cycles(g) is the smallest vertex of graph g on a negative closed walk, or -1 (always -1 without
// negative weights). solve_edges does all three in one pass and stores the results converted
// into another type or a padded layout (the Python module's solve_batch). Predecessors follow the
// library's rule (paths.hpp) and equal the single-graph ones: predecessors().
#pragma once

#include <apsp/detail/batched_kernels.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {
namespace batched {

template <class ExecSpace, class T = int>
using DenseBatch = Kokkos::View<T***, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

template <class ExecSpace>
using Offsets = Kokkos::View<std::int64_t*, typename ExecSpace::memory_space>;
// T where it must not be deduced from an argument.
template <class T>
struct Named {
  using type = T;
};

template <class ExecSpace>
using ConstOffsets = Kokkos::View<const std::int64_t*, typename ExecSpace::memory_space>;

// Graph g: vertices [offsets(g), offsets(g + 1)) of the concatenated numbering; its matrix at
// values[value_offsets(g) ...], n_g x n_g row-major.
template <class ExecSpace, class T = int>
struct RaggedBatch {
  Offsets<ExecSpace> offsets, value_offsets;
  Kokkos::View<T*, typename ExecSpace::memory_space> values;
  int count() const { return int(offsets.extent(0)) - 1; }
};

// An edge of a graph of the batch, in the graph's own numbering.
template <class W>
struct BatchEdge {
  std::int32_t src, dst;
  W weight;
};

// Offsets 0, n_0, n_0 + n_1, ... of the sizes (each squared with `squares`), uploaded.
template <class ExecSpace>
Offsets<ExecSpace> offsets_of(const ExecSpace& exec, const std::vector<std::int64_t>& sizes,
                              bool squares, const char* label) {
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> host(std::string(label), sizes.size() + 1);
  for (std::size_t g = 0; g < sizes.size(); ++g) {
    if (sizes[g] < 0 || sizes[g] > std::numeric_limits<std::int32_t>::max())
      throw Error("graph " + std::to_string(g) + ": " + std::to_string(sizes[g]) +
                  " vertices (0 .. 2^31-1 allowed)");
    host(g + 1) = host(g) + (squares ? sizes[g] * sizes[g] : sizes[g]);
  }
  Offsets<ExecSpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                         host.extent(0));
  Kokkos::deep_copy(exec, out, host);
  exec.fence();
  return out;
}

// A ragged batch of graphs of these sizes; the matrices are not initialized.
template <class ExecSpace, class T = int>
RaggedBatch<ExecSpace, T> make_ragged(const ExecSpace& exec,
                                      const std::vector<std::int64_t>& sizes) {
  RaggedBatch<ExecSpace, T> batch;
  batch.offsets = offsets_of(exec, sizes, false, "apsp::batched::offsets");
  batch.value_offsets = offsets_of(exec, sizes, true, "apsp::batched::value_offsets");
  std::int64_t total = 0;
  for (const std::int64_t n : sizes)
    total += n * n;
  batch.values = Kokkos::View<T*, typename ExecSpace::memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::batched::values"), total);
  return batch;
}

namespace detail {

using apsp::detail::BatchLayout;

template <class ExecSpace, class T>
BatchLayout<typename ExecSpace::memory_space> layout_of(const RaggedBatch<ExecSpace, T>& batch) {
  return {batch.offsets, batch.value_offsets, 0};
}

// The layout of a dense batch: offsets 0, n, 2n, ...
template <class ExecSpace>
BatchLayout<typename ExecSpace::memory_space> dense_layout(const ExecSpace& exec, int count,
                                                           std::int64_t n) {
  return {offsets_of(exec, std::vector<std::int64_t>(std::size_t(count), n), false,
                     "apsp::batched::offsets"),
          {},
          n};
}

// The largest n the scratch pad holds for distances of type T: a level-0 pad on GPUs (what
// scratch_size_max allows), on CPUs 128 KB of level 1 (the matrix stays in the L2 cache;
// larger graphs go faster through the blocked solver's tiles).
template <class ExecSpace, class T>
int scratch_limit(int& level) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  constexpr bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  level = host ? 1 : 0;
  const std::size_t cap =
      host ? std::min<std::size_t>(128 * 1024, std::size_t(Policy::scratch_size_max(1)))
           : std::size_t(Policy::scratch_size_max(0));
  int n = 0;
  while (std::size_t(apsp::detail::closure_scratch_elements<T>(n + 1)) * sizeof(T) + 64 <= cap)
    ++n;
  return n;
}

// Threads of a team closing graphs of up to n vertices: one on CPUs; on GPUs rows of 32 over
// the columns, one row of threads per 8 rows of the matrix (up to 8).
template <class ExecSpace>
int closure_team_size(int n) {
  if (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) return 1;
  return 32 * std::max(1, std::min(8, (n + 7) / 8));
}

// Every graph of the layout from Source into Sink: the small ones in one launch, each larger
// one alone through the blocked solver. Returns cycles(g).
template <class ExecSpace, class T, bool Negative, class Source, class Sink>
Offsets<ExecSpace> run(const ExecSpace& exec,
                       const BatchLayout<typename ExecSpace::memory_space>& layout,
                       const Source& source, const Sink& sink) {
  using Relax = apsp::detail::Relaxation<T, Negative>;
  using Closure = apsp::detail::BatchClosure<ExecSpace, Relax, Source, Sink>;
  const int count = layout.count();
  Offsets<ExecSpace> cycles("apsp::batched::cycles", std::size_t(count));
  Kokkos::deep_copy(exec, cycles, std::int64_t(-1));
  if (count == 0) return cycles;
  int level = 0;
  const int limit = scratch_limit<ExecSpace, T>(level);

  // The sizes on the host: which graphs fit the scratch pad.
  const auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), layout.offsets);
  std::vector<int> small, large;
  int largest_small = 0;
  for (int g = 0; g < count; ++g) {
    const std::int64_t n = offsets(g + 1) - offsets(g);
    // An empty graph has nothing to close, and nothing to store but a padded block; a padded
    // layout of stride 0 (every graph empty) has none, and no value offsets either.
    if (n == 0 && layout.stride == 0) continue;
    if (n <= limit) {  // empty graphs too: a padded sink fills their block
      small.push_back(g);
      largest_small = std::max(largest_small, int(n));
    } else {
      large.push_back(g);
    }
  }
  if (!small.empty()) {
    Kokkos::View<int*, typename ExecSpace::memory_space> graphs(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::batched::graphs"), small.size());
    Kokkos::deep_copy(
        exec, graphs,
        Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            small.data(), small.size()));
    const Closure closure{layout, graphs, source, sink, cycles, level};
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    Kokkos::parallel_for(
        "apsp::batched::close_in_scratch",
        Policy(exec, int(small.size()), closure_team_size<ExecSpace>(largest_small))
            .set_scratch_size(level, Kokkos::PerTeam(Closure::scratch_bytes(largest_small))),
        closure);
  }
  for (const int g : large) {
    const std::int64_t n = offsets(g + 1) - offsets(g);
    const Plan plan = make_plan<T>(exec, n, Negative);
    DistanceMatrix<ExecSpace, T> d(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::batched::large"), plan.padded,
        plan.padded);
    fill_distance_matrix(exec, d, std::vector<Edge>{});
    using OnePolicy = Kokkos::TeamPolicy<ExecSpace>;
    const int team = closure_team_size<ExecSpace>(int(std::min<std::int64_t>(n, 64)));
    Kokkos::parallel_for(
        "apsp::batched::load_large", OnePolicy(exec, 1, team),
        apsp::detail::LoadOne<ExecSpace, Source, T>{source, d.data(), g, int(n), plan.padded});
    apsp::floyd_warshall(exec, d, plan);
    if (Negative) {
      const std::int64_t v = apsp::closed_walk_vertex(exec, d, n);
      Kokkos::deep_copy(exec, Kokkos::subview(cycles, g), v);
    }
    Kokkos::parallel_for(
        "apsp::batched::store_large", OnePolicy(exec, 1, team),
        apsp::detail::StoreOne<ExecSpace, Sink, T>{sink, d.data(), g, int(n), plan.padded});
    exec.fence();
  }
  exec.fence();
  return cycles;
}

template <class ExecSpace, class T, class Source, class Sink>
Offsets<ExecSpace> run(const ExecSpace& exec,
                       const BatchLayout<typename ExecSpace::memory_space>& layout, bool negative,
                       const Source& source, const Sink& sink) {
  return negative ? run<ExecSpace, T, true>(exec, layout, source, sink)
                  : run<ExecSpace, T, false>(exec, layout, source, sink);
}

}  // namespace detail

// The first graph with a negative cycle and its vertex, or {-1, -1}.
struct NegativeCycleAt {
  int graph = -1;
  std::int64_t vertex = -1;
};
template <class ExecSpace>
NegativeCycleAt first_negative_cycle(const ExecSpace& exec, const Offsets<ExecSpace>& cycles) {
  int first = int(cycles.extent(0));
  Kokkos::parallel_reduce(
      "apsp::batched::first_negative_cycle",
      Kokkos::RangePolicy<ExecSpace>(exec, 0, int(cycles.extent(0))),
      KOKKOS_LAMBDA(int g, int& smallest) {
        if (cycles(g) >= 0 && g < smallest) smallest = g;
      },
      Kokkos::Min<int>(first));
  if (first >= int(cycles.extent(0))) return {};
  exec.fence();
  std::int64_t vertex = -1;
  Kokkos::deep_copy(vertex, Kokkos::subview(cycles, first));
  return {first, vertex};
}

// Every graph of a ragged batch, in place. Returns cycles(g) (see the top of the file).
template <class ExecSpace, class T>
Offsets<ExecSpace> floyd_warshall(const ExecSpace& exec, const RaggedBatch<ExecSpace, T>& batch,
                                  bool negative_weights = false) {
  apsp::detail::ScopedRegion region("apsp::batched::floyd_warshall");
  using Mem = typename ExecSpace::memory_space;
  const auto layout = detail::layout_of(batch);
  return detail::run<ExecSpace, T>(exec, layout, negative_weights,
                                   apsp::detail::MatrixSource<Mem, T>{layout, batch.values.data()},
                                   apsp::detail::MatrixSink<Mem, T>{layout, batch.values.data()});
}

// Every (n x n) slice of a dense batch, in place.
template <class ExecSpace, class T>
Offsets<ExecSpace> floyd_warshall(const ExecSpace& exec, const DenseBatch<ExecSpace, T>& batch,
                                  bool negative_weights = false) {
  apsp::detail::ScopedRegion region("apsp::batched::floyd_warshall");
  using Mem = typename ExecSpace::memory_space;
  if (batch.extent(1) != batch.extent(2))
    throw Error("a dense batch must be (B, n, n), got (" + std::to_string(batch.extent(0)) + ", " +
                std::to_string(batch.extent(1)) + ", " + std::to_string(batch.extent(2)) + ")");
  const auto layout = detail::dense_layout(exec, int(batch.extent(0)), batch.extent(1));
  return detail::run<ExecSpace, T>(exec, layout, negative_weights,
                                   apsp::detail::MatrixSource<Mem, T>{layout, batch.data()},
                                   apsp::detail::MatrixSink<Mem, T>{layout, batch.data()});
}

// Graph g's matrix from its edges [edge_offsets(g), edge_offsets(g + 1)) (own numbering):
// 0 on the diagonal, the lightest edge, infinity elsewhere.
template <class ExecSpace, class T, class Edges>
void fill_from_edges(const ExecSpace& exec, const RaggedBatch<ExecSpace, T>& batch,
                     const ConstOffsets<ExecSpace>& edge_offsets, const Edges& edges) {
  apsp::detail::ScopedRegion region("apsp::batched::fill_from_edges");
  using Mem = typename ExecSpace::memory_space;
  using Edge = std::remove_const_t<typename Edges::value_type>;
  const auto layout = detail::layout_of(batch);
  const apsp::detail::EdgeSource<Mem, Edge> source{edge_offsets, edges};
  const auto values = batch.values;
  Kokkos::parallel_for(
      "apsp::batched::fill_from_edges",
      Kokkos::TeamPolicy<ExecSpace>(exec, batch.count(), detail::closure_team_size<ExecSpace>(32)),
      KOKKOS_LAMBDA(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) {
        const int g = team.league_rank(), n = layout.vertices(g);
        source.load(team, g, values.data() + layout.base(g), n, n);
      });
  exec.fence();
}

// Closes every graph from its edges straight into `out` (a batch of U in `layout`, ragged or
// padded: padded blocks get `outside` beyond their graph), computing in T. Returns cycles(g).
template <class T, class ExecSpace, class Edges, class U>
Offsets<ExecSpace> solve_edges(
    const ExecSpace& exec,
    const apsp::detail::BatchLayout<typename ExecSpace::memory_space>& layout,
    const ConstOffsets<ExecSpace>& edge_offsets, const Edges& edges, bool negative, U* out,
    U outside = Distance<U>::infinity) {
  apsp::detail::ScopedRegion region("apsp::batched::solve_edges");
  using Mem = typename ExecSpace::memory_space;
  using Edge = std::remove_const_t<typename Edges::value_type>;
  return detail::run<ExecSpace, T>(exec, layout, negative,
                                   apsp::detail::EdgeSource<Mem, Edge>{edge_offsets, edges},
                                   apsp::detail::MatrixSink<Mem, U>{layout, out, outside});
}

// Predecessor rows of every graph (paths.hpp's rule, the single-graph solver's values) from the
// final distances `dist` in `layout` into `pred` (the same layout; entries outside each graph
// untouched): edges by source in the concatenated numbering (those of vertex v at
// [edge_offsets(v), edge_offsets(v + 1)), targets in the graph's own numbering), `none` where
// there is no predecessor. `rule`: the Tightness of paths.hpp (exact for int32).
template <class ExecSpace, class T>
void predecessors(
    const ExecSpace& exec,
    const apsp::detail::BatchLayout<typename ExecSpace::memory_space>& layout, const T* dist,
    const ConstOffsets<ExecSpace>& edge_offsets,
    const Kokkos::View<const int*, typename ExecSpace::memory_space>& targets,
    const Kokkos::View<const typename Named<T>::type*, typename ExecSpace::memory_space>& weights,
    int* pred, Tightness<T> rule = {}, int none = no_vertex) {
  apsp::detail::ScopedRegion region("apsp::batched::predecessors");
  using Search = apsp::detail::BatchPredecessors<ExecSpace, T, Tightness<T>>;
  const int count = layout.count();
  if (count == 0) return;
  const auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), layout.offsets);
  int largest = 1;
  for (int g = 0; g < count; ++g)
    largest = std::max<int>(largest, int(offsets(g + 1) - offsets(g)));
  const std::int64_t rows = offsets(count) - offsets(0);
  if (rows == 0) return;
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  const std::size_t per_thread = Search::scratch_per_thread(largest);
  const std::size_t pad = std::size_t(Policy::scratch_size_max(0));
  // GPUs launch teams of whole warps (team_size_max counts in warps): at least 32 threads, their
  // buffers in the level-0 pad while 32 of them fit it, else in level 1 (memory).
  constexpr int warp = 32;
  int team = host ? 1 : 2 * warp;
  while (team > warp && team * per_thread > pad)
    team /= 2;
  const int level = team * per_thread <= pad ? 0 : 1;
  const Search search{layout, dist, pred,    edge_offsets, targets, weights,
                      rule,   rows, largest, level,        none};
  // No more threads than the device runs with this kernel's registers and scratch (CUDA refuses
  // a launch beyond it: "requested too large team size").
  if (!host) {
    const int most = Policy(exec, 1, 1)
                         .set_scratch_size(level, Kokkos::PerThread(per_thread))
                         .team_size_max(search, Kokkos::ParallelForTag());
    while (team > warp && team > most)
      team /= 2;
  }
  Kokkos::parallel_for("apsp::batched::predecessor_search",
                       Policy(exec, int((rows + team - 1) / team), team)
                           .set_scratch_size(level, Kokkos::PerThread(per_thread)),
                       search);
  exec.fence();
}

}  // namespace batched
}  // namespace apsp
