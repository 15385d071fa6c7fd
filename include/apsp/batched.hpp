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
// into another type or a padded layout. Predecessors follow the library's rule (paths.hpp) and
// equal the single-graph ones: predecessors().
//
// BatchedSolver (at the end) puts these together in the shape of the single-graph Solver: its
// memory checked before any work, the solve into the caller's arrays, the negative-cycle verdict
// per graph (float32's checked in double, as the single-graph solvers' are), the predecessor
// rows (the Python module's solve_batch and 3-D arrays). solve_on_this_thread closes one small
// graph without Kokkos.
#pragma once

#include <apsp/detail/batched_kernels.hpp>
#include <apsp/detail/execution_spaces.hpp>
#include <apsp/detail/measure.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/graph.hpp>
#include <apsp/memory.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>

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

// The kernels of first_negative_cycle and fill_from_edges, named functors (not KOKKOS_LAMBDA:
// detail/supernodal_kernels.hpp says why).
template <class Cycles>
struct FirstCycle {
  Cycles cycles;
  KOKKOS_INLINE_FUNCTION void operator()(int g, int& smallest) const {
    if (cycles(g) >= 0 && g < smallest) smallest = g;
  }
};
template <class ExecSpace, class T, class Source>
struct FillFromEdges {
  apsp::detail::BatchLayout<typename ExecSpace::memory_space> layout;
  Source source;
  T* values;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int g = team.league_rank(), n = layout.vertices(g);
    source.load(team, g, values + layout.base(g), n, n);
  }
};

}  // namespace detail

// The first graph with a negative cycle and its vertex, or {-1, -1}.
struct NegativeCycleAt {
  int graph = -1;
  std::int64_t vertex = -1;
};
template <class ExecSpace>
NegativeCycleAt first_negative_cycle(const ExecSpace& exec, const Offsets<ExecSpace>& cycles) {
  int first = int(cycles.extent(0));
  Kokkos::parallel_reduce("apsp::batched::first_negative_cycle",
                          Kokkos::RangePolicy<ExecSpace>(exec, 0, int(cycles.extent(0))),
                          detail::FirstCycle<Offsets<ExecSpace>>{cycles}, Kokkos::Min<int>(first));
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
  Kokkos::parallel_for(
      "apsp::batched::fill_from_edges",
      Kokkos::TeamPolicy<ExecSpace>(exec, batch.count(), detail::closure_team_size<ExecSpace>(32)),
      detail::FillFromEdges<ExecSpace, T, apsp::detail::EdgeSource<Mem, Edge>>{
          layout, apsp::detail::EdgeSource<Mem, Edge>{edge_offsets, edges}, batch.values.data()});
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
  const int level = apsp::detail::scratch_level<Policy>(team * per_thread);
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

// One graph of n vertices from dense weights w (n x n row-major, +inf: no edge, the diagonal
// not read), closed on the calling thread without Kokkos: no launch, no View, nothing of the
// Kokkos runtime (a caller that solves one small graph at a time, from any thread or a forked
// process). The batch's closure by a team of one thread, so the same bits as the batch. The
// distances go to dist (n x n); with pred, the predecessor rows too (paths.hpp's rule `rule`,
// `none` where there is none), unless there is a negative cycle. Returns the verdict (as
// negative_cycle_verdict gives it: T's sums are double's or exact here).
template <class T>
CycleVerdict solve_on_this_thread(const double* w, std::int64_t n, bool negative_weights, T* dist,
                                  int* pred = nullptr, Tightness<T> rule = {},
                                  int none = no_vertex) {
  static_assert(!std::is_same<T, float>::value, "float32 sums need the double check of a batch");
  const int ld = apsp::detail::closure_row_stride<T>(int(n));
  std::vector<T> d(std::size_t(apsp::detail::closure_scratch_elements<T>(int(n))));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < ld; ++j) {
      const double x = j < n ? w[i * n + j] : Distance<double>::infinity;
      d[std::size_t(i * ld + j)] = i == j                            ? T(0)
                                   : x == Distance<double>::infinity ? Distance<T>::infinity
                                                                     : T(x);
    }
  T* row = d.data() + n * ld;
  if (negative_weights)
    apsp::detail::close_one_thread<apsp::detail::Relaxation<T, true>>(d.data(), int(n), ld, row);
  else
    apsp::detail::close_one_thread<apsp::detail::Relaxation<T, false>>(d.data(), int(n), ld, row);
  const std::int64_t found =
      negative_weights ? apsp::detail::scratch_negative_cycle(d.data(), int(n), ld) : -1;
  if (found >= 0) {
    Graph graph;
    graph.vertices = std::int32_t(n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (i != j && w[i * n + j] != Distance<double>::infinity)
          graph.edges.push_back(Edge{std::int32_t(i), std::int32_t(j), w[i * n + j]});
    return CycleVerdict{smallest_on_negative_closed_walk(graph.vertices, graph.edges, found)};
  }
  for (std::int64_t i = 0; i < n; ++i)
    std::copy(d.data() + i * ld, d.data() + i * ld + n, dist + i * n);
  if (pred) {
    std::vector<std::int64_t> offsets{0};
    std::vector<int> targets;
    std::vector<T> weights;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j)
        if (j != i && w[i * n + j] != Distance<double>::infinity) {
          targets.push_back(int(j));
          weights.push_back(T(w[i * n + j]));
        }
      offsets.push_back(std::int64_t(targets.size()));
    }
    std::vector<int> work(2 * std::size_t(n));
    for (int r = 0; r < int(n); ++r)
      apsp::detail::predecessor_row(dist, n, int(n), r, offsets.data(), targets.data(),
                                    weights.data(), rule, none, pred + r * n, work.data(),
                                    work.data() + n);
  }
  return {};
}

