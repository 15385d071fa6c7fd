// Supernodal Floyd-Warshall: all-pairs shortest paths of a sparse graph at the cost of its
// structure (Sao, Kannan, Gera, Vuduc, "A supernodal all-pairs shortest path algorithm",
// PPoPP 2020). Floyd-Warshall is Gaussian elimination in the (min, +) semiring, so with a
// fill-reducing order (nested dissection) it needs only the blocks that sparse Cholesky's fill
// says can be finite. Three named phases, as in sparse direct solvers:
//
//   const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(graph.vertices, graph.edges, perm);
//   // plan.prediction: memory and work, before any numeric work
//   auto factor = apsp::supernodal_factor<T>(exec, plan, graph.edges, negative_weights);
//   if (factor.negative_cycle_vertex() >= 0) ...  // shortest paths undefined
//   apsp::DistanceMatrix<Exec, T> rows("rows", count, graph.vertices);
//   apsp::supernodal_rows(exec, factor, first, rows);  // rows [first, first + count)
//
//   1. symbolic (host, supernodal_symbolic.hpp): the elimination tree of the permuted
//      symmetrized structure, supernodes, their borders Bd(s), the factor's schedule, the
//      predictions;
//   2. factor: each supernode's front F = s u Bd(s) (its original edges and its children's
//      Schur complements) goes through one Floyd-Warshall round with pivot block s: closure of
//      A(s,s), the panels A(s,Bd), A(Bd,s), the Schur complement A(Bd,Bd). A(s,s), the panels
//      are kept; the Schur complement goes to the parent. The supernodes of one height in the
//      tree are independent, so the factor goes a level at a time: the level's small fronts
//      (SupernodalOptions::small_front) in one launch, a team each in scratch (SmallFronts,
//      detail/supernodal_kernels.hpp), then its other fronts one by one through the dense
//      blocked kernels (BlockedRounds on the front, padded to the tile). Small Schur
//      complements wait for their parent in one pool, the others in their front. Dense
//      Floyd-Warshall is the case of one supernode;
//   3. rows, by blocks of source rows: two sweeps over the factor (detail/supernodal_kernels.hpp)
//      give exact rows of the distance matrix, V x (factor size) work for all of them.
// SupernodalSolver (at the end) is the solve of the drivers: the factor, then every row by blocks
// into a RowSink, with predecessor rows (paths.hpp) from a second pass over the blocks.
// Rows come in the user's numbering (RowOrder::user) or the plan's (RowOrder::plan: row p is the
// user's vertex plan.perm[p], column q the user's plan.perm[q]). Negative weights take the
// kernels' signed variant (detail/blocked_kernels.hpp, "Negative weights"); a negative cycle shows
// as a negative diagonal of the factor (its highest vertex closes it there).
#pragma once

#include <apsp/config.hpp>
#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/supernodal_kernels.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>
#include <apsp/solver_interface.hpp>
#include <apsp/supernodal_symbolic.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace apsp {

// The numeric factor of a plan, on the device of ExecSpace, for distances of type T.
template <class ExecSpace, class T>
class SupernodalFactor {
 public:
  using memory_space = typename ExecSpace::memory_space;

  const SupernodalPlan& plan() const { return plan_; }
  bool negative_weights() const { return negative_; }
  // The smallest user vertex whose factor diagonal is negative (a negative cycle has its highest
  // vertex there), or -1.
  std::int64_t negative_cycle_vertex() const { return cycle_; }

  // Internals of the row sweeps.
  const detail::SupernodeViews<memory_space>& supernodes() const { return views_; }
  const Kokkos::View<T*, memory_space>& values() const { return values_; }
  const Kokkos::View<const std::int32_t*, memory_space>& position() const { return position_; }
  const Kokkos::View<const std::int32_t*, memory_space>& perm() const { return perm_; }

 private:
  template <class U, class E>
  friend SupernodalFactor<E, U> supernodal_factor(const E&, const SupernodalPlan&,
                                                  const std::vector<Edge>&, bool);
  template <class U, class E>
  friend SupernodalFactor<E, U> supernodal_factor_of(const E&, const SupernodalPlan&, const U*,
                                                     std::size_t, bool);
  // The plan's index arrays on the device, the values allocated (not set).
  void place(const ExecSpace& exec, const SupernodalPlan& plan, bool negative_weights);
  SupernodalPlan plan_;
  bool negative_ = false;
  std::int64_t cycle_ = -1;
  detail::SupernodeViews<memory_space> views_;
  Kokkos::View<T*, memory_space> values_;
  Kokkos::View<const std::int32_t*, memory_space> position_, perm_;
};

namespace detail {

template <class ExecSpace, class X>
Kokkos::View<const X*, typename ExecSpace::memory_space> to_device(const ExecSpace& exec,
                                                                   const std::vector<X>& host,
                                                                   const std::string& label) {
  Kokkos::View<X*, typename ExecSpace::memory_space> view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host.size());
  Kokkos::deep_copy(
      exec, view,
      Kokkos::View<const X*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          host.data(), host.size()));
  return view;
}

// The original edges of each front, in front coordinates, lightest of duplicates:
// (supernode, row, column) sorted, with the supernodes' offsets.
template <class T>
struct FrontEdges {
  std::vector<std::int64_t> start;
  std::vector<std::int32_t> at;  // row, column pairs
  std::vector<T> weight;
};

// The edges go to their supernode's bucket (a counting pass), then each bucket is sorted by
// position, then weight: small sorts instead of one of every edge.
template <class T>
FrontEdges<T> front_edges(const SupernodalPlan& plan, const std::vector<Edge>& edges) {
  const std::size_t supernodes = std::size_t(plan.supernodes());
  const auto local = [&](std::int32_t s, std::int32_t v) {
    if (v < plan.first[s + 1]) return v - plan.first[s];
    const auto b = plan.border.begin() + plan.border_start[s],
               e = plan.border.begin() + plan.border_start[s + 1];
    return plan.padded(plan.columns(s)) + std::int32_t(std::lower_bound(b, e, v) - b);
  };
  std::vector<std::int64_t> bucket(supernodes + 1, 0);
  std::vector<std::int32_t> owner(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::int32_t a = plan.position[std::size_t(edges[e].src)],
                       b = plan.position[std::size_t(edges[e].dst)];
    owner[e] = plan.supernode_of[std::size_t(std::min(a, b))];
    ++bucket[std::size_t(owner[e]) + 1];
  }
  for (std::size_t s = 0; s < supernodes; ++s)
    bucket[s + 1] += bucket[s];
  // (row << 32 | column, weight)
  std::vector<std::pair<std::uint64_t, double>> list(edges.size());
  std::vector<std::int64_t> next(bucket.begin(), bucket.end() - 1);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::int32_t s = owner[e];
    const std::uint64_t r = std::uint64_t(local(s, plan.position[std::size_t(edges[e].src)])),
                        c = std::uint64_t(local(s, plan.position[std::size_t(edges[e].dst)]));
    list[std::size_t(next[std::size_t(s)]++)] = {r << 32 | c, edges[e].weight};
  }
  FrontEdges<T> out;
  out.start.assign(supernodes + 1, 0);
  out.at.reserve(2 * edges.size());
  out.weight.reserve(edges.size());
  for (std::size_t s = 0; s < supernodes; ++s) {
    const auto from = list.begin() + bucket[s], to = list.begin() + bucket[s + 1];
    std::sort(from, to);
    for (auto i = from; i != to; ++i) {
      if (i != from && (i - 1)->first == i->first) continue;  // the first is the lightest
      out.at.push_back(std::int32_t(i->first >> 32));
      out.at.push_back(std::int32_t(i->first & 0xffffffffu));
      out.weight.push_back(T(i->second));
    }
    out.start[s + 1] = std::int64_t(out.weight.size());
  }
  return out;
}

// The index of the backend's tile shape of this tile (the blocked kernels' fronts are padded to
// the plan's tile). Throws ShapeError when there is none.
template <class ExecSpace, class T>
int front_shape_index(const ExecSpace& exec, int tile) {
  for (const ShapeChoice& shape : available_shapes<ExecSpace, T>(exec))
    if (shape.tile == tile) return shape.index;
  throw ShapeError("supernodal: no tile shape of " + std::to_string(tile) + " on " +
                   ExecSpace::name() + " for " + distance_type_name(Distance<T>::type) +
#if defined(APSP_MINIMAL_INSTANTIATIONS)
                   " (tile " + std::to_string(tile) +
                   " is not compiled into this build: APSP_CHECK_INSTANTIATIONS=minimal)"
#else
                   ""
#endif
  );
}

// The fronts of one factor on the device, closed in a schedule's order: each level's small fronts
// in one launch (SmallFronts) or two (those of at most `fast` vertices in the fast scratch, the
// others in level-1 scratch), then its large ones one at a time by the blocked kernels. A Schur
// complement waits for its parent in the pool (small borders) or in its own front; the large
// fronts that leave nothing in their front share one workspace.
template <class ExecSpace, class T>
class FactorFronts {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Front = Kokkos::View<T*, memory_space>;
  template <class X>
  using ids = Kokkos::View<const X*, memory_space>;

