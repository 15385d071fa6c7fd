// Comparing outputs: outputs read back whatever their format (the layout of HW3 and .npy files,
// text matrices row by row), for `apsp compare` and `apsp verify`, and the comparison of two.
#pragma once

#include <apsp/distance.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace apsp {

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

// Streams two outputs (HW3, or .npy: compared by their values) and reports the first difference.
struct Comparison {
  bool identical = false;
  std::string message;  // "identical" or where and how they differ
};
Comparison compare_outputs(const std::string& a, const std::string& b);

}  // namespace apsp
