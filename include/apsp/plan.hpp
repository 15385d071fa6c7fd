// The plan of a run: everything decided once, from the request and the data, before any work.
//
// A run goes read -> plan -> partition -> solve -> write (src/run/pipeline.cpp). The plan is the
// second stage's result and everything below it reads the plan, never the raw request: the
// algorithm, the tile shape (an index in the backend's table, detail/tile_shapes.hpp), the padded
// size N (V rounded up to the tile: the extra vertices are isolated, so the leading V x V block is
// the answer), the relaxation variant (negative weights or not) and the device memory the run may
// use. The plan describes the work and launches none (it includes no kernel); a library caller
// makes one for a device and a distance type with make_plan() (shapes.hpp, which asks the
// kernels what the device runs):
//
//   const apsp::Plan plan = apsp::make_plan<int>(exec, graph.vertices);
//   apsp::DistanceMatrix<Exec> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dist"),
//                                   plan.padded, plan.padded);  // the fill sets every entry
//   apsp::fill_distance_matrix(exec, dist, graph.edges);
//   apsp::floyd_warshall(exec, dist, plan);
#pragma once

#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

enum class Algorithm { automatic, floyd_warshall, sssp, supernodal };

// The heaviest edge sssp's bucket queue takes (sssp.hpp): its ring holds one list per distance
// in [label, label + sssp_max_weight] (the HW3 format's range, 0..1000).
constexpr int sssp_max_weight = 1000;

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

inline std::int64_t padded_size(std::int64_t vertices, const ShapeChoice& shape) {
  return (vertices + shape.tile - 1) / shape.tile * shape.tile;
}

}  // namespace apsp