  // The schedule's and the plan's metadata go to the device at once, for every level.
  FactorFronts(const ExecSpace& exec, const SupernodalPlan& plan,
               const SupernodalSchedule& schedule, int fast, const std::vector<Edge>& edges,
               const SupernodeViews<memory_space>& views, T* values)
      : exec_(exec), plan_(plan), schedule_(schedule), views_(views), values_(values) {
    FrontEdges<T> host = front_edges<T>(plan, edges);
    edge_at_ = to_device(exec, host.at, "apsp::supernodal::edge_at");
    weight_ = to_device(exec, host.weight, "apsp::supernodal::edge_weight");
    relative_ = to_device(exec, plan.relative, "apsp::supernodal::relative");
    // Each level's small fronts, those of at most `fast` vertices first (fronts of one level are
    // independent: their order changes no value).
    std::vector<std::int32_t> small = schedule.small;
    for (std::int64_t h = 0; h < schedule.levels(); ++h) {
      const auto begin = small.begin() + schedule.small_start[std::size_t(h)],
                 end = small.begin() + schedule.small_start[std::size_t(h) + 1];
      const auto cut = std::stable_partition(begin, end, [&](std::int32_t s) {
        return plan.columns(s) + plan.border_size(s) <= fast;
      });
      Split split{schedule.small_start[std::size_t(h)] + (cut - begin), 0, 0};
      for (auto e = begin; e != end; ++e) {
        int& largest = e < cut ? split.fast_largest : split.slow_largest;
        largest = std::max(largest, plan.columns(*e) + plan.border_size(*e));
      }
      splits_.push_back(split);
    }
    small_ = to_device(exec, small, "apsp::supernodal::small");
    child_start_ = to_device(exec, plan.child_start, "apsp::supernodal::child_start");
    child_ = to_device(exec, plan.child, "apsp::supernodal::children");
    pool_offset_ = to_device(exec, plan.pool_offset, "apsp::supernodal::pool_at");
    edge_start_ = to_device(exec, host.start, "apsp::supernodal::edge_start");
    edge_start_host_ = std::move(host.start);
    pool_ = Front(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::pool"),
                  plan.prediction.pool_values);
    workspace_ =
        Front(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::workspace"),
              schedule.workspace * schedule.workspace);
    fronts_.resize(std::size_t(plan.supernodes()));
  }

  // Every front, level by level, with the blocked kernels of Shape and Relax's arithmetic.
  template <class Shape, class Relax>
  void close() {
    SmallFronts<ExecSpace, Relax> small = small_fronts<Relax>();
    for (std::int64_t h = 0; h < schedule_.levels(); ++h) {
      const Split& split = splits_[std::size_t(h)];
      small.from = schedule_.small_start[std::size_t(h)];
      small.level = small.fast_level;
      if (split.fast > small.from)
        small.launch(exec_, int(split.fast - small.from), split.fast_largest);
      small.from = split.fast;
      small.level = 1;
      if (schedule_.small_start[std::size_t(h) + 1] > split.fast)
        small.launch(exec_, int(schedule_.small_start[std::size_t(h) + 1] - split.fast),
                     split.slow_largest);
      for (std::int64_t e = schedule_.large_start[std::size_t(h)];
           e < schedule_.large_start[std::size_t(h) + 1]; ++e)
        close_large_front<Shape, Relax>(schedule_.large[std::size_t(e)]);
    }
  }

 private:
  // The small fronts' kernel, for any level (its range: SmallFronts::from and the count).
  template <class Relax>
  SmallFronts<ExecSpace, Relax> small_fronts() const {
    SmallFronts<ExecSpace, Relax> small;
    small.supernode = small_;
    small.tile = plan_.tile;
    small.first = views_.first;
    small.child_start = child_start_;
    small.child = child_;
    small.relative = relative_;
    small.edge_at = edge_at_;
    small.border_start = views_.border_start;
    small.values_start = views_.values_start;
    small.pool_offset = pool_offset_;
    small.edge_start = edge_start_;
    small.weight = weight_;
    small.values = values_;
    small.pool = pool_.data();
    return small;
  }

  // One large front: assembled, one Floyd-Warshall round per pivot tile of its columns, its
  // factor kept and its Schur complement placed for the parent.
  template <class Shape, class Relax>
  void close_large_front(std::int32_t s) {
    const int c = plan_.columns(s), b = plan_.border_size(s);
    const std::int64_t size = plan_.front_size(s), offset = plan_.padded(c);
    const Front front = assemble_front(s);
    const int tiles = int(size / Shape::tile);
    BlockedRounds<ExecSpace, Shape, Relax> rounds(exec_, front.data(), 0, tiles, tiles);
    for (int r = 0; r < offset / Shape::tile; ++r)
      rounds.round(r, SharedPivotRows{});
    keep_factor(exec_, front.data(), size, offset, c, b, values_ + plan_.values_start[s]);
    place_schur_complement(s, front);
  }

  // A front whose Schur complement is not pooled stays alive until its parent has added it.
  bool keeps_front(std::int32_t s) const { return !plan_.pooled(s) && plan_.border_size(s) > 0; }

  // The front of s: its own memory where it stays alive, else the workspace; its original edges,
  // then each child's Schur complement by extend-add (a kept child front is freed once added).
  Front assemble_front(std::int32_t s) {
    const std::int64_t size = plan_.front_size(s);
    const Front front =
        keeps_front(s)
            ? Front(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::front"),
                    size * size)
            : workspace_;
    assemble_edges(exec_, front.data(), size, edge_at_, weight_, edge_start_host_[s],
                   edge_start_host_[s + 1]);
    for (std::int32_t k = plan_.child_start[s]; k < plan_.child_start[s + 1]; ++k) {
      const std::int32_t child = plan_.child[std::size_t(k)];
      const std::int64_t child_border = plan_.border_size(child);
      if (plan_.pooled(child)) {
        extend_add(exec_, front.data(), size, pool_.data() + plan_.pool_offset[child], child_border,
                   0, relative_, plan_.border_start[child], child_border);
      } else {
        extend_add(exec_, front.data(), size, fronts_[std::size_t(child)].data(),
                   plan_.front_size(child), plan_.padded(plan_.columns(child)), relative_,
                   plan_.border_start[child], child_border);
        fronts_[std::size_t(child)] = Front();
      }
    }
    return front;
  }

  // The Schur complement of a closed front where its parent finds it: the front kept, or its
  // border block into the pool (a root has none).
  void place_schur_complement(std::int32_t s, const Front& front) {
    const int b = plan_.border_size(s);
    if (keeps_front(s))
      fronts_[std::size_t(s)] = front;
    else if (b > 0)
      schur_to_pool(exec_, front.data(), plan_.front_size(s), plan_.padded(plan_.columns(s)), b,
                    pool_.data() + plan_.pool_offset[s]);
  }

  // A level's small fronts: small_[small_start[h] .. fast) fit the fast scratch, the rest of
  // the level's do not; the largest of each part.
  struct Split {
    std::int64_t fast;
    int fast_largest, slow_largest;
  };

  ExecSpace exec_;
  const SupernodalPlan& plan_;
  const SupernodalSchedule& schedule_;
  std::vector<Split> splits_;  // per level
  SupernodeViews<memory_space> views_;
  T* values_;
  ids<std::int32_t> edge_at_, relative_, small_, child_start_, child_;
  ids<T> weight_;
  ids<std::int64_t> pool_offset_, edge_start_;
  std::vector<std::int64_t> edge_start_host_;
  Front pool_, workspace_;
  std::vector<Front> fronts_;  // the kept fronts, until their parent has added them
};

// The smallest user vertex of supernode s whose diagonal is negative, into `smallest` (a named
// functor, not KOKKOS_LAMBDA: detail/supernodal_kernels.hpp says why).
template <class MemorySpace, class T>
struct NegativeDiagonal {
  Kokkos::View<const std::int32_t*, MemorySpace> first;
  Kokkos::View<const std::int64_t*, MemorySpace> start;
  Kokkos::View<T*, MemorySpace> values;
  Kokkos::View<const std::int32_t*, MemorySpace> perm;
  KOKKOS_INLINE_FUNCTION void operator()(int s, std::int64_t& smallest) const {
    const int c = first(s + 1) - first(s), ldc = factor_ld(c);
    for (int k = 0; k < c; ++k)
      if (values(start(s) + std::int64_t(k) * ldc + k) < T(0) && perm(first(s) + k) < smallest)
        smallest = perm(first(s) + k);
  }
};

// The smallest user vertex whose factor diagonal is negative (a negative cycle has its highest
// vertex there), or -1.
template <class ExecSpace, class T>
std::int64_t negative_diagonal_vertex(
    const ExecSpace& exec, const SupernodalPlan& plan,
    const SupernodeViews<typename ExecSpace::memory_space>& views,
    const Kokkos::View<T*, typename ExecSpace::memory_space>& values,
    const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& perm) {
  const std::int64_t vertices = plan.vertices;
  std::int64_t found = vertices;
  Kokkos::parallel_reduce("apsp::supernodal::negative_cycle",
                          Kokkos::RangePolicy<ExecSpace>(exec, 0, int(plan.supernodes())),
                          NegativeDiagonal<typename ExecSpace::memory_space, T>{
                              views.first, views.values_start, values, perm},
                          Kokkos::Min<std::int64_t>(found));
  return found < vertices ? found : -1;
}

