// A graph prepared once and answered many times (the Python module's apsp.Graph): the plan of
// supernodal Floyd-Warshall (the ordering and symbolic phase, most of a small query's time) and
// its numeric factor are made once and kept on the device; each query then costs only its rows.
// A query is a table (rows of a list of sources, columns of a list of targets; either list left
// empty means every vertex), or the measures. New weights on the same edges keep the plan (the
// structure depends only on which edges exist): a new factor replaces the old one only once it
// is made and has no negative cycle, so a refused or failed update leaves the graph as it was.
//
//   apsp::PreparedGraph<Exec, int> g(exec, graph, {});         // plan, factor
//   g.distances(sources, targets, host_bytes, sink);             // a |S| x |T| table
//   g.predecessors(sources, targets, host_bytes, int_sink);      // their predecessors
//   g.update_weights(new_weights);                               // same edges, new factor
//   write_prepared(out, g.file());                               // apsp prepare's file
//
// Dense Floyd-Warshall has no factor smaller than its V x V matrix, and Dijkstra none at all: a
// graph is prepared by supernodal Floyd-Warshall.
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/paths.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/supernodal.hpp>

#include "io/prepared_file.hpp"
#include "plan/run_plan.hpp"
#include "run/run_graph.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp {

template <class ExecSpace, class T>
class PreparedGraph {
 public:
  // Plans `graph` (request.algorithm automatic or supernodal) and makes its factor, in one
  // process. Throws what run_graph throws, and ArgumentError for an algorithm that cannot be
  // prepared.
  PreparedGraph(const ExecSpace& exec, Graph graph, const GraphRequest& request)
      : exec_(exec), graph_(std::move(graph)), request_(request) {
    if (request.algorithm != Algorithm::automatic && request.algorithm != Algorithm::supernodal)
      throw ArgumentError(std::string("a graph is prepared by supernodal Floyd-Warshall, not ") +
                          algorithm_name(request.algorithm) +
                          " (dense Floyd-Warshall keeps nothing smaller than its V x V distances)");
    weights_ = weight_range(graph_.vertices, graph_.edges);
    first_weights_ = weights_;
    RunPlan run = plan_run(exec, graph_, weights_, Distance<T>::type,
                           PlanRequest{Algorithm::supernodal, request.shape, false, false});
    warning_ = run.warning;
    plan_ = std::make_shared<const SupernodalPlan>(std::move(run.supernodal));
    solver_ = factor(graph_.edges, weights_);
  }

  // The graph of a prepared file (apsp prepare, save): its plan and factor read, not made.
  // Throws ArgumentError where the file's distance type is not T, Error where its plan or factor
  // does not fit its graph, and what the factor's memory check throws.
  PreparedGraph(const ExecSpace& exec, PreparedFile file, const GraphRequest& request)
      : exec_(exec), graph_(std::move(file.graph)), request_(request) {
    if (file.algorithm != Algorithm::supernodal)
      throw ArgumentError(
          "the prepared graph holds the arrays of sssp (apsp prepare --algorithm sssp), not the "
          "factor of supernodal Floyd-Warshall: prepare it with --algorithm supernodal or auto");
    if (file.type != Distance<T>::type)
      throw ArgumentError(std::string("the prepared graph holds ") + distance_type_name(file.type) +
                          " distances, not " + distance_type_name(Distance<T>::type));
    const std::vector<Edge> live = live_edges(graph_.edges);
    weights_ = weight_range(graph_.vertices, live);
    first_weights_ = weights_;
    RunPlan run = prepared_run(exec, file, "the prepared graph", weights_, request.shape, false);
    warning_ = run.warning;
    plan_ = std::make_shared<const SupernodalPlan>(std::move(run.supernodal));
    solver_ = factor(live, weights_, reinterpret_cast<const T*>(file.factor.data()));
  }

  PreparedGraph(const PreparedGraph&) = delete;  // its solvers hold its ranks
  PreparedGraph& operator=(const PreparedGraph&) = delete;

  std::int64_t vertices() const { return graph_.vertices; }
  std::int64_t edges() const { return std::int64_t(graph_.edges.size()); }
  // The plan's warning ("" when all is well).
  const std::string& warning() const { return warning_; }
  const SupernodalPlan& plan() const { return *plan_; }
  // What the graph keeps on the device between queries: the factor and its index arrays.
  std::uint64_t device_bytes() const {
    const std::uint64_t v = std::uint64_t(graph_.vertices);
    return detail::saturating_sum({plan_->prediction.factor_values * sizeof(T), 16 * v,
                                   64 * std::uint64_t(plan_->prediction.supernodes)});
  }

