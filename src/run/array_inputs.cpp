// Graphs handed over in memory as arrays (array_inputs.hpp).
#include "run/array_inputs.hpp"

#include <apsp/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace apsp {
namespace {

// Edge e, s -> t, inside 0..n-1 (`batch`: the concatenated numbering of a batch's graphs).
void check_vertices(std::int64_t e, std::int64_t s, std::int64_t t, std::int64_t n,
                    bool batch = false) {
  if (s < 0 || s >= n || t < 0 || t >= n)
    throw ArgumentError("edge " + std::to_string(e) + " (" + std::to_string(s) + " -> " +
                        std::to_string(t) + ") has a vertex outside 0.." + std::to_string(n - 1) +
                        (batch ? " (the batch's vertices)" : ""));
}

// Edge e's weight finite (`graph` >= 0: named in the error).
void check_weight(std::int64_t e, double w, std::int64_t graph = -1) {
  if (!std::isfinite(w))
    throw ArgumentError("edge " + std::to_string(e) +
                        (graph >= 0 ? " (graph " + std::to_string(graph) + ")" : "") +
                        " has a weight that is not finite");
}

// Why some graph of a batch cannot be solved in T (path_bounds_problem, distance.hpp), naming
// the first; "" when every one can. Graph g has vertices(g) vertices and ranges[g].
template <class T, class Vertices>
std::string bounds_problem(const std::vector<WeightRange>& ranges, bool negative,
                           const Vertices& vertices) {
  for (std::size_t g = 0; g < ranges.size(); ++g) {
    const std::string problem = path_bounds_problem<T>(
        std::max<std::int64_t>(vertices(std::int64_t(g)), 1), ranges[g].longest_path, negative);
    if (!problem.empty()) return "graph " + std::to_string(g) + ", " + problem;
  }
  return "";
}
template <class T>
std::string bounds_problem(const EdgeBatch& batch) {
  return bounds_problem<T>(batch.ranges, batch.negative,
                           [&](std::int64_t g) { return batch.vertices(g); });
}

}  // namespace

void check_lengths(std::int64_t src, std::int64_t dst, std::int64_t weight) {
  if (dst == src && (weight < 0 || weight == src)) return;
  const std::string got = std::to_string(src) + ", " + std::to_string(dst);
  if (weight < 0) throw ArgumentError("src and dst must have the same length (got " + got + ")");
  throw ArgumentError("src, dst and weight must have the same length (got " + got + ", " +
                      std::to_string(weight) + ")");
}

void check_vertex_count(std::int64_t n) {
  if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw ArgumentError("num_vertices must be in 0..2^31-1, got " + std::to_string(n));
}

Graph edge_list_graph(const std::int64_t* src, const std::int64_t* dst, const double* weight,
                      std::int64_t edges, std::int64_t n, double unweighted) {
  check_vertex_count(n);
  Graph graph;
  graph.vertices = std::int32_t(n);
  graph.edges.resize(static_cast<std::size_t>(edges));
  for (std::int64_t e = 0; e < edges; ++e) {
    check_vertices(e, src[e], dst[e], n);
    const double w = weight ? weight[e] : unweighted;
    check_weight(e, w);
    graph.edges[std::size_t(e)] = Edge{std::int32_t(src[e]), std::int32_t(dst[e]), w};
  }
  return graph;
}

WeightRange dense_weight_range(const double* w, std::int64_t n) {
  bool finite = true;
  const WeightRange range = weight_range(n, [&](const auto& add) {
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const double x = w[i * n + j];
        if (i == j || x == Distance<double>::infinity) continue;
        if (!std::isfinite(x)) {
          finite = false;
          return;
        }
        add(i, j, x);
      }
  });
  if (!finite) throw ArgumentError("weights must be finite or +inf (no edge)");
  return range;
}

std::vector<Edge> dense_edges(const double* w, std::int64_t n) {
  std::vector<Edge> edges;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if (i != j && w[i * n + j] != Distance<double>::infinity)
        edges.push_back(Edge{std::int32_t(i), std::int32_t(j), w[i * n + j]});
  return edges;
}