// The fronts that are small (closed a level at a time, a team each) on this device, and of them
// those its fast scratch holds (on GPUs on-chip, 40 KB a team with Kokkos 3.4): the others are
// closed in level-1 scratch.
template <class ExecSpace, class T>
struct FrontLimits {
  int small, fast;
  explicit FrontLimits(const SupernodalPlan& plan) {
    using Small = SmallFronts<ExecSpace, PlainRelaxation<T>>;
    small = std::min(plan.small_front, Small::largest_front(1));
    fast = std::min(small, Small::largest_front());
  }
};

// The largest small front that the fast scratch cannot hold, 0 if none.
template <class ExecSpace, class T>
int slow_front_largest(const SupernodalPlan& plan) {
  const FrontLimits<ExecSpace, T> limits(plan);
  int largest = 0;
  for (std::int64_t s = 0; s < plan.supernodes(); ++s) {
    const int front = plan.columns(s) + plan.border_size(s);
    if (front > limits.fast && front <= limits.small) largest = std::max(largest, front);
  }
  return largest;
}

}  // namespace detail

template <class ExecSpace, class T>
void SupernodalFactor<ExecSpace, T>::place(const ExecSpace& exec, const SupernodalPlan& plan,
                                           bool negative_weights) {
  plan_ = plan;
  negative_ = negative_weights;
  views_.first = detail::to_device(exec, plan.first, "apsp::supernodal::first");
  views_.subtree_first = detail::to_device(exec, plan.subtree_first, "apsp::supernodal::subtree");
  views_.border = detail::to_device(exec, plan.border, "apsp::supernodal::border");
  views_.border_start =
      detail::to_device(exec, plan.border_start, "apsp::supernodal::border_start");
  views_.values_start =
      detail::to_device(exec, plan.values_start, "apsp::supernodal::values_start");
  views_.supernode_of =
      detail::to_device(exec, plan.supernode_of, "apsp::supernodal::supernode_of");
  views_.parent = detail::to_device(exec, plan.parent, "apsp::supernodal::parent");
  views_.path_offset = detail::to_device(exec, plan.path_offset, "apsp::supernodal::path_offset");
  views_.border_path = detail::to_device(exec, plan.border_path, "apsp::supernodal::border_path");
  views_.supernodes = std::int32_t(plan.supernodes());
  position_ = detail::to_device(exec, plan.position, "apsp::supernodal::position");
  perm_ = detail::to_device(exec, plan.perm, "apsp::supernodal::perm");
  values_ = Kokkos::View<T*, memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::factor"),
      plan.values_start.empty() ? 0 : plan.values_start.back());
}

// The numeric factor (phase A). `edges` are the graph's (user numbering); negative_weights
// selects the signed arithmetic (required when some weight is negative). The fronts are closed
// with the backend's tile shape of plan.tile, in the plan's schedule, or where a team's scratch
// on this device holds fewer vertices than plan.small_front, in the schedule of what it holds.
// Throws apsp::Error when no shape has that tile.
template <class T, class ExecSpace>
SupernodalFactor<ExecSpace, T> supernodal_factor(const ExecSpace& exec, const SupernodalPlan& plan,
                                                 const std::vector<Edge>& edges,
                                                 bool negative_weights) {
  detail::ScopedRegion region("apsp::supernodal_factor");
  SupernodalFactor<ExecSpace, T> factor;
  factor.place(exec, plan, negative_weights);
  if (plan.supernodes() == 0) return factor;

  const int shape_index = detail::front_shape_index<ExecSpace, T>(exec, plan.tile);
  // A small front needs a team's scratch: the plan's schedule, or one for what the device holds.
  const detail::FrontLimits<ExecSpace, T> limits(plan);
  const SupernodalSchedule device_schedule = limits.small < plan.small_front
                                                 ? detail::front_schedule(plan, limits.small)
                                                 : SupernodalSchedule{};
  detail::FactorFronts<ExecSpace, T> fronts(
      exec, plan, limits.small < plan.small_front ? device_schedule : plan.schedule, limits.fast,
      edges, factor.views_, factor.values_.data());
  detail::visit_shape(typename detail::ShapeTable<ExecSpace, T>::type{}, shape_index,
                      [&](auto shape) {
                        detail::visit_relaxation<T>(negative_weights, [&](auto relax) {
                          fronts.template close<decltype(shape), decltype(relax)>();
                        });
                      });
  factor.cycle_ =
      detail::negative_diagonal_vertex(exec, plan, factor.views_, factor.values_, factor.perm_);
  return factor;
}

// The factor that supernodal_factor made of `plan` earlier, from its `count` values on the host
// (a prepared graph's file; SupernodalSolver::factor_values): nothing is closed again, the
// negative diagonal is looked for as there. Throws apsp::Error when the values are not as many
// as the plan's.
template <class T, class ExecSpace>
SupernodalFactor<ExecSpace, T> supernodal_factor_of(const ExecSpace& exec,
                                                    const SupernodalPlan& plan, const T* values,
                                                    std::size_t count, bool negative_weights) {
  detail::ScopedRegion region("apsp::supernodal_factor_of");
  SupernodalFactor<ExecSpace, T> factor;
  factor.place(exec, plan, negative_weights);
  if (count != factor.values_.extent(0))
    throw Error("supernodal: a factor of " + std::to_string(count) + " values for a plan of " +
                std::to_string(factor.values_.extent(0)));
  Kokkos::deep_copy(
      exec, factor.values_,
      Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(values,
                                                                                         count));
  if (plan.supernodes() == 0) return factor;
  factor.cycle_ =
      detail::negative_diagonal_vertex(exec, plan, factor.views_, factor.values_, factor.perm_);
  return factor;
}

enum class RowOrder {
  user,  // row i is the user's vertex first + i, columns in the user's numbering
  plan   // row i is the plan's vertex first + i (the user's plan.perm[first + i]), columns too
};

