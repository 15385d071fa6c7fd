// The whole job behind `apsp IN OUT`, on one process or on every rank under mpirun:
// read -> plan -> partition -> solve -> write (pipeline.cpp), each stage timed once.
#pragma once

#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>

#include "io/formats.hpp"
#include "io/hw3_io.hpp"
#include "io/measures_output.hpp"
#include "io/outputs.hpp"
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
  Algorithm algorithm = Algorithm::automatic;  // automatic: chosen from the graph (sssp.hpp)
  ShapeRequest shape;                          // --tile, --shape
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
};

// One step of a rank's setup: its seconds, and the part of them it spent in collectives (waiting
// there for the other ranks, or moving data among them); the rest is its own work.
struct StepSeconds {
  double seconds = 0;
  double collective = 0;
};

// A rank's setup, the stages read, plan and upload, in named steps that follow each other and add
// up to read + plan + upload. Each algorithm runs some of them (dense Floyd-Warshall: all but
// supernodal_plan; supernodal: no upload steps, its load is part of compute).
struct SetupSeconds {
  enum Step {
    check_files,      // read: two names of one file, the stats file opened (rank 0)
    read_input,       // read: IN read (rank 0); the other ranks wait for it
    decide,           // plan: the plan decided (rank 0: supernodal's ordering and symbolic too)
    broadcast_plan,   // plan: the plan's facts to every rank
    shape_check,      // plan: every rank can run rank 0's shape
    partition,        // plan: the edges to the ranks that need them
    supernodal_plan,  // plan: rank 0's supernodal plan to every rank
    memory_check,     // plan: the solver's memory on every device
    outputs,          // plan: the outputs created, the disk checked, each rank's way of writing
    allocate,         // upload: this rank's rows allocated on the device
    fill,             // upload: the edges uploaded and the rows filled
    warm_up,          // upload: every kernel of the plan run once, then the ranks agree
    count
  };
  StepSeconds steps[count];
  static const char* name(int step);
};

// What one rank handed to one output: its rows, and the bytes it wrote itself (to /dev/null
// too; through rank 0, rank 0 writes every rank's rows and the others none).
struct RowsWritten {
  std::int64_t rows = 0;
  std::uint64_t bytes = 0;
};

// Seconds of each stage of the pipeline. They follow each other, so they add up to total.
struct StageSeconds {
  double read = 0;     // checking the files, reading IN (rank 0)
  double plan = 0;     // the plan, the resources it needs, creating the outputs, the edges' shares
  double upload = 0;   // the matrix allocated and filled on the device, the kernels warmed up
  double compute = 0;  // the distances (communication included), the negative-cycle check
  double predecessors = 0;  // the predecessor rows (with --predecessors)
  double download = 0;      // waiting for rows to come off the device
  double write = 0;         // writing rows: what it held up their producer (row_output.hpp)
  double commit = 0;        // the rows on the disk (fsync) on every rank
  double total = 0;
  double communication = 0;  // within compute: moving pivot rows (MPI)
  // Alongside the stages: the writer threads writing rows of OUT and P at their offsets, and
  // starting their writeback to the disk, while the rows' producer went on (write_behind.hpp).
  double write_behind = 0;
  std::uint64_t communication_bytes = 0;  // pivot-row bytes received
  // Pivot-row bytes sent: this rank's rows, once for each rank that received them.
  std::uint64_t communication_sent_bytes = 0;
  // Within compute, beside the kernels: a device link's stream moving pivot rows (GPU time).
  double link = 0;
  // The most host memory the process held at once (its peak resident set, getrusage).
  std::uint64_t peak_host_bytes = 0;
  SetupSeconds setup;     // read, plan and upload step by step
  RowsWritten out, pred;  // this rank's rows of OUT and P
  // The distance rows this rank's solver made within compute (every pass, the histogram's
  // probes of `apsp measures` included): supernodal's updates are counted by them.
  std::int64_t rows_made = 0;
};

// What the supernodal algorithm (supernodal.hpp) did or predicted, when a run considered it.
struct SupernodalStats {
  bool considered = false;  // ordered and analysed (asked for, or auto found it worth a look)
  std::string decision;     // why it runs or why auto left it
  double ordering = 0;      // seconds: METIS' nested dissection (within plan)
  double symbolic = 0;      // seconds: elimination tree, supernodes, predictions (within plan)
  double factor = 0;        // seconds: the numeric factor (within compute)
  double rows = 0;          // seconds: the distance rows from the factor (within compute)
  std::int64_t supernodes = 0;
  std::uint64_t factor_bytes = 0;
  std::uint64_t path_bytes = 0;  // a row's two path arrays in the sweeps (2 x the longest path)
  double predicted_updates = 0;  // factor + rows, from the symbolic phase
  double factor_updates = 0;     // ... of them the factor's
  double row_updates = 0;        // ... and those of all V rows
  double dense_updates = 0;      // what dense Floyd-Warshall would do (padded V^3)
};

// How `apsp measures` made its histogram (GraphMeasures::passes, probed_rows).
struct MeasureStats {
  int passes = 0;  // 0: no histogram
  std::int64_t probed_rows = 0;
};

struct SolveStats {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  std::string algorithm = "fw";  // "fw", "sssp" or "supernodal"
  std::string dtype = "int32";   // the distances' type: int32, float32, float64
  std::string backend;
  std::string device;
  int concurrency = 0;
  int ranks = 1;
  int tile = 0;
  std::string shape;
  std::string shape_source;  // "user", "tuned" or "table" (Plan::shape_source)
  // How pivot rows travelled: "nccl", "ipc", "host" (host memory), "none" (they did not), and
  // the transport asked for (--transport).
  std::string transport = "none";
  std::string transport_requested = "auto";
  std::string transport_note;  // why a device link gave way to host (TransportChoice::note)
  std::int64_t padded = 0;
  StageSeconds seconds;  // this rank's (rank 0's in the file)
  // How the rows of OUT and P reached their files (RowOutput::way): "at offsets", "discarded by
  // each rank" or "through rank 0 in order"; "" for an output the run does not write.
  std::string output_rows, predecessor_rows;
  // Every rank's stages (rank 0's first), for P ranks; communication_bytes summed over ranks in
  // `seconds` of rank 0.
  std::vector<StageSeconds> per_rank;
  SupernodalStats supernodal;  // in to_json() when considered
  MeasureStats measures;       // in to_json() with a histogram
  // What the caller should warn about (rank 0's), e.g. a tuning cache that could not be used:
  // the library prints nothing. Not part of to_json().
  std::vector<std::string> warnings;

  // The min-plus updates of the compute stage that the rates count, and which count that is
  // (updates_counted): Floyd-Warshall's V^3 (the padding to whole tiles left out); supernodal's
  // as its plan predicts them for what the run made: the factor on every rank, and each
  // distance row made its share of the plan's row updates. 0 where no count is known (sssp:
  // Dijkstra makes no min-plus updates), and to_json() then leaves the rates out.
  double updates() const;
  const char* updates_counted() const;
  std::int64_t rows_made() const;  // StageSeconds::rows_made, summed over the ranks
  // updates() / compute time, and GOPS (2 updates() / compute time / 1e9, the add and the min
  // of an update counted apart).
  double updates_per_s() const;
  double gops() const;
  std::string to_json() const;
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

// The tile shapes a backend ("" = default) can run on this device for distances of `type`, best
// first.
std::vector<ShapeChoice> shapes_of(const std::string& backend,
                                   DistanceType type = DistanceType::int32);

}  // namespace apsp
