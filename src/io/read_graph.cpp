// The graph readers (src/io/read_graph.hpp).
#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/posix_files.hpp"
#include "io/prepared_file.hpp"
#include "io/read_graph.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace apsp {
namespace {

using detail::system_error;

// A line of a graph file is a few dozen bytes; a longer one means a binary file or a file
// without newlines, which should not make the reader buffer all of it.
constexpr std::size_t max_line_bytes = 1 << 20;

// Hands out the lines of a text file one by one, without their "\n" or "\r\n", through one
// buffer, and names the file and line in the errors it throws.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), buffer_(64 << 10) {
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) throw Error(system_error("cannot open input", path));
    struct stat st;
    if (fstat(fileno(file_.get()), &st) != 0) throw Error(system_error("cannot stat", path));
    if (S_ISDIR(st.st_mode)) throw Error("input '" + path + "' is a directory");
    if (S_ISREG(st.st_mode)) size_ = std::uint64_t(st.st_size);
  }

  bool next(std::string_view& line) {
    for (;;) {
      // Bytes before scan_ hold no newline: each byte is searched once.
      if (const void* newline = std::memchr(buffer_.data() + scan_, '\n', end_ - scan_)) {
        const std::size_t end = std::size_t(static_cast<const char*>(newline) - buffer_.data());
        line = trimmed_cr(std::string_view(buffer_.data() + begin_, end - begin_));
        begin_ = scan_ = end + 1;
        ++number_;
        return true;
      }
      scan_ = end_;
      if (end_ - begin_ > max_line_bytes) {
        ++number_;
        fail("line longer than " + std::to_string(max_line_bytes >> 20) +
             " MiB: not a text graph file");
      }
      if (at_end_) {
        if (begin_ == end_) return false;
        line = trimmed_cr(std::string_view(buffer_.data() + begin_, end_ - begin_));
        begin_ = scan_ = end_;
        ++number_;
        return true;
      }
      // The unfinished line moves to the front; a line that fills the buffer doubles it (up to
      // twice the longest line), so small files need no large buffer.
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      scan_ = end_;
      begin_ = 0;
      if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());
      const std::size_t got =
          std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_.get());
      if (got == 0) {
        if (std::ferror(file_.get())) throw Error(system_error("cannot read", path_));
        at_end_ = true;
      }
      end_ += got;
    }
  }

  std::int64_t line_number() const { return number_; }
  // 0 when the input is not a regular file.
  std::uint64_t file_size() const { return size_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(path_ + ":" + std::to_string(number_) + ": " + what);
  }
  [[noreturn]] void fail(int column, const std::string& what) const {
    fail("column " + std::to_string(column) + ": " + what);
  }
  // Problems of the whole file, found at its end.
  [[noreturn]] void fail_file(const std::string& what) const { throw Error(path_ + ": " + what); }

 private:
  static std::string_view trimmed_cr(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::uint64_t size_ = 0;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, scan_ = 0, end_ = 0;  // the unread lines are [begin_, end_)
  bool at_end_ = false;
  std::int64_t number_ = 0;
};

// The whitespace-separated fields of a line: the first few, and how many there are in all.
struct Fields {
  static constexpr int kept = 6;
  std::array<std::string_view, kept> field;
  int count = 0;

  explicit Fields(std::string_view line) {
    std::size_t i = 0;
    for (;;) {
      while (i < line.size() && is_space(line[i]))
        ++i;
      if (i == line.size()) return;
      const std::size_t start = i;
      while (i < line.size() && !is_space(line[i]))
        ++i;
      if (count < kept) field[std::size_t(count)] = line.substr(start, i - start);
      ++count;
    }
  }
  std::string_view operator[](int column) const { return field[std::size_t(column - 1)]; }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
};

// A field as messages show it: control and non-ASCII bytes escaped, long ones cut.
std::string shown(std::string_view field) {
  constexpr std::size_t longest = 40;
  std::string text;
  for (const char c : field.substr(0, longest)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      text += c;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    }
  }
  return field.size() > longest ? text + "..." : text;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// The field as a decimal integer (an optional sign, then digits only), or an error naming
// `what` and the field.
std::int64_t integer_field(const LineReader& in, const Fields& fields, int column,
                           const char* what) {
  std::string_view text = fields[column];
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range && end == text.data() + text.size())
    in.fail(column, std::string(what) + " " + shown(fields[column]) + " is too large");
  if (error != std::errc() || end != text.data() + text.size())
    in.fail(column, std::string(what) + " " + shown(fields[column]) + " is not an integer");
  return value;
}