namespace detail {

// The slots of a block of rows (rows [first, first + count), or those of list[first ...]): their
// rows in ascending plan order, so that neighbouring slots share their forward paths; n of
// them, whole teams, the spare ones repeating the last row and handing nothing over (out_row
// -1); out_row(slot): the block's row in the slot.
template <class ExecSpace>
struct SweepSlots {
  Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space> slot_row, out_row;
  std::int64_t n = 0;
};

template <class ExecSpace>
SweepSlots<ExecSpace> sweep_slots(const ExecSpace& exec, const SupernodalPlan& plan,
                                  std::int64_t first, std::int64_t count, const std::int32_t* list,
                                  bool user, std::int64_t whole) {
  const std::int64_t n = (count + whole - 1) / whole * whole;
  const auto plan_row = [&](std::int32_t r) {
    const std::int64_t row = list ? list[first + r] : first + r;
    return user ? plan.position[std::size_t(row)] : std::int32_t(row);
  };
  std::vector<std::int32_t> by_plan(static_cast<std::size_t>(count));
  std::iota(by_plan.begin(), by_plan.end(), 0);
  std::sort(by_plan.begin(), by_plan.end(),
            [&](std::int32_t a, std::int32_t b) { return plan_row(a) < plan_row(b); });
  std::vector<std::int32_t> slot_row(static_cast<std::size_t>(n)),
      out_row(static_cast<std::size_t>(n), -1);
  for (std::int64_t e = 0; e < n; ++e) {
    const std::int32_t r = by_plan[std::size_t(std::min(e, count - 1))];
    slot_row[std::size_t(e)] = plan_row(r);
    if (e < count) out_row[std::size_t(e)] = r;
  }
  return {to_device(exec, slot_row, "apsp::supernodal::slot_rows"),
          to_device(exec, out_row, "apsp::supernodal::out_rows"), n};
}

// Which of `split` groups of threads make each supernode in the backward sweep (RowSweeps::
// split; bit q: group q): the tree's subtrees shared out, a subtree to one group where there are
// at least as many as groups (the largest first, each to the group with the least so far), else
// the groups shared out among the subtrees by their work (each at least one) and so on down;
// a supernode is made by every group that makes a supernode below it. Work: a row's products
// with a supernode's factor, c (c + b).
inline std::vector<std::uint8_t> split_share(const SupernodalPlan& plan, int split) {
  const std::int64_t count = plan.supernodes();
  std::vector<std::uint8_t> share(std::size_t(count), 1);
  if (split <= 1) return share;
  std::vector<double> work(std::size_t(count), 0);  // of each subtree
  for (std::int64_t s = 0; s < count; ++s) {        // children before their parent
    const double c = plan.columns(s);
    work[std::size_t(s)] += c * (c + plan.border_size(s));
    if (plan.parent[std::size_t(s)] >= 0)
      work[std::size_t(plan.parent[std::size_t(s)])] += work[std::size_t(s)];
  }
  const auto whole_subtree = [&](std::int32_t s, int group) {
    for (std::int32_t t = plan.supernode_of[std::size_t(plan.subtree_first[std::size_t(s)])];
         t <= s; ++t)
      share[std::size_t(t)] = std::uint8_t(1u << group);
  };
  struct Part {
    std::vector<std::int32_t> trees;
    int from, groups;
  };
  std::vector<Part> parts;
  Part roots{{}, 0, split};
  for (std::int32_t s = 0; s < count; ++s)
    if (plan.parent[std::size_t(s)] < 0) roots.trees.push_back(s);
  parts.push_back(roots);
  while (!parts.empty()) {
    Part part = std::move(parts.back());
    parts.pop_back();
    // One subtree and several groups: its root made by all, its children's subtrees shared.
    while (part.trees.size() == 1 && part.groups > 1) {
      const std::int32_t s = part.trees[0];
      share[std::size_t(s)] = std::uint8_t(((1u << part.groups) - 1u) << part.from);
      part.trees.assign(plan.child.begin() + plan.child_start[std::size_t(s)],
                        plan.child.begin() + plan.child_start[std::size_t(s) + 1]);
    }
    std::vector<std::int32_t> trees = part.trees;  // none: a leaf made by several groups
    if (trees.empty()) continue;
    std::sort(trees.begin(), trees.end(), [&](std::int32_t a, std::int32_t b) {
      return work[std::size_t(a)] > work[std::size_t(b)] ||
             (work[std::size_t(a)] == work[std::size_t(b)] && a < b);
    });
    if (std::int64_t(trees.size()) >= part.groups) {
      std::vector<double> load(std::size_t(part.groups), 0);
      for (const std::int32_t s : trees) {
        const int g = int(std::min_element(load.begin(), load.end()) - load.begin());
        load[std::size_t(g)] += work[std::size_t(s)];
        whole_subtree(s, part.from + g);
      }
      continue;
    }
    std::vector<int> groups(trees.size(), 1);  // by work, each at least one
    for (int left = part.groups - int(trees.size()); left > 0; --left) {
      std::size_t most = 0;
      for (std::size_t i = 1; i < trees.size(); ++i)
        if (work[std::size_t(trees[i])] / groups[i] > work[std::size_t(trees[most])] / groups[most])
          most = i;
      ++groups[most];
    }
    int from = part.from;
    for (std::size_t i = 0; i < trees.size(); ++i) {
      parts.push_back({{trees[i]}, from, groups[i]});
      from += groups[i];
    }
  }
  return share;
}

// The threads a row (RowSweeps::split) of a block of n rows: the most (1, 2 or 4, the backend's
// most_split at most) with n split^2 / 2 within the device's concurrency (two waves of the
// sweeps' teams, which an SM holds at most 8 of): two threads where their rows' threads fit in
// it, four where those fit in a quarter. The groups of a row walk different subtrees and share
// fewer of the factor's values, and each more group costs more: on an H200 the measures' sweeps
// of a 115,000-vertex road took 0.24 s with two threads a row, 0.27 s with one and 0.32 s with
// four; its distances' (two blocks of 57,500 whole rows) 0.27-0.29 s with two, 0.37-0.39 s with
// one and 0.36-0.38 s with four; a 1,000,000-vertex road's measures 10.0 s with one, 14.9 s with
// two (docs/PERFORMANCE.md entries 83 and 84).
template <class ExecSpace>
int row_threads_within(const ExecSpace& exec, std::int64_t n) {
  int split = SweepLaunch<ExecSpace>::most_split;
  while (split > 1 && std::uint64_t(std::max<std::int64_t>(1, n)) * std::uint64_t(split * split) >
                          2 * std::uint64_t(exec.concurrency()))
    split /= 2;
  return split;
}

// The sweeps (RowSweeps) of a block of rows into the destination that make(slots, item)
// gives, `split` threads a row (RowSweeps::split; GPUs alone). `whole`: each row kept whole, in
// one array of V (whole rows: the destination reads the array, which this returns with the
// slots); otherwise in the path arrays: fwd, and cur for each of the row's groups of threads.
template <class ExecSpace, class T>
struct Swept {
  Kokkos::View<T*, typename ExecSpace::memory_space> arrays;  // not in scratch
  SweepSlots<ExecSpace> slots;
};

template <bool HostPath, class ExecSpace, class T, class Make>
Swept<ExecSpace, T> sweep_rows(
    const ExecSpace& exec, const SupernodalFactor<ExecSpace, T>& factor, std::int64_t first,
    std::int64_t count, const std::int32_t* list, bool user, bool whole, Make&& make,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& needed = {},
    bool half = false, int split = 1) {
  ScopedRegion region("apsp::supernodal_rows");
  using Shape = RowSweepShape<T, HostPath>;
  const SupernodalPlan& plan = factor.plan();
  Swept<ExecSpace, T> swept;
  if (count == 0) return swept;
  constexpr int team = SweepLaunch<ExecSpace>::team;
  // Whole teams, and whole tiles of 32 slots (write_rows).
  swept.slots = sweep_slots(exec, plan, first, count, list, user,
                            std::max<std::int64_t>(32, team * Shape::item));
  const std::int64_t n = swept.slots.n;
  const auto dest = make(swept.slots, std::integral_constant<int, Shape::item>{});
  const std::int32_t path =
      whole ? std::int32_t(plan.vertices) : std::int32_t(plan.prediction.largest_path);
  if (Shape::in_scratch || split > SweepLaunch<ExecSpace>::most_split) split = 1;
  if (!Shape::in_scratch)
    swept.arrays = Kokkos::View<T*, typename ExecSpace::memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing,
                           std::string(whole ? "apsp::supernodal::rows_transposed"
                                             : "apsp::supernodal::path_arrays")),
        (whole ? 1 : 1 + split) * std::int64_t(path) * n);
  const std::vector<std::uint8_t> share_host =
      split > 1 ? split_share(plan, split) : std::vector<std::uint8_t>{};  // until the fence
  Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space> share;
  if (split > 1) share = to_device(exec, share_host, "apsp::supernodal::share");
  const auto& sn = factor.supernodes();
  visit_relaxation<T>(factor.negative_weights(), [&](auto relax) {
    RowSweeps<ExecSpace, typename decltype(relax)::product, Shape, std::decay_t<decltype(dest)>>
        sweeps;
    sweeps.path = path;
    sweeps.slot_row = swept.slots.slot_row;
    sweeps.sn = sn;
    sweeps.offset = whole ? sn.first : sn.path_offset;
    sweeps.border_place = whole ? sn.border : sn.border_path;
    sweeps.whole = whole;
    sweeps.values = factor.values().data();
    sweeps.fwd = swept.arrays.data();
    sweeps.cur = swept.arrays.data() + (whole ? 0 : std::int64_t(path) * n);
    sweeps.n = n;
    sweeps.dest = dest;
    sweeps.needed = needed;
    sweeps.half = half;
    sweeps.split = split;
    sweeps.share = share;
    sweeps.launch(exec);
  });
  exec.fence();  // before the slots go
  return swept;
}

// ids(j) = j (a named functor, not KOKKOS_LAMBDA: detail/supernodal_kernels.hpp says why).
template <class MemorySpace>
struct Identity {
  Kokkos::View<std::int32_t*, MemorySpace> ids;
  KOKKOS_INLINE_FUNCTION void operator()(int j) const { ids(j) = j; }
};