// How a batch is solved and where its results go.
template <class U>
struct BatchOptions {
  bool negative_weights = false;
  bool predecessors = false;
  // Results of graph g: ragged (its n_g x n_g at value_offsets()[g]) or padded (a block of
  // nmax x nmax at g nmax^2, `outside` beyond the graph; predecessors `none` there).
  bool padded = false;
  U outside = Distance<U>::infinity;
  int none = no_vertex;  // no predecessor
  // The input is load_dense's (B, n, n) weights (on a device, a copy of them), not edges.
  bool dense_weights = false;
  // Of the whole batch, for the predecessor rule (paths.hpp, Tightness): whether every weight
  // is a whole number, and the largest |w|.
  bool integer_weights = true;
  double largest_magnitude = 0;
};

}  // namespace batched

// The batched solver: many graphs (their sizes) in one solve, computed in T and stored in U
// (int32 sums are exact: whole weights whose paths fit int32 compute there whatever the result
// type, converted exactly as they are stored).
//
//   apsp::OneRank one;
//   apsp::BatchedSolver<Exec, int, double> solver(exec, one, sizes, options);
//   solver.check_memory({device_free, 0, "the GPU"}, edges.size(), host_free);  // MemoryError
//   solver.load(edge_offsets, edges);         // or load_dense(weights) for a (B, n, n) batch
//   solver.compute(distances);                // into the caller's memory on the host
//   if (solver.first_negative_cycle() < 0) solver.predecessor_rows(predecessors);
//
// Results go where the caller holds them on the host (the caller owns its arrays, as it owns
// floyd_warshall's matrix): written there directly on a host backend, through a buffer of the
// solver on a device. The verdict on negative cycles is the single-graph solver's, per graph: the
// vertex every algorithm names, and where float32 rounding can make or hide a cycle, double's
// word (negative_cycle_verdict).
//
// Ranks: the batch runs on one process (OneRank); more ranks are refused.
//
// A product of its own, not a solver of all pairs of one graph (solver_interface.hpp): it is made
// like them, checks its memory against the same MemoryLimits and gives the same verdict, but its
// results are whole matrices per graph into the caller's arrays, not rows handed to a sink.
template <class ExecSpace, class T, class U = T>
class BatchedSolver {
 public:
  using Mem = typename ExecSpace::memory_space;
  using Layout = apsp::detail::BatchLayout<Mem>;

  BatchedSolver(const ExecSpace& exec, Ranks& ranks, std::vector<std::int64_t> sizes,
                const batched::BatchOptions<U>& options = {})
      : exec_(exec), sizes_(std::move(sizes)), options_(options) {
    if (ranks.size() > 1)
      throw UnavailableError("the batched solver runs on one process, not " +
                             std::to_string(ranks.size()) + " ranks");
    offsets_.assign(sizes_.size() + 1, 0);
    value_offsets_.assign(sizes_.size() + 1, 0);
    for (std::size_t g = 0; g < sizes_.size(); ++g) {
      const std::int64_t n = sizes_[g];
      if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
        throw Error("graph " + std::to_string(g) + ": " + std::to_string(n) +
                    " vertices (0 .. 2^31-1 allowed)");
      largest_ = std::max(largest_, n);
      offsets_[g + 1] = offsets_[g] + n;
      value_offsets_[g + 1] = value_offsets_[g] + n * n;
    }
    if (options_.padded)
      for (std::size_t g = 0; g <= sizes_.size(); ++g)
        value_offsets_[g] = std::int64_t(g) * largest_ * largest_;
    // Integer sums are exact, and so are their results in U: the exact rule.
    if (!std::is_integral<T>::value)
      rule_ = tightness_for<U>(std::max<std::int64_t>(largest_, 1), options_.integer_weights,
                               options_.largest_magnitude);
  }

