// `apsp path IN U V`: one shortest path, read from a saved predecessor matrix (checked against
// the graph) or computed with the library (src/run/pipeline.hpp, find_path).

#include <apsp/distance.hpp>
#include <apsp/paths.hpp>

#include "io/compare.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "io/posix_files.hpp"
#include "io/prepared_file.hpp"
#include "io/read_graph.hpp"
#include "run/pipeline.hpp"
#include "verify/host_dijkstra.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace apsp {
namespace {

using detail::unreachable;

// The weight of the lightest edge of each step of a path (vertices[s] -> vertices[s + 1]),
// `unreachable` where the graph has no such edge.
std::vector<double> step_weights(const Graph& graph, const std::vector<int>& vertices) {
  std::unordered_map<std::int64_t, double> lightest;
  const auto key = [&](std::int64_t u, std::int64_t v) { return u * graph.vertices + v; };
  for (std::size_t s = 1; s < vertices.size(); ++s)
    lightest.emplace(key(vertices[s - 1], vertices[s]), unreachable);
  for (const Edge& e : graph.edges) {
    const auto it = lightest.find(key(e.src, e.dst));
    if (it != lightest.end()) it->second = std::min(it->second, e.weight);
  }
  std::vector<double> weights;
  for (std::size_t s = 1; s < vertices.size(); ++s)
    weights.push_back(lightest[key(vertices[s - 1], vertices[s])]);
  return weights;
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
  const std::vector<double> weight = step_weights(graph, path.vertices);
  for (std::size_t s = 1; s < path.vertices.size(); ++s) {
    const double w = weight[s - 1];
    if (w == unreachable)
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
  if (fstat(fileno(in.get()), &st) != 0 || !S_ISREG(st.st_mode))
    throw Error("predecessors '" + file + "': not a regular file");
  // HW3, or the same values after an .npy header.
  std::string head(std::size_t(std::min<off_t>(st.st_size, 4096)), '\0');
  if (std::fread(&head[0], 1, head.size(), in.get()) != head.size())
    throw Error(detail::system_error("cannot read predecessors", file));
  const MatrixLayout layout = matrix_layout(head, file);
  if (layout.type != DistanceType::int32 ||
      std::uint64_t(st.st_size) != layout.offset + hw3_output_bytes(vertices) ||
      (layout.vertices >= 0 && layout.vertices != vertices))
    throw Error("predecessors '" + file + "': not a " + std::to_string(vertices) + " x " +
                std::to_string(vertices) + " int32 matrix (" +
                std::to_string(hw3_output_bytes(vertices)) +
                " bytes in HW3 format, or those after an .npy header, for the V of the input)");
  std::vector<int> row(static_cast<std::size_t>(vertices));
  if (fseeko(in.get(), off_t(layout.offset + std::uint64_t(source * vertices * 4)), SEEK_SET) !=
          0 ||
      std::fread(row.data(), sizeof(int), row.size(), in.get()) != row.size())
    throw Error(detail::system_error("cannot read predecessors", file));
  return row;
}

// The sum of |w| over a path's edges, the lightest edge of each step (as follow_predecessors).
double absolute_length(const Graph& graph, const ShortestPath& path) {
  double total = 0;
  for (const double w : step_weights(graph, path.vertices))
    total += std::fabs(w);
  return total;
}

// A path read from a saved predecessor matrix must be a shortest one: its length (or that it
// found none) against one search from the source. Exactly where every sum is exact in any type
// (whole-number weights, paths below 2^24). Else within the rounding of the least precise type
// that could have made the file (float32, u = 2^-24), from the actual sums: the solver's
// distance is within (h - 1) u S* of a shortest path of h edges and absolute sum S* (the one the
// search found), a reported path of m edges and absolute sum S within (m - 1) u S of that
// distance (Tightness in paths.hpp), and each weight as float32 holds it within u |w| of the
// file's: so the path's length exceeds the shortest by at most m u S + h u S*, plus the double
// sums' own rounding. One heavy edge elsewhere in the graph widens nothing.
void check_against_true_distance(const Graph& graph, const WeightRange& weights,
                                 const ShortestPath& path, std::int64_t source, std::int64_t target,
                                 const std::string& file) {
  const detail::SourcePaths found = detail::distances_from(graph, weights.negative(), source);
  const double shortest = found.dist[std::size_t(target)];
  const std::string pair = std::to_string(source) + " -> " + std::to_string(target);
  if (!path.reachable && shortest != unreachable)
    throw Error("predecessors '" + file + "' say that " + pair +
                " has no path, but one of length " + number_text(shortest) +
                " exists: a stale predecessor matrix, or one of another graph");
  if (!path.reachable) return;
  const bool exact =
      rounding_slack<float>(graph.vertices, weights.integers, weights.largest_magnitude()) == 0;
  const double unit = unit_roundoff<float>() + 2 * unit_roundoff<double>();
  const double m = double(path.vertices.size()) - 1;
  const double h = double(found.edges[std::size_t(target)]);
  // (k u taken as k u / (1 - k u), which covers products of roundings.)
  const double allowed =
      exact ? 0
      : (m + h) * unit >= 1
          ? unreachable
          : unit / (1 - (m + h) * unit) *
                (m * absolute_length(graph, path) + h * found.total[std::size_t(target)]);
  if (!(std::abs(path.length - shortest) <= allowed))
    throw Error("predecessors '" + file + "' give a path " + pair + " of length " +
                number_text(path.length) + ", but the shortest has length " +
                number_text(shortest) + ": a stale predecessor matrix, or one of another graph");
}

}  // namespace

ShortestPath find_path(const SolveConfig& config, std::int64_t source, std::int64_t target) {
  // A prepared graph's path comes from its factor, where a search does not serve.
  std::optional<PreparedFile> prepared;
  if (config.format == Format::automatic && is_prepared_file(config.input))
    prepared = read_prepared(config.input);
  const Graph graph = prepared ? open_graph(*prepared, config.input, config.allow_negative)
                               : read_graph(config.input, config.format, config.allow_negative);
  for (const std::int64_t v : {source, target})
    if (v < 0 || v >= graph.vertices)
      throw Error("vertex " + std::to_string(v) + " out of range [0, " +
                  std::to_string(graph.vertices) + ") of '" + config.input + "'");
  const WeightRange weights = weight_range(graph);
  if (config.predecessors.empty()) {
    std::string warning;
    const std::vector<int> pred =
        predecessor_row(config, graph, weights, source, warning, std::move(prepared));
    ShortestPath path = follow_predecessors(graph, pred, source, target, "apsp");
    if (!warning.empty()) path.warnings.push_back(warning);
    return path;
  }
  const std::vector<int> pred = read_predecessor_row(config.predecessors, graph.vertices, source);
  const ShortestPath path = follow_predecessors(graph, pred, source, target, config.predecessors);
  check_against_true_distance(graph, weights, path, source, target, config.predecessors);
  return path;
}

}  // namespace apsp
