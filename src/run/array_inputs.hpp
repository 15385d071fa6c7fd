// Graphs handed over in memory as arrays (the Python module's NumPy arrays), checked once and
// turned into the library's types: one edge list as a Graph, a dense matrix's weights, a batch of
// edge lists or of dense matrices with the distance types to solve it in. Every check names the
// first thing wrong, and the edge as given, in an ArgumentError (a DistanceTypeError where a type
// cannot hold a graph's paths); the caller words it (Python: ValueError).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace apsp {

// src, dst and, where given (>= 0), weight of one length.
void check_lengths(std::int64_t src, std::int64_t dst, std::int64_t weight = -1);
// A vertex count in 0..2^31-1.
void check_vertex_count(std::int64_t n);

// The edges src[e] -> dst[e] of weight[e] (in float64, as the command line reads weights) on n
// vertices as a Graph. `weight` null: every weight is `unweighted` (where only the sign matters).
Graph edge_list_graph(const std::int64_t* src, const std::int64_t* dst, const double* weight,
                      std::int64_t edges, std::int64_t n, double unweighted = 1);

// The WeightRange of the n x n weights w (C order; +inf: no edge; the diagonal is not read) as
// weight_range (graph.hpp) gives it for the same edges; an entry NaN or -inf is an error.
WeightRange dense_weight_range(const double* w, std::int64_t n);
// The edges of the n x n weights w, row by row: every entry off the diagonal that is not +inf.
std::vector<Edge> dense_edges(const double* w, std::int64_t n);

// A batch of graphs as edge lists in the concatenated numbering (graph g's vertices are
// offsets[g] .. offsets[g + 1]), scanned once: each edge's graph, the edges grouped by graph,
// each graph's weights.
struct EdgeBatch {
  std::vector<std::int64_t> offsets;  // B + 1
  std::vector<std::int32_t> graph;    // per edge
  // The edges of each graph together, in input order: graph g's are input edges
  // order[first[g] .. first[g + 1]) (the identity where the input is grouped by graph).
  std::vector<std::int64_t> first, order;
  bool grouped = true;
  std::vector<WeightRange> ranges;  // per graph
  // Of them all: negative weights, whole numbers, the largest |w|, the longest path.
  bool negative = false, whole = true;
  double max_abs = 0, longest = 0;
  std::int64_t largest = 0;  // the most vertices of one graph

  std::int64_t input_edge(std::int64_t at) const { return grouped ? at : order[std::size_t(at)]; }
  std::int64_t graphs() const { return std::int64_t(offsets.size()) - 1; }
  std::int64_t vertices(std::int64_t g) const {
    return offsets[std::size_t(g) + 1] - offsets[std::size_t(g)];
  }
  std::vector<std::int64_t> sizes() const {
    std::vector<std::int64_t> n(static_cast<std::size_t>(graphs()));
    for (std::int64_t g = 0; g < graphs(); ++g)
      n[std::size_t(g)] = vertices(g);
    return n;
  }
};

// `count` graphs of sizes[g] vertices and their `edges` edges; an edge that leaves its graph, a
// vertex out of range or a weight that is not finite is an error.
EdgeBatch scan_edge_batch(const std::int64_t* sizes, std::int64_t count, const std::int64_t* src,
                          const std::int64_t* dst, const double* weight, std::int64_t edges);

// The types a batch is solved in: `compute` for the sums, `results` for what the caller gets.
// Where every weight is a whole number and every path fits int32 the graphs are closed in int32
// and the results converted while they are stored: exact either way, and twice the vector lanes
// of float64.
struct BatchTypes {
  DistanceType compute = DistanceType::float64, results = DistanceType::float64;
};
// The types of `batch` in `asked` (none: int32 where it holds every graph, else float64).
BatchTypes batch_types(const EdgeBatch& batch, std::optional<DistanceType> asked);

// The edges of each graph together, in its own numbering and input order (both ways when
// undirected: each edge, then its reverse), into `packed` with their offsets per graph.
template <class BatchEdge>
void pack_edges(const EdgeBatch& batch, const std::int64_t* src, const std::int64_t* dst,
                const double* weight, bool directed, std::vector<BatchEdge>& packed,
                std::vector<std::int64_t>& edge_offsets) {
  const int copies = directed ? 1 : 2;
  edge_offsets.resize(batch.first.size());
  for (std::size_t g = 0; g < batch.first.size(); ++g)
    edge_offsets[g] = batch.first[g] * copies;
  packed.resize(batch.graph.size() * std::size_t(copies));
  for (std::size_t at = 0; at < batch.graph.size(); ++at) {
    const std::int64_t e = batch.input_edge(std::int64_t(at));
    const std::int64_t first = batch.offsets[std::size_t(batch.graph[std::size_t(e)])];
    const BatchEdge edge{std::int32_t(src[e] - first), std::int32_t(dst[e] - first), weight[e]};
    packed[at * copies] = edge;
    if (!directed) packed[at * copies + 1] = BatchEdge{edge.dst, edge.src, weight[e]};
  }
}

// `count` dense n x n weight matrices (C order, one after the other) scanned: their weights, and
// the type to compute them in (int32 where it holds every one, else float64); a slice whose
// paths float64 cannot hold is an error.
struct DenseBatch {
  bool negative = false, whole = true;
  double max_abs = 0;
  DistanceType compute = DistanceType::float64;
};
DenseBatch scan_dense_batch(const double* w, std::int64_t count, std::int64_t n);

}  // namespace apsp
