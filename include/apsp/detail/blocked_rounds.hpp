// The round loop of blocked Floyd-Warshall over the tile rows one process holds, and the choice
// of a tile shape. One process and many processes run this same loop; they differ only in how
// the pivot row panel of a round reaches the kernels (the `Exchange`):
//   - SharedPivotRows (one process): the pivot rows are rows of the local matrix;
//   - PivotRowsExchange (row_block_rounds.hpp): the owner broadcasts them to every rank.
#pragma once

#include <apsp/detail/blocked_kernels.hpp>
#include <apsp/detail/index_ranges.hpp>
#include <apsp/detail/tile_shapes.hpp>
#include <apsp/error.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace apsp {
namespace detail {

template <class ExecSpace, class Shape, class T = int>
std::size_t scratch_bytes() {
  using types = KernelTypes<ExecSpace, Shape, T>;
  const std::size_t panels = types::panel_scratch(), chunks = types::chunk_scratch();
  return panels > chunks ? panels : chunks;
}

// Whether the device of ExecSpace can run a shape: scratch pad and team size.
template <class ExecSpace, class Shape, class T = int>
bool shape_fits(const ExecSpace& exec) {
  using types = KernelTypes<ExecSpace, Shape, T>;
  const int level = ShapeTable<ExecSpace, T>::scratch_level;
  if (scratch_bytes<ExecSpace, Shape, T>() > std::size_t(types::policy::scratch_size_max(level)))
    return false;
  RemainingTiles<ExecSpace, Shape, PlainRelaxation<T>> rest{nullptr, nullptr, RoundGeometry{}};
  PivotPanels<ExecSpace, Shape, PlainRelaxation<T>> panels{nullptr, nullptr, RoundGeometry{}, true};
  const typename types::tiles_policy tiles(exec, 1, Kokkos::AUTO);
  const typename types::closure_policy closures(exec, 1, Kokkos::AUTO);
  return Shape::team_size <= tiles.team_size_max(rest, Kokkos::ParallelForTag()) &&
         types::closure_threads <= closures.team_size_max(panels, Kokkos::ParallelForTag());
}

// Calls f(Shape{}) for the shape at `index` of the list (none: a type this build does not
// compile, CompiledShapes).
template <class F>
void visit_shape(ShapeList<>, int, F&&) {}
template <class F, class Shape, class... Rest>
void visit_shape(ShapeList<Shape, Rest...>, int index, F&& f) {
  if (index == 0) {
    f(Shape{});
  } else if constexpr (sizeof...(Rest) > 0) {
    visit_shape(ShapeList<Rest...>{}, index - 1, std::forward<F>(f));
  }
}
template <class F, class... Shapes>
void for_each_shape(ShapeList<Shapes...>, F&& f) {
  int index = 0;
  (f(Shapes{}, index++), ...);
}

// Calls f(Relaxation<T, negative>{}): the arithmetic variant chosen at run time.
template <class T, class F>
void visit_relaxation(bool negative, F&& f) {
  if (negative)
    f(Relaxation<T, true>{});
  else
    f(Relaxation<T, false>{});
}

// Pivot rows of one process: the rows of the local matrix.
struct SharedPivotRows {
  template <class T>
  const T* operator()(T* local, const RoundGeometry& geo, int tile) const {
    return local + geo.tile_offset(geo.pivot - geo.first_tile, 0, tile);
  }
};

template <class ExecSpace, class Shape, class Relax = PlainRelaxation<>>
class BlockedRounds {
 public:
  using T = typename Relax::value_type;
  static constexpr int B = Shape::tile;
  using types = KernelTypes<ExecSpace, Shape, T>;

  // local: local_tiles * B rows of N = tiles * B distances, row-major, on the device.
  BlockedRounds(const ExecSpace& exec, T* local, int first_tile, int local_tiles, int tiles)
      : exec_(exec), local_(local) {
    geo_.tiles = tiles;
    geo_.first_tile = first_tile;
    geo_.local_tiles = local_tiles;
    geo_.ld = std::int64_t(tiles) * B;
  }

  // Round r. exchange(local, geometry, tile) returns the pivot rows on the device, after the
  // owner's pivot tile and row panel are final.
  template <class Exchange>
  void round(int r, Exchange&& exchange) {
    remaining(r, close(r, std::forward<Exchange>(exchange)));
  }

  // Phases 1 and 2 of round r: the pivot tile (on its owner) and the panels. Returns the pivot
  // rows.
  template <class Exchange>
  const T* close(int r, Exchange&& exchange) {
    geo_.pivot = r;
    const bool owner = geo_.owns_pivot();
    const bool alone = geo_.local_tiles == geo_.tiles;
    using closures = typename types::closure_policy;
    const int closure = types::closure_threads;
    if (owner) {
      Kokkos::parallel_for("apsp::fw::pivot_tile", policy<closures>(1, closure),
                           PivotTile<ExecSpace, Shape, Relax>{local_, geo_});
      if (!alone && geo_.tiles > 1) {
        PivotPanels<ExecSpace, Shape, Relax> rows{local_, nullptr, geo_, true};
        Kokkos::parallel_for("apsp::fw::pivot_row_panel",
                             policy<closures>(rows.league_size(false), closure), rows);
      }
    }
    const T* pivot_rows = exchange(local_, geo_, B);
    if (geo_.tiles == 1) return pivot_rows;
    // With one process the row and column panels go in one launch.
    PivotPanels<ExecSpace, Shape, Relax> panels{local_, pivot_rows, geo_, alone};
    if (panels.league_size(true) > 0)
      Kokkos::parallel_for("apsp::fw::pivot_panels",
                           policy<closures>(panels.league_size(true), closure), panels);
    return pivot_rows;
  }

  using Remaining = RemainingTiles<ExecSpace, Shape, typename Relax::product>;
  using Part = typename Remaining::Part;

  // Phase 3 of round r, or the part of it given, once the panels are final. A league is an int
  // (and on CUDA at most 2^31 - 1 blocks): a part of more teams goes in launches of whole rows.
  void remaining(int r, const T* pivot_rows, Part part = Part::all) {
    geo_.pivot = r;
    Remaining rest{local_, pivot_rows, geo_, part};
    const char* label =
        part == Part::next_cross ? "apsp::fw::next_cross" : "apsp::fw::remaining_tiles";
    if (part == Part::next_cross) {
      if (rest.teams() > 0)
        Kokkos::parallel_for(
            label, policy<typename types::tiles_policy>(int(rest.teams()), Shape::team_size), rest);
      return;
    }
    for (int first = 0; first < rest.rows(); first += rest.rows_per_launch()) {
      rest.first_row = first;
      const int rows = std::min(rest.rows_per_launch(), rest.rows() - first);
      Kokkos::parallel_for(
          label, policy<typename types::tiles_policy>(rows * rest.row_teams(), Shape::team_size),
          rest);
    }
  }

 private:
  template <class Policy>
  Policy policy(int league, int team) const {
    return Policy(exec_, league, team)
        .set_scratch_size(ShapeTable<ExecSpace, T>::scratch_level,
                          Kokkos::PerTeam(scratch_bytes<ExecSpace, Shape, T>()));
  }

  ExecSpace exec_;
  T* local_;
  RoundGeometry geo_;
};

}  // namespace detail
}  // namespace apsp
