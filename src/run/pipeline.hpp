// The whole job behind `apsp IN OUT`, on one process or on every rank under mpirun:
// read -> plan -> partition -> solve -> write (pipeline.cpp), each stage timed once.
#pragma once

#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>

#include "io/hw3_io.hpp"
#include "io/measures_output.hpp"
#include "io/output_formats.hpp"
#include "io/outputs.hpp"
#include "io/prepared_file.hpp"
#include "io/read_graph.hpp"
#include "plan/stats.hpp"
#include "platform/device_links.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

// What the user asks for; the plan (plan.hpp) is decided from it and the data.
struct SolveConfig {
  std::string input;
  std::string output;
  Format format = Format::automatic;
  OutputFormat output_format = OutputFormat::hw3;
  std::string backend;                         // "" = the build's default
  Algorithm algorithm = Algorithm::automatic;  // automatic: chosen from the graph (sssp_choice.hpp)
  ShapeRequest shape;                          // --tile, --shape
  // --row-threads: supernodal's threads a row in the GPUs' row sweeps, 1, 2 or 4 (the backend's
  // most at most: SupernodalSolver::set_row_split); 0: chosen from the rows made at once.
  int row_threads = 0;
  std::uint64_t max_memory = 0;  // cap on device memory to use, bytes (0: what is free)
  bool allow_negative = false;   // accept negative weights in the input
  // The distances' type (--dtype); none: auto (choose_distance_type in graph.hpp).
  std::optional<DistanceType> dtype;
  // Also write the predecessor matrix here: pred(i,j) = the vertex before j on a shortest
  // i -> j path, -1 for j = i and where there is no path (paths.hpp); in the output's format.
  // "" for none.
  std::string predecessors;
  // P's format; none: OUT's. The command line takes it from P's own name (.npy is npy), so that
  // a name never says one format while the file holds another.
  std::optional<OutputFormat> predecessors_format;
  // `apsp measures`: OUT holds these measures of the graph (measures_output.hpp), reduced from
  // the rows where they are made; no distance leaves the solver.
  std::optional<MeasuresRequest> measures;
  // --sources, --targets: OUT (and P) hold only these rows and columns, in these orders,
  // duplicates kept: an |S| x |T| table (.npy or text). None: every vertex. Ids from 0, checked
  // against V once the graph is read.
  std::optional<std::vector<std::int32_t>> sources, targets;
  // Also write the record of the run (SolveStats::to_json()) here, "" for none. It is part of
  // the run's outputs: committed with OUT and P, or not at all.
  std::string stats;
  // How Floyd-Warshall's pivot rows travel between the ranks' GPUs (platform/device_links.hpp).
  Transport transport = Transport::automatic;
  // `apsp prepare`: OUT is the prepared graph (io/prepared_file.hpp): the graph, the plan of
  // supernodal Floyd-Warshall and its factor, which a run with it as IN reads instead of making.
  bool prepare = false;
  // `apsp prepare --update-weights NEW IN OUT`: IN a prepared graph, NEW a graph file of its
  // edges in its order (as the readers give them) with new weights; OUT the same plan with the
  // factor of the new weights. "" for none.
  std::string update_weights;
};

// Where a long solve is, called now and then on rank 0: `done` of `total` steps of one kind
// (Floyd-Warshall's rounds, supernodal FW's blocks of rows), the work done so far in min-plus
// updates (for a rate) and its fraction of the whole (for a percentage and the time left):
// steps of unequal cost count by their work (SupernodalWork).
struct ProgressStep {
  const char* unit;  // "round", "row block"
  int done, total;
  double updates;
  double fraction;
};
using Progress = std::function<void(const ProgressStep&)>;

// The work of supernodal Floyd-Warshall (supernodal.hpp) on a rank's `rows` of the V rows, in
// min-plus updates, for the progress of its blocks: the factor (made before the first block),
// each distance row its share of the symbolic phase's row updates, and with predecessors each
// row again (SupernodalSolver makes it anew) and its search (paths.hpp), which visits the
// shortest-path edges out of every vertex it meets: E' a row at most, each visit worth
// search_edge_updates(). Until the shortest-path edges are known, E' is taken as E (every edge):
// E' <= E, so the total only falls and the fraction only rises.
class SupernodalWork {
 public:
  // What one edge of a search costs against one update of the rows' sweeps (a search reads its
  // row at random, the sweeps stream whole vectors): the predecessor pass's time a block against
  // the distance pass's, on a CPU and on a GPU (docs/PERFORMANCE.md entry 43). Only the progress
  // shown depends on it, never a result.
  static double search_edge_updates(bool host) { return host ? 80 : 140; }

