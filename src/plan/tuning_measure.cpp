// apsp tune (src/plan/tuning.hpp): every shape of the backend's table, timed on this device.
#include <apsp/floyd_warshall.hpp>

#include "plan/device_choices.hpp"
#include "plan/tuning.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp {
namespace {

// About 8 edges a vertex, weights 0..1000 (Floyd-Warshall's time does not depend on them).
std::vector<Edge> random_edges(std::int64_t vertices) {
  std::vector<Edge> edges;
  std::uint64_t x = 0x9e3779b97f4a7c15ull + std::uint64_t(vertices);
  for (std::int64_t e = 0; e < 8 * vertices; ++e) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    edges.push_back({std::int32_t(x % std::uint64_t(vertices)),
                     std::int32_t((x >> 20) % std::uint64_t(vertices)),
                     std::int32_t((x >> 40) % 1001)});
  }
  return edges;
}

// V^3 / seconds of shape `index` at V = vertices in distances of type T: a warm-up solve, then
// the median of `runs`.
template <class T, class ExecSpace>
double measure(const ExecSpace& exec, int index, std::int64_t vertices, int runs) {
  ShapeRequest request;
  request.shape = index;
  const Plan plan = make_plan<T>(exec, vertices, false, request);
  const std::int64_t n = plan.padded;
  const std::uint64_t needed = matrix_bytes(n, n, sizeof(T));
  const std::uint64_t usable = detail::usable_memory(exec, 0);
  if (needed > usable)
    throw Error("V = " + std::to_string(vertices) + " needs " + detail::size_text(needed) + " on " +
                describe_device(exec) + ", but only " + detail::size_text(usable) +
                " are free: choose smaller --sizes");
  DistanceMatrix<ExecSpace, T> dist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::tune::dist"), n, n);
  fill_distance_matrix(exec, dist, random_edges(vertices));
  floyd_warshall(exec, dist, plan);
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    exec.fence();
    Kokkos::Timer timer;
    floyd_warshall(exec, dist, plan);
    exec.fence();
    seconds.push_back(timer.seconds());
  }
  std::sort(seconds.begin(), seconds.end());
  const double v = double(vertices);
  return v * v * v / seconds[seconds.size() / 2];
}

template <class ExecSpace>
TuneResult tune_on(const ExecSpace& exec, const TuneConfig& config,
                   const std::function<void(const TuneRow&)>& report) {
  detail::ScopedRegion region("apsp::tune");
  TuneResult result;
  result.key = detail::tuning_key(exec, config.dtype);
  result.cache = config.cache.empty() ? tuning_cache_path() : config.cache;
  std::vector<std::int64_t> sizes = config.sizes;
  if (sizes.empty())
    sizes = detail::host_memory<ExecSpace> ? std::vector<std::int64_t>{512, 1024, 2048}
                                           : std::vector<std::int64_t>{4096, 8192, 16384};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::vector<ShapeChoice> shapes = available_shapes(exec, config.dtype);
  if (shapes.empty())
    throw Error(std::string("no tile shape fits the scratch pad of ") + ExecSpace::name());
  int largest_tile = 0;
  for (const ShapeChoice& shape : shapes)
    largest_tile = std::max(largest_tile, shape.tile);
  const std::int64_t smallest = min_tune_vertices(largest_tile);
  if (sizes.front() < smallest)
    throw Error("V = " + std::to_string(sizes.front()) + " is too small to time the shapes of " +
                describe_device(exec) + " (a solve takes microseconds, and padding to the " +
                std::to_string(largest_tile) + "-wide tile decides): choose sizes of at least " +
                std::to_string(smallest));
  std::vector<double> previous(shapes.size(), 0);
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const double previous_best = *std::max_element(previous.begin(), previous.end());
    std::vector<TuneRow> rows;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      TuneRow row{sizes[s], shapes[i].index, shapes[i].name, 0, i == 0, false};
      if (s == 0 || previous[i] >= previous_best / 2)
        row.rate = visit_distance_type(config.dtype, [&](auto t) {
          return measure<decltype(t)>(exec, shapes[i].index, sizes[s], std::max(1, config.runs));
        });
      previous[i] = row.rate;
      rows.push_back(row);
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < rows.size(); ++i)
      if (rows[i].rate > rows[best].rate) best = i;
    if (rows[0].rate >= 0.98 * rows[best].rate) best = 0;
    rows[best].chosen = true;
    TunedShape entry;
    entry.key = result.key;
    entry.measured_vertices = sizes[s];
    const VertexRange near = tuned_range(sizes[s]);
    entry.min_vertices =
        s == 0 ? near.min
               : std::max(near.min,
                          std::int64_t(std::sqrt(double(sizes[s - 1]) * double(sizes[s]))) + 1);
    entry.max_vertices =
        s + 1 == sizes.size()
            ? near.max
            : std::min(near.max, std::int64_t(std::sqrt(double(sizes[s]) * double(sizes[s + 1]))));
    entry.shape = shapes[best].params;
    entry.rate = rows[best].rate;
    entry.default_rate = rows[0].rate;
    result.entries.push_back(entry);
    for (const TuneRow& row : rows) {
      if (report) report(row);
      result.rows.push_back(row);
    }
  }
  store_tuning(result.cache, result.entries);
  return result;
}

}  // namespace

TuneResult tune(const TuneConfig& config, const std::function<void(const TuneRow&)>& report) {
  TuneResult result;
  with_backend(config.backend, [&](auto exec) { result = tune_on(exec, config, report); });
  return result;
}

}  // namespace apsp
