// Graph formats besides HW3, read into the same apsp::Graph, and the text form of the output.
//
// Every reader streams its file line by line (memory grows with the edges, not the file) and
// checks what read_hw3 checks: at least one vertex, vertices in range, weights in [0, 1000]
// (in [-1000, 1000] with allow_negative).
// The first problem throws apsp::Error as "FILE:LINE: column K: what", K counting the
// whitespace-separated fields of the line from 1. Duplicate edges and self-loops are kept as
// they are in the file; the solver keeps the lightest of duplicates.
//
//   edge list (.txt, .el, .edges)
//       "u v w" per line, vertices 0-based, w an integer. "#" starts a comment, to the end of
//       the line; blank lines are allowed. V is 1 + the largest vertex id, unless a header
//       comment "# vertices N" before the first edge gives it (needed for isolated vertices
//       at the end, or for a graph without edges); a comment whose first word is "vertices"
//       is that header and must be exactly "# vertices N".
//   Matrix Market (.mtx)
//       "%%MatrixMarket matrix coordinate integer|real|pattern general|symmetric", "%"
//       comments, the size line "rows cols entries" (rows = cols = V), then "i j [value]",
//       1-based. Entry (i, j) is the edge i -> j; symmetric adds j -> i too; pattern weighs
//       every edge 1; a real value must be integral ("3", "3.0", "3e0").
//   DIMACS shortest paths (.gr, 9th DIMACS Implementation Challenge)
//       "c" comments, one problem line "p sp V E" before the arcs, then E arcs "a u v w",
//       1-based.
//
// Negative weights, which Matrix Market and DIMACS files can carry, are read only with
// allow_negative (the CLI's --allow-negative); without it the first one is refused with an
// error saying so. A real Matrix Market weight must be integral either way ("-3.0").
#pragma once

#include <apsp/graph.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace apsp {

enum class Format { automatic, hw3, edge_list, matrix_market, dimacs };

// By extension, case-insensitively: .mtx Matrix Market, .gr DIMACS, .txt/.el/.edges edge list,
// anything else HW3 (the homework names its inputs freely).
Format format_of(const std::string& path);

// The CLI's names: auto, hw3, edges, mtx, dimacs.
std::optional<Format> format_named(const std::string& name);

// Reads and checks a whole graph file; Format::automatic picks the reader by format_of(path).
Graph read_graph(const std::string& path, Format format = Format::automatic,
                 bool allow_negative = false);

Graph read_edge_list(const std::string& path, bool allow_negative = false);
Graph read_matrix_market(const std::string& path, bool allow_negative = false);
Graph read_dimacs(const std::string& path, bool allow_negative = false);

// What OUT holds: HW3 (V*V little-endian int32), text, V lines of V space-separated decimal
// distances, no path written as 1073741823 like in HW3, or NumPy's .npy: the HW3 values after a
// header that names them a V x V '<i4' array (numpy.load reads it).
enum class OutputFormat { hw3, text, npy };

// The names of --output-format: hw3, text, npy.
std::optional<OutputFormat> output_format_named(const std::string& name);
// By OUT's name: .npy is npy, every other name HW3 (the drop-in default).
OutputFormat output_format_of(const std::string& path);

// The .npy header (format version 1.0) of a V x V int32 array in C order, padded to a multiple
// of 64 bytes as NumPy writes it.
std::string npy_header(std::int64_t vertices);

// Where the V x V int32 values of a distance or predecessor file lie: all of an HW3 file
// (vertices = -1: V follows from its size), or after the header of an .npy file, which must
// describe a square little-endian int32 array in C order (else apsp::Error naming `path`).
// `head` holds the file's first bytes (up to 4096 or the whole file).
struct MatrixLayout {
  std::uint64_t offset = 0;
  std::int64_t vertices = -1;
};
MatrixLayout matrix_layout(const std::string& head, const std::string& path);

// Text output is for reading by eye and by small scripts: V = 10000 already takes up to
// 1.1 GB. Larger outputs stay in HW3.
constexpr std::int32_t max_text_vertices = 10000;

// Bytes of OUT for V vertices, exact for HW3 and at most this for text (11 bytes a distance).
// Throws apsp::Error for text when V > max_text_vertices, before anything is computed.
std::uint64_t output_bytes(OutputFormat format, std::int64_t vertices);

// Appends one row of distances to `text`: space-separated, then a newline.
void append_text_row(std::string& text, const std::int32_t* row, std::int64_t vertices);

}  // namespace apsp
