// The HW3 binary format (little-endian int32):
//   input:  V E, then E triples (src dst weight), 0 <= src, dst < V, 0 <= weight <= 1000
//           (-1000 <= weight <= 1000 when negative weights are allowed);
//   output: V*V distances, row-major; dist(i,i) = 0; no path = 2^30 - 1 (apsp::infinity).
#pragma once

#include <apsp/graph.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// Reads and checks a whole HW3 input file. Throws apsp::Error naming the first problem:
// unreadable file, truncated header or edge list, trailing bytes, V <= 0, E < 0, a vertex out
// of range or a weight out of range. A negative weight is accepted only with allow_negative
// (then down to -max_weight); without it the error says that it needs --allow-negative.
Graph read_hw3(const std::string& path, bool allow_negative = false);

// Writes a graph as HW3 input.
void write_hw3_graph(const std::string& path, const Graph& graph);

// Bytes of the HW3 output for V vertices.
inline std::uint64_t hw3_output_bytes(std::int64_t vertices) {
  return std::uint64_t(vertices) * std::uint64_t(vertices) * sizeof(std::int32_t);
}

// Throws apsp::Error when the file system holding `path` has less than `bytes` free.
void check_disk_space(const std::string& path, std::uint64_t bytes);
// The same for several outputs (path, bytes): those on one file system must fit together.
void check_disk_space(const std::vector<std::pair<std::string, std::uint64_t>>& outputs);

// Whether two output names are one regular file (or one name not yet created). Two names of
// /dev/null are not: writing both there is fine.
bool same_output_file(const std::string& a, const std::string& b);

// Told when an AtomicOutputFile's temporary appears (true) and is gone (false), so that a signal
// handler, which cannot run destructors, can remove it (src/cli/main.cpp).
using TemporaryFileHook = void (*)(const char* path, bool exists);
inline TemporaryFileHook temporary_file_hook = nullptr;

// An output file that appears complete or not at all: rows go to a temporary file beside the
// target, commit() renames it into place; destroyed before commit(), the temporary is removed.
// A target that exists and is not a regular file (/dev/null, a pipe) is written directly.
class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(const std::string& path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  // Writes at an absolute offset (for ranks writing their own rows).
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  void commit();
  const std::string& temporary_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

// Streams two HW3 output files and reports the first difference.
struct Comparison {
  bool identical = false;
  std::string message;  // "identical" or where and how they differ
};
Comparison compare_hw3_outputs(const std::string& a, const std::string& b);

}  // namespace apsp
