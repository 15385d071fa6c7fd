#include <apsp/backends.hpp>
#include <apsp/detail/json.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/paths.hpp>
#include <apsp/solve.hpp>

#include "support.hpp"

#include <Kokkos_Core.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace apsp {
namespace {

using detail::Clock;
using detail::seconds_since;

// Writes rows [0, count) of `rows`, the first V columns of each, to `out`.
template <class ExecSpace>
void write_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows, std::int64_t count,
                std::int64_t vertices, OutputFormat format, AtomicOutputFile& out,
                SolveStats& stats) {
  std::string text;
  detail::download_rows(
      exec, rows, count,
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

// Floyd-Warshall on the filled matrix, then the check for a negative cycle that negative weights
// need.
template <class ExecSpace>
void solve_distances(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                     const Options& options, std::int64_t vertices) {
  floyd_warshall(exec, dist, options);
  if (options.negative_weights) {
    const std::int64_t cycle = negative_cycle_vertex(exec, dist, 0, vertices);
    if (cycle >= 0) throw negative_cycle_error(cycle);
  }
}

// Predecessor rows computed at once: enough for the device, within `memory` bytes.
template <class ExecSpace>
std::int64_t predecessor_batch(const ExecSpace& exec, std::int64_t vertices, std::int64_t n,
                               std::uint64_t memory) {
  const std::int64_t wanted =
      detail::host_memory<ExecSpace> ? 64 * std::int64_t(exec.concurrency()) : 32768;
  std::int64_t batch = std::min(vertices, wanted);
  while (batch > 1 && PredecessorRows<ExecSpace>::bytes(batch, n) > memory)
    batch /= 2;
  return std::max<std::int64_t>(batch, 1);
}

// The predecessor rows' kernels once, on a graph of one edge, as detail::warm_up does for the
// solver's (its distances are final as filled).
template <class ExecSpace>
void warm_up_predecessors(const ExecSpace& exec) {
  DistanceMatrix<ExecSpace> dist("apsp::warm_up", 2, 2);
  const DeviceEdges<ExecSpace> edges = upload_edges(exec, {Edge{0, 1, 0}});
  fill_distance_matrix(exec, dist, edges);
  PredecessorRows<ExecSpace>(exec, dist, 0, 2, select_path_edges(exec, dist, 0, 2, edges), 1)
      .compute(0, 1);
}

template <class ExecSpace>
SolveStats solve_on(const ExecSpace& exec, const SolveConfig& config) {
  detail::ScopedRegion region("apsp::solve_hw3");
  const auto start = Clock::now();
  SolveStats stats = detail::stats_of(exec);

  auto stage = Clock::now();
  const Graph graph = read_graph(config.input, config.format, config.allow_negative);
  stats.read_s = seconds_since(stage);
  const std::uint64_t output_size = output_bytes(config.output_format, graph.vertices);
  stats.vertices = graph.vertices;
  stats.edges = std::int64_t(graph.edges.size());
  const bool paths = !config.predecessors.empty();
  if (paths && config.algorithm == Algorithm::sssp)
    throw Error(
        "--predecessors comes from Floyd-Warshall (sssp does not write them): use --algorithm fw");
  const Algorithm asked = paths ? Algorithm::floyd_warshall : config.algorithm;
  if (choose_algorithm(asked, stats.backend, detail::host_memory<ExecSpace>, graph) ==
      Algorithm::sssp) {
    detail::solve_sssp(config, graph, stats);
    stats.total_s = seconds_since(start);
    return stats;
  }
  Options options = config.options;
  options.negative_weights = has_negative_weight(graph);

  const ShapeChoice shape = choose_shape(exec, options);
  const std::int64_t n = padded_size(graph.vertices, shape);
  stats.tile = shape.tile;
  stats.shape = shape.name;
  stats.padded = n;

  // Resources, before any work: device memory for the matrix and the edge list (scattered into
  // it; with paths kept until the shortest-path edges are selected from it, and those, and the
  // predecessor rows with their queues), disk space for the outputs.
  const std::uint64_t usable = detail::usable_memory(exec, config.max_memory);
  const std::int64_t edges = std::int64_t(graph.edges.size());
  const std::uint64_t matrices =
      detail::saturating_sum({matrix_bytes(n, n), std::uint64_t(edges) * sizeof(Edge),
                              paths ? PathEdges<ExecSpace>::bytes(graph.vertices, edges) : 0});
  const std::int64_t batch =
      paths ? predecessor_batch(exec, graph.vertices, n, usable > matrices ? usable - matrices : 0)
            : 0;
  const std::uint64_t needed =
      detail::saturating_sum({matrices, paths ? PredecessorRows<ExecSpace>::bytes(batch, n) : 0});
  if (needed > usable)
    throw Error("V = " + std::to_string(graph.vertices) + " needs " + detail::size_text(needed) +
                " on " + stats.device + " (" + std::to_string(n) + " x " + std::to_string(n) +
                " int32 distances" +
                (paths ? ", the shortest-path edges and the predecessor rows' work space" : "") +
                "), but only " + detail::size_text(usable) +
                " can be used: run on a device with more memory" +
                (paths ? std::string() : ", or over several with mpirun -np K (an MPI build)"));
  check_path_bounds(graph.vertices, options.negative_weights);
  if (paths && same_output_file(config.output, config.predecessors))
    throw Error("--predecessors names OUT itself ('" + config.output +
                "'): give the predecessors a file of their own");
  if (paths)
    check_disk_space({{config.output, output_size}, {config.predecessors, output_size}});
  else
    check_disk_space(config.output, output_size);
  AtomicOutputFile out(config.output);
  std::optional<AtomicOutputFile> predecessors_out;
  if (paths) predecessors_out.emplace(config.predecessors);

  stage = Clock::now();
  DistanceMatrix<ExecSpace> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist"), n,
                                 n);
  DeviceEdges<ExecSpace> device_edges = upload_edges(exec, graph.edges);
  fill_distance_matrix(exec, dist, device_edges);
  if (!paths) device_edges = {};
  detail::warm_up(exec, options);
  if (paths) warm_up_predecessors(exec);
  stats.upload_s = seconds_since(stage);

  stage = Clock::now();
  solve_distances(exec, dist, options, graph.vertices);
  stats.compute_s = seconds_since(stage);

  write_rows(exec, dist, graph.vertices, graph.vertices, config.output_format, out, stats);
  if (paths) {
    stage = Clock::now();
    const auto path_edges = select_path_edges(exec, dist, 0, graph.vertices, device_edges);
    device_edges = {};
    PredecessorRows<ExecSpace> rows(exec, dist, 0, graph.vertices, path_edges, batch);
    stats.predecessors_s += seconds_since(stage);
    for (std::int64_t first = 0; first < graph.vertices; first += batch) {
      const std::int64_t count = std::min(batch, graph.vertices - first);
      stage = Clock::now();
      const auto& pred = rows.compute(first, count);
      stats.predecessors_s += seconds_since(stage);
      write_rows(exec, pred, count, graph.vertices, config.output_format, *predecessors_out, stats);
    }
  }
  out.commit();
  if (predecessors_out) predecessors_out->commit();
  stats.total_s = seconds_since(start);
  return stats;
}

// Follows pred (the predecessor row of `source`) back from `target`, checking every step
// against the graph: a saved matrix may belong to another graph.
ShortestPath follow_predecessors(const Graph& graph, const std::vector<int>& pred,
                                 std::int64_t source, std::int64_t target,
                                 const std::string& origin) {
  ShortestPath path;
  if (source != target && pred[std::size_t(target)] == no_vertex) return path;
  path.reachable = true;
  for (std::int64_t v = target;; v = pred[std::size_t(v)]) {
    path.vertices.push_back(int(v));
    if (v == source) break;
    const int p = pred[std::size_t(v)];
    if (p < 0 || p >= graph.vertices || std::int64_t(path.vertices.size()) > graph.vertices)
      throw Error(origin + ": the predecessors of vertex " + std::to_string(target) +
                  " from vertex " + std::to_string(source) +
                  " do not lead back to it: not the predecessor matrix of this graph");
  }
  std::reverse(path.vertices.begin(), path.vertices.end());
  // The lightest edge of each step.
  std::unordered_map<std::int64_t, std::int64_t> weight;
  const auto key = [&](std::int64_t u, std::int64_t v) { return u * graph.vertices + v; };
  for (std::size_t s = 1; s < path.vertices.size(); ++s)
    weight.emplace(key(path.vertices[s - 1], path.vertices[s]), std::int64_t(infinity));
  for (const Edge& e : graph.edges) {
    const auto it = weight.find(key(e.src, e.dst));
    if (it != weight.end()) it->second = std::min<std::int64_t>(it->second, e.weight);
  }
  for (std::size_t s = 1; s < path.vertices.size(); ++s) {
    const std::int64_t w = weight[key(path.vertices[s - 1], path.vertices[s])];
    if (w == infinity)
      throw Error(origin + ": the path to vertex " + std::to_string(target) + " uses " +
                  std::to_string(path.vertices[s - 1]) + " -> " + std::to_string(path.vertices[s]) +
                  ", which is no edge of the graph: not the predecessor matrix of this graph");
    path.length += w;
  }
  return path;
}

// Row `source` of a saved HW3 predecessor matrix of V x V int32.
std::vector<int> read_predecessor_row(const std::string& file, std::int64_t vertices,
                                      std::int64_t source) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(file.c_str(), "rb"), std::fclose);
  if (!in) throw Error(detail::system_error("cannot open predecessors", file));
  struct stat st;
  if (fstat(fileno(in.get()), &st) != 0 || !S_ISREG(st.st_mode) ||
      std::uint64_t(st.st_size) != hw3_output_bytes(vertices))
    throw Error("predecessors '" + file + "': not a " + std::to_string(vertices) + " x " +
                std::to_string(vertices) + " int32 matrix (" +
                std::to_string(hw3_output_bytes(vertices)) +
                " bytes in HW3 format, for the V of the input)");
  std::vector<int> row(static_cast<std::size_t>(vertices));
  if (fseeko(in.get(), off_t(source * vertices * 4), SEEK_SET) != 0 ||
      std::fread(row.data(), sizeof(int), row.size(), in.get()) != row.size())
    throw Error(detail::system_error("cannot read predecessors", file));
  return row;
}

