// What the fuzz targets of the text readers (edge list, Matrix Market, DIMACS) check beyond "no
// crash, no sanitizer report": an error names the file; a graph that is returned keeps every
// promise of apsp::Graph, and written back in the same format (weights in their shortest exact
// form), it reads as the same graph.
// Each input is read twice, refusing and allowing negative weights: the two readings agree,
// except that only the second reads a graph with a negative weight, and the first then names
// the option that would read it.
#pragma once

#include "io/read_graph.hpp"
#include "memory_file.hpp"
#include "two_readings.hpp"

#include <apsp/error.hpp>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace apsp_fuzz {

// The graph in `format`, with nothing left to the reader's rules: V explicit, one edge a line.
inline std::string written_as(const apsp::Graph& graph, apsp::Format format) {
  const std::string v = std::to_string(graph.vertices), e = std::to_string(graph.edges.size());
  const int base = format == apsp::Format::edge_list ? 0 : 1;
  std::string text =
      format == apsp::Format::edge_list ? "# vertices " + v + "\n"
      : format == apsp::Format::matrix_market
          ? "%%MatrixMarket matrix coordinate real general\n" + v + " " + v + " " + e + "\n"
          : "p sp " + v + " " + e + "\n";
  for (const apsp::Edge& edge : graph.edges)
    text += (format == apsp::Format::dimacs ? "a " : "") + std::to_string(edge.src + base) + " " +
            std::to_string(edge.dst + base) + " " + apsp::number_text(edge.weight) + "\n";
  return text;
}

// The graph, or nothing after an apsp::Error, whose message goes to `error` and must name the
// file.
inline std::optional<apsp::Graph> read_text(const std::string& path, apsp::Format format,
                                            bool allow_negative, std::string& error) {
  try {
    return apsp::read_graph(path, format, allow_negative);
  } catch (const apsp::Error& e) {
    error = e.what();
    if (error.rfind(path + ":", 0) != 0) std::abort();
    return std::nullopt;
  }
}

inline int fuzz_text_reader(const std::uint8_t* data, std::size_t size, apsp::Format format) {
  static MemoryFile file, rewritten;
  const NoDescriptorLeak no_descriptor_leak;
  const std::string path = file.hold(data, size);
  std::string strict_error, relaxed_error;
  const std::optional<apsp::Graph> strict = read_text(path, format, false, strict_error);
  const std::optional<apsp::Graph> relaxed = read_text(path, format, true, relaxed_error);
  const apsp::Graph* read = checked_readings(strict, strict_error, relaxed);
  if (!read) return 0;
  const apsp::Graph& graph = *read;
  // An edge takes at least "1 1\n" (a symmetric Matrix Market entry gives two edges).
  if (graph.edges.size() > size) std::abort();
  const std::string text = written_as(graph, format);
  const std::string again =
      rewritten.hold(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (!same_graph(graph, apsp::read_graph(again, format, true))) std::abort();
  return 0;
}

}  // namespace apsp_fuzz
