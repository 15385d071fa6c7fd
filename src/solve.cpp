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
#include <functional>
#include <memory>
#include <optional>
#include <queue>
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
  check_distinct_files(files_of(config));
  // The stats file first: a name that cannot be written fails before any work.
  std::unique_ptr<AtomicOutputFile> stats_out =
      config.stats.empty() ? nullptr : std::make_unique<AtomicOutputFile>(config.stats);
  OutputTransaction outputs;

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
  Options options = config.options;
  options.negative_weights = has_negative_weight(graph);
  // Checked whichever algorithm runs: a --tile or --shape that this device cannot run is an
  // error, not silently ignored when auto picks Dijkstra.
  const ShapeChoice shape = detail::plan_shape(exec, options, graph.vertices, stats.shape_source);
  const Algorithm asked = paths ? Algorithm::floyd_warshall : config.algorithm;
  if (choose_algorithm(asked, stats.backend, detail::host_memory<ExecSpace>, graph) ==
      Algorithm::sssp) {
    detail::solve_sssp(config, graph, stats, outputs);
    stats.total_s = seconds_since(start);
    detail::commit_outputs(outputs, std::move(stats_out), stats);
    return stats;
  }

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
  if (paths)
    check_disk_space({{config.output, output_size}, {config.predecessors, output_size}});
  else
    check_disk_space(config.output, output_size);
  AtomicOutputFile& out = outputs.add(config.output);
  AtomicOutputFile* predecessors_out = paths ? &outputs.add(config.predecessors) : nullptr;

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
  stats.total_s = seconds_since(start);
  detail::commit_outputs(outputs, std::move(stats_out), stats);
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

// The distances from `source` to every vertex, int64 with `unreachable` where there is no path:
// Dijkstra, or Bellman-Ford when the graph has negative weights (then a negative cycle that
// `source` reaches is an error). One search on the host, to check a saved path against.
constexpr std::int64_t unreachable = INT64_MAX;
std::vector<std::int64_t> distances_from(const Graph& graph, std::int64_t source) {
  const std::size_t v = std::size_t(graph.vertices);
  std::vector<std::int64_t> dist(v, unreachable);
  dist[std::size_t(source)] = 0;
  if (!has_negative_weight(graph)) {
    std::vector<std::size_t> first(v + 1, 0);
    for (const Edge& e : graph.edges)
      ++first[std::size_t(e.src) + 1];
    for (std::size_t i = 0; i < v; ++i)
      first[i + 1] += first[i];
    std::vector<Edge> arcs(graph.edges.size());
    std::vector<std::size_t> next(first.begin(), first.end() - 1);
    for (const Edge& e : graph.edges)
      arcs[next[std::size_t(e.src)]++] = e;
    using Item = std::pair<std::int64_t, std::int64_t>;  // (distance, vertex)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    queue.push({0, source});
    while (!queue.empty()) {
      const auto [d, u] = queue.top();
      queue.pop();
      if (d > dist[std::size_t(u)]) continue;
      for (std::size_t k = first[std::size_t(u)]; k < first[std::size_t(u) + 1]; ++k) {
        const std::int64_t through = d + arcs[k].weight;
        if (through < dist[std::size_t(arcs[k].dst)]) {
          dist[std::size_t(arcs[k].dst)] = through;
          queue.push({through, arcs[k].dst});
        }
      }
    }
    return dist;
  }
  for (std::size_t round = 0; round <= v; ++round) {
    bool changed = false;
    for (const Edge& e : graph.edges) {
      const std::int64_t from = dist[std::size_t(e.src)];
      if (from != unreachable && from + e.weight < dist[std::size_t(e.dst)]) {
        dist[std::size_t(e.dst)] = from + e.weight;
        changed = true;
      }
    }
    if (!changed) return dist;
  }
  throw Error("a negative cycle can be reached from vertex " + std::to_string(source) +
              ": no shortest path is defined");
}

// A path read from a saved predecessor matrix must be a shortest one: its length (or that it
// found none) against one search from the source.
void check_against_true_distance(const Graph& graph, const ShortestPath& path, std::int64_t source,
                                 std::int64_t target, const std::string& file) {
  const std::int64_t shortest = distances_from(graph, source)[std::size_t(target)];
  const std::string pair = std::to_string(source) + " -> " + std::to_string(target);
  if (!path.reachable && shortest != unreachable)
    throw Error("predecessors '" + file + "' say that " + pair +
                " has no path, but one of length " + std::to_string(shortest) +
                " exists: a stale predecessor matrix, or one of another graph");
  if (path.reachable && path.length != shortest)
    throw Error("predecessors '" + file + "' give a path " + pair + " of length " +
                std::to_string(path.length) + ", but the shortest has length " +
                std::to_string(shortest) + ": a stale predecessor matrix, or one of another graph");
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
    << "  \"shape_source\": " << detail::json_string(shape_source) << ",\n"
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
  if (config.predecessors.empty()) {
    std::vector<int> pred;
    with_backend(config.backend,
                 [&](auto exec) { pred = computed_predecessor_row(exec, config, graph, source); });
    return follow_predecessors(graph, pred, source, target, "apsp");
  }
  const std::vector<int> pred = read_predecessor_row(config.predecessors, graph.vertices, source);
  const ShortestPath path = follow_predecessors(graph, pred, source, target, config.predecessors);
  check_against_true_distance(graph, path, source, target, config.predecessors);
  return path;
}

std::vector<NamedFile> files_of(const SolveConfig& config) {
  std::vector<NamedFile> files = {{"IN", config.input}, {"OUT", config.output}};
  if (!config.predecessors.empty()) files.push_back({"--predecessors", config.predecessors});
  if (!config.stats.empty()) files.push_back({"--stats", config.stats});
  return files;
}

namespace detail {

void commit_outputs(OutputTransaction& outputs, std::unique_ptr<AtomicOutputFile> stats_out,
                    const SolveStats& stats) {
  if (stats_out) {
    const std::string json = stats.to_json();
    stats_out->write(json.data(), json.size());
    outputs.add(std::move(stats_out));
  }
  outputs.commit();
}

}  // namespace detail

SolveStats solve_hw3(const SolveConfig& config) {
  check_distinct_files(files_of(config));
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) { stats = solve_on(exec, config); });
  return stats;
}

}  // namespace apsp
