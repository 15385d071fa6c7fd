// Helpers of the library's sources that touch the device: memory, the record of a run, the
// tuning key, the kernels' warm-up and the download of device rows through pinned buffers.
#pragma once

#include <apsp/backends.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/plan.hpp>
#include <apsp/solve.hpp>
#include <apsp/tuning.hpp>

#include "io_support.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

// Bytes a run may allocate on the backend: what is free, capped by --max-memory.
template <class ExecSpace>
std::uint64_t usable_memory(const ExecSpace& exec, std::uint64_t max_memory) {
  const std::uint64_t free_bytes = available_memory(exec);
  return max_memory > 0 && max_memory < free_bytes ? max_memory : free_bytes;
}

// The record of a run, with what describes the backend filled in.
template <class ExecSpace>
SolveStats stats_of(const ExecSpace& exec) {
  SolveStats stats;
  stats.backend = backend_name<ExecSpace>();
  stats.device = describe_device(exec);
  stats.concurrency = exec.concurrency();
  return stats;
}

// What a tuned shape must have been measured for to apply here (tuning.hpp).
template <class ExecSpace>
TuningKey tuning_key(const ExecSpace& exec, DistanceType type = DistanceType::int32) {
  TuningKey key;
  key.backend = backend_name<ExecSpace>();
  key.device = describe_device(exec);
  key.isa = device_isa(exec);
  key.concurrency = exec.concurrency();
  key.dtype = distance_type_name(type);
  key.table =
      visit_distance_type(type, [](auto t) { return shape_table_hash<ExecSpace, decltype(t)>(); });
  return key;
}

// The plan's tile shape (of its distance type), by the one rule of every driver (the command
// line, the Python module): the user's --tile or --shape; else the shape that `apsp tune`
// measured fastest on this device for this V, where V lies within a factor of 2 of a size it
// measured (tuned_range in tuning.hpp); else the table's first that fits. Prints nothing: returns
// what the caller should warn about ("" when all is well), e.g. a cache that cannot be used.
template <class ExecSpace>
[[nodiscard]] std::string choose_planned_shape(const ExecSpace& exec, const ShapeRequest& request,
                                               Plan& plan) {
  std::string warning;
  if (request.any() && tuning_enabled(&warning)) {
    const std::vector<TunedShape> cache = read_tuning_cache(tuning_cache_path(), warning);
    const TunedShape* tuned =
        find_tuned_shape(cache, tuning_key(exec, plan.distance), plan.vertices, warning);
    if (tuned) {
      for (const ShapeChoice& shape : available_shapes(exec, plan.distance))
        if (shape.params == tuned->shape) {
          plan.shape = shape;
          plan.shape_source = "tuned";
          return warning;
        }
      warning = "ignoring the tuned shape for V = " + std::to_string(plan.vertices) +
                ": this device cannot run it (run apsp tune again)";
    }
  }
  plan.shape = choose_shape(exec, request, plan.distance);
  plan.shape_source = request.any() ? "table" : "user";
  return warning;
}

// Runs every kernel once on a two-tile matrix, so that a timed solve does not include what
// only the first launch pays (lazy module loading on CUDA, first touch of scratch pools).
// The kernels of the plan: its shape, its type T (plan.distance) and its arithmetic
// (plan.negative_weights).
template <class ExecSpace, class T = int>
void warm_up(const ExecSpace& exec, const Plan& plan) {
  Plan two_tiles = plan;
  two_tiles.vertices = two_tiles.padded = 2 * std::int64_t(plan.shape.tile);
  DistanceMatrix<ExecSpace, T> dist("apsp::warm_up", two_tiles.padded, two_tiles.padded);
  fill_distance_matrix(exec, dist, std::vector<Edge>{});
  floyd_warshall(exec, dist, two_tiles);
}

// Hands rows [0, count) of `rows` to write_row(i, data) in order, data pointing at the row on
// the host. On a host backend straight from the matrix; on a device through two pinned
// buffers, so that copying one chunk overlaps writing the previous one. Adds the time spent
// waiting for copies to download_s and the time in write_row to write_s.
template <class ExecSpace, class T, class WriteRow>
void download_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                   std::int64_t count, WriteRow&& write_row, double& download_s, double& write_s) {
  ScopedRegion region("apsp::download_rows");
  const std::int64_t n = rows.extent(1);
  if (count <= 0) return;
  if constexpr (host_memory<ExecSpace>) {
    const auto start = Clock::now();
    for (std::int64_t i = 0; i < count; ++i)
      write_row(i, rows.data() + i * n);
    write_s += seconds_since(start);
  } else {
    using Staging = Kokkos::View<T**, Kokkos::LayoutRight, typename StagingSpace<ExecSpace>::type>;
    const std::int64_t chunk = std::max<std::int64_t>(
        1, std::min<std::int64_t>(count, (64 << 20) / (n * std::int64_t(sizeof(T)))));
    Staging buffers[2] = {
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging0"), chunk, n),
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging1"), chunk, n)};
    const auto copy_chunk = [&](std::int64_t from, int buffer) {
      const std::int64_t to = std::min(count, from + chunk);
      Kokkos::deep_copy(
          exec,
          Kokkos::subview(buffers[buffer], std::make_pair(std::int64_t(0), to - from), Kokkos::ALL),
          Kokkos::subview(rows, std::make_pair(from, to), Kokkos::ALL));
    };
    copy_chunk(0, 0);
    int current = 0;
    for (std::int64_t from = 0; from < count; from += chunk) {
      auto start = Clock::now();
      exec.fence();  // chunk `from` is in buffers[current]
      download_s += seconds_since(start);
      if (from + chunk < count) copy_chunk(from + chunk, 1 - current);
      start = Clock::now();
      for (std::int64_t i = from; i < std::min(count, from + chunk); ++i)
        write_row(i, &buffers[current](i - from, 0));
      write_s += seconds_since(start);
      current = 1 - current;
    }
  }
}

}  // namespace detail
}  // namespace apsp
