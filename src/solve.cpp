#include <apsp/backends.hpp>
#include <apsp/detail/json.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/solve.hpp>

#include "support.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace apsp {
namespace {

using detail::Clock;
using detail::seconds_since;

// Writes rows [0, V) of dist, the first V columns of each, to `out`.
template <class ExecSpace>
void write_distances(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                     std::int64_t vertices, OutputFormat format, AtomicOutputFile& out,
                     SolveStats& stats) {
  std::string text;
  detail::download_rows(
      exec, dist, vertices,
      [&](std::int64_t, const int* row) {
        if (format == OutputFormat::hw3) {
          out.write(row, std::size_t(vertices) * sizeof(int));
        } else {
          text.clear();
          append_text_row(text, row, vertices);
          out.write(text.data(), text.size());
        }
      },
      stats.download_s, stats.write_s);
}

template <class ExecSpace>
SolveStats solve_on(const ExecSpace& exec, const SolveConfig& config) {
  detail::ScopedRegion region("apsp::solve_hw3");
  const auto start = Clock::now();
  SolveStats stats = detail::stats_of(exec);

  auto stage = Clock::now();
  const Graph graph = read_graph(config.input, config.format);
  stats.read_s = seconds_since(stage);
  const std::uint64_t output_size = output_bytes(config.output_format, graph.vertices);
  stats.vertices = graph.vertices;
  stats.edges = std::int64_t(graph.edges.size());
  if (choose_algorithm(config.algorithm, stats.backend, detail::host_memory<ExecSpace>, graph) ==
      Algorithm::sssp) {
    detail::solve_sssp(config, graph, stats);
    stats.total_s = seconds_since(start);
    return stats;
  }

  const ShapeChoice shape = choose_shape(exec, config.options);
  const std::int64_t n = padded_size(graph.vertices, shape);
  stats.tile = shape.tile;
  stats.shape = shape.name;
  stats.padded = n;

  // Resources, before any work: device memory for the matrix (and the edge list while it is
  // scattered), disk space for the output.
  const std::uint64_t needed = detail::saturating_sum(
      {matrix_bytes(n, n), std::uint64_t(graph.edges.size()) * sizeof(Edge)});
  const std::uint64_t usable = detail::usable_memory(exec, config.max_memory);
  if (needed > usable)
    throw Error("V = " + std::to_string(graph.vertices) + " needs " + detail::size_text(needed) +
                " on " + stats.device + " (" + std::to_string(n) + " x " + std::to_string(n) +
                " int32 distances), but only " + detail::size_text(usable) +
                " can be used: run on a device with more memory, or over several with "
                "mpirun -np K (an MPI build)");
  check_disk_space(config.output, output_size);
  AtomicOutputFile out(config.output);

  stage = Clock::now();
  DistanceMatrix<ExecSpace> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist"), n,
                                 n);
  fill_distance_matrix(exec, dist, graph.edges);
  detail::warm_up(exec, config.options);
  stats.upload_s = seconds_since(stage);

  stage = Clock::now();
  floyd_warshall(exec, dist, config.options);
  stats.compute_s = seconds_since(stage);

  write_distances(exec, dist, graph.vertices, config.output_format, out, stats);
  out.commit();
  stats.total_s = seconds_since(start);
  return stats;
}

}  // namespace

double SolveStats::updates_per_s() const {
  const double v = double(vertices);
  return compute_s > 0 ? v * v * v / compute_s : 0;
}
double SolveStats::gops() const {
  return 2 * updates_per_s() / 1e9;
}

std::string SolveStats::to_json() const {
  std::ostringstream j;
  j.precision(9);
  j << "{\n"
    << "  \"vertices\": " << vertices << ",\n"
    << "  \"edges\": " << edges << ",\n"
    << "  \"algorithm\": " << detail::json_string(algorithm) << ",\n"
    << "  \"backend\": " << detail::json_string(backend) << ",\n"
    << "  \"device\": " << detail::json_string(device) << ",\n"
    << "  \"concurrency\": " << concurrency << ",\n"
    << "  \"ranks\": " << ranks << ",\n"
    << "  \"tile\": " << tile << ",\n"
    << "  \"shape\": " << detail::json_string(shape) << ",\n"
    << "  \"padded_vertices\": " << padded << ",\n"
    << "  \"kokkos_version\": " << KOKKOS_VERSION << ",\n"
    << "  \"seconds\": {\"read\": " << read_s << ", \"upload\": " << upload_s
    << ", \"compute\": " << compute_s << ", \"download\": " << download_s
    << ", \"write\": " << write_s << ", \"communication\": " << comm_s << ", \"total\": " << total_s
    << "},\n"
    << "  \"communication_bytes\": " << comm_bytes << ",\n"
    << "  \"updates_per_second\": " << updates_per_s() << ",\n"
    << "  \"gops\": " << gops() << "\n"
    << "}\n";
  return j.str();
}

std::vector<ShapeChoice> shapes_of(const std::string& backend) {
  std::vector<ShapeChoice> shapes;
  with_backend(backend, [&](auto exec) { shapes = available_shapes(exec); });
  return shapes;
}

SolveStats solve_hw3(const SolveConfig& config) {
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) { stats = solve_on(exec, config); });
  return stats;
}

}  // namespace apsp
