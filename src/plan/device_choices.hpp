// Helpers of the application's sources that touch the device: the record of a run, the tuning
// key, the planned shape and the dense plan.
#pragma once

#include <apsp/detail/region.hpp>
#include <apsp/error.hpp>
#include <apsp/plan.hpp>
#include <apsp/shapes.hpp>
#include <apsp/solver.hpp>

#include "io/posix_files.hpp"
#include "plan/stats.hpp"
#include "plan/tuning.hpp"
#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

// Bytes a run may allocate on the backend: what is free, capped by `cap` (0: no cap).
template <class ExecSpace>
std::uint64_t usable_memory(const ExecSpace& exec, std::uint64_t cap) {
  const std::uint64_t free_bytes = available_memory(exec);
  return cap > 0 && cap < free_bytes ? cap : free_bytes;
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

}  // namespace detail

// The dense Floyd-Warshall plan of V vertices in `type`, the plan for a type of every driver:
// the shape of choose_planned_shape (the tuned one where the cache has one for this device and
// V), padded to it. plan_run (run_plan.hpp) starts from it; the Python module's dense matrices
// are solved on it. `warning`: choose_planned_shape's.
template <class ExecSpace>
Plan dense_plan(const ExecSpace& exec, std::int64_t vertices, bool negative,
                const ShapeRequest& request, DistanceType type, std::string& warning) {
  Plan plan = make_plan(exec, type, vertices, negative, request);
  warning = detail::choose_planned_shape(exec, request, plan);
  plan.padded = padded_size(vertices, plan.shape);
  return plan;
}

}  // namespace apsp