  // What a prepared file holds (io/prepared_file.hpp): the graph (every edge, closed ones too),
  // the plan and the current factor.
  PreparedFile file() const { return prepared_file_of<T>(graph_, weights_, *solver_); }

  // The table d(sources[i], targets[k]) into sink (row i of the list handed over as row i, its
  // |targets| values in the targets' order); an empty list: every vertex, in order. Each vertex
  // in [0, V). `host_bytes`: what the destination holds on the host (checked first).
  void distances(const std::vector<std::int32_t>& sources, const std::vector<std::int32_t>& targets,
                 std::uint64_t host_bytes, const RowSink<T>& sink) {
    answer_limits<T>(exec_, vertices(), host_bytes, request_.max_memory);
    const bool every_source = sources.empty(), every_target = targets.empty();
    if (every_source && every_target) {
      solver_->distance_rows(sink);
    } else if (every_source) {
      std::vector<std::int32_t> all(static_cast<std::size_t>(vertices()));
      std::iota(all.begin(), all.end(), 0);
      solver_->distance_rows_of(all, sink, targets);
    } else {
      solver_->distance_rows_of(sources, sink, targets);
    }
    solver_->release_rows();  // a block of whole rows is not kept between queries
  }

  // The predecessor rows of `sources` into sink (row i of the list handed over as row i, its
  // |targets| entries in the targets' order; an empty list: every vertex), -1 where there is
  // none: each source's distance row from the factor, then the rule of paths.hpp
  // (PredecessorRows) over the open edges: the vertex before t on a shortest s -> t path among
  // those of fewest edges, the smallest; what a solve with predecessors gives. One search a
  // source. The edges for the searches are made on the device at the first query and kept
  // until new weights. `host_bytes`: what the destination holds on the host (checked first,
  // with the edges, a row and its search on the device).
  void predecessors(const std::vector<std::int32_t>& sources,
                    const std::vector<std::int32_t>& targets, std::uint64_t host_bytes,
                    const RowSink<int>& sink) {
    const std::int64_t n = vertices();
    const MemoryLimits limits = answer_limits<T>(exec_, n, host_bytes, request_.max_memory);
    const std::uint64_t search_bytes = detail::saturating_add(
        matrix_bytes(1, n, sizeof(T)), PredecessorRows<ExecSpace, T>::bytes(1, n));
    if (!paths_) {
      const std::vector<Edge> live = live_edges(graph_.edges);
      const std::int64_t e = std::int64_t(live.size());
      check_memory(exec_, one_, n,
                   detail::saturating_sum({std::uint64_t(e) * sizeof(Edge),
                                           PathEdges<ExecSpace, T>::bytes(n, e), search_bytes}),
                   "the edges, one row and its search", limits);
      paths_ = std::make_unique<PathEdges<ExecSpace, T>>(
          path_edges<T>(exec_, n, upload_edges(exec_, live)));
    }
    check_memory(exec_, one_, n, search_bytes, "one row and its search", limits);
    std::vector<std::int32_t> list = sources;
    if (list.empty()) {
      list.resize(static_cast<std::size_t>(n));
      std::iota(list.begin(), list.end(), 0);
    }
    DistanceMatrix<ExecSpace, T> row(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::prepared::row"), 1, n);
    const auto host_row = Kokkos::create_mirror_view(row);
    PredecessorRows<ExecSpace, T> search(
        exec_, row, 0, n, *paths_, 1,
        tightness_for<T>(n, weights_.integers, weights_.largest_magnitude()));
    std::vector<int> picked(targets.empty() ? std::size_t(n) : targets.size());
    solver_->distance_rows_of(
        list, [&](std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride) {
          for (std::int64_t i = 0; i < count; ++i) {
            const std::int32_t s = list[std::size_t(first + i)];
            std::memcpy(host_row.data(), rows + i * stride, std::size_t(n) * sizeof(T));
            Kokkos::deep_copy(exec_, row, host_row);
            search.use_rows(row, s);
            const auto pred =
                Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), search.compute(s, 1));
            for (std::size_t k = 0; k < picked.size(); ++k)
              picked[k] = pred(0, targets.empty() ? std::int64_t(k) : targets[k]);
            sink(first + i, 1, picked.data(), std::int64_t(picked.size()));
          }
        });
    solver_->release_rows();
  }

  // The measures (graph_measures, measures.hpp). The measures' sweeps need a factor of their own
  // (with the reversed graph's, where the graph is not symmetric): made from the kept plan.
  GraphMeasures measures(const MeasureOptions& options) {
    SupernodalSolver<ExecSpace, T> solver(exec_, one_, *plan_, false, weights_);
    solver.expect_measures();
    const std::int64_t n = vertices();
    const std::vector<Edge> live = live_edges(graph_.edges);
    solver.check_memory(beside_measures<T>(answer_limits<T>(exec_, n, 0, request_.max_memory), n),
                        std::int64_t(live.size()));
    solver.load(live);
    solver.compute();
    return graph_measures<T>(
        exec_, one_, n, solver.first_row(), solver.real_rows(), options,
        [&](const MeasureSink<ExecSpace, T>& sink) { solver.reduce_rows(sink); });
  }

  // New weights of the same edges (weights[e]: edge e's, in the order the graph was prepared
  // with); for float types +inf closes an edge. Refused (Error, the graph unchanged): another
  // count, NaN or -inf, +inf in int32, a negative weight where the prepared graph had none (its
  // kernels were chosen for weights >= 0) (ArgumentError), paths that T cannot hold
  // (DistanceTypeError); a NegativeCycleError leaves
  // the graph as it was too.
  void update_weights(const std::vector<double>& weights) {
    if (std::int64_t(weights.size()) != edges())
      throw ArgumentError("new weights: " + std::to_string(weights.size()) + " for " +
                          std::to_string(edges()) +
                          " edges (the prepared graph's edges, in their order)");
    Graph next = graph_;
    for (std::size_t e = 0; e < weights.size(); ++e) {
      const double w = weights[e];
      const bool closes = w == std::numeric_limits<double>::infinity();
      if (std::isnan(w) || (std::isinf(w) && !closes) || (closes && std::is_integral<T>::value))
        throw ArgumentError("new weights: edge " + std::to_string(e) + " has weight " + words(w) +
                            (std::is_integral<T>::value
                                 ? " (int32 distances take finite weights)"
                                 : " (+inf closes an edge; NaN and -inf are no "
                                   "weights)"));
      next.edges[e].weight = w;
    }
    const std::vector<Edge> live = live_edges(next.edges);
    const WeightRange range = weight_range(next.vertices, live);
    if (range.negative() && !first_weights_.negative())
      throw ArgumentError(
          "new weights: a negative weight (" + words(range.lowest) +
          ") where the prepared graph had none: prepare the graph with the new weights");
    choose_distance_type(Distance<T>::type, next.vertices, range);  // T holds the paths
    auto solver = factor(live, range);
    graph_ = std::move(next);
    weights_ = range;
    solver_ = std::move(solver);
    paths_.reset();  // of the old weights
  }

 private:
  // The edges that are open (a finite weight; +inf closes one).
  static std::vector<Edge> live_edges(const std::vector<Edge>& edges) {
    std::vector<Edge> live;
    live.reserve(edges.size());
    for (const Edge& e : edges)
      if (e.weight != std::numeric_limits<double>::infinity()) live.push_back(e);
    return live;
  }
  static std::string words(double w) {
    if (std::isnan(w)) return "NaN";
    if (std::isinf(w)) return w > 0 ? "+inf" : "-inf";
    std::ostringstream out;
    out << std::setprecision(17) << w;
    return out.str();
  }

  // The factor of the plan with `edges` (open ones) of `range`: its memory checked against what
  // the device has now (the graph's current factor counted as used), then made; throws
  // MemoryError, NegativeCycleError.
  // With `values` (the plan's count): the factor that they are (a prepared file's), not made
  // again.
  std::unique_ptr<SupernodalSolver<ExecSpace, T>> factor(const std::vector<Edge>& edges,
                                                         const WeightRange& range,
                                                         const T* values = nullptr) {
    auto solver =
        std::make_unique<SupernodalSolver<ExecSpace, T>>(exec_, one_, *plan_, false, range);
    solver->check_memory(answer_limits<T>(exec_, vertices(), 0, request_.max_memory),
                         std::int64_t(edges.size()));
    solver->load(edges);
    if (values) solver->load_factor(values, std::size_t(plan_->values_start.back()));
    solver->compute();
    return solver;
  }

  ExecSpace exec_;
  OneRank one_;
  Graph graph_;  // the structure (every edge, closed ones too) and the current weights
  GraphRequest request_;
  WeightRange weights_, first_weights_;  // the open edges' now, and at preparation
  std::string warning_;
  std::shared_ptr<const SupernodalPlan> plan_;
  std::unique_ptr<SupernodalSolver<ExecSpace, T>> solver_;
  std::unique_ptr<PathEdges<ExecSpace, T>> paths_;  // predecessors' edges, from the first query
};

}  // namespace apsp