// Rows [first, first + out.extent(0)) (or those of list[first ...]) whole into out: on host
// vectors each item's rows in its team's scratch, written out by the item (RowsInScratch);
// elsewhere (GPUs) the rows transposed in a temporary the size of out, `split` threads a row,
// written out by tiles (write_rows).
template <bool HostPath, class ExecSpace, class T>
void supernodal_rows(const ExecSpace& exec, const SupernodalFactor<ExecSpace, T>& factor,
                     std::int64_t first, const DistanceMatrix<ExecSpace, T>& out, RowOrder order,
                     const std::int32_t* list, int split) {
  using memory_space = typename ExecSpace::memory_space;
  using Shape = RowSweepShape<T, HostPath>;
  const SupernodalPlan& plan = factor.plan();
  const std::int64_t vertices = plan.vertices, count = out.extent(0);
  if (std::int64_t(out.extent(1)) < vertices || first < 0 || (!list && first + count > vertices) ||
      (list && order != RowOrder::user))
    throw Error("supernodal rows: " + std::to_string(count) + " x " +
                std::to_string(out.extent(1)) + " rows from row " + std::to_string(first) +
                " do not fit V = " + std::to_string(vertices));
  if (count == 0) return;
  const bool user = order == RowOrder::user;
  // Column j of out is column column(j) of the sweeps (the plan's numbering).
  Kokkos::View<const std::int32_t*, memory_space> column = factor.position();
  if (!user) {
    Kokkos::View<std::int32_t*, memory_space> identity(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::columns"), vertices);
    Kokkos::parallel_for("apsp::supernodal::columns",
                         Kokkos::RangePolicy<ExecSpace>(exec, 0, int(vertices)),
                         Identity<memory_space>{identity});
    column = identity;
  }
  if constexpr (Shape::in_scratch) {
    sweep_rows<HostPath>(exec, factor, first, count, list, user, true,
                         [&](const auto& slots, auto item) {
                           RowsInScratch<ExecSpace, T, decltype(item)::value> dest;
                           dest.vertices = std::int32_t(vertices);
                           dest.out = out.data();
                           dest.out_ld = std::int64_t(out.extent(1));
                           dest.out_row = slots.out_row;
                           dest.column = column;
                           return dest;
                         });
  } else {
    const Swept<ExecSpace, T> swept = sweep_rows<HostPath>(
        exec, factor, first, count, list, user, true,
        [&](const auto&, auto item) { return RowsKept<ExecSpace, T, decltype(item)::value>{}; }, {},
        false, split);
    write_rows(exec, swept.arrays.data(), swept.slots.n, std::int32_t(vertices),
               swept.slots.out_row, column, out.data(), std::int64_t(out.extent(1)));
    exec.fence();
  }
}

// The columns `targets` (the plan's target_start, target_column, target_index: TableTargets) of
// the rows of list[first ...] into out (out(i, k): row i, the table's column k). needed: the
// supernodes whose subtree holds a target (the targets' supernodes and their ancestors), the
// only ones the backward sweep makes.
template <class ExecSpace>
struct TableTargets {
  Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space> start, column, index;
  Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space> needed;
  std::int64_t count = 0;  // the table's columns
};

template <class ExecSpace>
TableTargets<ExecSpace> table_targets(const ExecSpace& exec, const SupernodalPlan& plan,
                                      const std::vector<std::int32_t>& targets) {
  // The targets by their plan column (ascending), each with its table column, then each
  // supernode's range of them.
  std::vector<std::pair<std::int32_t, std::int32_t>> by_column(targets.size());
  for (std::size_t k = 0; k < targets.size(); ++k)
    by_column[k] = {plan.position[std::size_t(targets[k])], std::int32_t(k)};
  std::sort(by_column.begin(), by_column.end());
  std::vector<std::int32_t> start(std::size_t(plan.supernodes()) + 1, 0), column, index;
  for (const auto& [q, k] : by_column) {
    ++start[std::size_t(plan.supernode_of[std::size_t(q)]) + 1];
    column.push_back(q);
    index.push_back(k);
  }
  for (std::size_t s = 0; s + 1 < start.size(); ++s)
    start[s + 1] += start[s];
  std::vector<std::uint8_t> needed(std::size_t(plan.supernodes()), 0);
  for (const std::int32_t q : column)
    for (std::int32_t s = plan.supernode_of[std::size_t(q)]; s >= 0 && !needed[std::size_t(s)];
         s = plan.parent[std::size_t(s)])
      needed[std::size_t(s)] = 1;
  return {to_device(exec, start, "apsp::supernodal::target_start"),
          to_device(exec, column, "apsp::supernodal::target_column"),
          to_device(exec, index, "apsp::supernodal::target_index"),
          to_device(exec, needed, "apsp::supernodal::target_needed"), std::int64_t(targets.size())};
}

// Each vertex's arcs out (mirrored: in), self-loops aside, as (the other end, the lightest
// weight of the pair), ascending: vertex u's from start[u]. A counting sort by vertex, then each
// vertex's few arcs sorted (one sort of every arc took 0.3 s at a million vertices).
struct ArcBuckets {
  std::vector<std::int64_t> start;
  std::vector<std::pair<std::int32_t, double>> arcs;
};
inline ArcBuckets arc_buckets(const std::vector<Edge>& edges, std::int32_t vertices,
                              bool mirrored) {
  using Arc = std::pair<std::int32_t, double>;
  ArcBuckets out;
  out.start.assign(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges)
    if (e.src != e.dst) ++out.start[std::size_t(mirrored ? e.dst : e.src) + 1];
  for (std::size_t v = 0; v < std::size_t(vertices); ++v)
    out.start[v + 1] += out.start[v];
  out.arcs.resize(std::size_t(out.start.back()));
  std::vector<std::int64_t> next(out.start.begin(), out.start.end() - 1);
  for (const Edge& e : edges)
    if (e.src != e.dst)
      out.arcs[std::size_t(next[std::size_t(mirrored ? e.dst : e.src)]++)] = {
          mirrored ? e.src : e.dst, double(e.weight)};
  // Each vertex's arcs sorted (by insertion: a vertex has few), each pair's lightest kept.
  std::int64_t kept = 0;
  for (std::size_t v = 0; v < std::size_t(vertices); ++v) {
    Arc* const first = out.arcs.data() + out.start[v];
    Arc* const last = out.arcs.data() + out.start[v + 1];
    if (last - first > 32) {
      std::sort(first, last);
    } else {
      for (Arc* a = first + 1; a < last; ++a)
        for (Arc* b = a; b > first && *b < *(b - 1); --b)
          std::swap(*b, *(b - 1));
    }
    out.start[v] = kept;
    for (const Arc* a = first; a < last; ++a)
      if (a == first || a->first != (a - 1)->first) out.arcs[std::size_t(kept++)] = *a;
  }
  out.start[std::size_t(vertices)] = kept;
  out.arcs.resize(std::size_t(kept));
  return out;
}

// Whether every edge's reverse has the same lightest weight (then d(u, v) = d(v, u)): each
// vertex's arcs out, with their lightest weights, are its arcs in.
inline bool symmetric(const std::vector<Edge>& edges) {
  std::int32_t vertices = 0;
  for (const Edge& e : edges)
    vertices = std::max({vertices, e.src + 1, e.dst + 1});
  const ArcBuckets out = arc_buckets(edges, vertices, false),
                   in = arc_buckets(edges, vertices, true);
  return out.start == in.start && out.arcs == in.arcs;
}

inline std::vector<Edge> reversed(const std::vector<Edge>& edges) {
  std::vector<Edge> out(edges);
  for (Edge& e : out)
    std::swap(e.src, e.dst);
  return out;
}

template <bool HostPath, class ExecSpace, class T>
void supernodal_table(const ExecSpace& exec, const SupernodalFactor<ExecSpace, T>& factor,
                      const std::int32_t* list, std::int64_t first,
                      const TableTargets<ExecSpace>& targets,
                      const DistanceMatrix<ExecSpace, T>& out, int split = 1) {
  sweep_rows<HostPath>(
      exec, factor, first, std::int64_t(out.extent(0)), list, true, false,
      [&](const auto& slots, auto item) {
        TableColumns<ExecSpace, T, decltype(item)::value> dest;
        dest.out_row = slots.out_row;
        dest.target_start = targets.start;
        dest.target_column = targets.column;
        dest.target_index = targets.index;
        dest.supernode_of = factor.supernodes().supernode_of;
        dest.out = out.data();
        dest.out_ld = std::int64_t(out.extent(1));
        return dest;
      },
      targets.needed, false, split);
}

}  // namespace detail

// Rows [first, first + out.extent(0)) of the distance matrix into out (at least V columns; the
// first V are written), in the user's numbering or the plan's (RowOrder). Phase B: each block
// costs its rows x (the factor's size); blocks are independent.
template <class ExecSpace, class T>
void supernodal_rows(const ExecSpace& exec, const SupernodalFactor<ExecSpace, T>& factor,
                     std::int64_t first, const DistanceMatrix<ExecSpace, T>& out,
                     RowOrder order = RowOrder::user) {
  // The host-vector sweeps where the rows are in host memory; a team of rows elsewhere (GPUs).
  detail::supernodal_rows<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible>(
      exec, factor, first, out, order, nullptr,
      detail::row_threads_within(exec, std::int64_t(out.extent(0))));
}

// Rows of the user's vertices list[first], ..., list[first + out.extent(0) - 1] (each in
// [0, V)) into out, row i the distances from list[first + i], columns in the user's numbering:
// the rows of a subset of sources (each row costs what it costs in a block of consecutive rows).
template <class ExecSpace, class T>
void supernodal_rows_of(const ExecSpace& exec, const SupernodalFactor<ExecSpace, T>& factor,
                        const std::int32_t* list, std::int64_t first,
                        const DistanceMatrix<ExecSpace, T>& out) {
  detail::supernodal_rows<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible>(
      exec, factor, first, out, RowOrder::user, list,
      detail::row_threads_within(exec, std::int64_t(out.extent(0))));
}

// The supernodal solve behind the drivers, in the shape of Solver (solver.hpp): collective on
// the ranks, each of which makes its contiguous block of the rows; its memory checked before any
// work; the factor and the negative-cycle verdict; then every distance row, a block of rows at a
// time, into a RowSink, and with predecessors the predecessor rows (paths.hpp) the same way. The
// predecessor rule needs the shortest-path edges (w(u,j) = d(u,j)), which the distance rows select
// block by block (every rank's, shared by select_paths), and then each distance row again for its
// search: the factor is kept and the rows are not, so the predecessor rows make every block of
// distance rows a second time. Memory never holds more than a block of rows, whatever V.
//
//   apsp::SupernodalSolver<Exec, int> solver(exec, ranks, plan, predecessors, weights);
//   solver.check_memory(limits, graph.edges.size());
//   solver.load(graph.edges);
//   solver.compute();                     // throws NegativeCycleError
//   solver.distance_rows(sink);
//   solver.select_paths();                // with predecessors
//   solver.predecessor_rows(pred_sink);
template <class ExecSpace, class T>
class SupernodalSolver {
 public:
  using execution_space = ExecSpace;
  using value_type = T;
  using Matrix = DistanceMatrix<ExecSpace, T>;
  // The host-vector sweeps where the rows are in host memory; a team of rows elsewhere (GPUs).
  static constexpr bool host_path = detail::host_memory<ExecSpace>;

