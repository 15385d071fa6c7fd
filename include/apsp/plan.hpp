// The plan of a run: everything decided once, from the request and the data, before any work.
//
// A run goes read -> plan -> partition -> solve -> write (src/job/pipeline.cpp). The plan is the
// second stage's result and everything below it reads the plan, never the raw request: the
// algorithm, the tile shape (an index in the backend's table, detail/tile_shapes.hpp), the padded
// size N (V rounded up to the tile: the extra vertices are isolated, so the leading V x V block is
// the answer), the relaxation variant (negative weights or not) and the device memory the run may
// use. A library caller makes one with make_plan():
//
//   const apsp::Plan plan = apsp::make_plan(exec, graph.vertices);
//   apsp::DistanceMatrix<Exec> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dist"),
//                                   plan.padded, plan.padded);  // the fill sets every entry
//   apsp::fill_distance_matrix(exec, dist, graph.edges);
//   apsp::floyd_warshall(exec, dist, plan);
#pragma once

#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

enum class Algorithm { automatic, floyd_warshall, sssp, supernodal };

// The algorithms' names: auto, fw, sssp, supernodal (the stats' "algorithm").
inline std::optional<Algorithm> algorithm_named(const std::string& name) {
  if (name == "auto") return Algorithm::automatic;
  if (name == "fw") return Algorithm::floyd_warshall;
  if (name == "sssp") return Algorithm::sssp;
  if (name == "supernodal") return Algorithm::supernodal;
  return std::nullopt;
}

inline const char* algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::floyd_warshall:
      return "fw";
    case Algorithm::sssp:
      return "sssp";
    case Algorithm::supernodal:
      return "supernodal";
    default:
      return "auto";
  }
}

// A tile shape by its parameters (detail::TileShape): what `apsp tune`'s cache stores.
struct ShapeParams {
  int tile = 0, team_rows = 0, team_cols = 0, reg_rows = 0, reg_cols = 0, k_chunk = 0;
  bool operator==(const ShapeParams& o) const {
    return tile == o.tile && team_rows == o.team_rows && team_cols == o.team_cols &&
           reg_rows == o.reg_rows && reg_cols == o.reg_cols && k_chunk == o.k_chunk;
  }
};

// The shape a run will use: its index in the backend's table, tile size and description.
struct ShapeChoice {
  int index = -1;
  int tile = 0;
  std::string name;
  ShapeParams params;
};

// A caller's choice of shape: a tile size (0: any) or an index in the table (-1: by tile).
struct ShapeRequest {
  int tile = 0;
  int shape = -1;
  bool any() const { return tile == 0 && shape < 0; }
};

struct Plan {
  Algorithm algorithm = Algorithm::floyd_warshall;  // never automatic once planned
  std::int64_t vertices = 0;
  std::int64_t padded = 0;  // N, a multiple of shape.tile (Floyd-Warshall); V for sssp
  ShapeChoice shape;
  // Where the shape came from: "user" (the caller's ShapeRequest), "tuned" (apsp tune's cache) or
  // "table" (the backend's first that fits the device).
  std::string shape_source = "table";
  // Some weight is negative: the kernels' signed variant (detail/blocked_kernels.hpp,
  // "Arithmetic") and a negative-cycle check afterwards.
  bool negative_weights = false;
  bool predecessors = false;                    // the predecessor rows too (paths.hpp)
  DistanceType distance = DistanceType::int32;  // what the matrix holds (distance.hpp)
};

// Tile sizes of the backend's table for distances of type T that this device can run, best
// first.
template <class ExecSpace, class T = int>
std::vector<ShapeChoice> available_shapes(const ExecSpace& exec) {
  if (!distance_type_compiled<T>) throw distance_type_not_compiled(Distance<T>::type);
  std::vector<ShapeChoice> shapes;
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace, T>::type{}, [&](auto shape, int i) {
    using Shape = decltype(shape);
    if (detail::shape_fits<ExecSpace, Shape, T>(exec))
      shapes.push_back(ShapeChoice{i, Shape::tile, Shape::name(),
                                   ShapeParams{Shape::tile, Shape::team_rows, Shape::team_cols,
                                               Shape::reg_rows, Shape::reg_cols, Shape::k_chunk}});
  });
  return shapes;
}
template <class ExecSpace>
std::vector<ShapeChoice> available_shapes(const ExecSpace& exec, DistanceType type) {
  return visit_distance_type(
      type, [&](auto t) { return available_shapes<ExecSpace, decltype(t)>(exec); });
}

