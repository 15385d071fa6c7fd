// Writing outputs: what OUT holds in each format (HW3, text, .npy), its size before any work, and
// the text form of a row. The files themselves (temporaries, transactions): io/outputs.hpp.
#pragma once

#include <apsp/distance.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace apsp {

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

// The .npy type of a value: '<i4', '<f4' or '<f8'.
const char* npy_type(DistanceType type);

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