  // Everything: the rows of a list, of those only a table's columns, and (expect_measures) with
  // integer distances the measures' totals from columns as the sweeps finish them.
  static constexpr Capabilities capabilities() {
    Capabilities can;
    can.predecessors = true;
    can.negative_weights = true;
    can.rows_of_list = true;
    can.table_columns = true;
    can.columns_by_supernode = std::is_integral<T>::value;
    return can;
  }

  // Collective on `ranks`: rank p makes a contiguous block of the rows (RowBlocks of single
  // rows). `plan`: root's (rank 0's) is the one every rank runs. `weights`: the whole graph's
  // (weight_range), for the predecessor rule and the cycle verdict.
  SupernodalSolver(const ExecSpace& exec, Ranks& ranks, const SupernodalPlan& plan,
                   bool predecessors, const WeightRange& weights = {})
      : exec_(exec),
        ranks_(ranks),
        plan_(plan),
        vertices_(plan.vertices),
        predecessors_(predecessors),
        weights_(weights) {
    if (ranks.size() > 1) broadcast_plan(ranks_, plan_, 0);
    vertices_ = plan_.vertices;
    rule_ = tightness_for<T>(vertices_, weights.integers, weights.largest_magnitude());
    const RowBlocks blocks{int(vertices_), ranks.size()};
    first_row_ = blocks.first(ranks.rank());
    real_rows_ = blocks.count(ranks.rank());
    block_ = std::max<std::int64_t>(1, real_rows_);
    APSP_CHECK_SOLVER(SupernodalSolver);
  }

  const SupernodalPlan& plan() const { return plan_; }
  // This rank's rows: [first_row, first_row + real_rows).
  std::int64_t first_row() const { return first_row_; }
  std::int64_t real_rows() const { return real_rows_; }
  // The factors compute made: the graph's, and where the measures' columns need it (expect_measures
  // on a graph that is not symmetric) the reversed graph's.
  int factors() const { return has_reversed() ? 2 : 1; }

  // Device memory besides the rows: the factor, its fronts at their peak and, with
  // predecessors, the graph's edges and the shortest-path edges (at most every edge).
  static std::uint64_t fixed_bytes(const SupernodalPrediction& w, std::int64_t vertices,
                                   std::int64_t edges, bool predecessors) {
    const std::uint64_t v = std::uint64_t(vertices);
    return detail::saturating_sum(
        {w.factor_values * sizeof(T), w.front_values * sizeof(T),
         16 * v + 64 * std::uint64_t(w.supernodes),
         predecessors ? detail::saturating_sum({std::uint64_t(edges) * sizeof(Edge),
                                                PathEdges<ExecSpace, T>::bytes(vertices, edges)})
                      : 0});
  }
  // ... and per row of a block of whole rows: the row and the sweeps' own copy of it
  // (supernodal_rows), with predecessors the search's buffers.
  static std::uint64_t row_bytes(const SupernodalPrediction&, std::int64_t vertices,
                                 bool predecessors) {
    return 2 * matrix_bytes(1, vertices, sizeof(T)) +
           (predecessors ? PredecessorRows<ExecSpace, T>::bytes(1, vertices) : 0);
  }
  // ... and per row where only some columns are kept (a table's: `kept` of them; the measures':
  // none): the sweeps' two path arrays.
  static std::uint64_t path_bytes(const SupernodalPrediction& w, std::int64_t kept = 0) {
    return (2 * std::uint64_t(w.largest_path) + std::uint64_t(kept)) * sizeof(T);
  }
  // The least device memory of a solve: the fixed part and one row.
  static std::uint64_t least_bytes(const SupernodalPrediction& w, std::int64_t vertices,
                                   std::int64_t edges, bool predecessors) {
    return detail::saturating_sum(
        {fixed_bytes(w, vertices, edges, predecessors), row_bytes(w, vertices, predecessors)});
  }
  // At most this many bytes of distances are made at once. On a GPU the block's rows are the
  // sweeps' threads (supernodal_kernels.hpp), and a block of some thousand rows leaves most of a
  // GPU's hundred thousand threads idle: the larger the block, the faster. A block of more than
  // 2^31 values gives the bytes of small blocks (docs/PERFORMANCE.md entry 43 checks one of
  // 2.3e9 against dense Floyd-Warshall). On a host a block that stays in the caches is enough.
  static constexpr std::uint64_t most_block_bytes() {
    return std::uint64_t(detail::host_memory<ExecSpace> ? 16 : 32768) << 20;
  }
  // ... but on a host at least 4 work items (host vectors of rows) a thread, so that every
  // thread has work and the items' differences even out (a block of 16 MiB was 5 items of 32
  // rows at V = 30,000 and 2 at V = 115,000: docs/PERFORMANCE.md entry 79).
  std::uint64_t least_block_rows() const {
    return host_path ? 4 * std::uint64_t(exec_.concurrency()) * item_rows : 1;
  }
  // The rows of one work item of the sweeps: a block is made of whole items where it can be.
  static constexpr std::int64_t item_rows = detail::RowSweepShape<T, host_path>::item;
  // ... and at most this many bytes of path arrays where a row keeps only some columns: on a
  // GPU a block of a few hundred thousand rows fills it several times over.
  static constexpr std::uint64_t most_path_bytes() {
    return std::uint64_t(detail::host_memory<ExecSpace> ? 16 : 8192) << 20;
  }

  // ... and the factor's scratch: on GPUs the small fronts that on-chip scratch cannot hold are
  // closed in level-1 scratch, which Kokkos allocates for every team the device holds at once
  // (Kokkos 3.4: concurrency / team threads, of the largest such front) and keeps.
  static std::uint64_t scratch_bytes(const SupernodalPlan& plan) {
    if constexpr (detail::host_memory<ExecSpace>) {
      return 0;
    } else {
      using Small = detail::SmallFronts<ExecSpace, detail::PlainRelaxation<T>>;
      const int largest = detail::slow_front_largest<ExecSpace, T>(plan);
      if (largest == 0) return 0;
      const int teams = int(ExecSpace().concurrency()) / (Small::team_rows * Small::lanes);
      return std::uint64_t(Small::scratch_bytes(largest)) * std::uint64_t(std::max(1, teams));
    }
  }

  // The least device memory of this solve with the graph's `edges`, and what it is, in words.
  std::uint64_t device_bytes(std::int64_t edges) const {
    return detail::saturating_sum({least_bytes(plan_.prediction, vertices_, edges, predecessors_),
                                   reversed_bytes(), scratch_bytes(plan_)});
  }
  std::string device_bytes_what() const {
    return std::string("the supernodal factor") +
           (scratch_bytes(plan_) > 0 ? ", its fronts' scratch" : "") +
           (predecessors_ ? ", the edges" : "") + " and one row of the result" +
           (predecessors_ ? " with its search" : "");
  }

  // Collective, before load: device_bytes against the limits (memory.hpp); throws MemoryError.
  // Then the rows made at once: as many as this rank's share of the memory holds, at most
  // most_block_bytes of distances (whole rows) or most_path_bytes of path arrays (rows that
  // keep some columns: path_rows), spread evenly over the blocks that takes.
  void check_memory(const MemoryLimits& limits, std::int64_t edges) {
    const std::uint64_t budget = apsp::check_memory(exec_, ranks_, vertices_, device_bytes(edges),
                                                    device_bytes_what(), limits);
    const std::uint64_t fixed =
        detail::saturating_sum({fixed_bytes(plan_.prediction, vertices_, edges, predecessors_),
                                reversed_bytes(), scratch_bytes(plan_)});
    room_ = budget > fixed ? budget - fixed : 0;
    set_block_rows(std::int64_t(std::min<std::uint64_t>(
        {std::uint64_t(std::max<std::int64_t>(1, real_rows_)),
         room_ / std::max<std::uint64_t>(1, row_bytes(plan_.prediction, vertices_, predecessors_)),
         std::max<std::uint64_t>(
             most_block_bytes() / matrix_bytes(1, std::max<std::int64_t>(1, vertices_), sizeof(T)),
             least_block_rows())})));
    path_block_ = std::numeric_limits<std::int64_t>::max();
    path_block_ = spread(path_rows(std::max<std::int64_t>(1, real_rows_), 0));
  }
  // The rows made at once: at most `most`, spread evenly over the blocks of this rank's rows
  // (whole rows, and rows that keep some columns alike).
  void set_block_rows(std::int64_t most) { block_ = path_block_ = spread(most); }
  std::int64_t block_rows() const { return block_; }
  // The blocks of one pass over this rank's rows.
  std::int64_t blocks() const { return (real_rows_ + block_ - 1) / block_; }
  // The rows of `rows` made at once where each keeps `kept` columns (0: the measures' sweeps),
  // at most path_block_.
  std::int64_t path_rows(std::int64_t rows, std::int64_t kept) const {
    const std::uint64_t one = std::max<std::uint64_t>(1, path_bytes(plan_.prediction, kept));
    const std::uint64_t most =
        std::min<std::uint64_t>({std::uint64_t(std::max<std::int64_t>(1, rows)), room_ / one,
                                 most_path_bytes() / one, std::uint64_t(path_block_)});
    return std::max<std::int64_t>(1, std::int64_t(most));
  }