  int graphs() const { return int(sizes_.size()); }
  std::int64_t largest() const { return largest_; }
  // The results' entries, and where graph g's start (value_offsets()[g]; B + 1 of them).
  std::int64_t values() const { return value_offsets_.back(); }
  const std::vector<std::int64_t>& value_offsets() const { return value_offsets_; }

  // Device memory of a solve with `edges` edges in all (a dense input's: its entries, where
  // they give the predecessors), besides the results on a host backend: the layout, the edges
  // in T, with predecessors the edges by source; on a device the results and a dense input's
  // weights too.
  std::uint64_t device_bytes(std::int64_t edges) const {
    const std::uint64_t graphs = sizes_.size() + 1, vertices = std::uint64_t(offsets_.back());
    const std::uint64_t e = std::uint64_t(std::max<std::int64_t>(edges, 0));
    const std::uint64_t values = std::uint64_t(this->values());
    const bool device = !apsp::detail::host_memory<ExecSpace>, dense = options_.dense_weights;
    return apsp::detail::saturating_sum(
        {3 * graphs * 8, dense ? 0 : e * sizeof(batched::BatchEdge<T>),
         options_.predecessors ? (vertices + 1) * 8 + e * (sizeof(int) + sizeof(U)) : 0,
         device ? values * (sizeof(U) + (options_.predecessors ? sizeof(int) : 0)) : 0,
         device && dense ? values * sizeof(double) : 0});
  }
  // Host memory: the results (the caller's) and the solver's copies of the edges (as loaded,
  // in T, and with predecessors by source).
  std::uint64_t host_bytes(std::int64_t edges) const {
    const std::uint64_t e = std::uint64_t(std::max<std::int64_t>(edges, 0));
    const std::uint64_t values = std::uint64_t(this->values());
    return apsp::detail::saturating_sum(
        {values * (sizeof(U) + (options_.predecessors ? sizeof(int) : 0)),
         options_.dense_weights
             ? 0
             : e * (sizeof(batched::BatchEdge<double>) + sizeof(batched::BatchEdge<T>)),
         options_.predecessors
             ? (std::uint64_t(offsets_.back()) + 1) * 8 + e * (sizeof(int) + sizeof(U))
             : 0,
         apsp::detail::download_staging_bytes<ExecSpace>()});
  }
  // What a solve with `edges` edges needs (device_bytes, host_bytes) against what can be used
  // (check_device_and_host, memory.hpp). Throws MemoryError before any work.
  void check_memory(const MemoryLimits& limits, std::int64_t edges,
                    std::uint64_t host_usable) const {
    const std::string what =
        std::to_string(sizes_.size()) + " graphs (" + std::to_string(values()) + " distances of " +
        distance_type_name(Distance<U>::type) + (options_.padded ? ", padded" : "") + ")";
    check_device_and_host<ExecSpace>(what, device_bytes(edges), host_bytes(edges), limits,
                                     host_usable);
  }

  // The graphs from their edges: graph g's at [edge_offsets[g], edge_offsets[g + 1]) of
  // `edges`, in its own numbering, weights as given (the solver converts them to T, and keeps
  // them for the verdicts).
  void load(const std::vector<std::int64_t>& edge_offsets,
            std::vector<batched::BatchEdge<double>> edges) {
    if (options_.dense_weights) throw Error("a batch of dense weights loaded from edges");
    if (edge_offsets.size() != sizes_.size() + 1)
      throw Error("edge offsets for " + std::to_string(edge_offsets.size() - 1) + " graphs, " +
                  std::to_string(sizes_.size()) + " graphs in the batch");
    edge_offsets_ = edge_offsets;
    edges_ = std::move(edges);
    // On a host backend the solve reads the converted edges where they are: kept until then.
    converted_.resize(edges_.size());
    for (std::size_t e = 0; e < edges_.size(); ++e)
      converted_[e] = {edges_[e].src, edges_[e].dst, T(edges_[e].weight)};
    device_edges_ = on_device(converted_);
    device_edge_offsets_ = on_device(edge_offsets_);
    if (!apsp::detail::host_memory<ExecSpace>)
      std::vector<batched::BatchEdge<T>>().swap(converted_);
  }

