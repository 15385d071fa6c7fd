#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include "io/generate.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>
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

// Undirected edges {src, dst}, src < dst, written as the two arcs src -> dst and dst -> src.
void write_both_directions(const std::vector<Hw3Edge>& undirected, std::int32_t vertices,
                           const std::string& path) {
  if (2 * std::int64_t(undirected.size()) > INT32_MAX)
    throw Error("generate: more than 2147483647 edges; the HW3 header stores E as int32");
  std::vector<Hw3Edge> arcs;
  arcs.reserve(2 * undirected.size());
  for (const Hw3Edge& e : undirected) {
    arcs.push_back({e.src, e.dst, e.weight});
    arcs.push_back({e.dst, e.src, e.weight});
  }
  AtomicOutputFile out(path);
  const std::int32_t header[2] = {vertices, std::int32_t(arcs.size())};
  out.write(header, sizeof header);
  out.write(arcs.data(), arcs.size() * sizeof(Hw3Edge));
  out.commit();
}

std::int64_t generate_grid(const GenerateConfig& config, const std::string& path) {
  const std::int32_t v = config.vertices;
  std::int32_t columns = std::int32_t(std::sqrt(double(v)));
  while (std::int64_t(columns) * columns < v)
    ++columns;
  while (columns > 1 && std::int64_t(columns - 1) * (columns - 1) >= v)
    --columns;
  SplitMix64 rng{config.seed};
  std::vector<Hw3Edge> edges;
  edges.reserve(2 * std::size_t(v));
  for (std::int32_t id = 0; id < v; ++id) {
    const std::int32_t column = id % columns;
    const std::int64_t neighbours[2] = {column + 1 < columns ? std::int64_t(id) + 1 : v,
                                        std::int64_t(id) + columns};  // right, down
    for (const std::int64_t n : neighbours) {
      if (n >= v) continue;
      if (rng.below(100) < 8) continue;  // deleted
      edges.push_back({id, std::int32_t(n), std::int32_t(1 + rng.below(100))});
    }
  }
  write_both_directions(edges, v, path);
  return 2 * std::int64_t(edges.size());
}

// Points on a 2^20 x 2^20 integer lattice; squared distances are exact in 64 bits.
struct Point {
  std::int64_t x, y;
};

std::int64_t squared_distance(const Point& a, const Point& b) {
  return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
}

// The k nearest other points of every point (ties by index), by buckets of about two points
// searched in growing square rings: O(V k) for uniform points.
std::vector<std::vector<std::int32_t>> nearest_neighbours(const std::vector<Point>& points, int k) {
  constexpr std::int64_t side = std::int64_t(1) << 20;
  const std::int64_t n = std::int64_t(points.size());
  const std::int64_t cells = std::max<std::int64_t>(1, std::int64_t(std::sqrt(double(n) / 2)));
  const std::int64_t cell_width = (side + cells - 1) / cells;
  std::vector<std::int32_t> bucket_start(std::size_t(cells * cells) + 1, 0), order(points.size());
  auto cell_of = [&](const Point& p) { return (p.y / cell_width) * cells + p.x / cell_width; };
  for (const Point& p : points)
    ++bucket_start[std::size_t(cell_of(p)) + 1];
  std::partial_sum(bucket_start.begin(), bucket_start.end(), bucket_start.begin());
  {
    std::vector<std::int32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (std::int32_t i = 0; i < std::int32_t(n); ++i)
      order[std::size_t(fill[std::size_t(cell_of(points[std::size_t(i)]))]++)] = i;
  }
  std::vector<std::vector<std::int32_t>> result(points.size());
  std::vector<std::pair<std::int64_t, std::int32_t>> found;
  for (std::int32_t i = 0; i < std::int32_t(n); ++i) {
    const Point& p = points[std::size_t(i)];
    const std::int64_t cx = p.x / cell_width, cy = p.y / cell_width;
    found.clear();
    for (std::int64_t ring = 0;; ++ring) {
      for (std::int64_t y = cy - ring; y <= cy + ring; ++y)
        for (std::int64_t x = cx - ring; x <= cx + ring; ++x) {
          if (std::max(std::abs(x - cx), std::abs(y - cy)) != ring) continue;
          if (x < 0 || y < 0 || x >= cells || y >= cells) continue;
          const std::size_t cell = std::size_t(y * cells + x);
          for (std::int32_t a = bucket_start[cell]; a < bucket_start[cell + 1]; ++a) {
            const std::int32_t j = order[std::size_t(a)];
            if (j != i) found.push_back({squared_distance(p, points[std::size_t(j)]), j});
          }
        }
      // Every point outside the rings searched is farther than ring * cell_width.
      const std::int64_t reach = ring * cell_width;
      const bool all_cells = ring >= cells;
      if (std::int64_t(found.size()) >= k || all_cells) {
        std::sort(found.begin(), found.end());
        if (all_cells || found[std::size_t(k - 1)].first <= reach * reach) break;
      }
    }
    for (std::size_t a = 0; a < found.size() && a < std::size_t(k); ++a)
      result[std::size_t(i)].push_back(found[a].second);
  }
  return result;
}

