// Graph formats besides HW3, read into the same apsp::Graph, and the text form of the output.
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

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

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

// What OUT holds: HW3 (V*V little-endian int32), text, V lines of V space-separated distances
// (int32 in decimal, no path written as 1073741823 like in HW3; float32 and float64 in the
// fewest digits that read back as the same value, no path as "inf"), or NumPy's .npy: the
// values after a header that names them a V x V array of their type ('<i4', '<f4', '<f8';
// numpy.load reads it). HW3 holds int32 only.
enum class OutputFormat { hw3, text, npy };

// The names of --output-format: hw3, text, npy.
std::optional<OutputFormat> output_format_named(const std::string& name);
// By OUT's name: .npy (in any case) is npy, every other name HW3 (the drop-in default).
OutputFormat output_format_of(const std::string& path);

// The .npy header (format version 1.0) of a V x V array of `type` in C order, padded to a
// multiple of 64 bytes as NumPy writes it.
std::string npy_header(std::int64_t vertices, DistanceType type = DistanceType::int32);
// ... of a rows x columns array (--sources, --targets).
std::string npy_header(std::int64_t rows, std::int64_t columns, DistanceType type);

// Bytes of one value of the type.
inline std::size_t value_bytes(DistanceType type) {
  return type == DistanceType::float64 ? 8 : 4;
}

// Where the V x V values of a distance or predecessor file lie: all of an HW3 file (int32;
// vertices = -1: V follows from its size), or after the header of an .npy file, which must
// describe a square little-endian int32, float32 or float64 array in C order (else apsp::Error
// naming `path`). `head` holds the file's first bytes (up to 4096 or the whole file). With
// `square` false, an .npy file may hold any matrix, such as an |S| x |T| table of --sources and
// --targets: `vertices` rows of `columns` values.
struct MatrixLayout {
  std::uint64_t offset = 0;
  std::int64_t vertices = -1;
  std::int64_t columns = -1;
  DistanceType type = DistanceType::int32;
};
MatrixLayout matrix_layout(const std::string& head, const std::string& path, bool square = true);

// Whether a file's first bytes (up to 4096) are a text output: printable ASCII and newlines,
// starting with a number. An HW3 output starts with d(0, 0) = 0 as four zero bytes, an .npy file
// with its magic: outputs are told apart by content, whatever their names.
bool is_text_matrix(const std::string& head);

// A text output read back row by row (for compare and verify), in bounded memory: V is the count
// of numbers on the first line.
class TextMatrix {
 public:
  // `file` positioned at the start; reads the first line. `rows` < 0: V rows, V x V; else a
  // table of `rows` rows (lines(), for compare) of V values each.
  TextMatrix(std::FILE* file, const std::string& path, std::int64_t rows = -1);
  std::int64_t vertices() const { return vertices_; }  // the values of a row
  std::int64_t rows() const { return rows_expected_; }
  // The next row, each value the nearest of type `as` (float32: a float32 output's shortest text
  // reads back exactly), as a double; "inf" is +inf. apsp::Error naming the file and line when a
  // row does not hold V numbers or the file has fewer or more than rows() rows.
  const std::vector<double>& next_row(DistanceType as);
  // The lines of `file` (the last one need not end in a newline), the file back at its start.
  static std::int64_t lines(std::FILE* file, const std::string& path);
  // The type the text was written in, as far as it shows: int32 when every value is a whole
  // number written without '.', 'e' or "inf"; float64 when some value has more than 9
  // significant digits (float32's shortest form never has); else float32. Reads `path` again.
  static DistanceType written_type(const std::string& path);

 private:
  bool read_line();
  std::FILE* file_;
  std::string path_, line_;
  std::int64_t vertices_ = 0, rows_ = 0, rows_expected_ = 0;
  bool have_line_ = false;
  std::vector<double> row_;
};

// Text output is for reading by eye and by small scripts: V = 10000 already takes up to
// 1.1 GB. Larger outputs stay in HW3 or .npy.
constexpr std::int32_t max_text_vertices = 10000;

// Bytes of OUT for V values of `type` a row, exact for HW3 and .npy, at most this for text (11
// bytes an int32, 16 a float32, 25 a float64). Throws apsp::Error, before anything is computed,
// for text when V > max_text_vertices and for HW3 of a real type.
std::uint64_t output_bytes(OutputFormat format, std::int64_t vertices,
                           DistanceType type = DistanceType::int32);
// The least bytes OUT can take: output_bytes for HW3 and .npy; for text, every value one
// character and its separator (2 V^2). Throws as output_bytes does.
std::uint64_t least_output_bytes(OutputFormat format, std::int64_t vertices,
                                 DistanceType type = DistanceType::int32);
// ... of a rows x columns table (--sources, --targets): .npy or text (HW3 carries no shape).
std::uint64_t least_table_bytes(OutputFormat format, std::int64_t rows, std::int64_t columns,
                                DistanceType type);

// Appends one row of distances to `text`: space-separated, then a newline.
void append_text_row(std::string& text, const std::int32_t* row, std::int64_t vertices);
void append_text_row(std::string& text, const float* row, std::int64_t vertices);
void append_text_row(std::string& text, const double* row, std::int64_t vertices);

}  // namespace apsp
