// apsp::read_hw3 on arbitrary bytes: it either throws apsp::Error or returns a graph that keeps
// every promise of the format. Each input is read twice, refusing and allowing negative weights:
// the two readings agree, except that only the second reads a graph with a negative weight, and
// the first then names the option that would read it. Anything else (another exception, a
// crash, a leak, a sanitizer report) is a finding.
#include "memory_file.hpp"

#include <apsp/error.hpp>
#include <apsp/hw3_io.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace {

// The graph, or nothing after an apsp::Error, whose message goes to `error`.
std::optional<apsp::Graph> read(const std::string& path, bool allow_negative, std::string& error) {
  try {
    return apsp::read_hw3(path, allow_negative);
  } catch (const apsp::Error& e) {
    error = e.what();
    if (error.empty()) std::abort();
    return std::nullopt;
  }
}

bool same_graph(const apsp::Graph& a, const apsp::Graph& b) {
  return a.vertices == b.vertices && a.edges.size() == b.edges.size() &&
         (a.edges.empty() ||
          std::memcmp(a.edges.data(), b.edges.data(), a.edges.size() * sizeof(apsp::Edge)) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile file;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  const std::string path = file.hold(data, size);
  std::string strict_error, relaxed_error;
  const std::optional<apsp::Graph> strict = read(path, false, strict_error);
  const std::optional<apsp::Graph> relaxed = read(path, true, relaxed_error);
  if (!relaxed) {
    if (strict) std::abort();  // read only when negative weights are refused
    return 0;
  }
  const apsp::Graph& graph = *relaxed;
  if (graph.vertices < 1 || size != 8 + 12 * graph.edges.size()) std::abort();
  for (const apsp::Edge& e : graph.edges)
    if (e.src < 0 || e.src >= graph.vertices || e.dst < 0 || e.dst >= graph.vertices ||
        e.weight < apsp::lowest_weight(true) || e.weight > apsp::max_weight)
      std::abort();
  const bool negative = std::any_of(graph.edges.begin(), graph.edges.end(),
                                    [](const apsp::Edge& e) { return e.weight < 0; });
  if (negative ? strict || strict_error.find("--allow-negative") == std::string::npos
               : !strict || !same_graph(*strict, graph))
    std::abort();
  return 0;
}
