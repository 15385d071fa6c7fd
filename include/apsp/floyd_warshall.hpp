// apsp::floyd_warshall: all-pairs shortest paths on a Kokkos execution space.
//
// Padding and tile choice, in one place: the blocked algorithm works on whole Tile x Tile tiles,
// so the distance matrix is N x N with N = V rounded up to a multiple of the tile. The extra
// vertices are isolated (infinity off the diagonal, 0 on it): no path of the real graph goes
// through them, so the leading V x V block is the answer. The tile comes from the backend's
// table of shapes (detail/tile_shapes.hpp): the first one the device allows, or the size the
// caller asks for. Allocate with padded_size(), fill with fill_distance_matrix(), then solve.
//
//   auto shape = apsp::choose_shape(exec, options);
//   apsp::DistanceMatrix<Exec> dist("dist", n, n);   // n = apsp::padded_size(V, shape)
//   apsp::fill_distance_matrix(exec, dist, graph);
//   apsp::floyd_warshall(exec, dist, options);
//
// With negative weights (options.negative_weights) check negative_cycle_vertex() afterwards.
// The paths themselves come afterwards, from the distances and the edges (paths.hpp).
#pragma once

#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/tuning.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

template <class ExecSpace>
using DistanceMatrix = Kokkos::View<int**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

struct Options {
  int tile = 0;    // 0: the backend's first shape that fits the device
  int shape = -1;  // index in the backend's table (apsp shapes); -1: by tile
  // Called now and then with rounds done and total (after a fence); may be empty.
  std::function<void(int, int)> progress;
  // Weights may be negative (-1000..1000): the kernels' signed variant, slower; see
  // detail/blocked_kernels.hpp, "Arithmetic".
  bool negative_weights = false;
};

// The shape a run will use: its index in the backend's table, tile size and description.
struct ShapeChoice {
  int index = -1;
  int tile = 0;
  std::string name;
  ShapeParams params;  // what the tuning cache stores (tuning.hpp)
};

// Tile sizes of the backend's table that this device can run, best first.
template <class ExecSpace>
std::vector<ShapeChoice> available_shapes(const ExecSpace& exec) {
  std::vector<ShapeChoice> shapes;
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace>::type{}, [&](auto shape, int i) {
    using Shape = decltype(shape);
    if (detail::shape_fits<ExecSpace, Shape>(exec))
      shapes.push_back(ShapeChoice{i, Shape::tile, Shape::name(),
                                   ShapeParams{Shape::tile, Shape::team_rows, Shape::team_cols,
                                               Shape::reg_rows, Shape::reg_cols, Shape::k_chunk}});
  });
  return shapes;
}

// A hash (FNV-1a, hex) of the backend's compiled table: every shape, runnable here or not, and
// its scratch level. A tuning cache written for another table is stale (tuning.hpp).
template <class ExecSpace>
std::string shape_table_hash() {
  std::string all = std::to_string(detail::ShapeTable<ExecSpace>::scratch_level);
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace>::type{},
                         [&](auto shape, int) { all += ";" + decltype(shape)::name(); });
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : all)
    hash = (hash ^ c) * 1099511628211ull;
  std::string text;
  for (int shift = 60; shift >= 0; shift -= 4)
    text += "0123456789abcdef"[(hash >> shift) & 15];
  return text;
}

template <class ExecSpace>
ShapeChoice choose_shape(const ExecSpace& exec, const Options& options) {
  const auto shapes = available_shapes(exec);
  std::string sizes;
  for (const auto& s : shapes) {
    if (options.shape >= 0 ? options.shape == s.index : options.tile == 0 || options.tile == s.tile)
      return s;
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(s.tile);
  }
  if (shapes.empty())
    throw Error(std::string("no tile shape fits the scratch pad of ") + ExecSpace::name());
  if (options.shape >= 0)
    throw Error("shape " + std::to_string(options.shape) + " is not available on " +
                ExecSpace::name() + " (see apsp shapes)");
  throw Error("tile size " + std::to_string(options.tile) + " is not available on " +
              ExecSpace::name() + " (available: " + sizes + ")");
}

inline std::int64_t padded_size(std::int64_t vertices, const ShapeChoice& shape) {
  return (vertices + shape.tile - 1) / shape.tile * shape.tile;
}

// Every distance must be representable: below infinity with non-negative weights, below the
// signed variant's threshold T = 2^29 - 1 with negative ones (detail/blocked_kernels.hpp,
// "Negative weights": the proof that the remaining tiles may skip the infinity test needs
// M = (V - 1) * max_weight < T). A shortest path has at most V - 1 edges of |w| <= max_weight,
// so M bounds every real distance: V <= 1073742, or 536871 with negative weights (far beyond
// what fits in memory today, but checked rather than assumed).
// (Checked after the memory: a V this large never fits in memory today, which says more.)
inline void check_path_bounds(std::int64_t vertices, bool negative) {
  const std::int64_t limit = negative ? detail::negative_threshold : std::int64_t(infinity);
  if ((vertices - 1) * max_weight >= limit)
    throw Error("V = " + std::to_string(vertices) + " is too large" +
                (negative ? " for negative weights" : "") + ": a shortest path of V - 1 edges of " +
                "weight up to " + std::to_string(max_weight) + " could reach " +
                std::to_string(limit) + ", which int32 distances cannot hold");
}