EdgeBatch scan_edge_batch(const std::int64_t* sizes, std::int64_t count, const std::int64_t* src,
                          const std::int64_t* dst, const double* weight, std::int64_t edges) {
  EdgeBatch batch;
  batch.offsets.assign(std::size_t(count) + 1, 0);
  for (std::int64_t g = 0; g < count; ++g) {
    const std::int64_t n = sizes[g];
    if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
      throw ArgumentError("graph " + std::to_string(g) + " has " + std::to_string(n) +
                          " vertices (0..2^31-1 allowed)");
    batch.offsets[std::size_t(g) + 1] = batch.offsets[std::size_t(g)] + n;
    batch.largest = std::max(batch.largest, n);
  }
  const std::int64_t total = batch.offsets.back();
  std::vector<std::int32_t> graph_of(static_cast<std::size_t>(total));
  for (std::int64_t g = 0; g < count; ++g)
    std::fill(graph_of.begin() + batch.offsets[std::size_t(g)],
              graph_of.begin() + batch.offsets[std::size_t(g) + 1], std::int32_t(g));
  batch.graph.resize(static_cast<std::size_t>(edges));
  batch.first.assign(std::size_t(count) + 1, 0);
  std::int32_t last = 0;
  for (std::int64_t e = 0; e < edges; ++e) {
    check_vertices(e, src[e], dst[e], total, true);
    const std::int32_t g = graph_of[std::size_t(src[e])], h = graph_of[std::size_t(dst[e])];
    if (g != h)
      throw ArgumentError("edge " + std::to_string(e) + " (" + std::to_string(src[e]) + " -> " +
                          std::to_string(dst[e]) + ") joins graph " + std::to_string(g) +
                          " and graph " + std::to_string(h) +
                          ": an edge must stay inside its graph");
    check_weight(e, weight[e], g);
    batch.graph[std::size_t(e)] = g;
    batch.grouped = batch.grouped && g >= last;
    last = g;
    ++batch.first[std::size_t(g) + 1];
  }
  for (std::int64_t g = 0; g < count; ++g)
    batch.first[std::size_t(g) + 1] += batch.first[std::size_t(g)];
  if (!batch.grouped) {  // a stable grouping by graph
    batch.order.resize(std::size_t(edges));
    std::vector<std::int64_t> next(batch.first.begin(), batch.first.end() - 1);
    for (std::int64_t e = 0; e < edges; ++e)
      batch.order[std::size_t(next[std::size_t(batch.graph[std::size_t(e)])]++)] = e;
  }
  batch.ranges.resize(std::size_t(count));
  for (std::int64_t g = 0; g < count; ++g) {
    const WeightRange range = weight_range(sizes[g], [&](const auto& add) {
      for (std::int64_t at = batch.first[std::size_t(g)]; at < batch.first[std::size_t(g) + 1];
           ++at) {
        const std::int64_t e = batch.input_edge(at);
        add(src[e], dst[e], weight[e]);
      }
    });
    batch.ranges[std::size_t(g)] = range;
    batch.negative = batch.negative || range.negative();
    batch.whole = batch.whole && range.integers;
    batch.max_abs = std::max(batch.max_abs, range.largest_magnitude());
    batch.longest = std::max(batch.longest, range.longest_path);
  }
  return batch;
}

BatchTypes batch_types(const EdgeBatch& batch, std::optional<DistanceType> asked) {
  const bool fits_int = batch.whole && bounds_problem<int>(batch).empty();
  const DistanceType type = asked ? *asked : fits_int ? DistanceType::int32 : DistanceType::float64;
  // A type that cannot hold some graph's paths: float64 can, where any can.
  const auto check = [&](const std::string& bounds) {
    if (!bounds.empty())
      throw DistanceTypeError(bounds,
                              type == DistanceType::float64 ? -1 : int(DistanceType::float64));
  };
  switch (type) {
    case DistanceType::int32:
      if (!batch.whole)
        throw DistanceTypeError(
            "int32 distances need whole-number weights and this batch has others",
            int(DistanceType::float64));
      check(bounds_problem<int>(batch));
      return {DistanceType::int32, DistanceType::int32};
    case DistanceType::float32:
      check(bounds_problem<float>(batch));
      // int32's results are exact in float32 where float32 holds them (below 2^24).
      if (fits_int && batch.longest < double(1 << 24))
        return {DistanceType::int32, DistanceType::float32};
      return {DistanceType::float32, DistanceType::float32};
    case DistanceType::float64:
      break;
  }
  check(bounds_problem<double>(batch));
  return {fits_int ? DistanceType::int32 : DistanceType::float64, DistanceType::float64};
}

DenseBatch scan_dense_batch(const double* w, std::int64_t count, std::int64_t n) {
  std::vector<WeightRange> slices(static_cast<std::size_t>(count));
  DenseBatch batch;
  for (std::int64_t g = 0; g < count; ++g) {
    const WeightRange& range = slices[std::size_t(g)] = dense_weight_range(w + g * n * n, n);
    batch.negative = batch.negative || range.negative();
    batch.whole = batch.whole && range.integers;
    batch.max_abs = std::max(batch.max_abs, range.largest_magnitude());
  }
  const auto vertices = [n](std::int64_t) { return n; };  // of every slice
  const std::string bounds = bounds_problem<double>(slices, batch.negative, vertices);
  if (!bounds.empty()) throw DistanceTypeError(bounds, -1);
  if (batch.whole && bounds_problem<int>(slices, batch.negative, vertices).empty())
    batch.compute = DistanceType::int32;
  return batch;
}

}  // namespace apsp