// A count of the size or problem line: vertices in [1, 2^31 - 1], edges >= 0.
std::int32_t vertex_count_field(const LineReader& in, const Fields& fields, int column) {
  const std::int64_t v = integer_field(in, fields, column, "V =");
  if (v < 1)
    in.fail(column, "V = " + std::to_string(v) + ", the number of vertices must be at least 1");
  if (v > INT32_MAX)
    in.fail(column, "V = " + std::to_string(v) + " is more vertices than apsp handles (" +
                        std::to_string(INT32_MAX) + ")");
  return std::int32_t(v);
}
std::int64_t edge_count_field(const LineReader& in, const Fields& fields, int column) {
  const std::int64_t e = integer_field(in, fields, column, "E =");
  if (e < 0)
    in.fail(column, "E = " + std::to_string(e) + ", the number of edges must not be negative");
  return e;
}

// A vertex id in [first, first + vertices), returned 0-based.
std::int32_t vertex_field(const LineReader& in, const Fields& fields, int column,
                          std::int64_t first, std::int64_t vertices) {
  const std::int64_t v = integer_field(in, fields, column, "vertex");
  if (v < first || v >= first + vertices)
    in.fail(column, "vertex " + std::to_string(v) + " out of range " +
                        (first == 0 ? "[0, " + std::to_string(vertices) + ")"
                                    : "[1, " + std::to_string(vertices) + "]"));
  return std::int32_t(v - first);
}

// A weight: a finite decimal number ([sign] digits [. digits] [e [sign] digits], strtod's
// syntax; no inf, nan or hexadecimal), or with `integer` (Matrix Market's integer field) a
// decimal integer. A negative one is refused without allow_negative, with an error saying how
// to have it accepted. Whether the distances are int32 or real is decided from all the
// weights afterwards (choose_distance_type).
double weight_field(const LineReader& in, const Fields& fields, int column, bool integer,
                    bool allow_negative) {
  const std::string_view text = fields[column];
  double w = 0;
  if (integer) {
    w = double(integer_field(in, fields, column, "weight"));
  } else {
    const bool numeric_characters =
        !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string_view::npos;
    // strtod needs a terminated copy: on the stack, or for a long number (any length is valid
    // text: leading zeros, 65 digits of pi) on the heap.
    char buffer[64];
    std::string long_copy;
    char* copy = buffer;
    if (text.size() >= sizeof buffer) {
      long_copy.assign(text);
      copy = &long_copy[0];
    }
    char* end = copy;
    if (numeric_characters) {
      text.copy(copy, text.size());
      copy[text.size()] = '\0';
      w = std::strtod(copy, &end);
    }
    if (!numeric_characters || end != copy + text.size())
      in.fail(column, "weight " + shown(text) + " is not a number");
    if (!std::isfinite(w))
      in.fail(column, "weight " + shown(text) + " is too large (beyond double)");
  }
  if (w < 0 && !allow_negative)
    in.fail(column,
            "weight " + shown(text) + " is negative (negative weights need --allow-negative)");
  return w + 0.0;  // -0 reads as 0
}

// Room for the edges a header announces, but no more than the file can hold: the header is
// not to be trusted with an allocation.
void reserve_edges(Graph& graph, std::uint64_t announced, std::uint64_t file_size,
                   std::uint64_t smallest_line) {
  graph.edges.reserve(std::size_t(std::min(announced, file_size / smallest_line)));
}

}  // namespace

Format format_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return Format::hw3;
  const std::string_view extension = std::string_view(path).substr(dot + 1);
  if (equal_ignoring_case(extension, "mtx")) return Format::matrix_market;
  if (equal_ignoring_case(extension, "gr")) return Format::dimacs;
  for (const char* text : {"txt", "el", "edges"})
    if (equal_ignoring_case(extension, text)) return Format::edge_list;
  return Format::hw3;
}

std::optional<Format> format_named(const std::string& name) {
  if (name == "auto") return Format::automatic;
  if (name == "hw3") return Format::hw3;
  if (name == "edges") return Format::edge_list;
  if (name == "mtx") return Format::matrix_market;
  if (name == "dimacs") return Format::dimacs;
  return std::nullopt;
}

