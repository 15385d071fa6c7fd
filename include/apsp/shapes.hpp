// The tile shapes a device runs, and the plans made with them.
//
// Which shapes of the backend's table (detail/tile_shapes.hpp) a device runs depends on the
// kernels themselves (their scratch and the team size the device allows them), so these functions
// include the kernels; the plan they make (plan.hpp) does not. make_plan is typed on the distance
// type, which picks the table and is recorded in the plan:
//
//   const apsp::Plan plan = apsp::make_plan<float>(exec, graph.vertices);
//   apsp::DistanceMatrix<Exec, float> dist("dist", plan.padded, plan.padded);
#pragma once

#include <apsp/config.hpp>
#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/tile_shapes.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/plan.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

// Tile sizes of the backend's table for distances of type T that this device can run, best
// first.
template <class ExecSpace, class T = int>
std::vector<ShapeChoice> available_shapes(const ExecSpace& exec) {
  if (!distance_type_compiled<T>) throw distance_type_not_compiled(Distance<T>::type);
  std::vector<ShapeChoice> shapes;
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace, T>::type{}, [&](auto shape, int i) {
    using Shape = decltype(shape);
    if (detail::shape_fits<ExecSpace, Shape, T>(exec))
      shapes.push_back(ShapeChoice{i, Shape::tile, Shape::name(),
                                   ShapeParams{Shape::tile, Shape::team_rows, Shape::team_cols,
                                               Shape::reg_rows, Shape::reg_cols, Shape::k_chunk}});
  });
  return shapes;
}
template <class ExecSpace>
std::vector<ShapeChoice> available_shapes(const ExecSpace& exec, DistanceType type) {
  return visit_distance_type(
      type, [&](auto t) { return available_shapes<ExecSpace, decltype(t)>(exec); });
}

// A hash (FNV-1a, hex) of the backend's compiled table: every shape, runnable here or not, and
// its scratch level, for distances of type T. A cache of measured shapes written for another
// table is stale.
template <class ExecSpace, class T = int>
std::string shape_table_hash() {
  std::string all = std::to_string(detail::ShapeTable<ExecSpace, T>::scratch_level);
  detail::for_each_shape(typename detail::ShapeTable<ExecSpace, T>::type{},
                         [&](auto shape, int) { all += ";" + decltype(shape)::name(); });
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : all)
    hash = (hash ^ c) * 1099511628211ull;
  std::string text;
  for (int shift = 60; shift >= 0; shift -= 4)
    text += "0123456789abcdef"[(hash >> shift) & 15];
  return text;
}

namespace detail {
// Whether the backend's whole table for T has the requested shape, compiled into this build or
// not (CompiledShapes, detail/tile_shapes.hpp).
template <class ExecSpace, class T>
bool in_full_table(const ShapeRequest& request) {
  bool found = false;
  for_each_shape(typename ShapeTable<ExecSpace, T>::full{}, [&](auto shape, int i) {
    if (request.shape >= 0 ? request.shape == i : request.tile == decltype(shape)::tile)
      found = true;
  });
  return found;
}
}  // namespace detail

// The requested shape, or the table's first that this device runs.
template <class ExecSpace>
ShapeChoice choose_shape(const ExecSpace& exec, const ShapeRequest& request = {},
                         DistanceType type = DistanceType::int32) {
  const auto shapes = available_shapes(exec, type);
  std::string sizes;
  for (const auto& s : shapes) {
    if (request.shape >= 0 ? request.shape == s.index : request.tile == 0 || request.tile == s.tile)
      return s;
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(s.tile);
  }
  if (shapes.empty())
    throw UnavailableError(std::string("no tile shape fits the scratch pad of ") +
                           ExecSpace::name());
#if defined(APSP_MINIMAL_INSTANTIATIONS)
  if (visit_distance_type(
          type, [&](auto t) { return detail::in_full_table<ExecSpace, decltype(t)>(request); }))
    throw ShapeError((request.shape >= 0 ? "shape " + std::to_string(request.shape)
                                         : "tile size " + std::to_string(request.tile)) +
                     " of " + ExecSpace::name() +
                     "'s table is not compiled into this build (APSP_CHECK_INSTANTIATIONS=minimal: "
                     "its first shape only, tile " +
                     std::to_string(shapes.front().tile) + ")");
#endif
  if (request.shape >= 0)
    throw ShapeError("shape " + std::to_string(request.shape) + " is not available on " +
                     ExecSpace::name());
  throw ShapeError("tile size " + std::to_string(request.tile) + " is not available on " +
                   ExecSpace::name() + " (available: " + sizes + ")");
}

// A Floyd-Warshall plan for V vertices whose distances are of type `type` (a file's or a caller's
// choice at run time), on this device: the requested shape or the table's first that this device
// runs for that type. A matrix of another type refuses the plan.
template <class ExecSpace>
Plan make_plan(const ExecSpace& exec, DistanceType type, std::int64_t vertices,
               bool negative_weights = false, const ShapeRequest& request = {}) {
  Plan plan;
  plan.vertices = vertices;
  plan.distance = type;
  plan.shape = choose_shape(exec, request, type);
  plan.shape_source = request.any() ? "table" : "user";
  plan.padded = padded_size(vertices, plan.shape);
  plan.negative_weights = negative_weights;
  return plan;
}

// The same for distances of type T, named in the call: there is no default type, whose plan a
// matrix of another type would refuse only at run time.
//
//   const apsp::Plan plan = apsp::make_plan<double>(exec, graph.vertices);
template <class T, class ExecSpace>
Plan make_plan(const ExecSpace& exec, std::int64_t vertices, bool negative_weights = false,
               const ShapeRequest& request = {}) {
  return make_plan(exec, Distance<T>::type, vertices, negative_weights, request);
}

}  // namespace apsp
