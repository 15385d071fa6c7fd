#include <apsp/error.hpp>
#include <apsp/generate.hpp>
#include <apsp/graph.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/outputs.hpp>

#include <cmath>
#include <vector>

namespace apsp {
namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by multiply-shift (Lemire).
  std::uint32_t below(std::uint32_t bound) {
    return std::uint32_t((unsigned __int128)(next()) * bound >> 64);
  }
};

}  // namespace

std::int64_t generate_hw3(const GenerateConfig& config, const std::string& path) {
  if (config.vertices <= 0)
    throw Error("generate: --vertices must be at least 1, got " + std::to_string(config.vertices));
  if (!(config.density >= 0.0 && config.density <= 1.0))
    throw Error("generate: --density must be in [0, 1]");
  if (config.max_weight < 0 || config.max_weight > max_weight)
    throw Error("generate: --max-weight must be in [0, 1000]");
  const double expected = config.density * double(config.vertices) * double(config.vertices - 1);
  if (expected > 0.99 * double(INT32_MAX))
    throw Error("generate: about " + std::to_string(std::int64_t(expected)) +
                " edges expected, but the HW3 header stores E as int32 (at most 2147483647)");

  // Each ordered pair is an edge when a 64-bit draw falls under p * 2^64 (exact, integer).
  const std::uint64_t threshold =
      config.density >= 1.0 ? ~0ull : std::uint64_t(std::ldexp(config.density, 64));
  SplitMix64 rng{config.seed};
  AtomicOutputFile out(path);
  std::int32_t header[2] = {config.vertices, 0};
  out.write(header, sizeof header);
  std::vector<Hw3Edge> buffer;
  buffer.reserve(1 << 16);
  std::int64_t edges = 0;
  // Density 0 draws nothing: no need to visit V^2 pairs (V = 2^31 - 1 would take days).
  for (std::int32_t i = 0; i < config.vertices && config.density > 0; ++i) {
    for (std::int32_t j = 0; j < config.vertices; ++j) {
      if (i == j) continue;
      if (config.density < 1.0 && rng.next() >= threshold) continue;
      buffer.push_back({i, j, std::int32_t(rng.below(std::uint32_t(config.max_weight) + 1))});
      if (buffer.size() == buffer.capacity()) {
        out.write(buffer.data(), buffer.size() * sizeof(Hw3Edge));
        edges += std::int64_t(buffer.size());
        buffer.clear();
      }
    }
    if (edges + std::int64_t(buffer.size()) > INT32_MAX)
      throw Error("generate: more than 2147483647 edges; the HW3 header stores E as int32");
  }
  out.write(buffer.data(), buffer.size() * sizeof(Hw3Edge));
  edges += std::int64_t(buffer.size());
  header[1] = std::int32_t(edges);
  out.write_at(0, header, sizeof header);
  out.commit();
  return edges;
}

}  // namespace apsp