Graph read_graph(const std::string& path, Format format, bool allow_negative) {
  if (format == Format::automatic && is_prepared_file(path))
    return open_graph(read_prepared(path), path, allow_negative);
  switch (format == Format::automatic ? format_of(path) : format) {
    case Format::edge_list:
      return read_edge_list(path, allow_negative);
    case Format::matrix_market:
      return read_matrix_market(path, allow_negative);
    case Format::dimacs:
      return read_dimacs(path, allow_negative);
    default:
      return read_hw3(path, allow_negative);
  }
}

Graph read_edge_list(const std::string& path, bool allow_negative) {
  LineReader in(path);
  Graph graph;
  std::int64_t header_line = 0;  // of "# vertices N", 0 without one
  std::int64_t largest = -1;
  // Without a header, ids up to 2^31 - 2 keep V = 1 + the largest within int32.
  std::int64_t vertices = INT32_MAX;
  for (std::string_view line; in.next(line);) {
    const auto hash = line.find('#');
    const Fields fields(line.substr(0, hash));
    if (fields.count == 0) {
      if (hash == std::string_view::npos) continue;
      const Fields comment(line.substr(hash + 1));
      if (comment.count == 0 || comment[1] != "vertices") continue;
      if (header_line > 0)
        in.fail("a second '# vertices' header (the first is on line " +
                std::to_string(header_line) + ")");
      if (!graph.edges.empty())
        in.fail("the '# vertices N' header must come before the first edge");
      if (comment.count != 2)
        in.fail("a comment starting with 'vertices' is the header '# vertices N', found " +
                std::to_string(comment.count - 1) + " words after 'vertices'");
      std::int64_t v = 0;
      const auto text = comment[2];
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (error != std::errc() || end != text.data() + text.size())
        in.fail("'# vertices' header: " + shown(text) + " is not an integer");
      if (v < 1 || v > INT32_MAX)
        in.fail("'# vertices' header: V = " + std::to_string(v) + " out of range [1, " +
                std::to_string(INT32_MAX) + "]");
      vertices = v;
      header_line = in.line_number();
      continue;
    }
    if (fields.count != 3)
      in.fail("expected 3 fields 'u v w', found " + std::to_string(fields.count));
    auto endpoint = [&](int column) {
      if (header_line > 0) return vertex_field(in, fields, column, 0, vertices);
      const std::int64_t v = integer_field(in, fields, column, "vertex");
      if (v < 0)
        in.fail(column, "vertex " + std::to_string(v) + " is negative (vertex ids start at 0)");
      if (v >= vertices)
        in.fail(column, "vertex " + std::to_string(v) + " is too large (at most " +
                            std::to_string(vertices - 1) + ")");
      largest = std::max(largest, v);
      return std::int32_t(v);
    };
    const Edge edge{endpoint(1), endpoint(2), weight_field(in, fields, 3, false, allow_negative)};
    graph.edges.push_back(edge);
  }
  if (header_line == 0 && graph.edges.empty())
    in.fail_file("no edges and no '# vertices N' header: the number of vertices is unknown");
  graph.vertices = std::int32_t(header_line > 0 ? vertices : largest + 1);
  return graph;
}

