// The plan of a run, by one rule for every driver (the pipeline's rank 0, `apsp path`, the
// Python module): the dense plan in the run's distance type with its tile shape
// (choose_planned_shape), then the algorithm: the one asked for, or auto's choice between
// Dijkstra (sssp_choice.hpp) and dense Floyd-Warshall, then supernodal Floyd-Warshall where asked
// for or where its ordering predicts less work than that choice (supernodal_choice.hpp), with its
// plan.
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/plan.hpp>
#include <apsp/supernodal.hpp>

#include "io/output_formats.hpp"
#include "io/prepared_file.hpp"
#include "plan/device_choices.hpp"
#include "plan/sssp_choice.hpp"
#include "plan/stats.hpp"
#include "plan/supernodal_choice.hpp"
#include "platform/backends.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// What a driver asks of the plan.
struct PlanRequest {
  Algorithm algorithm = Algorithm::automatic;
  ShapeRequest shape;         // --tile, --shape
  bool predecessors = false;  // Dijkstra writes none: auto chooses between the Floyd-Warshalls
  bool sssp = true;           // the driver runs Dijkstra (the pipeline): auto may choose it
};

struct RunPlan {
  Plan plan;                  // the algorithm, the type, the dense shape (padded V for fw)
  SupernodalPlan supernodal;  // when plan.algorithm is supernodal
  SupernodalStats stats;      // what auto weighed
  std::string warning;        // choose_planned_shape's ("" when all is well)
};

// Predecessors come from the Floyd-Warshalls: refused from sssp, for every driver.
inline void check_predecessors(Algorithm algorithm, bool predecessors) {
  if (predecessors && algorithm == Algorithm::sssp)
    throw Error(
        "predecessors (--predecessors, apsp path) come from Floyd-Warshall; sssp does not write "
        "them: use --algorithm fw or supernodal");
}

// The plan of `graph` (weights: its weight_range) in distance type `type`. Throws what
// choose_algorithm and choose_supernodal throw (an algorithm this build or device cannot run),
// and refuses predecessors from sssp, for every driver.
template <class ExecSpace>
RunPlan plan_run(const ExecSpace& exec, const Graph& graph, const WeightRange& weights,
                 DistanceType type, const PlanRequest& request) {
  check_predecessors(request.algorithm, request.predecessors);
  RunPlan run;
  Plan& p = run.plan;
  // Checked whichever algorithm runs: a --tile or --shape that this device cannot run is an
  // error, not silently ignored when auto picks another algorithm.
  p = dense_plan(exec, graph.vertices, weights.negative(), request.shape, type, run.warning);
  p.predecessors = request.predecessors;
  const Algorithm asked = request.predecessors && request.algorithm == Algorithm::automatic
                              ? Algorithm::floyd_warshall
                              : request.algorithm;
  const bool supernodal = asked == Algorithm::supernodal;
  const Algorithm dense_or_sssp = supernodal ? Algorithm::floyd_warshall : asked;
  SupernodalRequest sn = device_request(exec, type, graph.vertices, p.shape);
  sn.asked = supernodal;
  sn.automatic = request.algorithm == Algorithm::automatic;
  sn.chosen = request.sssp ? choose_algorithm(dense_or_sssp, backend_name<ExecSpace>(),
                                              detail::host_memory<ExecSpace>, graph, type)
              : dense_or_sssp == Algorithm::automatic ? Algorithm::floyd_warshall
                                                      : dense_or_sssp;
  sn.predecessors = request.predecessors;
  SupernodalChoice choice = choose_supernodal(graph.vertices, graph.edges, sn);
  p.algorithm = choice.algorithm;
  if (p.algorithm != Algorithm::floyd_warshall) p.padded = p.vertices;
  run.supernodal = std::move(choice.plan);
  run.stats = std::move(choice.stats);
  return run;
}

// The distance type of prepared graph `file` (`name` names it in messages): its own. Another
// asked for (`asked`, --dtype), or another algorithm than the file's, is refused: the file holds
// no plan for them.
inline DistanceType prepared_type(const PreparedFile& file, const std::string& name,
                                  const std::optional<DistanceType>& asked, Algorithm algorithm) {
  if (asked && *asked != file.type)
    throw Error(name + " holds " + distance_type_name(file.type) + " distances, not --dtype " +
                distance_type_name(*asked) +
                "'s: prepare the graph with that --dtype (apsp prepare)");
  if (algorithm != Algorithm::automatic && algorithm != file.algorithm)
    throw Error(name + " holds the plan of " +
                (file.algorithm == Algorithm::sssp ? "sssp" : "supernodal Floyd-Warshall") +
                ", not of --algorithm " + algorithm_name(algorithm) +
                ": give that algorithm the graph's own file");
  return file.type;
}

