// apsp::read_hw3 on arbitrary bytes: it either throws apsp::Error or returns a graph that keeps
// every promise of the format. Anything else (another exception, a crash, a leak, a sanitizer
// report) is a finding.
#include "memory_file.hpp"

#include <apsp/error.hpp>
#include <apsp/hw3_io.hpp>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile file;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  const std::string path = file.hold(data, size);
  apsp::Graph graph;
  try {
    graph = apsp::read_hw3(path);
  } catch (const apsp::Error& e) {
    if (e.what()[0] == '\0') std::abort();
    return 0;
  }
  if (graph.vertices < 1 || size != 8 + 12 * graph.edges.size()) std::abort();
  for (const apsp::Edge& e : graph.edges)
    if (e.src < 0 || e.src >= graph.vertices || e.dst < 0 || e.dst >= graph.vertices ||
        e.weight < 0 || e.weight > apsp::max_weight)
      std::abort();
  return 0;
}
