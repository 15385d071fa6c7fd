// One run of a graph held in memory, for the drivers that keep the answer in memory (the Python
// module, `apsp path`): the plan by the rule of every driver (plan_run), the solver it names,
// the memory of both checked before any work (what the destination holds on the host, then the
// solver's own on the device), then load, compute and the hand-over of what the destination
// asks for: every distance row, predecessor rows, or the measures reduced where the rows are
// made. The command line's files, written by every rank, are the pipeline's (pipeline.cpp); the
// solvers and the plan are the same.
//
//   apsp::Answer<Exec, double> to;
//   to.host_bytes = n * n * sizeof(double);           // what the caller holds for the result
//   to.distances = [&](std::int64_t first, std::int64_t count, const double* rows,
//                      std::int64_t stride) { ... };
//   const std::string warning = apsp::run_graph(exec, ranks, graph, weights, {}, to);
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/solver.hpp>
#include <apsp/solver_interface.hpp>
#include <apsp/supernodal.hpp>

#include "plan/run_plan.hpp"
#include "platform/backends.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

namespace apsp {

// What a driver asks of a run in memory. Dijkstra (sssp) makes its rows only into files (the
// pipeline): auto chooses between the Floyd-Warshalls here.
struct GraphRequest {
  Algorithm algorithm = Algorithm::automatic;  // automatic, floyd_warshall or supernodal
  ShapeRequest shape;                          // --tile, --shape
  std::uint64_t max_memory = 0;                // cap on device memory (0: what is free)
};

// Where a run's answer goes, on the host. Exactly one of distances and predecessors (or both),
// or measure.
template <class ExecSpace, class T>
struct Answer {
  // Bytes the destination holds on the host for the answer (a NumPy result): checked with what
  // the host has free before the ordering, and with the solver's own need before any work.
  std::uint64_t host_bytes = 0;
  // Every distance row, in blocks.
  RowSink<T> distances;
  // The predecessor rows [predecessors_first, + predecessors_count) (-1: every row); the
  // solver then also keeps what its paths need (the plan has predecessors).
  RowSink<int> predecessors;
  std::int64_t predecessors_first = -1, predecessors_count = -1;
  // The measures (graph_measures, measures.hpp): where set, every row is reduced where it is
  // made, and `measures` holds the result.
  std::optional<MeasureOptions> measure;
  GraphMeasures measures;
  // A dense input's n x n weights (C order; +inf: no edge; the diagonal is not read) in place
  // of the edges (dense Floyd-Warshall: the request names it; the edges then serve the
  // predecessors only).
  const double* dense = nullptr;
};

namespace detail {

// The solver's rows from its edges, or from a dense input's matrix where the solver can take one
// (the dense solver alone: the only one whose memory is a matrix).
template <class ExecSpace, class T>
void load_answer(Solver<ExecSpace, T>& solver, const std::vector<Edge>& edges,
                 const Answer<ExecSpace, T>& to) {
  if (!to.dense) {
    solver.load(edges);
    return;
  }
  const double* w = to.dense;
  const std::int64_t n = std::int64_t(solver.plan().vertices);
  solver.load(edges, [w, n](const DistanceMatrix<ExecSpace, T>& d) {  // padded with no edges
    const auto host = Kokkos::create_mirror_view(d);
    const std::int64_t padded = d.extent(0);
    Kokkos::parallel_for(
        "apsp::run_graph::fill_dense",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, padded),
        [&](std::int64_t i) {
          for (std::int64_t j = 0; j < padded; ++j) {
            const double x = i < n && j < n ? w[i * n + j] : Distance<double>::infinity;
            host(i, j) = i == j                            ? T(0)
                         : x == Distance<double>::infinity ? Distance<T>::infinity
                                                           : T(x);
          }
        });
    Kokkos::fence();
    Kokkos::deep_copy(d, host);
  });
}
template <class S, class ExecSpace, class T>
void load_answer(S& solver, const std::vector<Edge>& edges, const Answer<ExecSpace, T>& to) {
  if (to.dense) throw Error("a dense matrix is solved by dense Floyd-Warshall alone");
  solver.load(edges);
}

// The solver's answer into `to` (solver_interface.hpp: any solver of all pairs).
template <class T, class ExecSpace, class S>
void hand_answer(const ExecSpace& exec, Ranks& ranks, std::int64_t vertices, S& solver,
                 const std::vector<Edge>& edges, Answer<ExecSpace, T>& to) {
  APSP_CHECK_SOLVER(S);
  load_answer(solver, edges, to);
  solver.compute();
  if (to.measure) {
    to.measures = graph_measures<T>(
        exec, ranks, vertices, solver.first_row(), solver.real_rows(), *to.measure,
        [&](const MeasureSink<ExecSpace, T>& sink) { solver.reduce_rows(sink); });
    return;
  }
  if (to.distances) solver.distance_rows(to.distances);
  if constexpr (S::capabilities().predecessors) {
    if (!to.predecessors) return;
    solver.select_paths();
    solver.predecessor_rows(to.predecessors, to.predecessors_first, to.predecessors_count);
  } else if (to.predecessors) {
    throw Error("this solver gives no predecessors");
  }
}

}  // namespace detail

