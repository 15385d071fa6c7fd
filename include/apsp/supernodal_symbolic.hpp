// The symbolic phase of supernodal Floyd-Warshall (supernodal.hpp), on the host: everything the
// numeric phases need from the structure alone, and what they will cost, before any of it runs
// (as CHOLMOD's analyze and MUMPS's analysis phase do).
//
//   const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(graph.vertices, graph.edges, perm);
//   if (plan.prediction.updates() < plan.prediction.dense_updates) ...  // worth it
//
// Floyd-Warshall is Gaussian elimination in the (min, +) semiring, so the fill of sparse
// Cholesky on the symmetrized structure bounds where finite values can appear (George & Liu,
// "Computer solution of large sparse positive definite systems", 1981; the supernodal APSP of
// Sao, Kannan, Gera, Vuduc, PPoPP 2020). The steps (detail/supernodal_symbolic.hpp), as in
// sparse Cholesky codes:
//   1. the elimination tree of the permuted symmetrized structure (Liu's algorithm with path
//      compression: J. Liu, "The role of elimination trees in sparse factorization", 1990);
//   2. its postorder, composed with the caller's permutation;
//   3. the column counts |struct(L(:,j))|, which bound the fill before any of it is stored;
//   4. amalgamation: the columns into supernodes (relaxed: a few explicit infinities for fewer,
//      larger fronts);
//   5. the border Bd(s) of each supernode, and where each border vertex lands in its parent's
//      front;
//   6. the factor's schedule: the supernodes by height in the tree, the pool of small Schur
//      complements, where each supernode's values start, and the small and large fronts of
//      each level (SupernodalSchedule), each column's place in a row's path arrays;
//   7. the prediction of memory and work (SupernodalPrediction).
// The plan's types and broadcast_plan (one rank's plan to all) are in supernodal_plan.hpp.
#pragma once

#include <apsp/detail/supernodal_symbolic.hpp>
#include <apsp/graph.hpp>
#include <apsp/supernodal_plan.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace apsp {

// The symbolic phase: V vertices, the edges (directed or not: the structure is symmetrized) and
// a fill-reducing permutation, perm[new] = old (empty: the identity). Every permutation gives
// exact results; a nested-dissection one gives small fronts. Throws apsp::Error on a bad
// permutation, edge or option.
inline SupernodalPlan supernodal_symbolic(std::int64_t vertices, const std::vector<Edge>& edges,
                                          const std::vector<std::int32_t>& perm = {},
                                          const SupernodalOptions& options = {}) {
  const std::vector<std::int32_t> given = detail::checked_order(vertices, edges, perm, options);
  SupernodalPlan plan;
  plan.vertices = vertices;
  plan.tile = options.tile > 0 ? options.tile : 32;
  plan.small_front = options.small_front;
  // 1-2.
  detail::PostorderedTree tree = detail::postordered_tree(vertices, edges, given);
  // 3.
  const std::vector<std::int32_t> counts =
      detail::column_counts(vertices, tree.graph, tree.parent, options.max_fill);
  if (counts.size() != tree.parent.size()) {
    plan.prediction.fill_exceeded = true;
    return plan;
  }
  plan.perm = std::move(tree.perm);
  plan.position = std::move(tree.position);
  // 4.
  plan.first = detail::amalgamate(tree.parent, counts, options);
  // 5.
  detail::find_borders(plan, tree.graph);
  detail::place_in_parents(plan);
  // 6.
  detail::level_by_height(plan);
  detail::place_in_pool(plan);
  detail::place_values(plan);
  detail::place_on_paths(plan);
  plan.schedule = detail::front_schedule(plan, plan.small_front);
  // 7.
  plan.prediction = detail::predict(plan);
  return plan;
}

}  // namespace apsp