  SupernodalWork(double factor_updates, double row_updates, std::int64_t vertices,
                 std::int64_t rows, std::int64_t edges, bool predecessors, bool host)
      : factor_(factor_updates),
        per_row_(vertices > 0 ? row_updates / double(vertices) : 0),
        per_edge_(search_edge_updates(host)),
        rows_(double(rows)),
        edges_(double(edges)),
        predecessors_(predecessors) {}

  void distance_rows_done(std::int64_t count) { distance_rows_ += double(count); }
  void path_edges_found(std::int64_t count) { edges_ = std::min(edges_, double(count)); }
  void predecessor_rows_done(std::int64_t count) { predecessor_rows_ += double(count); }

  // A predecessor row's work: the distance row made again, and its search.
  double predecessor_row() const { return per_row_ + per_edge_ * edges_; }
  double done() const {
    return factor_ + per_row_ * distance_rows_ + predecessor_row() * predecessor_rows_;
  }
  double total() const {
    return factor_ + per_row_ * rows_ + (predecessors_ ? predecessor_row() * rows_ : 0);
  }
  double fraction() const { return total() > 0 ? done() / total() : 1; }

 private:
  double factor_, per_row_, per_edge_, rows_, edges_;
  bool predecessors_;
  double distance_rows_ = 0, predecessor_rows_ = 0;
};

// Runs the whole job on the ranks (collective; OneRank for one process, mpi::ranks(comm) under
// mpirun): rank 0 reads the input and writes --stats, every rank computes and writes its own rows
// of OUT (and P). Throws apsp::Error on bad input or missing resources, on every rank with the
// same message, naming the failing rank, before any output exists; the outputs (OUT, P, stats)
// appear only when all are complete, as one OutputTransaction (outputs.hpp). Two of IN, OUT, P and
// stats that are the same file are refused first (check_distinct_files). In a build with the
// test hooks (APSP_ENABLE_TEST_HOOKS) APSP_FAIL_RANK=r and APSP_FAIL_ROUND=k make rank r fail at
// Floyd-Warshall round k.
SolveStats solve(const SolveConfig& config, Ranks& ranks, const Progress& progress = {});

// One process.
SolveStats solve(const SolveConfig& config);

// The files a run names, for check_distinct_files: IN, OUT, and P and the stats file when the
// configuration asks for them.
std::vector<NamedFile> files_of(const SolveConfig& config);

// One shortest path, printed by `apsp path`.
struct ShortestPath {
  bool reachable = false;
  double length = 0;          // the sum of the path's edge weights (lightest of parallel edges)
  std::vector<int> vertices;  // source first, target last
  std::vector<std::string> warnings;  // for the user (a tuning cache that cannot be used)
};

// The shortest source -> target path of config.input: from the predecessor matrix saved by an
// earlier run when config.predecessors names one (HW3 format; checked against the graph as it
// is followed, and its length against one shortest-path search from `source`: a stale file is
// an error naming it), else computed with paths on config.backend. Throws apsp::Error for bad
// input and for a negative cycle.
ShortestPath find_path(const SolveConfig& config, std::int64_t source, std::int64_t target);

// Row `source` of the predecessor matrix of `graph` (config.input's, read by the caller, with
// `weights` its weight_range), computed on config.backend for find_path: one search from `source`
// where --algorithm is auto and the distance type's sums are exact, else the solver of all pairs
// that plan_run picks, with config's options; with `prepared` (config.input's file, `graph` its
// open_graph) the file's own factor (PreparedGraph), nothing planned or factored again, and
// another --dtype or --algorithm than the file's refused. Compiled here, beside the pipeline, so
// that the solvers' kernels are instantiated in one translation unit. `warning`: the plan's, ""
// if none.
std::vector<int> predecessor_row(const SolveConfig& config, const Graph& graph,
                                 const WeightRange& weights, std::int64_t source,
                                 std::string& warning,
                                 std::optional<PreparedFile> prepared = std::nullopt);

// The tile shapes a backend ("" = default) can run on this device for distances of `type`, best
// first.
std::vector<ShapeChoice> shapes_of(const std::string& backend,
                                   DistanceType type = DistanceType::int32);

}  // namespace apsp
