// The HW3 binary format (little-endian int32):
//   input:  V E, then E triples (src dst weight), 0 <= src, dst < V, 0 <= weight <= 1000
//           (-1000 <= weight <= 1000 when negative weights are allowed);
//   output: V*V distances, row-major; dist(i,i) = 0; no path = 2^30 - 1 (apsp::infinity).
#pragma once

#include <apsp/graph.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// An edge as an HW3 file holds it: three little-endian int32 (Edge has a real weight).
struct Hw3Edge {
  std::int32_t src, dst, weight;
};
static_assert(sizeof(Hw3Edge) == 12, "the HW3 triple is 12 bytes");

// Reads and checks a whole HW3 input file. Throws apsp::Error naming the first problem:
// unreadable file, truncated header or edge list, trailing bytes, V <= 0, E < 0, a vertex out
// of range or a weight out of range. A negative weight is accepted only with allow_negative
// (then down to -max_weight); without it the error says that it needs --allow-negative.
Graph read_hw3(const std::string& path, bool allow_negative = false);

// Writes a graph as HW3 input.
void write_hw3_graph(const std::string& path, const Graph& graph);

// Bytes of the HW3 output for V vertices.
inline std::uint64_t hw3_output_bytes(std::int64_t vertices) {
  return std::uint64_t(vertices) * std::uint64_t(vertices) * sizeof(std::int32_t);
}

}  // namespace apsp
