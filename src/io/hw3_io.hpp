// The HW3 binary format (little-endian int32):
//   input:  V E, then E triples (src dst weight), 0 <= src, dst < V, 0 <= weight <= 1000
//           (-1000 <= weight <= 1000 when negative weights are allowed);
//   output: V*V distances, row-major; dist(i,i) = 0; no path = 2^30 - 1 (hw3_no_path).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// A pair with no path, as an HW3 output holds it: 2^30 - 1, the int32 distance type's infinity.
constexpr std::int32_t hw3_no_path = Distance<int>::infinity;
// HW3 input weights are 0..hw3_max_weight, or -hw3_max_weight..hw3_max_weight when negative
// weights are allowed (the readers' allow_negative). The text formats take any finite weight;
// the distance type must hold their sums (path_bounds_problem in distance.hpp).
constexpr int hw3_max_weight = 1000;

// The lightest weight the HW3 reader accepts.
constexpr int hw3_lowest_weight(bool allow_negative) {
  return allow_negative ? -hw3_max_weight : 0;
}

// An edge as an HW3 file holds it: three little-endian int32 (Edge has a real weight).
struct Hw3Edge {
  std::int32_t src, dst, weight;
};
static_assert(sizeof(Hw3Edge) == 12, "the HW3 triple is 12 bytes");

// Reads and checks a whole HW3 input file. Throws apsp::Error naming the first problem:
// unreadable file, truncated header or edge list, trailing bytes, V <= 0, E < 0, a vertex out
// of range or a weight out of range. A negative weight is accepted only with allow_negative
// (then down to -hw3_max_weight); without it the error says that it needs --allow-negative.
Graph read_hw3(const std::string& path, bool allow_negative = false);

// Writes a graph as HW3 input.
void write_hw3_graph(const std::string& path, const Graph& graph);

// Bytes of the HW3 output for V vertices.
inline std::uint64_t hw3_output_bytes(std::int64_t vertices) {
  return std::uint64_t(vertices) * std::uint64_t(vertices) * sizeof(std::int32_t);
}

}  // namespace apsp
