// Outputs read back and compared (src/io/compare.hpp).
#include <apsp/error.hpp>

#include "io/compare.hpp"
#include "io/output_formats.hpp"
#include "io/posix_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace apsp {

using detail::File;
using detail::file_size;
using detail::open_for_reading;
using detail::system_error;

MatrixLayout matrix_layout(const std::string& head, const std::string& path, bool square) {
  const std::string magic = "\x93NUMPY";
  if (head.compare(0, magic.size(), magic) != 0) return {};
  const auto refuse = [&](const std::string& why) {
    return Error("'" + path + "': an .npy file, but " + why + " (apsp reads " +
                 (square ? "square" : "2-D") + " '<i4', '<f4' or '<f8' arrays in C order)");
  };
  if (head.size() < 10) throw refuse("its header is cut short");
  const int major = static_cast<unsigned char>(head[6]);
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3) throw refuse("of format version " + std::to_string(major));
  if (head.size() < 8 + length_bytes) throw refuse("its header is cut short");
  std::size_t length = 0;
  for (std::size_t b = 0; b < length_bytes; ++b)
    length |= std::size_t(static_cast<unsigned char>(head[8 + b])) << (8 * b);
  const std::size_t start = 8 + length_bytes;
  if (head.size() < start + length) throw refuse("its header is longer than 4096 bytes or cut");
  std::string dict = head.substr(start, length);
  dict.erase(std::remove_if(dict.begin(), dict.end(),
                            [](char c) { return c == ' ' || c == '\n' || c == '\t'; }),
             dict.end());
  // The dictionary's own keys only ('descr' inside another value is not the array's).
  std::map<std::string, std::string> entries;
  if (dict.size() < 2 || dict.front() != '{' || dict.back() != '}')
    throw refuse("its header is not a dictionary");
  for (std::size_t i = 1; i + 1 < dict.size();) {
    const std::size_t key_end = dict[i] == '\'' ? dict.find('\'', i + 1) : std::string::npos;
    if (key_end == std::string::npos || key_end + 1 >= dict.size() || dict[key_end + 1] != ':')
      throw refuse("its header is not a dictionary");
    const std::string key = dict.substr(i + 1, key_end - i - 1);
    std::size_t j = key_end + 2;
    int depth = 0;
    bool quoted = false;
    for (; j + 1 < dict.size(); ++j) {
      const char c = dict[j];
      if (c == '\'') quoted = !quoted;
      if (quoted) continue;
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == ',' && depth == 0) break;
    }
    if (!entries.emplace(key, dict.substr(key_end + 2, j - key_end - 2)).second)
      throw refuse("its header names '" + key + "' twice");
    i = j + 1;
  }
  MatrixLayout layout;
  bool typed = false;
  for (DistanceType type : {DistanceType::int32, DistanceType::float32, DistanceType::float64})
    if (entries["descr"] == std::string("'") + npy_type(type) + "'") {
      layout.type = type;
      typed = true;
    }
  if (!typed) throw refuse("not of int32, float32 or float64 (little-endian)");
  if (entries["fortran_order"] != "False") throw refuse("in Fortran order");
  const std::string shape = entries["shape"];
  if (shape.empty()) throw refuse("without a shape");
  long long rows = -1, cols = -1;
  char close = 0, after = 0;
  if (std::sscanf(shape.c_str(), "(%lld,%lld%c%c", &rows, &cols, &close, &after) != 3 ||
      close != ')' || rows < 1 || cols < 1)
    throw refuse(square ? "not a square matrix" : "not a matrix");
  if (square && rows != cols) throw refuse("not a square matrix");
  layout.offset = start + length;
  layout.vertices = rows;
  layout.columns = cols;
  return layout;
}

bool is_text_matrix(const std::string& head) {
  if (head.empty() || !(std::isdigit(static_cast<unsigned char>(head[0])) || head[0] == '-'))
    return false;
  return std::all_of(head.begin(), head.end(),
                     [](char c) { return c == '\n' || c == '\r' || (c >= ' ' && c <= '~'); });
}

TextMatrix::TextMatrix(std::FILE* file, const std::string& path, std::int64_t rows)
    : file_(file), path_(path) {
  if (!read_line()) throw Error("'" + path + "' is empty: no output has V = 0");
  have_line_ = true;
  std::size_t at = 0;
  while ((at = line_.find_first_not_of(' ', at)) != std::string::npos) {
    ++vertices_;
    at = line_.find(' ', at);
  }
  rows_expected_ = rows < 0 ? vertices_ : rows;
}