template <class ExecSpace>
std::vector<int> computed_predecessor_row(const ExecSpace& exec, const SolveConfig& config,
                                          const Graph& graph, std::int64_t source) {
  Options options = config.options;
  options.negative_weights = has_negative_weight(graph);
  const std::int64_t n = padded_size(graph.vertices, choose_shape(exec, options));
  const std::int64_t edges = std::int64_t(graph.edges.size());
  const std::uint64_t needed =
      detail::saturating_sum({matrix_bytes(n, n), std::uint64_t(edges) * sizeof(Edge),
                              PathEdges<ExecSpace>::bytes(graph.vertices, edges),
                              PredecessorRows<ExecSpace>::bytes(1, n)});
  const std::uint64_t usable = detail::usable_memory(exec, config.max_memory);
  if (needed > usable)
    throw Error("V = " + std::to_string(graph.vertices) + " needs " + detail::size_text(needed) +
                " on " + describe_device(exec) + " for the distances and shortest-path edges, " +
                "but only " + detail::size_text(usable) + " can be used");
  check_path_bounds(graph.vertices, options.negative_weights);
  DistanceMatrix<ExecSpace> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist"), n,
                                 n);
  const DeviceEdges<ExecSpace> device_edges = upload_edges(exec, graph.edges);
  fill_distance_matrix(exec, dist, device_edges);
  solve_distances(exec, dist, options, graph.vertices);
  PredecessorRows<ExecSpace> rows(exec, dist, 0, graph.vertices,
                                  select_path_edges(exec, dist, 0, graph.vertices, device_edges),
                                  1);
  const auto pred = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(rows.compute(source, 1), 0, Kokkos::ALL));
  return std::vector<int>(pred.data(), pred.data() + graph.vertices);
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
    << ", \"write\": " << write_s << ", \"predecessors\": " << predecessors_s
    << ", \"communication\": " << comm_s << ", \"total\": " << total_s << "},\n"
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

ShortestPath find_path(const SolveConfig& config, std::int64_t source, std::int64_t target) {
  const Graph graph = read_graph(config.input, config.format, config.allow_negative);
  for (const std::int64_t v : {source, target})
    if (v < 0 || v >= graph.vertices)
      throw Error("vertex " + std::to_string(v) + " out of range [0, " +
                  std::to_string(graph.vertices) + ") of '" + config.input + "'");
  std::vector<int> pred;
  if (!config.predecessors.empty())
    pred = read_predecessor_row(config.predecessors, graph.vertices, source);
  else
    with_backend(config.backend,
                 [&](auto exec) { pred = computed_predecessor_row(exec, config, graph, source); });
  return follow_predecessors(graph, pred, source, target,
                             config.predecessors.empty() ? "apsp" : config.predecessors);
}

SolveStats solve_hw3(const SolveConfig& config) {
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) { stats = solve_on(exec, config); });
  return stats;
}

}  // namespace apsp
