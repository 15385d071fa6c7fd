// Checking an HW3, .npy or text distance matrix against its graph, in one streaming pass over it
// (a V = 40000 output is 6.4 GB), row blocks at a time.
//
// Exact where V x E allows (VerifyOptions::exact_limit): every row by the shortest-path
// certificate on the Kokkos backend (verify_certificate.cpp says why it is exact). Beyond the
// limit, or without a backend (the fuzzing build), sampled, in O(V + E + k V) memory: k rows
// (Dijkstra from the source) and the same k columns (Dijkstra to it, on the reversed graph)
// exactly, INF exactly where there is no path; everywhere values in [0, INF], a zero diagonal,
// d(u, v) <= w for every edge, and the triangle inequality through every sampled vertex s,
// d(s, i) + d(i, j) >= d(s, j) and d(i, j) <= d(i, s) + d(s, j), which bounds every row by the
// exact ones; on the sampled rows also edge relaxation, d(s, v) <= d(s, u) + w, which needs no
// Dijkstra to be right.
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "io/read_graph.hpp"

namespace apsp {

class RowCertificate;
struct CertificateGraph;
// Makes the exact check of a graph's rows on a backend (backend_certificate,
// verify_certificate.hpp); null when the backend has none for the output's type.
using CertificateMaker = std::function<std::unique_ptr<RowCertificate>(const CertificateGraph&)>;

// The exact check's default limit on V x E, the work of one pass over the edges for every row:
// about a minute on two CPU cores, seconds on a GPU (docs/TRUST.md has the measurements).
constexpr std::uint64_t default_exact_limit = 10'000'000'000;

struct VerifyOptions {
  std::int32_t samples = 8;  // rows and columns checked exactly; always 0 and V-1 (clamped to V)
  std::uint64_t seed = 1;    // picks the other sampled vertices, reproducibly
  Format format = Format::automatic;  // of the input
  // Every row is checked exactly when V x E is at most this (0: never) and `certificate` is set;
  // else the sampled check alone.
  std::uint64_t exact_limit = default_exact_limit;
  // Empty: the sampled check alone (the fuzzing build has no Kokkos).
  CertificateMaker certificate;
};

enum class VerifyCheck {
  none,
  range,           // a value outside [0, INF]
  diagonal,        // d(i, i) != 0
  sampled_row,     // differs from Dijkstra from a sampled source
  sampled_column,  // differs from Dijkstra to a sampled target
  edge,            // d(u, v) > w for an edge (u, v, w)
  triangle,        // breaks the triangle inequality through a sampled vertex
  relaxation,      // d(i, v) > d(i, u) + w for an edge u -> v (exact: every row; else sampled)
  tight_edge,      // exact: a finite d(i, v), v != i, that no edge u -> v makes d(i, u) + w
  unreached,       // exact: no path from i of edges with d(i, u) + w = d(i, x) reaches v
};

struct VerifyResult {
  bool passed = false;
  bool exact = false;  // every row checked by the certificate (within rounding, see below)
  std::int32_t vertices = 0;
  std::int64_t edges = 0;             // as in the input, duplicates and self-loops included
  std::vector<std::int32_t> sampled;  // ascending; none where the exact check alone decides
  // The first mismatch in file order (when !passed): entry (row, column), what it should be
  // ("expected", or a bound when the check gives only one), what the file holds. In a row, the
  // exact check names the first entry that breaks relaxation, else the first without a tight
  // edge in, else the first not reached (verify_certificate.cpp says why in that order).
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
// 2^53), else within the rounding of the sums themselves. The exact check then takes the
// rounding rule of the predecessor search (Tightness, include/apsp/paths.hpp) and relaxation
// within the same slack, and the sampled rows and columns are checked as well: a value may
// exceed a sampled exact distance by h u times it (h the edges of its shortest path, u the unit
// roundoff of the type) and fall below it by (V - 1) u times it; other comparisons of the
// sampled check allow (V - 1) u times the values.
// Negative weights (no negative cycle) need the exact check: Dijkstra samples none.
// Throws apsp::Error when a file cannot be used at all: an unreadable or invalid input (as
// read_graph), an input with a negative weight that only the sampled check could take, an
// output that is not exactly V*V values, a read error.
VerifyResult verify(const std::string& input, const std::string& output,
                    const VerifyOptions& options = {});

// What the exact check of a graph is made for.
struct CertificateGraph {
  std::int32_t vertices = 0;
  const std::vector<Edge>* edges = nullptr;  // as read, self-loops and parallel edges included
  WeightRange weights;
  DistanceType type = DistanceType::int32;  // of the output
};

// The first entry of a block of rows that breaks the certificate (verify_certificate.cpp).
struct CertificateViolation {
  VerifyCheck check = VerifyCheck::none;  // relaxation, tight_edge or unreached
  std::int64_t row = -1, column = -1;
  double found = 0;  // d(row, column), +inf for no path
  // relaxation: d(row, from) + w, which d(row, column) exceeds; tight_edge: the least
  // d(row, u) + w over the edges into `column` (+inf where no edge leaves a finite d(row, u)).
  double bound = 0;
  std::int32_t from = -1;  // the edge from -> column of `bound` (-1: none)
  double weight = 0;       // its weight, as the input has it
};

// The exact check, a block of rows at a time: each row set, then the block checked.
class RowCertificate {
 public:
  virtual ~RowCertificate() = default;
  // The most rows one check takes.
  virtual std::int64_t block_rows() const = 0;
  // Row r of the next check: V values in range (+inf: no path).
  virtual void set_row(std::int64_t r, const double* row) = 0;
  // Checks the rows set as rows [first, first + count) of the matrix: the first violation in
  // file order (row, then column), if any.
  virtual std::optional<CertificateViolation> check(std::int64_t first, std::int64_t count) = 0;
};

}  // namespace apsp