  // The threads a row in the sweeps of a block of n whole rows on GPUs (detail::RowSweeps::
  // split): set_row_split's, else detail::row_threads_within's.
  int row_split(std::int64_t n) const {
    return row_split_ > 0 ? std::min(row_split_, detail::SweepLaunch<ExecSpace>::most_split)
                          : detail::row_threads_within(exec_, n);
  }
  // ... and of n rows that keep `kept` columns each in path arrays: no more than the memory holds
  // (a row's path arrays: fwd, and cur for each of its threads).
  int row_split(std::int64_t n, std::int64_t kept) const {
    int split = row_split(n);
    const std::uint64_t rows = std::uint64_t(std::max<std::int64_t>(1, n)),
                        path = std::uint64_t(plan_.prediction.largest_path);
    const auto fits = [&](int p) {
      return (rows * ((1 + std::uint64_t(p)) * path + std::uint64_t(kept)) * sizeof(T)) <= room_;
    };
    while (split > 1 && !fits(split))
      split /= 2;
    return split;
  }
  // 0: row_split chooses; else at most this many threads a row (1, 2 or 4).
  void set_row_split(int split) { row_split_ = split; }
  // The most threads a row that the sweeps have had so far (0: none ran).
  int row_threads() const { return row_threads_; }

  // Before check_memory: the rows will be reduced into measures (reduce_rows with a
  // MeasureSink). With integer distances each row is reduced where the sweeps finish its columns,
  // so no row is ever whole and a block holds as many rows as their path arrays allow (every row
  // of a million-vertex road on a GPU: docs/PERFORMANCE.md entry 52): a column's in-totals are a
  // row's of the reversed graph, whose factor compute makes too where the graph is not symmetric
  // (its bytes are counted from here on), and a symmetric graph's rows are made in halves. Host
  // backends alike, whose reductions of finished columns vectorize over a host vector's rows
  // (MeasureColumns::host_finished): every measure of a 30,000-vertex road, grid and one-way road
  // took 1.22-1.26, 1.57-1.61 and 3.13-3.35 s against whole rows' 1.46-1.51, 1.73-1.87 and
  // 3.96-4.10 s on 2 EPYC cores (entry 82).
  // Floats (their sums depend on the order): whole rows.
  void expect_measures() { measures_ = capabilities().columns_by_supernode; }

  // The graph's edges (every rank has them all), kept until compute.
  void load(const std::vector<Edge>& edges) { edges_host_ = &edges; }
  // Beside load: the factor of these edges as factor_values gave it earlier (a prepared graph,
  // made with this plan, distance type and sign of the weights), `count` values on the host,
  // which compute then takes instead of making it; the caller keeps them until compute.
  void load_factor(const T* values, std::size_t count) {
    factor_host_ = values;
    factor_count_ = count;
  }

