// Whether supernodal Floyd-Warshall (supernodal.hpp) runs, and its plan: asked for, or chosen
// by auto where its ordering and symbolic phase predict less work than the alternative. One
// decision for every driver that can run it: the pipeline (rank 0), `apsp path`, the Python
// module.
#pragma once

#include <apsp/graph.hpp>
#include <apsp/plan.hpp>
#include <apsp/supernodal.hpp>

#include "plan/stats.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace apsp {

// Auto considers supernodal Floyd-Warshall from this many vertices (below, dense Floyd-Warshall
// takes milliseconds) and up to this average degree (arcs per vertex: beyond, graphs have large
// separators: social networks, random graphs).
constexpr std::int64_t supernodal_min_vertices = 1024;
constexpr double supernodal_max_degree = 16;

struct SupernodalRequest {
  bool asked = false;  // --algorithm supernodal: runs whatever the prediction (errors if it cannot)
  bool automatic = false;  // auto: runs where it predicts less work than `chosen`
  Algorithm chosen = Algorithm::floyd_warshall;  // auto's pick without it (fw or sssp)
  bool predecessors = false;                     // the rows are made twice (SupernodalSolver)
  bool host = true;                              // a host backend (the costs)
  bool tile_32 = true;            // the build runs the fronts' 32 x 32 tiles (SupernodalOptions)
  std::int64_t dense_padded = 0;  // dense Floyd-Warshall's padded V
};

struct SupernodalChoice {
  Algorithm algorithm = Algorithm::floyd_warshall;  // supernodal, or request.chosen
  SupernodalPlan plan;                              // when supernodal
  SupernodalStats stats;                            // considered, decision, times, predictions
};

// A request with the device's facts filled in: its costs, whether it runs the fronts' tiles, and
// dense Floyd-Warshall's padded V with the tile shape `dense`: the plan's, as choose_planned_shape
// chose it (dense_plan, device_choices.hpp), so that every driver weighs the same dense
// run.
template <class ExecSpace>
SupernodalRequest device_request(const ExecSpace& exec, DistanceType type, std::int64_t vertices,
                                 const ShapeChoice& dense) {
  SupernodalRequest r;
  r.host = detail::host_memory<ExecSpace>;
  const auto shapes = available_shapes(exec, type);
  r.tile_32 = std::any_of(shapes.begin(), shapes.end(),
                          [](const ShapeChoice& shape) { return shape.tile == 32; });
  r.dense_padded = padded_size(vertices, dense);
  return r;
}

// Throws UnavailableError (asked, no METIS) or MemoryError (asked, the ordering cannot fit).
SupernodalChoice choose_supernodal(std::int64_t vertices, const std::vector<Edge>& edges,
                                   const SupernodalRequest& request);

}  // namespace apsp
