// The file of a prepared graph (`apsp prepare`, apsp.Graph.save): the graph and what its
// algorithm would make of it before any row (supernodal Floyd-Warshall: its plan and numeric
// factor; sssp: the graph's arrays), so that a later run answers without making them again. Every
// command that reads a graph reads this file too, told apart by its magic bytes whatever its name.
//
// Layout (little-endian, no padding; offsets in bytes):
//     0  "APSPPREP"                       magic
//     8  u32 format version               prepared_format_version: bumped whenever the layout
//                                         of the header or of any section changes
//    12  u32 0x01020304                   the writer's byte order
//    16  char[16] apsp version            of the writer, NUL-padded (for messages only)
//    32  u32 distance type                0 int32, 1 float32, 2 float64 (the factor's)
//    36  u32 algorithm                    1: supernodal Floyd-Warshall, 2: sssp (Dijkstra)
//    40  i64 V, i64 E
//    56  f64 lowest, f64 highest, f64 longest path, u32 whole numbers: the open edges' weights
//    84  u32 sections (3)
//    88  3 x {char[8] name, u64 bytes, u64 checksum}: "graph", "plan", "factor"
//   160  u64 checksum of bytes [0, 160)
//   168  the sections, in that order:
//        graph   E x {i32 src, i32 dst, f64 weight}: the reader's edges in its order; +inf is
//                an edge that new weights closed (its place is kept for later updates)
//        plan    supernodal: the plan's bytes (detail::plan_bytes, supernodal_plan.hpp);
//                sssp: the graph's arrays (detail::csr_bytes, sssp.hpp)
//        factor  supernodal: the factor's values, in the distance type; sssp: empty
// A checksum is 64-bit FNV-1a over the section's little-endian 64-bit words, then its last
// bytes one at a time: it finds a damaged or truncated file, not a forged one, so the reader
// checks the graph's values too.
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>
#include <apsp/plan.hpp>

#include "io/outputs.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace apsp {

constexpr std::uint32_t prepared_format_version = 1;
constexpr std::uint64_t prepared_header_bytes = 168;

// A section's bytes: its own (not set when allocated: a factor of hundreds of megabytes is first
// touched by what fills it), a vector's, or a part of a file mapped into memory, kept mapped as
// long as a Bytes of it lives (read_prepared: the page cache's pages themselves, no copy).
class Bytes {
 public:
  Bytes() = default;
  explicit Bytes(std::size_t size)
      : keep_(size ? new char[size] : nullptr, std::default_delete<char[]>()),
        data_(keep_.get()),
        size_(size) {}
  explicit Bytes(std::vector<char> bytes) {
    auto kept = std::make_shared<std::vector<char>>(std::move(bytes));
    data_ = kept->data();
    size_ = kept->size();
    keep_ = std::shared_ptr<char>(kept, data_);
  }
  // `size` bytes at `data`, which `keep` keeps alive.
  Bytes(std::shared_ptr<char> keep, char* data, std::size_t size)
      : keep_(std::move(keep)), data_(data), size_(size) {}
  char* data() { return data_; }
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  // Bytes [at, at + size) of these, kept alive with them.
  Bytes part(std::size_t at, std::size_t size) const { return Bytes(keep_, data_ + at, size); }

 private:
  std::shared_ptr<char> keep_;
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

struct PreparedFile {
  Algorithm algorithm = Algorithm::supernodal;  // or sssp
  DistanceType type = DistanceType::int32;
  Graph graph;               // every edge, in the prepare's order (+inf: closed)
  WeightRange weights;       // of the open edges
  Bytes plan;                // detail::plan_bytes, or sssp's detail::csr_bytes
  Bytes factor;              // the factor's values, of `type` (sssp: none)
  std::string apsp_version;  // the writer's (read back; written: this build's)
};

// Whether `path` is a regular file that starts with the magic bytes (a pipe or a device is read
// as a graph file of its format, never peeked at).
bool is_prepared_file(const std::string& path);

// The file's size for `file`'s sections (for the disk space check before it is written), or for
// a graph of `edges` edges and sections of these sizes.
std::uint64_t prepared_file_bytes(const PreparedFile& file);
std::uint64_t prepared_file_bytes(std::int64_t edges, std::uint64_t plan, std::uint64_t factor);

// The whole file into `out` (which the caller commits).
void write_prepared(AtomicOutputFile& out, const PreparedFile& file);

// Reads and checks a prepared file: the magic, the format version, the byte order, each
// checksum, the sizes, the graph's vertices and weights. Throws apsp::Error naming the file and
// the first problem (another format version says to prepare the graph again).
PreparedFile read_prepared(const std::string& path);

// The graph of prepared file `file` (read from `path`) with its closed edges left out: what
// every reader of a graph file (read_graph) returns for one; at least one vertex, the weights'
// sign checked as the readers check it.
Graph open_graph(const PreparedFile& file, const std::string& path, bool allow_negative);

// The graph of prepared file `file` (read from `path`) with the weights of `fresh` (read from
// `fresh_path`), which must hold the same edges in the same order (as the readers give them:
// parallel edges and an undirected format's both ways as they are); every edge open. Throws
// apsp::Error naming the first edge that differs.
Graph reweighted(const PreparedFile& file, const std::string& path, Graph fresh,
                 const std::string& fresh_path);

}  // namespace apsp
