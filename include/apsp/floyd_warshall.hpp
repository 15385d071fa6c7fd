// apsp::floyd_warshall: all-pairs shortest paths on a Kokkos execution space.
//
// The blocked algorithm works on whole Tile x Tile tiles, so the distance matrix is N x N with
// N = V rounded up to a multiple of the plan's tile (plan.hpp): the extra vertices are isolated
// (infinity off the diagonal, 0 on it), so the leading V x V block is the answer.
// WithoutInitializing: fill_distance_matrix writes every entry, and Kokkos 3.4 on CUDA
// initializes a View of 2^32 elements or more in one launch whose 32-bit index arithmetic wraps
// (at N = 65536 it never ends; detail/index_ranges.hpp).
//
//   const apsp::Plan plan = apsp::make_plan<int>(exec, graph.vertices);
//   apsp::DistanceMatrix<Exec> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dist"),
//                                   plan.padded, plan.padded);  // the fill sets every entry
//   apsp::fill_distance_matrix(exec, dist, graph.edges);
//   apsp::floyd_warshall(exec, dist, plan);
//
// With negative weights (plan.negative_weights) check negative_cycle_vertex() afterwards
// (NegativeCycleError, error.hpp). apsp::Solver (solver.hpp) does all of it, on any ranks.
// The paths themselves come afterwards, from the distances and the edges (paths.hpp). A block of
// rows on each of several ranks: apsp::mpi::floyd_warshall (mpi.hpp), the same rounds.
#pragma once

#include <apsp/detail/index_ranges.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/row_block_rounds.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/shapes.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

// Distances of type T (distance.hpp): int32 (the HW3 contract), float or double.
template <class ExecSpace, class T = int>
using DistanceMatrix = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

// Every distance must be representable in the matrix's type: choose_distance_type (graph.hpp)
// refuses, before any work, the graphs whose paths could leave it (path_bounds_problem).

// Bytes of a rows x cols matrix of `element`-byte distances (int32 unless said), saturating
// (V near 2^31 gives 2^64 bytes, which must read as "too much", not wrap to 0).
inline std::uint64_t matrix_bytes(std::int64_t rows, std::int64_t cols,
                                  std::uint64_t element = sizeof(int)) {
  const std::uint64_t r = std::uint64_t(rows), c = std::uint64_t(cols);
  if (r != 0 && c > UINT64_MAX / element / r) return UINT64_MAX;
  return r * c * element;
}

// The edge list on the device (fill_distance_rows scatters it; paths.hpp selects from it).
template <class ExecSpace>
using DeviceEdges = Kokkos::View<Edge*, typename ExecSpace::memory_space>;

template <class ExecSpace>
DeviceEdges<ExecSpace> upload_edges(const ExecSpace& exec, const std::vector<Edge>& edges) {
  DeviceEdges<ExecSpace> device_edges(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::edges"), edges.size());
  Kokkos::deep_copy(
      exec, device_edges,
      Kokkos::View<const Edge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          edges.data(), edges.size()));
  return device_edges;
}

namespace detail {

// The kernels of this file are named functors, not KOKKOS_LAMBDA: detail/supernodal_kernels.hpp
// says why.

// 0 on the diagonal of rows [first_row, ...) of the N x N matrix, infinity elsewhere.
template <class Rows>
struct FillInfinity {
  Rows rows;
  std::int64_t first_row, n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    using T = typename Rows::non_const_value_type;
    rows.data()[e] = (first_row + e / n == e % n) ? T(0) : Distance<T>::infinity;
  }
};

// Edge e's weight where lighter. A self-loop only counts when negative (dist(i,i) = 0
// otherwise): a negative cycle. One of weight >= 0 is skipped, not converted: the type need not
// hold it (weight_range leaves it out, graph.hpp).
template <class Rows, class Edges>
struct FillEdges {
  Rows rows;
  std::int64_t first_row;
  Edges edges;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    using T = typename Rows::non_const_value_type;
    const auto edge = edges(e);  // an Edge, or any src/dst/weight record (real weights)
    if (edge.src != edge.dst || edge.weight < 0)
      Kokkos::atomic_fetch_min(&rows(edge.src - first_row, edge.dst), T(edge.weight));
  }
};

// The smallest v of rows [first_row, ...) with rows(v, v) < 0.
template <class Rows>
struct NegativeDiagonalRow {
  Rows rows;
  std::int64_t first_row;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t v, std::int64_t& smallest) const {
    using T = typename Rows::non_const_value_type;
    if (rows(v - first_row, v) < T(0) && v < smallest) smallest = v;
  }
};

// The smallest v on a closed walk through one of the vertices [first, vertices).
template <class Dist>
struct ClosedWalkVertex {
  Dist dist;
  std::int64_t first, vertices;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t v, std::int64_t& smallest) const {
    for (std::int64_t u = first; u < vertices && v < smallest; ++u)
      if (on_closed_walk(dist(u, u), dist(v, u), dist(u, v))) smallest = v;
  }
};

}  // namespace detail

