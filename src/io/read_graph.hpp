// Reading graphs: the input formats besides HW3 (io/hw3_io.hpp), read into the same apsp::Graph.
//
// Every reader streams its file line by line (memory grows with the edges, not the file) and
// checks: at least one vertex, vertices in range, finite weights, >= 0 unless allow_negative.
// Weights are real numbers ("2.5", "1e6"); whether the distances are int32 (every weight a whole
// number, the paths within int32's range: today's exact output) or float64 is decided from
// them afterwards (choose_distance_type in graph.hpp, the CLI's --dtype).
// The first problem throws apsp::Error as "FILE:LINE: column K: what", K counting the
// whitespace-separated fields of the line from 1. Duplicate edges and self-loops are kept as
// they are in the file; the solver keeps the lightest of duplicates.
//
//   edge list (.txt, .el, .edges)
//       "u v w" per line, vertices 0-based, w a number. "#" starts a comment, to the end of
//       the line; blank lines are allowed. V is 1 + the largest vertex id, unless a header
//       comment "# vertices N" before the first edge gives it (needed for isolated vertices
//       at the end, or for a graph without edges); a comment whose first word is "vertices"
//       is that header and must be exactly "# vertices N".
//   Matrix Market (.mtx)
//       "%%MatrixMarket matrix coordinate integer|real|pattern general|symmetric", "%"
//       comments, the size line "rows cols entries" (rows = cols = V), then "i j [value]",
//       1-based. Entry (i, j) is the edge i -> j; symmetric adds j -> i too; pattern weighs
//       every edge 1; an integer value must be written as one.
//   DIMACS shortest paths (.gr, 9th DIMACS Implementation Challenge)
//       "c" comments, one problem line "p sp V E" before the arcs, then E arcs "a u v w",
//       1-based.
//
// Negative weights, which Matrix Market and DIMACS files can carry, are read only with
// allow_negative (the CLI's --allow-negative); without it the first one is refused with an
// error saying so.
#pragma once

#include <apsp/graph.hpp>

#include <optional>
#include <string>

namespace apsp {

enum class Format { automatic, hw3, edge_list, matrix_market, dimacs };

// By extension, case-insensitively: .mtx Matrix Market, .gr DIMACS, .txt/.el/.edges edge list,
// anything else HW3 (the homework names its inputs freely).
Format format_of(const std::string& path);

// The CLI's names: auto, hw3, edges, mtx, dimacs.
std::optional<Format> format_named(const std::string& name);

// Reads and checks a whole graph file; Format::automatic picks the reader by format_of(path),
// after a prepared graph (io/prepared_file.hpp), told by its content whatever its name: its
// open edges. A format named reads the file as that format.
Graph read_graph(const std::string& path, Format format = Format::automatic,
                 bool allow_negative = false);

Graph read_edge_list(const std::string& path, bool allow_negative = false);
Graph read_matrix_market(const std::string& path, bool allow_negative = false);
Graph read_dimacs(const std::string& path, bool allow_negative = false);

}  // namespace apsp
