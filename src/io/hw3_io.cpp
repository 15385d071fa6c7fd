// The HW3 format: reading and writing graphs (src/io/hw3_io.hpp).
#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "io/posix_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace apsp {
namespace {

using detail::File;
using detail::file_size;
using detail::open_for_reading;
using detail::size_text;
using detail::system_error;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "apsp reads and writes the little-endian HW3 format on little-endian hosts only"
#endif

// Why a weight outside [hw3_lowest_weight(allow_negative), hw3_max_weight] is refused, as the
// message goes on after "weight W": a negative one without allow_negative says how to have it
// accepted.
std::string weight_refusal(double weight, bool allow_negative) {
  if (weight < 0 && !allow_negative) return "is negative (negative weights need --allow-negative)";
  return "out of range [" + std::to_string(hw3_lowest_weight(allow_negative)) + ", " +
         std::to_string(hw3_max_weight) + "]";
}

}  // namespace

Graph read_hw3(const std::string& path, bool allow_negative) {
  File file = open_for_reading(path);
  // A regular file's size tells a truncated or overlong file before anything is allocated;
  // a pipe is read to its end instead.
  struct stat st;
  fstat(fileno(file.get()), &st);
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t size = regular ? std::uint64_t(st.st_size) : 0;
  std::int32_t header[2];
  const std::size_t got = std::fread(header, 1, sizeof header, file.get());
  if (got < sizeof header) {
    if (std::ferror(file.get())) throw Error(system_error("cannot read the header of", path));
    throw Error("input '" + path + "': truncated header (" + std::to_string(got) +
                " bytes; V and E need 8)");
  }
  Graph graph;
  graph.vertices = header[0];
  const std::int64_t edges = header[1];
  if (graph.vertices <= 0)
    throw Error("input '" + path + "': V = " + std::to_string(graph.vertices) +
                ", the number of vertices must be at least 1");
  if (edges < 0)
    throw Error("input '" + path + "': E = " + std::to_string(edges) +
                ", the number of edges must not be negative");
  const std::uint64_t expected = sizeof header + std::uint64_t(edges) * sizeof(Hw3Edge);
  auto truncated = [&](std::uint64_t bytes) {
    return Error("input '" + path + "': truncated edge list (E = " + std::to_string(edges) +
                 " needs " + std::to_string(expected) + " bytes, the file has " +
                 std::to_string(bytes) + ")");
  };
  auto trailing = [&](std::uint64_t bytes) {
    return Error("input '" + path + "': " + std::to_string(bytes) +
                 " bytes of trailing data after the " + std::to_string(edges) + " edges");
  };
  if (regular && size < expected) throw truncated(size);
  if (regular && size > expected) throw trailing(size - expected);
  // Hw3Edges are read a chunk at a time, checked and converted. A regular file's size has backed
  // E: one allocation. A pipe's header is not to be trusted with one: the list grows as the
  // edges arrive.
  const std::int32_t lowest = hw3_lowest_weight(allow_negative);
  std::vector<Hw3Edge> triples(std::min(std::size_t(edges), std::size_t(1) << 16));
  std::size_t read = 0;
  try {
    if (regular) graph.edges.reserve(std::size_t(edges));
    while (read < std::size_t(edges)) {
      const std::size_t want = std::min(triples.size(), std::size_t(edges) - read);
      const std::size_t n = std::fread(triples.data(), sizeof(Hw3Edge), want, file.get());
      for (std::size_t k = 0; k < n; ++k) {
        const Hw3Edge& t = triples[k];
        const std::size_t e = read + k;
        for (const std::int32_t v : {t.src, t.dst})
          if (v < 0 || v >= graph.vertices)
            throw Error("input '" + path + "': edge " + std::to_string(e) + ": vertex " +
                        std::to_string(v) + " out of range [0, " + std::to_string(graph.vertices) +
                        ")");
        if (t.weight < lowest || t.weight > hw3_max_weight)
          throw Error("input '" + path + "': edge " + std::to_string(e) + ": weight " +
                      std::to_string(t.weight) + " " + weight_refusal(t.weight, allow_negative));
        graph.edges.emplace_back(t.src, t.dst, t.weight);
      }
      read += n;
      if (n < want) break;
    }
  } catch (const std::bad_alloc&) {
    throw Error("input '" + path + "': not enough host memory for " + std::to_string(edges) +
                " edges (" + size_text(std::uint64_t(edges) * sizeof(Edge)) + ")");
  }
  if (read != std::size_t(edges)) {
    if (std::ferror(file.get())) throw Error(system_error("cannot read the edges of", path));
    throw truncated(sizeof header + read * sizeof(Hw3Edge));
  }
  if (!regular) {
    std::uint64_t extra = 0;
    char sink[4096];
    for (std::size_t n; (n = std::fread(sink, 1, sizeof sink, file.get())) > 0;)
      extra += n;
    if (extra > 0) throw trailing(extra);
  }
  return graph;
}

void write_hw3_graph(const std::string& path, const Graph& graph) {
  if (graph.edges.size() > std::size_t(INT32_MAX))
    throw Error("the HW3 format stores E as int32: " + std::to_string(graph.edges.size()) +
                " edges do not fit");
  AtomicOutputFile out(path);
  const std::int32_t header[2] = {graph.vertices, std::int32_t(graph.edges.size())};
  out.write(header, sizeof header);
  std::vector<Hw3Edge> triples;
  for (std::size_t first = 0; first < graph.edges.size(); first += triples.size()) {
    triples.clear();
    for (std::size_t e = first; e < graph.edges.size() && triples.size() < (1 << 16); ++e) {
      const Edge& edge = graph.edges[e];
      if (edge.weight != std::floor(edge.weight) || edge.weight < -hw3_max_weight ||
          edge.weight > hw3_max_weight)
        throw Error("the HW3 format stores weights as int32 in [-" +
                    std::to_string(hw3_max_weight) + ", " + std::to_string(hw3_max_weight) +
                    "]: edge " + std::to_string(e) + " weighs " + number_text(edge.weight));
      triples.push_back({edge.src, edge.dst, std::int32_t(edge.weight)});
    }
    out.write(triples.data(), triples.size() * sizeof(Hw3Edge));
  }
  out.commit();
}

}  // namespace apsp