std::int64_t TextMatrix::lines(std::FILE* file, const std::string& path) {
  std::int64_t lines = 0;
  int last = '\n';
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) {
    lines += std::count(buffer, buffer + n, '\n');
    last = buffer[n - 1];
  }
  if (std::ferror(file) || fseeko(file, 0, SEEK_SET) != 0)
    throw Error("cannot read '" + path + "': " + std::strerror(errno));
  return lines + (last != '\n');
}

bool TextMatrix::read_line() {
  line_.clear();
  for (int c; (c = std::getc(file_)) != EOF;) {
    if (c == '\n') return true;
    if (c != '\r') line_ += char(c);
  }
  if (std::ferror(file_)) throw Error("cannot read '" + path_ + "': " + std::strerror(errno));
  return !line_.empty();
}

const std::vector<double>& TextMatrix::next_row(DistanceType as) {
  const std::string where = "'" + path_ + "', line " + std::to_string(rows_ + 1);
  if (!std::exchange(have_line_, false) && !read_line())
    throw Error(where + ": the text ends after " + std::to_string(rows_) + " of " +
                std::to_string(rows_expected_) + " rows");
  row_.clear();
  const char* p = line_.c_str();
  for (;;) {
    while (*p == ' ')
      ++p;
    if (*p == '\0') break;
    char* end = nullptr;
    const double x =
        as == DistanceType::float32 ? double(std::strtof(p, &end)) : std::strtod(p, &end);
    if (end == p || (*end != ' ' && *end != '\0') || std::isnan(x))
      throw Error(where + ": '" + std::string(p, std::strcspn(p, " ")) + "' is not a number");
    row_.push_back(x);
    p = end;
  }
  const bool square = rows_expected_ == vertices_;
  const std::string rule = square ? " (a text output has V lines of V numbers)"
                                  : " (a table has as many numbers on every line)";
  if (std::int64_t(row_.size()) != vertices_)
    throw Error(where + " has " + std::to_string(row_.size()) + " numbers, line 1 has " +
                std::to_string(vertices_) + rule);
  if (++rows_ == rows_expected_ && read_line())
    throw Error("'" + path_ + "' has more than " + (square ? "V = " : "") +
                std::to_string(rows_expected_) + " lines" + rule);
  return row_;
}

DistanceType TextMatrix::written_type(const std::string& path) {
  detail::File file = detail::open_for_reading(path);
  bool real = false, long_number = false;
  int digits = 0;  // significant digits of the current number so far
  bool significant = false, exponent = false;
  for (int c; (c = std::getc(file.get())) != EOF;) {
    if (c == ' ' || c == '\n' || c == '\r') {
      digits = 0;
      significant = exponent = false;
      continue;
    }
    if (c == '.' || c == 'e' || c == 'E' || c == 'i' || c == 'n') real = true;
    if (c == 'e' || c == 'E') exponent = true;
    if (exponent || c < '0' || c > '9') continue;
    significant = significant || c != '0';
    if (significant && ++digits > 9) long_number = true;
  }
  return !real ? DistanceType::int32 : long_number ? DistanceType::float64 : DistanceType::float32;
}