// The plan of prepared graph `file` (io/prepared_file.hpp; `name` names it in messages) whose
// open edges weigh `weights`: its own plan in its distance type. Supernodal: the dense shape
// checked as plan_run checks it (a --tile or --shape that this device cannot run is an error);
// the plan holds what predecessors need too. sssp: refused where plan_run would refuse it (this
// backend or build, predecessors, weights). Throws apsp::Error where the plan is not one of the
// graph's V vertices, the factor not the plan's size, or (unless `new_weights`: the edges weigh
// what apsp prepare --update-weights gives them) the header's weight range not the edges'.
template <class ExecSpace>
RunPlan prepared_run(const ExecSpace& exec, const PreparedFile& file, const std::string& name,
                     const WeightRange& weights, const ShapeRequest& shape, bool predecessors,
                     bool new_weights = false) {
  const std::int64_t vertices = file.graph.vertices;
  if (!new_weights &&
      (weights.lowest != file.weights.lowest || weights.highest != file.weights.highest ||
       weights.integers != file.weights.integers))
    throw Error(name + ": the weight range in its header is not its edges'");
  if (file.algorithm == Algorithm::sssp) {
    check_predecessors(Algorithm::sssp, predecessors);
    if (new_weights && weights.highest > sssp_max_weight)
      throw Error(name + " is prepared for sssp, which takes weights up to " +
                  std::to_string(sssp_max_weight) + "; the new weights go up to " +
                  number_text(weights.highest) +
                  ": prepare the graph again (apsp prepare --algorithm supernodal)");
    choose_algorithm(Algorithm::sssp, backend_name<ExecSpace>(), detail::host_memory<ExecSpace>,
                     vertices, std::int64_t(file.graph.edges.size()), weights, file.type);
    RunPlan run;
    run.plan = dense_plan(exec, vertices, weights.negative(), shape, file.type, run.warning);
    run.plan.algorithm = Algorithm::sssp;
    run.plan.padded = run.plan.vertices;
    run.stats.decision = "prepared: the graph's arrays read with the graph";
    return run;
  }
  RunPlan run;
  Plan& p = run.plan;
  p = dense_plan(exec, vertices, weights.negative(), shape, file.type, run.warning);
  p.predecessors = predecessors;
  const double dense = double(p.padded);  // what dense Floyd-Warshall would pad V to
  p.algorithm = Algorithm::supernodal;
  p.padded = p.vertices;
  // The plan as the symbolic phase makes it, of these edges, before anything indexes by it (a
  // checksum finds a damaged file, not a forged one).
  try {
    run.supernodal = detail::plan_from_bytes(file.plan.data(), file.plan.size());
    detail::check_plan(run.supernodal);
  } catch (const Error& e) {
    throw Error(name + ": " + e.what());
  }
  const SupernodalPlan& sn = run.supernodal;
  if (sn.vertices != vertices)
    throw Error(name + ": its plan is not one of V = " + std::to_string(vertices) + " vertices");
  try {
    detail::check_plan_edges(sn, file.graph.edges);
  } catch (const Error& e) {
    throw Error(name + ": " + e.what());
  }
  const std::uint64_t factor = std::uint64_t(sn.values_start.back()) * value_bytes(file.type);
  if (file.factor.size() != factor)
    throw Error(name + ": its factor holds " + std::to_string(file.factor.size()) +
                " bytes, its plan needs " + std::to_string(factor));
  SupernodalStats& stats = run.stats;
  stats.considered = true;
  stats.decision = "prepared: the plan and factor read with the graph";
  stats.supernodes = sn.supernodes();
  stats.predicted_updates = sn.prediction.updates();
  stats.factor_updates = sn.prediction.factor_updates;
  stats.row_updates = sn.prediction.row_updates;
  stats.dense_updates = dense * dense * dense;
  return run;
}

// What apsp prepare's file holds (io/prepared_file.hpp) of `graph` (every edge, in its order)
// whose open edges weigh `weights`, made by `solver` (a SupernodalSolver after compute): its plan
// and its factor.
template <class T, class Solver>
PreparedFile prepared_file_of(const Graph& graph, const WeightRange& weights,
                              const Solver& solver) {
  PreparedFile file;
  file.type = Distance<T>::type;
  file.graph = graph;
  file.weights = weights;
  file.plan = Bytes(detail::plan_bytes(solver.plan()));
  const std::vector<T> values = solver.factor_values();
  file.factor = Bytes(values.size() * sizeof(T));
  std::memcpy(file.factor.data(), values.data(), file.factor.size());
  return file;
}

}  // namespace apsp