  // A dense batch: every graph of the same n, weights (B, n, n) row-major (+inf: no edge, the
  // diagonal not read). The solver reads them until compute() and predecessor_rows() are done.
  void load_dense(const double* weights) {
    if (!options_.dense_weights) throw Error("a batch of edges loaded from dense weights");
    const std::int64_t n = sizes_.empty() ? 0 : sizes_.front();
    for (const std::int64_t size : sizes_)
      if (size != n) throw Error("a dense batch has graphs of one size");
    dense_n_ = n;
    dense_ = weights;
    const std::size_t values = sizes_.size() * std::size_t(n * n);
    device_weights_ = on_device(weights, values);
  }

  // Every graph closed, its distances stored into `distances` (values() entries of U on the
  // host), then the verdicts.
  void compute(U* distances) {
    apsp::detail::ScopedRegion region("apsp::batched_solver::compute");
    distances_ = distances;
    U* result = distances;
    if (!apsp::detail::host_memory<ExecSpace>) {
      device_distances_ = Kokkos::View<U*, Mem>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::batched::distances"),
          std::size_t(values()));
      result = device_distances_.data();
    }
    layout_ = layout();
    const apsp::detail::MatrixSink<Mem, U> sink{layout_, result, options_.outside};
    batched::Offsets<ExecSpace> cycles;
    if (dense_n_ >= 0)
      cycles = batched::detail::run<ExecSpace, T>(
          exec_, layout_, options_.negative_weights,
          apsp::detail::DenseWeightSource<double>{device_weights_.data(), dense_n_}, sink);
    else
      cycles = batched::detail::run<ExecSpace, T>(
          exec_, layout_, options_.negative_weights,
          apsp::detail::EdgeSource<Mem, batched::BatchEdge<T>>{device_edge_offsets_, device_edges_},
          sink);
    device_edges_ = {};
    std::vector<batched::BatchEdge<T>>().swap(converted_);
    if (!apsp::detail::host_memory<ExecSpace>)
      apsp::detail::download_to_host(exec_, device_distances_, distances, std::size_t(values()));
    exec_.fence();
    verdicts_.assign(sizes_.size(), CycleVerdict{});
    if (!options_.negative_weights) return;
    const auto found = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cycles);
    for (std::size_t g = 0; g < sizes_.size(); ++g) {
      const WeightRange* range = nullptr;
      WeightRange r;
      if (std::is_same<T, float>::value) {  // cycles_may_round needs the graph's range
        r = weight_range(sizes_[g], [&](const auto& add) { each_edge(g, add); });
        range = &r;
      }
      if (found(g) < 0 && !(range && cycles_may_round<T>(*range, sizes_[g]))) continue;
      Graph graph;
      graph.vertices = std::int32_t(sizes_[g]);
      each_edge(g, [&](std::int64_t src, std::int64_t dst, double weight) {
        graph.edges.push_back(Edge{std::int32_t(src), std::int32_t(dst), weight});
      });
      if (!range) r = weight_range(graph);
      verdicts_[g] = negative_cycle_verdict<T>(graph, r, found(g));
    }
  }

  // The verdict of graph g (CycleVerdict: vertex -1 where it has no negative cycle).
  const std::vector<CycleVerdict>& verdicts() const { return verdicts_; }
  // The first graph with a negative cycle, or -1.
  int first_negative_cycle() const {
    for (std::size_t g = 0; g < verdicts_.size(); ++g)
      if (verdicts_[g].vertex >= 0) return int(g);
    return -1;
  }
  // Throws graph g's NegativeCycleError, naming the graph, where it has a cycle.
  void throw_negative_cycle(int g) const {
    apsp::throw_negative_cycle(verdicts_[std::size_t(g)], Distance<T>::type, g);
  }

  // After compute, without negative cycles: the predecessor rows of every graph (paths.hpp's
  // rule; options.none where none, and outside each graph when padded) into `predecessors`
  // (values() entries on the host).
  void predecessor_rows(int* predecessors) {
    apsp::detail::ScopedRegion region("apsp::batched_solver::predecessor_rows");
    if (!options_.predecessors) throw Error("predecessor rows of a batch solved without them");
    if (first_negative_cycle() >= 0)
      throw Error("predecessor rows of a batch with a negative cycle");
    const std::size_t values = std::size_t(this->values());
    // The edges by source, in the concatenated numbering, each graph's in its order.
    std::vector<std::int64_t> by_source(std::size_t(offsets_.back()) + 1, 0);
    std::vector<int> targets;
    std::vector<U> weights;
    for (std::size_t g = 0; g < sizes_.size(); ++g)
      each_edge(g, [&](std::int64_t src, std::int64_t, double) {
        ++by_source[std::size_t(offsets_[g] + src) + 1];
      });
    for (std::size_t v = 0; v + 1 < by_source.size(); ++v)
      by_source[v + 1] += by_source[v];
    targets.resize(std::size_t(by_source.back()));
    weights.resize(targets.size());
    {
      std::vector<std::int64_t> next(by_source.begin(), by_source.end() - 1);
      for (std::size_t g = 0; g < sizes_.size(); ++g)
        each_edge(g, [&](std::int64_t src, std::int64_t dst, double weight) {
          const std::size_t at = std::size_t(next[std::size_t(offsets_[g] + src)]++);
          targets[at] = int(dst);
          weights[at] = U(T(weight));
        });
    }
    int* result = predecessors;
    Kokkos::View<int*, Mem> device_pred;
    if (!apsp::detail::host_memory<ExecSpace>) {
      device_pred = Kokkos::View<int*, Mem>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::batched::predecessors"), values);
      result = device_pred.data();
    }
    if (options_.padded)
      Kokkos::deep_copy(
          exec_, Kokkos::View<int*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(result, values),
          options_.none);
    const U* dist = apsp::detail::host_memory<ExecSpace> ? distances_ : device_distances_.data();
    batched::predecessors<ExecSpace, U>(exec_, layout_, dist, on_device(by_source),
                                        on_device(targets), on_device(weights), result, rule_,
                                        options_.none);
    if (!apsp::detail::host_memory<ExecSpace>)
      apsp::detail::download_to_host(exec_, device_pred, predecessors, std::size_t(values));
    exec_.fence();
  }

  // Frees what the solver holds.
  void release() {
    device_edges_ = {};
    device_edge_offsets_ = {};
    device_weights_ = {};
    device_distances_ = {};
    layout_ = {};
    std::vector<batched::BatchEdge<double>>().swap(edges_);
    std::vector<batched::BatchEdge<T>>().swap(converted_);
  }

 private:
  template <class X>
  using HostView = Kokkos::View<X*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // Host data on the device (the same memory on a host backend: no copy).
  template <class X>
  Kokkos::View<const X*, Mem> on_device(const X* host, std::size_t count) const {
    return Kokkos::create_mirror_view_and_copy(Mem(), HostView<const X>(host, count));
  }
  template <class X>
  Kokkos::View<const X*, Mem> on_device(const std::vector<X>& host) const {
    return on_device(host.data(), host.size());
  }

  Layout layout() const {
    const auto offsets = on_device(offsets_);
    if (options_.padded) return Layout{offsets, {}, largest_};
    return Layout{offsets, on_device(value_offsets_), 0};
  }

  // add(src, dst, weight) for each edge of graph g, in its own numbering, as loaded.
  template <class Add>
  void each_edge(std::size_t g, const Add& add) const {
    if (dense_n_ < 0) {
      for (std::int64_t e = edge_offsets_[g]; e < edge_offsets_[g + 1]; ++e) {
        const auto& edge = edges_[std::size_t(e)];
        add(std::int64_t(edge.src), std::int64_t(edge.dst), edge.weight);
      }
      return;
    }
    const std::int64_t n = dense_n_;
    const double* w = dense_ + std::int64_t(g) * n * n;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (i != j && w[i * n + j] != Distance<double>::infinity) add(i, j, w[i * n + j]);
  }

  ExecSpace exec_;
  std::vector<std::int64_t> sizes_, offsets_, value_offsets_;
  batched::BatchOptions<U> options_;
  std::int64_t largest_ = 0;
  Tightness<U> rule_;
  // The input: edges (dense_n_ < 0) or dense weights.
  std::vector<std::int64_t> edge_offsets_;
  std::vector<batched::BatchEdge<double>> edges_;
  std::vector<batched::BatchEdge<T>> converted_;
  std::int64_t dense_n_ = -1;
  const double* dense_ = nullptr;
  Kokkos::View<const batched::BatchEdge<T>*, Mem> device_edges_;
  Kokkos::View<const std::int64_t*, Mem> device_edge_offsets_;
  Kokkos::View<const double*, Mem> device_weights_;
  Layout layout_;
  U* distances_ = nullptr;
  Kokkos::View<U*, Mem> device_distances_;
  std::vector<CycleVerdict> verdicts_;
};

}  // namespace apsp
