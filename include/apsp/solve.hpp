// The whole job behind `apsp IN OUT`: read a graph, solve on a backend, write the distances,
// and account for every stage.
#pragma once

#include <apsp/floyd_warshall.hpp>
#include <apsp/formats.hpp>
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
  std::string backend;  // "" = the build's default
  Algorithm algorithm = Algorithm::automatic;  // choose_algorithm() resolves automatic
  Options options;
  std::uint64_t max_memory = 0;  // cap on device memory to use, bytes (0: what is free)
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
  std::int64_t padded = 0;
  double read_s = 0, upload_s = 0, compute_s = 0, download_s = 0, write_s = 0, total_s = 0;
  double comm_s = 0;
  std::uint64_t comm_bytes = 0;

  // V^3 / compute time, and the seeds' GOPS (2 V^3 / compute time / 1e9).
  double updates_per_s() const;
  double gops() const;
  std::string to_json() const;
};

// Runs the whole job on one process. Throws apsp::Error on bad input or missing resources,
// before any output exists; the output appears only when complete.
SolveStats solve_hw3(const SolveConfig& config);

// The tile shapes a backend ("" = default) can run on this device, best first.
std::vector<ShapeChoice> shapes_of(const std::string& backend);

}  // namespace apsp