Graph read_matrix_market(const std::string& path, bool allow_negative) {
  LineReader in(path);
  std::string_view line;
  if (!in.next(line))
    in.fail_file("empty file, expected the banner '%%MatrixMarket matrix coordinate ...'");
  const Fields banner(line);
  if (banner.count == 0 || !equal_ignoring_case(banner[1], "%%MatrixMarket"))
    in.fail(
        "not a Matrix Market file: the first line must be the banner "
        "'%%MatrixMarket matrix coordinate integer|real|pattern general|symmetric'");
  if (banner.count != 5)
    in.fail("the banner has " + std::to_string(banner.count) +
            " fields, expected 5: '%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  if (!equal_ignoring_case(banner[2], "matrix"))
    in.fail(2, "object " + shown(banner[2]) + " is not supported, expected 'matrix'");
  if (!equal_ignoring_case(banner[3], "coordinate"))
    in.fail(3, "format " + shown(banner[3]) + " is not supported, expected 'coordinate'");
  const bool pattern = equal_ignoring_case(banner[4], "pattern");
  const bool real = equal_ignoring_case(banner[4], "real");
  if (!pattern && !real && !equal_ignoring_case(banner[4], "integer"))
    in.fail(4, "field " + shown(banner[4]) +
                   " is not supported, expected 'integer', 'real' or 'pattern'");
  const bool symmetric = equal_ignoring_case(banner[5], "symmetric");
  if (!symmetric && !equal_ignoring_case(banner[5], "general"))
    in.fail(
        5, "symmetry " + shown(banner[5]) + " is not supported, expected 'general' or 'symmetric'");

  Graph graph;
  std::int64_t size_line = 0, announced = 0, entries = 0;
  const int columns = pattern ? 2 : 3;
  while (in.next(line)) {
    const Fields fields(line);
    if (fields.count == 0 || fields[1][0] == '%') continue;
    if (size_line == 0) {
      if (fields.count != 3)
        in.fail("expected the size line 'rows columns entries', found " +
                std::to_string(fields.count) + " fields");
      graph.vertices = vertex_count_field(in, fields, 1);
      const std::int32_t cols = vertex_count_field(in, fields, 2);
      if (cols != graph.vertices)
        in.fail("the matrix is " + std::to_string(graph.vertices) + " x " + std::to_string(cols) +
                ": a graph needs a square matrix (rows = columns)");
      announced = edge_count_field(in, fields, 3);
      size_line = in.line_number();
      reserve_edges(graph, std::uint64_t(announced) * (symmetric ? 2 : 1), in.file_size(), 4);
      continue;
    }
    if (fields.count != columns)
      in.fail(std::string("expected ") +
              (pattern ? "2 fields 'row column'" : "3 fields 'row column value'") + ", found " +
              std::to_string(fields.count));
    if (entries == announced)
      in.fail("more entries than the " + std::to_string(announced) + " of the size line (line " +
              std::to_string(size_line) + ")");
    ++entries;
    Edge edge;
    edge.src = vertex_field(in, fields, 1, 1, graph.vertices);
    edge.dst = vertex_field(in, fields, 2, 1, graph.vertices);
    edge.weight = pattern ? 1 : weight_field(in, fields, 3, !real, allow_negative);
    graph.edges.push_back(edge);
    if (symmetric && edge.src != edge.dst) graph.edges.push_back({edge.dst, edge.src, edge.weight});
  }
  if (size_line == 0) in.fail_file("no size line 'rows columns entries' after the banner");
  if (entries < announced)
    in.fail_file("the size line (line " + std::to_string(size_line) + ") announces " +
                 std::to_string(announced) + " entries, the file has " + std::to_string(entries));
  return graph;
}

Graph read_dimacs(const std::string& path, bool allow_negative) {
  LineReader in(path);
  Graph graph;
  std::int64_t problem_line = 0, announced = 0;
  for (std::string_view line; in.next(line);) {
    const Fields fields(line);
    if (fields.count == 0 || fields[1][0] == 'c') continue;
    if (fields[1] == "p") {
      if (problem_line > 0)
        in.fail("a second problem line (the first is on line " + std::to_string(problem_line) +
                ")");
      if (fields.count != 4)
        in.fail("expected the problem line 'p sp V E', found " + std::to_string(fields.count) +
                " fields");
      if (fields[2] != "sp")
        in.fail(2, "problem type " + shown(fields[2]) +
                       " is not supported, expected 'sp' (shortest paths)");
      graph.vertices = vertex_count_field(in, fields, 3);
      announced = edge_count_field(in, fields, 4);
      problem_line = in.line_number();
      reserve_edges(graph, std::uint64_t(announced), in.file_size(), 8);
    } else if (fields[1] == "a") {
      if (problem_line == 0) in.fail("an arc before the problem line 'p sp V E'");
      if (fields.count != 4)
        in.fail("expected 4 fields 'a u v w', found " + std::to_string(fields.count));
      if (std::int64_t(graph.edges.size()) == announced)
        in.fail("more arcs than the E = " + std::to_string(announced) +
                " of the problem line (line " + std::to_string(problem_line) + ")");
      Edge edge;
      edge.src = vertex_field(in, fields, 2, 1, graph.vertices);
      edge.dst = vertex_field(in, fields, 3, 1, graph.vertices);
      edge.weight = weight_field(in, fields, 4, false, allow_negative);
      graph.edges.push_back(edge);
    } else {
      in.fail(1, "unknown line type " + shown(fields[1]) +
                     ": a DIMACS .gr file has c (comment), p (problem) and a (arc) lines");
    }
  }
  if (problem_line == 0) in.fail_file("no problem line 'p sp V E'");
  if (std::int64_t(graph.edges.size()) < announced)
    in.fail_file("the problem line (line " + std::to_string(problem_line) +
                 ") announces E = " + std::to_string(announced) + " arcs, the file has " +
                 std::to_string(graph.edges.size()));
  return graph;
}

}  // namespace apsp
