#include "plan/supernodal_choice.hpp"

#include <apsp/detail/measure.hpp>
#include <apsp/error.hpp>
#include <apsp/ordering.hpp>

#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace apsp {
namespace {

using detail::Clock;

// When auto considers supernodal Floyd-Warshall: supernodal_min_vertices and
// supernodal_max_degree (supernodal_choice.hpp). Then the work of each
// algorithm is predicted in dense Floyd-Warshall updates (padded V^3 for fw): a supernodal
// update costs this many (its kernels run below the dense ones' rate), each level of the tree
// this many more (its launches: the level's small fronts in one), each front too large for
// that launch this many (its own launches); a bucket-queue Dijkstra's arc this many (sssp,
// V x arcs). Measured on an H100 and on a 2-core EPYC, docs/PERFORMANCE.md entries 32 and 36;
// the least work runs.
struct Costs {
  double per_update, per_level, per_large_front;
};
constexpr Costs costs_on(bool host) {
  return host ? Costs{1.5, 2.5e6, 7.5e6} : Costs{25, 6e9, 8e8};
}
constexpr double dense_updates_per_dijkstra_arc = 150;
// Host memory of the ordering and the symbolic phase, per vertex and arc: METIS' graph and
// workspace, the symbolic phase's structures, its column structures up to the fill limit below.
constexpr std::uint64_t plan_bytes = 512;
// ... and only where the ordering's fill stays below this many times the graph's arcs and
// vertices (beyond, the symbolic phase stops: the factor alone would cost too much).
constexpr double max_fill_ratio = 64;

}  // namespace

SupernodalChoice choose_supernodal(std::int64_t vertices, const std::vector<Edge>& edges,
                                   const SupernodalRequest& r) {
  SupernodalChoice c;
  c.algorithm = r.chosen;
  SupernodalStats& sn = c.stats;
  const double v = double(vertices), arcs = double(edges.size());
  if (r.asked && !have_nested_dissection())
    throw UnavailableError(
        "--algorithm supernodal orders the graph with METIS, which this build lacks: use "
        "--algorithm fw, or rebuild apsp with METIS (scripts/bootstrap-deps installs it)");
  if (!r.asked && (!r.automatic || !have_nested_dissection() || !r.tile_32 ||
                   vertices < supernodal_min_vertices || arcs > supernodal_max_degree * v))
    return c;
  // Memory first: the ordering of a huge graph is not tried when it cannot fit.
  const std::uint64_t need = plan_bytes * (std::uint64_t(vertices) + std::uint64_t(edges.size()));
  const std::uint64_t have = available_memory(Kokkos::DefaultHostExecutionSpace());
  if (need > have) {
    const std::string what =
        "V = " + std::to_string(vertices) + " needs about " + detail::size_text(need) +
        " of host memory for the supernodal ordering, " + detail::size_text(have) + " available";
    if (r.asked) throw MemoryError(what, need, have, false, 1, true);
    sn.considered = true;
    sn.decision = "auto: " + what + ": " + algorithm_name(r.chosen);
    return c;
  }
  auto start = Clock::now();
  const std::vector<std::int32_t> perm = nested_dissection_order(vertices, edges);
  sn.ordering = detail::seconds_since(start);
  start = Clock::now();
  SupernodalOptions options;
  if (!r.asked) options.max_fill = max_fill_ratio * (arcs + v);
  SupernodalPlan plan = supernodal_symbolic(vertices, edges, perm, options);
  sn.symbolic = detail::seconds_since(start);
  const SupernodalPrediction& w = plan.prediction;
  sn.considered = true;
  if (w.fill_exceeded) {
    std::ostringstream why;
    why.precision(3);
    why << "auto: the ordering's fill passed " << options.max_fill << " entries (" << max_fill_ratio
        << " x the arcs and vertices): " << algorithm_name(r.chosen);
    sn.decision = why.str();
    return c;
  }
  const double padded = double(r.dense_padded);
  sn.supernodes = w.supernodes;
  sn.predicted_updates = w.updates();
  sn.factor_updates = w.factor_updates;
  sn.row_updates = w.row_updates;
  sn.dense_updates = padded * padded * padded;
  const double other =
      r.chosen == Algorithm::sssp ? dense_updates_per_dijkstra_arc * v * arcs : sn.dense_updates;
  const Costs costs = costs_on(r.host);
  // With predecessors every row is made twice (SupernodalSolver); both search alike.
  const double updates = w.updates() + (r.predecessors ? w.row_updates : 0);
  const double work = updates * costs.per_update + double(w.levels) * costs.per_level +
                      double(w.supernodes - w.small_fronts) * costs.per_large_front;
  std::ostringstream why;
  why.precision(3);
  why << (r.asked ? "asked" : "auto") << ": " << w.updates() << " updates in " << w.supernodes
      << " supernodes, worth " << work << " dense updates; "
      << (r.chosen == Algorithm::sssp ? "Dijkstra's " : "dense Floyd-Warshall's ") << other;
  if (r.asked || work <= other) {
    sn.decision = why.str() + (r.asked ? "" : ": supernodal");
    c.algorithm = Algorithm::supernodal;
    c.plan = std::move(plan);
    return c;
  }
  sn.decision = why.str() + ": " + algorithm_name(r.chosen);
  return c;
}

}  // namespace apsp
