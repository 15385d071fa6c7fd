// What OUT holds in each format (src/io/output_formats.hpp).
#include <apsp/detail/measure.hpp>
#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/output_formats.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <string>

namespace apsp {

std::optional<OutputFormat> output_format_named(const std::string& name) {
  if (name == "hw3") return OutputFormat::hw3;
  if (name == "text") return OutputFormat::text;
  if (name == "npy") return OutputFormat::npy;
  return std::nullopt;
}

OutputFormat output_format_of(const std::string& path) {
  const std::string npy = ".npy";
  if (path.size() <= npy.size()) return OutputFormat::hw3;
  for (std::size_t i = 0; i < npy.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - npy.size() + i])) != npy[i])
      return OutputFormat::hw3;
  return OutputFormat::npy;
}

const char* npy_type(DistanceType type) {
  return type == DistanceType::float64 ? "<f8" : type == DistanceType::float32 ? "<f4" : "<i4";
}

std::string npy_header(std::int64_t vertices, DistanceType type) {
  return npy_header(vertices, vertices, type);
}

std::string npy_header(std::int64_t rows, std::int64_t columns, DistanceType type) {
  std::string dict = std::string("{'descr': '") + npy_type(type) +
                     "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                     std::to_string(columns) + "), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += char(1);
  header += char(0);
  header += char(dict.size() & 0xff);
  header += char(dict.size() >> 8);
  return header + dict;
}

std::uint64_t output_bytes(OutputFormat format, std::int64_t vertices, DistanceType type) {
  const std::uint64_t values = std::uint64_t(vertices) * std::uint64_t(vertices);
  if (format == OutputFormat::hw3) {
    if (type != DistanceType::int32)
      throw Error(std::string("the distances are ") + distance_type_name(type) +
                  " and HW3 output holds int32 only: use --output-format npy|text (or an OUT "
                  "ending in .npy)");
    return hw3_output_bytes(vertices);
  }
  if (format == OutputFormat::npy)
    return npy_header(vertices, type).size() + values * value_bytes(type);
  const std::uint64_t bytes = values * (type == DistanceType::int32     ? 11
                                        : type == DistanceType::float32 ? 16
                                                                        : 25);
  if (vertices > max_text_vertices)
    throw Error("text output is for V <= " + std::to_string(max_text_vertices) +
                ", this graph has V = " + std::to_string(vertices) + " (up to " +
                detail::size_text(bytes) + " of text): write " +
                (type == DistanceType::int32 ? "HW3 or " : "") + ".npy output instead");
  return bytes;
}

std::uint64_t least_output_bytes(OutputFormat format, std::int64_t vertices, DistanceType type) {
  const std::uint64_t bytes = output_bytes(format, vertices, type);
  return format == OutputFormat::text ? 2 * std::uint64_t(vertices) * std::uint64_t(vertices)
                                      : bytes;
}

std::uint64_t least_table_bytes(OutputFormat format, std::int64_t rows, std::int64_t columns,
                                DistanceType type) {
  const std::uint64_t values = std::uint64_t(rows) * std::uint64_t(columns);
  if (format == OutputFormat::npy)
    return npy_header(rows, columns, type).size() + values * value_bytes(type);
  return 2 * values;
}

namespace {

// to_chars gives the shortest form that reads back as the same value, and "inf" for no path.
template <class T>
void append_row(std::string& text, const T* row, std::int64_t vertices) {
  char number[32];
  for (std::int64_t j = 0; j < vertices; ++j) {
    const auto end = std::to_chars(number, number + sizeof number, row[j]).ptr;
    text.append(number, end);
    text += j + 1 < vertices ? ' ' : '\n';
  }
}

}  // namespace

void append_text_row(std::string& text, const std::int32_t* row, std::int64_t vertices) {
  append_row(text, row, vertices);
}
void append_text_row(std::string& text, const float* row, std::int64_t vertices) {
  append_row(text, row, vertices);
}
void append_text_row(std::string& text, const double* row, std::int64_t vertices) {
  append_row(text, row, vertices);
}

}  // namespace apsp