// A negative cycle leaves shortest paths undefined: an error, and no output.
inline Error negative_cycle_error(std::int64_t vertex) {
  return Error("negative cycle through vertex " + std::to_string(vertex) +
               ": shortest paths are undefined (no output written)");
}

// Bytes of a rows x cols int32 matrix, saturating (V near 2^31 gives 2^64 bytes, which must
// read as "too much", not wrap to 0).
inline std::uint64_t matrix_bytes(std::int64_t rows, std::int64_t cols) {
  const std::uint64_t r = std::uint64_t(rows), c = std::uint64_t(cols);
  if (r != 0 && c > UINT64_MAX / sizeof(int) / r) return UINT64_MAX;
  return r * c * sizeof(int);
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

// Fills a block of consecutive rows of the distance matrix (a rank's share of it): `rows` holds
// rows [first_row, first_row + rows.extent(0)) of the N x N matrix, N = rows.extent(1); every
// edge must start in that range. `edges` is a DeviceEdges (or an std::vector<Edge>, uploaded).
template <class ExecSpace, class Edges>
void fill_distance_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows,
                        std::int64_t first_row, const Edges& edges) {
  static_assert(Kokkos::is_view<Edges>::value, "edges: a DeviceEdges or an std::vector<Edge>");
  detail::ScopedRegion region("apsp::fill_distance_rows");
  const std::int64_t count = rows.extent(0), n = rows.extent(1);
  Kokkos::parallel_for(
      "apsp::fill::infinity",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, count * n),
      KOKKOS_LAMBDA(std::int64_t e) {
        rows.data()[e] = (first_row + e / n == e % n) ? 0 : infinity;
      });
  Kokkos::parallel_for(
      "apsp::fill::edges",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, edges.size()),
      KOKKOS_LAMBDA(std::int64_t e) {
        const Edge edge = edges(e);
        // A self-loop only counts when negative (dist(i,i) = 0 otherwise): a negative cycle.
        Kokkos::atomic_fetch_min(&rows(edge.src - first_row, edge.dst), int(edge.weight));
      });
  exec.fence();
}

template <class ExecSpace>
void fill_distance_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows,
                        std::int64_t first_row, const std::vector<Edge>& edges) {
  fill_distance_rows(exec, rows, first_row, upload_edges(exec, edges));
}

// dist(i,j) = weight of the lightest edge i -> j, 0 on the diagonal, infinity elsewhere
// (padding included). Edges must be valid (the HW3 reader checks them).
template <class ExecSpace>
void fill_distance_matrix(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                          const std::vector<Edge>& edges) {
  fill_distance_rows(exec, dist, 0, edges);
}
template <class ExecSpace, class Edges>
void fill_distance_matrix(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                          const Edges& edges) {
  fill_distance_rows(exec, dist, 0, edges);
}

namespace detail {

template <class ExecSpace>
void run_floyd_warshall(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                        const Options& options) {
  const ShapeChoice shape = choose_shape(exec, options);
  const std::int64_t n = dist.extent(0);
  if (std::int64_t(dist.extent(1)) != n)
    throw Error("distance matrix must be square, got " + std::to_string(n) + " x " +
                std::to_string(dist.extent(1)));
  if (n % shape.tile != 0)
    throw Error("distance matrix extent " + std::to_string(n) + " is not a multiple of the tile " +
                std::to_string(shape.tile) + ": allocate it with apsp::padded_size()");
  if (n == 0) return;
  const int tiles = int(n / shape.tile);
  visit_shape(typename ShapeTable<ExecSpace>::type{}, shape.index, [&](auto shape_tag) {
    visit_relaxation(options.negative_weights, [&](auto relax_tag) {
      BlockedRounds<ExecSpace, decltype(shape_tag), decltype(relax_tag)> rounds(exec, dist.data(),
                                                                                0, tiles, tiles);
      const int every = tiles / 100 > 0 ? tiles / 100 : 1;
      for (int r = 0; r < tiles; ++r) {
        rounds.round(r, SharedPivotRows{});
        if (options.progress && ((r + 1) % every == 0 || r + 1 == tiles)) {
          exec.fence();
          options.progress(r + 1, tiles);
        }
      }
    });
  });
  exec.fence();
}

}  // namespace detail

// All-pairs shortest paths in place: dist must be N x N, N a multiple of the chosen tile.
template <class ExecSpace>
void floyd_warshall(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                    const Options& options = {}) {
  detail::ScopedRegion region("apsp::floyd_warshall");
  detail::run_floyd_warshall(exec, dist, options);
}

// After a run with negative weights: the smallest vertex v < vertices with dist(v,v) < 0 (a
// negative cycle goes through v), or -1. `rows` holds rows [first_row, first_row + extent(0))
// of the matrix, as in fill_distance_rows.
template <class ExecSpace>
std::int64_t negative_cycle_vertex(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows,
                                   std::int64_t first_row, std::int64_t vertices) {
  const std::int64_t end =
      std::min<std::int64_t>(first_row + std::int64_t(rows.extent(0)), vertices);
  if (end <= first_row) return -1;
  std::int64_t found = vertices;
  Kokkos::parallel_reduce(
      "apsp::fw::negative_cycle",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, first_row, end),
      KOKKOS_LAMBDA(std::int64_t v, std::int64_t & smallest) {
        if (rows(v - first_row, v) < 0 && v < smallest) smallest = v;
      },
      Kokkos::Min<std::int64_t>(found));
  return found < vertices ? found : -1;
}

}  // namespace apsp