// A hash (FNV-1a, hex) of the backend's compiled table: every shape, runnable here or not, and
// its scratch level, for distances of type T. A cache of measured shapes written for another
// table is stale.
template <class ExecSpace, class T = int>
std::string shape_table_hash() {
  std::string all = std::to_string(detail::ShapeTable<ExecSpace, T>::scratch_level);
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace, T>::type{},
                         [&](auto shape, int) { all += ";" + decltype(shape)::name(); });
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : all)
    hash = (hash ^ c) * 1099511628211ull;
  std::string text;
  for (int shift = 60; shift >= 0; shift -= 4)
    text += "0123456789abcdef"[(hash >> shift) & 15];
  return text;
}

namespace detail {
// Whether the backend's whole table for T has the requested shape, compiled into this build or
// not (CompiledShapes, detail/tile_shapes.hpp).
template <class ExecSpace, class T>
bool in_full_table(const ShapeRequest& request) {
  bool found = false;
  for_each_shape(typename ShapeTable<ExecSpace, T>::full{}, [&](auto shape, int i) {
    if (request.shape >= 0 ? request.shape == i : request.tile == decltype(shape)::tile)
      found = true;
  });
  return found;
}
}  // namespace detail

// The requested shape, or the table's first that this device runs.
template <class ExecSpace>
ShapeChoice choose_shape(const ExecSpace& exec, const ShapeRequest& request = {},
                         DistanceType type = DistanceType::int32) {
  const auto shapes = available_shapes(exec, type);
  std::string sizes;
  for (const auto& s : shapes) {
    if (request.shape >= 0 ? request.shape == s.index : request.tile == 0 || request.tile == s.tile)
      return s;
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(s.tile);
  }
  if (shapes.empty())
    throw UnavailableError(std::string("no tile shape fits the scratch pad of ") +
                           ExecSpace::name());
#if defined(APSP_MINIMAL_INSTANTIATIONS)
  if (visit_distance_type(
          type, [&](auto t) { return detail::in_full_table<ExecSpace, decltype(t)>(request); }))
    throw ShapeError((request.shape >= 0 ? "shape " + std::to_string(request.shape)
                                         : "tile size " + std::to_string(request.tile)) +
                     " of " + ExecSpace::name() +
                     "'s table is not compiled into this build (APSP_CHECK_INSTANTIATIONS=minimal: "
                     "its first shape only, tile " +
                     std::to_string(shapes.front().tile) + ")");
#endif
  if (request.shape >= 0)
    throw ShapeError("shape " + std::to_string(request.shape) + " is not available on " +
                     ExecSpace::name());
  throw ShapeError("tile size " + std::to_string(request.tile) + " is not available on " +
                   ExecSpace::name() + " (available: " + sizes + ")");
}

inline std::int64_t padded_size(std::int64_t vertices, const ShapeChoice& shape) {
  return (vertices + shape.tile - 1) / shape.tile * shape.tile;
}

// A Floyd-Warshall plan for V vertices on this device: the requested shape or the table's first.
template <class ExecSpace>
Plan make_plan(const ExecSpace& exec, std::int64_t vertices, bool negative_weights = false,
               const ShapeRequest& request = {}, DistanceType type = DistanceType::int32) {
  Plan plan;
  plan.vertices = vertices;
  plan.distance = type;
  plan.shape = choose_shape(exec, request, type);
  plan.shape_source = request.any() ? "table" : "user";
  plan.padded = padded_size(vertices, plan.shape);
  plan.negative_weights = negative_weights;
  return plan;
}

}  // namespace apsp
