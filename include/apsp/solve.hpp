// The whole job behind `apsp IN OUT`: read a graph, solve on a backend, write the distances,
// and account for every stage.
#pragma once

#include <apsp/floyd_warshall.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/sssp.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

struct SolveConfig {
  std::string input;
  std::string output;
  Format format = Format::automatic;
  OutputFormat output_format = OutputFormat::hw3;  // solve_hw3_distributed writes HW3 only
  std::string backend;                             // "" = the build's default
  Algorithm algorithm = Algorithm::automatic;      // choose_algorithm() resolves automatic
  Options options;
  std::uint64_t max_memory = 0;  // cap on device memory to use, bytes (0: what is free)
  bool allow_negative = false;   // accept negative weights (-1000..1000) in the input
  // Also write the predecessor matrix here (Floyd-Warshall with paths, one process): pred(i,j)
  // = the vertex before j on a shortest i -> j path, -1 for j = i and where there is no path;
  // in the output's format. "" for none.
  std::string predecessors;
  // Also write the record of the run (SolveStats::to_json()) here, "" for none. It is part of
  // the run's outputs: committed with OUT and P, or not at all.
  std::string stats;
};

struct SolveStats {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  std::string algorithm = "fw";  // "fw" or "sssp"
  std::string backend;
  std::string device;
  int concurrency = 0;
  int ranks = 1;
  int tile = 0;
  std::string shape;
  // Where the shape came from: "user" (--tile, --shape), "tuned" (apsp tune's cache, tuning.hpp)
  // or "table" (the backend's first that fits the device).
  std::string shape_source;
  std::int64_t padded = 0;
  double read_s = 0, upload_s = 0, compute_s = 0, download_s = 0, write_s = 0, total_s = 0;
  double predecessors_s = 0;  // building the predecessor rows (with --predecessors)
  double comm_s = 0;
  std::uint64_t comm_bytes = 0;

  // V^3 / compute time, and the seeds' GOPS (2 V^3 / compute time / 1e9).
  double updates_per_s() const;
  double gops() const;
  std::string to_json() const;
};

// Runs the whole job on one process. Throws apsp::Error on bad input or missing resources,
// before any output exists; the outputs (OUT, P, stats) appear only when all are complete, as
// one OutputTransaction (include/apsp/hw3_io.hpp). Two of IN, OUT, P and stats that are the
// same file are refused first (check_distinct_files).
SolveStats solve_hw3(const SolveConfig& config);

// The files a run names, for check_distinct_files: IN, OUT, and P and the stats file when the
// configuration asks for them.
std::vector<NamedFile> files_of(const SolveConfig& config);

// One shortest path, printed by `apsp path`.
struct ShortestPath {
  bool reachable = false;
  std::int64_t length = 0;    // the sum of the path's edge weights (lightest of parallel edges)
  std::vector<int> vertices;  // source first, target last
};

// The shortest source -> target path of config.input: from the predecessor matrix saved by an
// earlier run when config.predecessors names one (HW3 format; checked against the graph as it
// is followed, and its length against one shortest-path search from `source`: a stale file is
// an error naming it), else computed with paths on config.backend. Throws apsp::Error for bad input
// and for a negative cycle.
ShortestPath find_path(const SolveConfig& config, std::int64_t source, std::int64_t target);

// The tile shapes a backend ("" = default) can run on this device, best first.
std::vector<ShapeChoice> shapes_of(const std::string& backend);

}  // namespace apsp