namespace {

// The shape of an output: V x V, or an |S| x |T| table of --sources and --targets.
struct Shape {
  std::uint64_t rows = 0, columns = 0;
  bool square() const { return rows == columns; }
  bool operator!=(const Shape& other) const {
    return rows != other.rows || columns != other.columns;
  }
  std::string text() const { return std::to_string(rows) + " x " + std::to_string(columns); }
};

// "identical (V = 5)", "identical (3 x 4)".
std::string shape_note(const Shape& shape) {
  return shape.square() ? "V = " + std::to_string(shape.rows) : shape.text();
}

std::string shapes_differ(const std::string& a, const Shape& sa, const std::string& b,
                          const Shape& sb) {
  return "shapes differ: '" + a + "' holds " + sa.text() + " values, '" + b + "' " + sb.text();
}

// The values of an output file (HW3: V x V; .npy: its matrix, a table too): the file positioned
// at them, their shape, type and bytes.
struct Values {
  Shape shape;
  std::uint64_t bytes = 0;
  DistanceType type = DistanceType::int32;
  std::string problem;  // why the file holds no matrix ("" when it does)
};

Values values_of(std::FILE* file, const std::string& path) {
  const std::uint64_t size = file_size(file);
  std::string head(std::size_t(std::min<std::uint64_t>(size, 4096)), '\0');
  if (std::fread(&head[0], 1, head.size(), file) != head.size())
    throw Error(system_error("cannot read", path));
  const MatrixLayout layout = matrix_layout(head, path, false);
  if (fseeko(file, off_t(layout.offset), SEEK_SET) != 0)
    throw Error(system_error("cannot read", path));
  Values v;
  v.bytes = size - layout.offset;
  v.type = layout.type;
  const std::uint64_t value = value_bytes(v.type);
  if (layout.vertices >= 0) {
    v.shape = {std::uint64_t(layout.vertices), std::uint64_t(layout.columns)};
    if (v.bytes != v.shape.rows * v.shape.columns * value)
      v.problem = "'" + path + "' holds " + std::to_string(v.bytes) +
                  " bytes after its .npy header, not " + v.shape.text() + " " +
                  distance_type_name(v.type);
    return v;
  }
  if (v.bytes == 0)
    v.problem = "'" + path + "' is empty: no output has V = 0";
  else if (v.bytes % 4 != 0)
    v.problem = "'" + path + "' is not a whole number of int32 values";
  std::uint64_t vertices = 0;
  while (v.problem.empty() && vertices * vertices * 4 < v.bytes)
    ++vertices;
  if (v.problem.empty() && vertices * vertices * 4 != v.bytes)
    v.problem = "'" + path + "' holds " + std::to_string(v.bytes / 4) +
                " values, not the square of a vertex count";
  v.shape = {vertices, vertices};
  return v;
}

}  // namespace

namespace {

// The first bytes of `file` (up to 4096), the file back at its start.
std::string head_of(std::FILE* file, const std::string& path) {
  std::string head(std::size_t(std::min<std::uint64_t>(file_size(file), 4096)), '\0');
  if (std::fread(&head[0], 1, head.size(), file) != head.size() || fseeko(file, 0, SEEK_SET) != 0)
    throw Error(system_error("cannot read", path));
  return head;
}

// One output read row by row as doubles, whatever its format: HW3 and .npy values widened
// exactly, text parsed as the nearest value of the type `as`.
class Rows {
 public:
  // A text's shape: its lines, of as many values as its first line holds.
  Rows(std::FILE* file, const std::string& path) : file_(file), path_(path) {
    if (is_text_matrix(head_of(file, path))) {
      values_.type = TextMatrix::written_type(path);
      text_.emplace(file, path, TextMatrix::lines(file, path));
      values_.shape = {std::uint64_t(text_->rows()), std::uint64_t(text_->vertices())};
      return;
    }
    values_ = values_of(file, path);
  }
  bool text() const { return text_.has_value(); }
  // A text's: as far as it shows (TextMatrix::written_type).
  DistanceType type() const { return values_.type; }
  const Shape& shape() const { return values_.shape; }
  const std::string& problem() const { return values_.problem; }
  const std::vector<double>& next(DistanceType as) {
    if (text_) return text_->next_row(as);
    const std::size_t value = value_bytes(values_.type);
    const std::uint64_t columns = values_.shape.columns;
    raw_.resize(std::size_t(columns) * value);
    if (std::fread(raw_.data(), value, std::size_t(columns), file_) != columns)
      throw Error(system_error("cannot read", path_));
    row_.resize(std::size_t(columns));
    visit_distance_type(values_.type, [&](auto t) {
      for (std::size_t j = 0; j < row_.size(); ++j) {
        decltype(t) x;
        std::memcpy(&x, &raw_[j * value], sizeof x);
        row_[j] = double(x);
      }
    });
    return row_;
  }