struct DisjointSets {
  std::vector<std::int32_t> parent;
  explicit DisjointSets(std::int32_t n) : parent(std::size_t(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  std::int32_t find(std::int32_t a) {
    while (parent[std::size_t(a)] != a)
      a = parent[std::size_t(a)] = parent[std::size_t(parent[std::size_t(a)])];
    return a;
  }
  bool join(std::int32_t a, std::int32_t b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent[std::size_t(std::max(a, b))] = std::min(a, b);
    return true;
  }
};

std::int64_t generate_road(const GenerateConfig& config, const std::string& path) {
  constexpr int candidates = 6, extra_neighbours = 3;
  const std::int32_t v = config.vertices;
  SplitMix64 rng{config.seed};
  std::vector<Point> points(static_cast<std::size_t>(v));
  for (Point& p : points) {
    p.x = rng.below(1u << 20);
    p.y = rng.below(1u << 20);
  }
  const auto neighbours = nearest_neighbours(points, candidates);
  struct Candidate {
    std::int64_t d2;
    std::int32_t u, v;
    bool near;  // v is among u's extra_neighbours nearest, or u among v's
  };
  std::vector<Candidate> all;
  all.reserve(std::size_t(v) * candidates);
  for (std::int32_t i = 0; i < v; ++i)
    for (std::size_t r = 0; r < neighbours[std::size_t(i)].size(); ++r) {
      const std::int32_t j = neighbours[std::size_t(i)][r];
      all.push_back({squared_distance(points[std::size_t(i)], points[std::size_t(j)]),
                     std::min(i, j), std::max(i, j), r < std::size_t(extra_neighbours)});
    }
  std::sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.d2, a.u, a.v, b.near) < std::tie(b.d2, b.u, b.v, a.near);
  });
  // One entry per pair (the first sorts `near` first).
  all.erase(
      std::unique(all.begin(), all.end(),
                  [](const Candidate& a, const Candidate& b) { return a.u == b.u && a.v == b.v; }),
      all.end());
  DisjointSets sets(v);
  std::vector<Candidate> kept;
  for (const Candidate& c : all) {
    const bool tree = sets.join(c.u, c.v);
    // One draw per candidate, kept or not, so that the choice depends on the seed alone.
    const bool extra = rng.below(2) == 0 && c.near;
    if (tree || extra) kept.push_back(c);
  }
  double longest = 0;
  for (const Candidate& c : kept)
    longest = std::max(longest, std::sqrt(double(c.d2)));
  std::vector<Hw3Edge> edges;
  edges.reserve(kept.size());
  for (const Candidate& c : kept) {
    const double scaled = 1000.0 * std::sqrt(double(c.d2)) / longest;
    edges.push_back({c.u, c.v, std::int32_t(std::max(1.0, std::min(1000.0, std::round(scaled))))});
  }
  std::sort(edges.begin(), edges.end(), [](const Hw3Edge& a, const Hw3Edge& b) {
    return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
  });
  write_both_directions(edges, v, path);
  return 2 * std::int64_t(edges.size());
}

}  // namespace

std::optional<GraphClass> graph_class_named(const std::string& name) {
  if (name == "random") return GraphClass::random;
  if (name == "grid") return GraphClass::grid;
  if (name == "road") return GraphClass::road;
  return std::nullopt;
}

std::int64_t generate_hw3(const GenerateConfig& config, const std::string& path) {
  if (config.vertices <= 0)
    throw Error("generate: --vertices must be at least 1, got " + std::to_string(config.vertices));
  if (config.graph_class == GraphClass::grid) return generate_grid(config, path);
  if (config.graph_class == GraphClass::road) return generate_road(config, path);
  if (!(config.density >= 0.0 && config.density <= 1.0))
    throw Error("generate: --density must be in [0, 1]");
  if (config.max_weight < 0 || config.max_weight > hw3_max_weight)
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