// What the host and `exec`'s device must hold for a run of V = `vertices` in T whose destination
// keeps `host_bytes` on the host (before its solver is known): a MemoryError before any work, or
// what they leave the solver (check_device_and_host, memory.hpp).
template <class T, class ExecSpace>
MemoryLimits answer_limits(const ExecSpace& exec, std::int64_t vertices, std::uint64_t host_bytes,
                           std::uint64_t max_memory = 0) {
  const MemoryLimits limits{available_memory(exec), max_memory, describe_device(exec), false};
  try {
    return check_device_and_host<ExecSpace>(
        "V = " + std::to_string(vertices) + " in " + distance_type_name(Distance<T>::type), 0,
        host_bytes, limits, available_memory(Kokkos::DefaultHostExecutionSpace()));
  } catch (const MemoryError& e) {
    if (!std::is_same<T, double>::value) throw;
    throw Error(std::string(e.what()) + "; float32 takes half of float64", e.facts());
  }
}

// The run of `graph` (`weights`: its weight_range) in T on `exec` and `ranks`, into `to`.
// Collective. Returns the plan's warning ("" when all is well). Throws MemoryError before any
// work where the memory is not there, NegativeCycleError, and what plan_run throws.
template <class ExecSpace, class T>
std::string run_graph(const ExecSpace& exec, Ranks& ranks, const Graph& graph,
                      const WeightRange& weights, const GraphRequest& request,
                      Answer<ExecSpace, T>& to) {
  const std::int64_t n = graph.vertices, edges = std::int64_t(graph.edges.size());
  const bool predecessors = bool(to.predecessors);
  // The destination's memory at least, before an ordering is tried.
  MemoryLimits limits = answer_limits<T>(exec, n, to.host_bytes, request.max_memory);
  RunPlan run = plan_run(exec, graph, weights, Distance<T>::type,
                         PlanRequest{request.algorithm, request.shape, predecessors, false});
  // A dense input's padded matrix passes through the host on its way to a device.
  if (to.dense && !detail::host_memory<ExecSpace>) {
    const std::uint64_t matrix = matrix_bytes(run.plan.padded, run.plan.padded, sizeof(T));
    limits = answer_limits<T>(exec, n, detail::saturating_add(to.host_bytes, matrix),
                              request.max_memory);
  }
  if (to.measure) limits = beside_measures<T>(limits, n);  // the totals stay beside the solver
  if (run.plan.algorithm == Algorithm::supernodal) {
    SupernodalSolver<ExecSpace, T> solver(exec, ranks, run.supernodal, predecessors, weights);
    if (to.measure) solver.expect_measures();
    solver.check_memory(limits, edges);
    detail::hand_answer(exec, ranks, n, solver, graph.edges, to);
    return run.warning;
  }
  Solver<ExecSpace, T> solver(exec, ranks, run.plan, weights);
  solver.check_memory(limits, edges);
  detail::hand_answer(exec, ranks, n, solver, graph.edges, to);
  return run.warning;
}

// What a whole answer of V = `vertices` in T holds on the host: every distance row, and every
// predecessor row where asked for (Answer::host_bytes of a driver that keeps them all).
template <class T>
std::uint64_t whole_answer_bytes(std::int64_t vertices, bool predecessors) {
  return detail::saturating_sum({matrix_bytes(vertices, vertices, sizeof(T)),
                                 predecessors ? matrix_bytes(vertices, vertices) : 0});
}

// The memory check of run_graph alone into a whole answer (whole_answer_bytes), for a driver
// that must know before it makes the graph (the Python module, before it allocates arrays of V):
// the answer and what the driver holds besides (`host_bytes`), and with `dense` (a dense input's
// matrix) the dense solver's own for `edges` edges, its padded matrix passing through the host.
// Throws MemoryError.
template <class T, class ExecSpace>
void check_answer_memory(const ExecSpace& exec, Ranks& ranks, std::int64_t vertices,
                         std::int64_t edges, std::uint64_t host_bytes, bool predecessors,
                         bool dense) {
  host_bytes = detail::saturating_add(host_bytes, whole_answer_bytes<T>(vertices, predecessors));
  if (!dense) {
    answer_limits<T>(exec, vertices, host_bytes);
    return;
  }
  std::string warning;
  Plan plan = dense_plan(exec, vertices, false, {}, Distance<T>::type, warning);
  plan.predecessors = predecessors;
  const std::uint64_t through_host =
      detail::host_memory<ExecSpace> ? 0 : matrix_bytes(plan.padded, plan.padded, sizeof(T));
  Solver<ExecSpace, T>(exec, ranks, plan)
      .check_memory(
          answer_limits<T>(exec, vertices, detail::saturating_add(host_bytes, through_host)),
          edges);
}

}  // namespace apsp