 private:
  std::FILE* file_;
  std::string path_;
  std::optional<TextMatrix> text_;
  Values values_;
  std::vector<char> raw_;
  std::vector<double> row_;
};

// Two outputs of which one at least is text: value by value, the text read as the other's type
// (a float32 output's text reads back as its float32 values), two texts as float64. Types differ
// where the text shows it: whole numbers against floats, or float64 digits against float32.
Comparison compare_by_value(std::FILE* fa, std::FILE* fb, const std::string& a,
                            const std::string& b) {
  Rows ra(fa, a), rb(fb, b);
  if (!ra.text() && !ra.problem().empty()) return {false, ra.problem()};
  if (!rb.text() && !rb.problem().empty()) return {false, rb.problem()};
  if (ra.shape() != rb.shape())
    return {false, ra.shape().square() && rb.shape().square()
                       ? "sizes differ: '" + a + "' holds V = " + std::to_string(ra.shape().rows) +
                             ", '" + b + "' V = " + std::to_string(rb.shape().rows)
                       : shapes_differ(a, ra.shape(), b, rb.shape())};
  const auto whole = [](DistanceType t) { return t == DistanceType::int32; };
  if (whole(ra.type()) != whole(rb.type()) ||
      (ra.type() == DistanceType::float32 && rb.type() == DistanceType::float64 && rb.text()) ||
      (rb.type() == DistanceType::float32 && ra.type() == DistanceType::float64 && ra.text()))
    return {false, "types differ: '" + a + "' holds " + distance_type_name(ra.type()) +
                       (ra.text() ? " text" : "") + ", '" + b + "' " +
                       distance_type_name(rb.type()) + (rb.text() ? " text" : "")};
  const DistanceType as = !ra.text() ? ra.type() : !rb.text() ? rb.type() : DistanceType::float64;
  const Shape shape = ra.shape();
  for (std::uint64_t i = 0; i < shape.rows; ++i) {
    const std::vector<double>& x = ra.next(as);
    const std::vector<double>& y = rb.next(as);
    for (std::uint64_t j = 0; j < shape.columns; ++j)
      if (!(x[j] == y[j]))
        return {false, "first difference at (" + std::to_string(i) + ", " + std::to_string(j) +
                           "): " + number_text(x[j]) + " in '" + a + "', " + number_text(y[j]) +
                           " in '" + b + "'"};
  }
  return {true, "identical (" + shape_note(shape) + ")"};
}

}  // namespace

// Outputs compare by their values, whatever their formats (told apart by content): an .npy file
// and the HW3 or text file of the same distances are identical, and so are two tables of one
// shape (--sources, --targets; .npy carries the shape, text has it by its rows). HW3 and .npy
// values of one type compare bit for bit (float outputs of one graph and tile size are identical on
// every backend and rank count).
Comparison compare_outputs(const std::string& a, const std::string& b) {
  File fa = open_for_reading(a), fb = open_for_reading(b);
  if (is_text_matrix(head_of(fa.get(), a)) || is_text_matrix(head_of(fb.get(), b)))
    return compare_by_value(fa.get(), fb.get(), a, b);
  const Values va = values_of(fa.get(), a), vb = values_of(fb.get(), b);
  if (va.type != vb.type)
    return {false, "types differ: '" + a + "' holds " + distance_type_name(va.type) + ", '" + b +
                       "' " + distance_type_name(vb.type)};
  const bool squares = va.shape.square() && vb.shape.square();
  if (va.bytes != vb.bytes && squares)
    return {false, "sizes differ: '" + a + "' has " + std::to_string(va.bytes) +
                       " bytes of values, '" + b + "' has " + std::to_string(vb.bytes)};
  if (!va.problem.empty()) return {false, va.problem};
  if (!vb.problem.empty()) return {false, vb.problem};
  if (va.shape != vb.shape) return {false, shapes_differ(a, va.shape, b, vb.shape)};
  const std::uint64_t columns = va.shape.columns, value = value_bytes(va.type),
                      count = va.bytes / value;
  constexpr std::size_t chunk = 1 << 20;
  const std::size_t buffer = std::size_t(std::min<std::uint64_t>(chunk, count)) * value;
  std::vector<char> xa(buffer), xb(buffer);
  std::uint64_t index = 0;
  while (index < count) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(chunk, count - index));
    if (std::fread(xa.data(), value, n, fa.get()) != n) throw Error(system_error("cannot read", a));
    if (std::fread(xb.data(), value, n, fb.get()) != n) throw Error(system_error("cannot read", b));
    if (std::memcmp(xa.data(), xb.data(), n * value) != 0)
      for (std::size_t k = 0; k < n; ++k)
        if (std::memcmp(&xa[k * value], &xb[k * value], value) != 0) {
          const auto text = [&](const char* bytes) {
            return visit_distance_type(va.type, [&](auto t) {
              decltype(t) x;
              std::memcpy(&x, bytes, sizeof x);
              return number_text(double(x));
            });
          };
          const std::uint64_t at = index + k;
          return {false, "first difference at (" + std::to_string(at / columns) + ", " +
                             std::to_string(at % columns) + "): " + text(&xa[k * value]) + " in '" +
                             a + "', " + text(&xb[k * value]) + " in '" + b + "'"};
        }
    index += n;
  }
  return {true, "identical (" + shape_note(va.shape) + ")"};
}

}  // namespace apsp
