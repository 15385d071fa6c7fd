// Checking an HW3 distance matrix without recomputing all pairs, in one streaming pass over it,
// so that a V = 40000 output (6.4 GB) is checked in O(V + E + k V) memory.
//
// Exact: k sampled rows (Dijkstra from the source) and the same k columns (Dijkstra to it, on
// the reversed graph), INF exactly where there is no path. Everywhere: values in [0, INF], a
// zero diagonal, d(u, v) <= w for every edge, and the triangle inequality through every sampled
// vertex s, d(s, i) + d(i, j) >= d(s, j) and d(i, j) <= d(i, s) + d(s, j), which bounds every
// row by the exact ones. On the sampled rows also edge relaxation, d(s, v) <= d(s, u) + w,
// which needs no Dijkstra to be right.
#pragma once

#include "io/formats.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

struct VerifyOptions {
  std::int32_t samples = 8;  // rows and columns checked exactly; always 0 and V-1 (clamped to V)
  std::uint64_t seed = 1;    // picks the other sampled vertices, reproducibly
  Format format = Format::automatic;  // of the input
};

enum class VerifyCheck {
  none,
  range,           // a value outside [0, INF]
  diagonal,        // d(i, i) != 0
  sampled_row,     // differs from Dijkstra from a sampled source
  sampled_column,  // differs from Dijkstra to a sampled target
  edge,            // d(u, v) > w for an edge (u, v, w)
  triangle,        // breaks the triangle inequality through a sampled vertex
  relaxation,      // d(s, v) > d(s, u) + w on a sampled row
};

struct VerifyResult {
  bool passed = false;
  std::int32_t vertices = 0;
  std::int64_t edges = 0;             // as in the input, duplicates and self-loops included
  std::vector<std::int32_t> sampled;  // ascending
  // The first mismatch in file order (when !passed): entry (row, column), what it should be
  // ("expected", or a bound when the check gives only one), what the file holds.
  VerifyCheck check = VerifyCheck::none;
  std::int64_t row = -1, column = -1;
  std::string expected;  // "17", "at most 17", "at least 17"
  double found = 0;      // (the int32 infinity as +inf)
  std::string reason;
  // One line: "verified: V = ..." or "mismatch at (i, j): expected X, found Y (reason)".
  std::string message;
};

// OUT holds int32 (HW3 or .npy), float32 or float64 (.npy) distances. int32 outputs are checked
// exactly; the floats exactly where their sums are (whole-number weights, paths below 2^24 or
// 2^53), else within the rounding of the sums themselves: a value may exceed a sampled exact
// distance by h u times it (h the edges of its shortest path, u the unit roundoff of the type)
// and fall below it by (V - 1) u times it; other comparisons allow (V - 1) u times the values.
// Throws apsp::Error when a file cannot be used at all: an unreadable or invalid input (as
// read_graph), an input with a negative weight (Dijkstra needs weights >= 0), an output that is
// not exactly V*V values, a read error.
VerifyResult verify(const std::string& input, const std::string& output,
                    const VerifyOptions& options = {});

}  // namespace apsp
