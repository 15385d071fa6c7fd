// apsp::read_hw3 on arbitrary bytes: it either throws apsp::Error or returns a graph that keeps
// every promise of the format. Each input is read twice, refusing and allowing negative weights:
// the two readings agree, except that only the second reads a graph with a negative weight, and
// the first then names the option that would read it. Anything else (another exception, a
// crash, a leak, a sanitizer report) is a finding.
#include "memory_file.hpp"
#include "two_readings.hpp"

#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile file;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  const std::string path = file.hold(data, size);
  std::string strict_error, relaxed_error;
  const std::optional<apsp::Graph> strict = read(path, false, strict_error);
  const std::optional<apsp::Graph> relaxed = read(path, true, relaxed_error);
  const apsp::Graph* graph = apsp_fuzz::checked_readings(strict, strict_error, relaxed);
  if (graph && size != 8 + 12 * graph->edges.size()) std::abort();
  // The HW3 contract on top of every reader's: whole-number weights in [-1000, 1000].
  if (graph)
    for (const apsp::Edge& e : graph->edges)
      if (e.weight != std::floor(e.weight) || e.weight < apsp::hw3_lowest_weight(true) ||
          e.weight > apsp::hw3_max_weight)
        std::abort();
  return 0;
}