  // After compute: the factor's values, on the host (what load_factor takes).
  std::vector<T> factor_values() const {
    std::vector<T> values(factor_.values().extent(0));
    Kokkos::deep_copy(exec_,
                      Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          values.data(), values.size()),
                      factor_.values());
    exec_.fence();
    return values;
  }

  // Collective: the numeric factor (the edges are kept on the device for the predecessors),
  // then with negative weights the verdict: throws NegativeCycleError on every rank (the
  // vertex every algorithm names; where float32 rounding can make or hide a cycle, double
  // decides: negative_cycles.hpp).
  void compute() {
    if (!edges_host_) throw Error("supernodal: compute before load");
    const std::vector<Edge>& edges = *edges_host_;
    CycleVerdict verdict;
    collectively(ranks_, [&] {
      // Whether the graph is symmetric, on the host beside the factor.
      std::future<bool> symmetric;
      if (measures_)
        symmetric = std::async(std::launch::async, [&edges] { return detail::symmetric(edges); });
      factor_ = factor_host_ ? supernodal_factor_of<T>(exec_, plan_, factor_host_, factor_count_,
                                                       weights_.negative())
                             : supernodal_factor<T>(exec_, plan_, edges, weights_.negative());
      factor_host_ = nullptr;
      if (measures_) {
        symmetric_ = symmetric.get();
        if (!symmetric_)
          reversed_ =
              supernodal_factor<T>(exec_, plan_, detail::reversed(edges), weights_.negative());
      }
      if (predecessors_) edges_ = upload_edges(exec_, edges);
      exec_.fence();
      // The factor's negative diagonal finds a cycle (the same on every rank).
      verdict = detail::cycle_verdict<T>(vertices_, weights_, factor_.negative_cycle_vertex(),
                                         [&] { return edges; });
    });
    edges_host_ = nullptr;
    throw_negative_cycle(verdict, Distance<T>::type);
  }

  // This rank's distance rows, in order, into sink; with predecessors each block's
  // shortest-path edges are kept for select_paths. RowSeconds::compute: making the rows.
  RowSeconds distance_rows(const RowSink<T>& sink, const BlockDone& done = {}) {
    RowSeconds seconds;
    each_block(
        seconds, done, first_row_, first_row_ + real_rows_,
        [&](std::int64_t first, std::int64_t count, const Matrix& part) {
          download_(exec_, part, first, count, sink, seconds);
          if (!predecessors_) return;
          const auto start = detail::Clock::now();
          const DeviceEdges<ExecSpace> tight = tight_edges(exec_, part, first, edges_, rule_);
          const std::size_t had = tight_.size();
          tight_.resize(had + tight.size());
          Kokkos::deep_copy(
              Kokkos::View<Edge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                  tight_.data() + had, tight.size()),
              tight);
          seconds.search += detail::seconds_since(start);
        });
    seconds.made = real_rows_;
    rows_passed_ = true;
    return seconds;
  }

  // The distance rows of `vertices` (this rank's share of a list of sources, each in [0, V)),
  // in the list's order, a block at a time, into sink, which takes row i of the list as row i.
  // With `columns` (each in [0, V)) only those, in that order, are handed over (row i's k-th
  // value d(vertices[i], columns[k])), chosen where the rows are made: a GPU sends |columns|
  // values a row, not V. Not with predecessors (their search needs every row's shortest-path
  // edges). RowSeconds as distance_rows'.
  RowSeconds distance_rows_of(const std::vector<std::int32_t>& vertices, const RowSink<T>& sink,
                              const std::vector<std::int32_t>& columns = {}) {
    if (predecessors_) throw Error("supernodal: rows of a list in a solve with paths");
    RowSeconds seconds;
    const std::int64_t end = std::int64_t(vertices.size()), v = vertices_;
    if (end == 0) return seconds;
    const std::int64_t c = std::int64_t(columns.size());
    // With columns, each row keeps those alone (TableColumns): blocks as the path arrays allow.
    const std::int64_t block = c > 0 ? path_rows(end, c) : block_;
    detail::TableTargets<ExecSpace> targets;
    Matrix kept;
    if (c > 0) {
      targets = detail::table_targets(exec_, plan_, columns);
      kept = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::rows_kept"),
                    std::min(block, end), c);
    } else if (!rows_.data()) {
      rows_ = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::row_block"),
                     block_, v);
    }
    for (std::int64_t first = 0; first < end; first += block) {
      const std::int64_t count = std::min(block, end - first);
      const auto start = detail::Clock::now();
      const Matrix handed = c > 0 ? Matrix(kept.data(), count, c) : Matrix(rows_.data(), count, v);
      if (c > 0)
        detail::supernodal_table<host_path>(exec_, factor_, vertices.data(), first, targets, handed,
                                            split_for(row_split(count, c)));
      else
        detail::supernodal_rows<host_path>(exec_, factor_, first, handed, RowOrder::user,
                                           vertices.data(), split_for(row_split(count)));
      exec_.fence();
      seconds.compute += detail::seconds_since(start);
      download_(exec_, handed, first, count, sink, seconds);
      seconds.made += count;
    }
    return seconds;
  }

  // This rank's rows reduced into the measures (measures.hpp): with integer distances each
  // supernode's finished columns go into the totals as the sweeps make them (MeasureColumns: no
  // row is ever whole, blocks as the path arrays allow); otherwise whole rows (reduce_rows).
  RowSeconds reduce_rows(const MeasureSink<ExecSpace, T>& sink, const BlockDone& done = {}) {
    if constexpr (std::is_integral<T>::value) {
      if (by_columns(sink)) {
        RowSeconds seconds;
        // Each row's out-totals (and its vertex's in-totals where the graph is symmetric), then
        // the reversed graph's rows for the in-totals (progress: the first pass's blocks). A
        // symmetric graph's rows are made in halves (MeasureColumns::half): about half the
        // backward sweeps' work (docs/PERFORMANCE.md entry 75).
        const bool half = rows_in_halves();
        const auto pass = [&](const SupernodalFactor<ExecSpace, T>& factor, bool out, bool in) {
          const std::int64_t end = first_row_ + real_rows_,
                             block = path_rows(std::max<std::int64_t>(1, real_rows_), 0);
          for (std::int64_t first = first_row_; first < end; first += block) {
            const std::int64_t count = std::min(block, end - first);
            const auto start = detail::Clock::now();
            detail::sweep_rows<host_path>(
                exec_, factor, first, count, nullptr, true, false,
                [&](const auto& slots, auto item) {
                  return sink.totals->template columns<decltype(item)::value>(
                      first, slots.out_row, factor.perm(), out, in, sink.histogram_only,
                      half && in);
                },
                {}, half && in, split_for(row_split(count, 0)));
            seconds.compute += detail::seconds_since(start);
            seconds.made += count;
            if (done && out) done(first, count);
          }
        };
        pass(factor_, true, symmetric_);
        if (!symmetric_ && !sink.histogram_only) pass(reversed_, false, true);
        return seconds;
      }
    }
    return reduce_rows(sink.rows, done);
  }

  // This rank's distance rows, in order, a block at a time where they are made (the device's
  // memory): nothing is copied off the device (measures.hpp). RowSeconds::compute: making the
  // rows; sink: the sink's time.
  RowSeconds reduce_rows(const DeviceRowSink<ExecSpace, T>& sink, const BlockDone& done = {}) {
    return reduce_blocks(sink, done);
  }

  // After compute: whether reduce_rows(MeasureSink) makes each row in half (a symmetric graph's
  // integer measures by finished columns, no negative weight: MeasureColumns::half), about half
  // the rows' updates (detail::half_row_updates).
  bool rows_in_halves() const {
    return std::is_integral<T>::value && symmetric_ && !factor_.negative_weights() && measures_;
  }

  // Frees the block of whole rows that distance_rows and distance_rows_of keep between calls (a
  // solver kept for many queries: apsp::PreparedGraph).
  void release_rows() { rows_ = Matrix(); }

  // Collective, with predecessors, after compute: every rank's shortest-path edges, by source,
  // on every rank. They come from the distance rows: a rank that has not handed its rows over
  // makes them here (and hands them to no one).
  void select_paths() {
    if (!predecessors_) throw Error("supernodal: shortest-path edges of a solve without paths");
    if (!rows_passed_) distance_rows([](std::int64_t, std::int64_t, const T*, std::int64_t) {});
    const std::vector<Edge> every = gather_all(ranks_, tight_);
    std::vector<Edge>().swap(tight_);
    collectively(ranks_, [&] {
      edges_ = {};
      paths_ = path_edges<T>(exec_, vertices_, upload_edges(exec_, every));
    });
  }

  // After select_paths: how many shortest-path edges the ranks found.
  std::int64_t path_edge_count() const { return std::int64_t(paths_.targets.extent(0)); }

  // Predecessor rows [first, first + count) of this rank's rows (by default all of them), in
  // order, into sink, after select_paths: each block of distance rows made again, then searched.
  // RowSeconds::search: the search.
  RowSeconds predecessor_rows(const RowSink<int>& sink, std::int64_t first = -1,
                              std::int64_t count = -1, const BlockDone& done = {}) {
    if (!paths_.offsets.data()) throw Error("supernodal: predecessor rows before select_paths");
    const std::int64_t end = first_row_ + real_rows_;
    if (first < 0) first = first_row_;
    if (count < 0) count = end - first;
    if (first < first_row_ || count > end - first)
      throw Error("supernodal: predecessor rows [" + std::to_string(first) + ", " +
                  std::to_string(first + count) + ") outside this rank's rows [" +
                  std::to_string(first_row_) + ", " + std::to_string(end) + ")");
    RowSeconds seconds;
    std::unique_ptr<PredecessorRows<ExecSpace, T>> search;
    detail::RowDownload<ExecSpace, int> download;
    each_block(seconds, done, first, first + count,
               [&](std::int64_t at, std::int64_t rows, const Matrix& part) {
                 const auto start = detail::Clock::now();
                 if (!search)
                   search = std::make_unique<PredecessorRows<ExecSpace, T>>(
                       exec_, part, at, vertices_, paths_, block_, rule_);
                 search->use_rows(part, at);
                 const auto& pred = search->compute(at, rows);
                 seconds.search += detail::seconds_since(start);
                 download(exec_, pred, at, rows, sink, seconds);
               });
    return seconds;
  }

 private:
  // Whether reduce_rows(sink) reduces each supernode's finished columns (integer distances, a
  // sink of totals, the reversed factor made where the graph is not symmetric).
  bool by_columns(const MeasureSink<ExecSpace, T>& sink) const {
    return std::is_integral<T>::value && sink.totals && measures_ && (symmetric_ || has_reversed());
  }

  // Whether compute made the reversed graph's factor.
  bool has_reversed() const { return reversed_.values().data() != nullptr; }

  // The reversed graph's factor where measures may need it (expect_measures).
  std::uint64_t reversed_bytes() const {
    return measures_ ? plan_.prediction.factor_values * sizeof(T) : 0;
  }

  // At most `most` rows at once, spread evenly over the blocks of this rank's rows.
  // Where `most` allows, a block is whole work items (item_rows; the last block's last item is
  // padded).
  std::int64_t spread(std::int64_t most) const {
    const std::int64_t rows = std::max<std::int64_t>(1, real_rows_);
    most = std::max<std::int64_t>(1, std::min(most, rows));
    if (most > item_rows && most < rows) most = most / item_rows * item_rows;
    const std::int64_t blocks = (rows + most - 1) / most;
    const std::int64_t block = (rows + blocks - 1) / blocks;
    if (block <= item_rows) return block;
    return std::min(most, (block + item_rows - 1) / item_rows * item_rows);
  }

  // reduce_rows(sink): this rank's rows.
  RowSeconds reduce_blocks(const DeviceRowSink<ExecSpace, T>& sink, const BlockDone& done) {
    RowSeconds seconds;
    each_block(seconds, done, first_row_, first_row_ + real_rows_,
               [&](std::int64_t first, std::int64_t count, const Matrix& part) {
                 const auto start = detail::Clock::now();
                 sink(first, count, part);
                 seconds.sink += detail::seconds_since(start);
               });
    seconds.made = real_rows_;
    return seconds;
  }

  // Each block of distance rows [from, to) made, then handed to work(first, count, rows).
  template <class Work>
  void each_block(RowSeconds& seconds, const BlockDone& done, std::int64_t from, std::int64_t to,
                  const Work& work) {
    const std::int64_t v = vertices_;
    if (from >= to) return;
    if (!rows_.data())
      rows_ = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::supernodal::row_block"),
                     block_, v);
    for (std::int64_t first = from; first < to; first += block_) {
      const std::int64_t count = std::min(block_, to - first);
      const Matrix part(rows_.data(), count, v);
      const auto start = detail::Clock::now();
      detail::supernodal_rows<host_path>(exec_, factor_, first, part, RowOrder::user, nullptr,
                                         split_for(row_split(count)));
      exec_.fence();
      seconds.compute += detail::seconds_since(start);
      work(first, count, part);
      if (done) done(first, count);
    }
  }

  // A block's threads a row (row_split's), kept for row_threads (1 on host backends, whose
  // most_split is 1).
  int split_for(int split) {
    row_threads_ = std::max(row_threads_, split);
    return split;
  }

  ExecSpace exec_;
  Ranks& ranks_;
  SupernodalPlan plan_;
  std::int64_t vertices_;
  bool predecessors_;
  WeightRange weights_;
  Tightness<T> rule_;
  std::int64_t first_row_ = 0, real_rows_ = 0, block_ = 1;
  std::int64_t path_block_ = std::numeric_limits<std::int64_t>::max();  // rows keeping columns
  std::uint64_t room_ = std::numeric_limits<std::uint64_t>::max();      // bytes for rows
  int row_split_ = 0;                                                   // set_row_split's
  int row_threads_ = 0;                                                 // row_threads'
  const std::vector<Edge>* edges_host_ = nullptr;                       // between load and compute
  const T* factor_host_ = nullptr;  // load_factor's, until compute
  std::size_t factor_count_ = 0;
  bool rows_passed_ = false;  // distance_rows has run (select_paths)
  SupernodalFactor<ExecSpace, T> factor_;
  bool measures_ = false, symmetric_ = false;  // expect_measures; the graph's, found by compute
  SupernodalFactor<ExecSpace, T> reversed_;    // the reversed graph's (measures, not symmetric)
  Matrix rows_;
  detail::RowDownload<ExecSpace, T> download_;
  DeviceEdges<ExecSpace> edges_;  // with predecessors, until select_paths
  std::vector<Edge> tight_;       // the shortest-path edges found so far
  PathEdges<ExecSpace, T> paths_;
};

}  // namespace apsp