// Fills a block of consecutive rows of the distance matrix (a rank's share of it): `rows` holds
// rows [first_row, first_row + rows.extent(0)) of the N x N matrix, N = rows.extent(1); every
// edge must start in that range. `edges` is a DeviceEdges (or an std::vector<Edge>, uploaded).
template <class ExecSpace, class T, class Edges>
void fill_distance_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                        std::int64_t first_row, const Edges& edges) {
  static_assert(Kokkos::is_view<Edges>::value, "edges: a DeviceEdges or an std::vector<Edge>");
  detail::ScopedRegion region("apsp::fill_distance_rows");
  const std::int64_t count = rows.extent(0), n = rows.extent(1);
  // count * n reaches 2^32 at N = 65536: more than one launch (detail/index_ranges.hpp).
  detail::for_each_index("apsp::fill::infinity", exec, 0, count * n,
                         detail::FillInfinity<DistanceMatrix<ExecSpace, T>>{rows, first_row, n});
  detail::for_each_index(
      "apsp::fill::edges", exec, 0, std::int64_t(edges.size()),
      detail::FillEdges<DistanceMatrix<ExecSpace, T>, Edges>{rows, first_row, edges});
  exec.fence();
}

template <class ExecSpace, class T>
void fill_distance_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                        std::int64_t first_row, const std::vector<Edge>& edges) {
  fill_distance_rows(exec, rows, first_row, upload_edges(exec, edges));
}

// dist(i,j) = weight of the lightest edge i -> j, 0 on the diagonal, infinity elsewhere
// (padding included). Edges must be valid (the HW3 reader checks them).
template <class ExecSpace, class T>
void fill_distance_matrix(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& dist,
                          const std::vector<Edge>& edges) {
  fill_distance_rows(exec, dist, 0, edges);
}
template <class ExecSpace, class T, class Edges>
void fill_distance_matrix(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& dist,
                          const Edges& edges) {
  fill_distance_rows(exec, dist, 0, edges);
}

// All-pairs shortest paths in place: dist must be N x N with N = plan.padded (a multiple of the
// plan's tile). progress(done, total), if given, is called now and then with the rounds done.
template <class ExecSpace, class T>
void floyd_warshall(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& dist,
                    const Plan& plan, std::function<void(int, int)> progress = {}) {
  detail::ScopedRegion region("apsp::floyd_warshall");
  if (dist.extent(0) != dist.extent(1))
    throw Error("distance matrix must be square, got " + std::to_string(dist.extent(0)) + " x " +
                std::to_string(dist.extent(1)));
  OneRank one;
  detail::floyd_warshall_rows(one, exec, dist, plan, RoundHooks{std::move(progress), {}});
}

// After a run with negative weights: the smallest vertex v < vertices with dist(v,v) < 0 (a
// negative cycle goes through v), or -1. `rows` holds rows [first_row, first_row + extent(0))
// of the matrix, as in fill_distance_rows.
template <class ExecSpace, class T>
std::int64_t negative_cycle_vertex(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                                   std::int64_t first_row, std::int64_t vertices) {
  const std::int64_t end =
      std::min<std::int64_t>(first_row + std::int64_t(rows.extent(0)), vertices);
  if (end <= first_row) return -1;
  std::int64_t found = vertices;
  Kokkos::parallel_reduce(
      "apsp::fw::negative_cycle",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, first_row, end),
      detail::NegativeDiagonalRow<DistanceMatrix<ExecSpace, T>>{rows, first_row},
      Kokkos::Min<std::int64_t>(found));
  return found < vertices ? found : -1;
}

// The vertex named for a negative cycle (negative_cycles.hpp: the smallest with a negative
// closed walk through it), or -1, from a whole closed matrix. Floyd-Warshall leaves d(u, u) < 0
// on at least one vertex of every negative simple cycle (d(u, u) is at most the cycle's weight
// once its vertices have all been pivots) and only on vertices with a negative closed walk, but
// not on all of those (which, depends on its order): v has one exactly when it shares a
// strongly connected component with a marked u. Costs at most (the smallest marked vertex + 1)
// x V reads.
template <class ExecSpace, class T>
std::int64_t closed_walk_vertex(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& dist,
                                std::int64_t vertices) {
  const std::int64_t first = negative_cycle_vertex(exec, dist, 0, vertices);
  if (first < 0) return -1;
  std::int64_t found = first;
  Kokkos::parallel_reduce(
      "apsp::fw::closed_walk_vertex",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, first + 1),
      detail::ClosedWalkVertex<DistanceMatrix<ExecSpace, T>>{dist, first, vertices},
      Kokkos::Min<std::int64_t>(found));
  return found;
}

}  // namespace apsp
