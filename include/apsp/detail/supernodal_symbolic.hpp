// The steps of the symbolic phase of supernodal Floyd-Warshall (supernodal_symbolic.hpp), on
// the host, in the order the phase runs them: the structure alone decides where finite values
// can appear (the fill of sparse Cholesky on the symmetrized structure: George & Liu, "Computer
// solution of large sparse positive definite systems", 1981), which columns go together, where
// each supernode's Schur complement goes, in which order the factor closes the fronts, and what
// it will all cost (Sao, Kannan, Gera, Vuduc, PPoPP 2020).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/supernodal_plan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace apsp {
namespace detail {

// Rows of the factor are padded to this many values, so that the rows' kernels run whole host
// vectors (64 bytes of int32: an AVX-512 register).
constexpr int factor_lanes = 16;
KOKKOS_INLINE_FUNCTION int factor_ld(int n) {
  return (n + factor_lanes - 1) / factor_lanes * factor_lanes;
}

// A symmetric structure in compressed rows: the neighbours of v are adj[start[v] .. start[v+1]).
struct Adjacency {
  std::vector<std::int64_t> start;
  std::vector<std::int32_t> adj;
};

// The symmetrized structure of the edges, renumbered by position[] (self-loops dropped).
inline Adjacency symmetric_structure(std::int64_t vertices, const std::vector<Edge>& edges,
                                     const std::vector<std::int32_t>& position) {
  Adjacency g;
  g.start.assign(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges)
    if (e.src != e.dst) {
      ++g.start[std::size_t(position[e.src]) + 1];
      ++g.start[std::size_t(position[e.dst]) + 1];
    }
  for (std::int64_t v = 0; v < vertices; ++v)
    g.start[v + 1] += g.start[v];
  g.adj.resize(std::size_t(g.start[vertices]));
  std::vector<std::int64_t> at(g.start.begin(), g.start.end() - 1);
  for (const Edge& e : edges)
    if (e.src != e.dst) {
      const std::int32_t a = position[e.src], b = position[e.dst];
      g.adj[std::size_t(at[a]++)] = b;
      g.adj[std::size_t(at[b]++)] = a;
    }
  return g;
}

// Liu's algorithm: parent[j] is the elimination tree's parent of column j (-1 at roots).
inline std::vector<std::int32_t> elimination_tree(std::int64_t vertices, const Adjacency& g) {
  std::vector<std::int32_t> parent(static_cast<std::size_t>(vertices), -1),
      ancestor(static_cast<std::size_t>(vertices), -1);
  for (std::int32_t k = 0; k < vertices; ++k)
    for (std::int64_t e = g.start[k]; e < g.start[k + 1]; ++e) {
      std::int32_t r = g.adj[std::size_t(e)];
      if (r >= k) continue;
      while (ancestor[r] != -1 && ancestor[r] != k) {
        const std::int32_t next = ancestor[r];
        ancestor[r] = k;
        r = next;
      }
      if (ancestor[r] == -1) {
        ancestor[r] = k;
        parent[r] = k;
      }
    }
  return parent;
}

// The tree's postorder: order[k] is the column at position k (children in ascending order).
inline std::vector<std::int32_t> tree_postorder(const std::vector<std::int32_t>& parent) {
  const std::size_t n = parent.size();
  std::vector<std::int32_t> head(n, -1), next(n, -1), order;
  order.reserve(n);
  for (std::size_t j = n; j-- > 0;)
    if (parent[j] >= 0) {
      next[j] = head[std::size_t(parent[j])];
      head[std::size_t(parent[j])] = std::int32_t(j);
    }
  std::vector<std::int32_t> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (parent[root] >= 0) continue;
    stack.push_back(std::int32_t(root));
    while (!stack.empty()) {
      const std::int32_t v = stack.back();
      if (head[std::size_t(v)] >= 0) {  // descend into the next child not yet visited
        const std::int32_t c = head[std::size_t(v)];
        head[std::size_t(v)] = next[std::size_t(c)];
        stack.push_back(c);
      } else {
        order.push_back(v);
        stack.pop_back();
      }
    }
  }
  return order;
}

// Step 3: |struct(L(:,j))| for every column (parent[j] > j: postorder): the column's later
// neighbours and its children's structures, less itself. A child's structure is freed once its
// parent has it. Empty once their sum passes max_fill (> 0).
inline std::vector<std::int32_t> column_counts(std::int64_t vertices, const Adjacency& g,
                                               const std::vector<std::int32_t>& parent,
                                               double max_fill = 0) {
  double fill = 0;
  std::vector<std::vector<std::int32_t>> children_structs(static_cast<std::size_t>(vertices));
  std::vector<std::int32_t> counts(static_cast<std::size_t>(vertices)),
      mark(static_cast<std::size_t>(vertices), -1);
  std::vector<std::int32_t> s;
  for (std::int32_t j = 0; j < vertices; ++j) {
    s.clear();
    mark[j] = j;
    for (std::int64_t e = g.start[j]; e < g.start[j + 1]; ++e) {
      const std::int32_t i = g.adj[std::size_t(e)];
      if (i > j && mark[i] != j) {
        mark[i] = j;
        s.push_back(i);
      }
    }
    for (const std::int32_t i : children_structs[std::size_t(j)])
      if (mark[i] != j) {
        mark[i] = j;
        s.push_back(i);
      }
    std::vector<std::int32_t>().swap(children_structs[std::size_t(j)]);
    counts[j] = std::int32_t(s.size());
    fill += double(s.size());
    if (max_fill > 0 && fill > max_fill) return {};
    if (parent[j] >= 0) {
      auto& up = children_structs[std::size_t(parent[j])];
      up.insert(up.end(), s.begin(), s.end());
    }
  }
  return counts;
}

// The caller's order, checked with the options and the edges: perm[new] = old, or the identity
// where perm is empty.
inline std::vector<std::int32_t> checked_order(std::int64_t vertices,
                                               const std::vector<Edge>& edges,
                                               const std::vector<std::int32_t>& perm,
                                               const SupernodalOptions& options) {
  if (vertices < 0 || vertices > INT32_MAX)
    throw Error("supernodal: V = " + std::to_string(vertices) + " is out of range");
  if (options.tile < 0 || options.tile % 4 != 0)
    throw Error("supernodal: tile " + std::to_string(options.tile) + " is not a multiple of 4");
  if (options.small_front < 0 || options.small_front % 4 != 0)
    throw Error("supernodal: small_front " + std::to_string(options.small_front) +
                " is not a multiple of 4");
  const std::size_t n = std::size_t(vertices);
  std::vector<std::int32_t> given(n), seen(n, 0);
  if (perm.empty()) {
    for (std::size_t v = 0; v < n; ++v)
      given[v] = std::int32_t(v);
  } else {
    if (perm.size() != n)
      throw Error("supernodal: the permutation has " + std::to_string(perm.size()) +
                  " entries for V = " + std::to_string(vertices));
    given = perm;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t v = given[k];
    if (v < 0 || std::size_t(v) >= n || seen[std::size_t(v)])
      throw Error("supernodal: the permutation is not one of 0 .. V - 1 (entry " +
                  std::to_string(k) + ": " + std::to_string(v) + ")");
    seen[std::size_t(v)] = 1;
  }
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (edges[e].src < 0 || edges[e].src >= vertices || edges[e].dst < 0 ||
        edges[e].dst >= vertices)
      throw Error("supernodal: edge " + std::to_string(e) + " has a vertex outside [0, " +
                  std::to_string(vertices) + ")");
  return given;
}

// position[perm[k]] = k.
inline std::vector<std::int32_t> inverse(const std::vector<std::int32_t>& perm) {
  std::vector<std::int32_t> position(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k)
    position[std::size_t(perm[k])] = std::int32_t(k);
  return position;
}

// The elimination tree in postorder, and the order that numbers it so: every subtree is a
// contiguous range of columns ending at its root, which changes no fill and lets a supernode
// own its subtree as one range.
struct PostorderedTree {
  std::vector<std::int32_t> perm, position;  // the plan's order: perm[new] = old
  std::vector<std::int32_t> parent;          // in that order, parent[j] > j; -1 at roots
  Adjacency graph;                           // the symmetrized structure in that order
};

// Steps 1-2: the tree of the caller's order, its postorder composed with that order.
inline PostorderedTree postordered_tree(std::int64_t vertices, const std::vector<Edge>& edges,
                                        const std::vector<std::int32_t>& given) {
  const std::size_t n = std::size_t(vertices);
  const std::vector<std::int32_t> given_parent =
      elimination_tree(vertices, symmetric_structure(vertices, edges, inverse(given)));
  const std::vector<std::int32_t> order = tree_postorder(given_parent);
  const std::vector<std::int32_t> rank = inverse(order);
  PostorderedTree tree;
  tree.perm.resize(n);
  tree.parent.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    tree.perm[k] = given[std::size_t(order[k])];
    const std::int32_t p = given_parent[std::size_t(order[k])];
    tree.parent[k] = p < 0 ? -1 : rank[std::size_t(p)];
  }
  tree.position = inverse(tree.perm);
  tree.graph = symmetric_structure(vertices, edges, tree.position);
  return tree;
}

// Step 4, relaxed amalgamation (supernodes): fundamental supernodes (chains that add no
// infinity) save launches, and so do small fronts merged while the infinities they add stay few.
// The chain ending at column j - 1 joins column j when j is its parent (then it is j's last
// child) and what it adds stays within the options; a subtree of few columns (the leaves of a
// dissection, branching) becomes one supernode whole: its range is contiguous and its border
// is its root's. Returns first: supernode s holds the columns [first[s], first[s + 1]).
inline std::vector<std::int32_t> amalgamate(const std::vector<std::int32_t>& parent,
                                            const std::vector<std::int32_t>& counts,
                                            const SupernodalOptions& options) {
  const std::int32_t vertices = std::int32_t(parent.size());
  // The values of a supernode of c columns and border b.
  const auto values = [](double c, double b) { return c * (c + 2 * b); };
  std::vector<std::int32_t> subtree_start(parent.size());
  for (std::int32_t j = 0; j < vertices; ++j)
    subtree_start[std::size_t(j)] = j;
  for (std::int32_t j = 0; j < vertices; ++j)
    if (parent[j] >= 0)
      subtree_start[std::size_t(parent[j])] =
          std::min(subtree_start[std::size_t(parent[j])], subtree_start[std::size_t(j)]);
  std::vector<std::int32_t> first{0};
  double chain_values = 0, chain_zeros = 0;
  for (std::int32_t j = 0; j < vertices; ++j) {
    const double own = values(1, counts[j]);
    bool merged_chain = false;
    if (j > 0 && parent[j - 1] == j) {
      const double columns = double(j - first.back() + 1);
      const double merged = values(columns, counts[j]);
      const double zeros = chain_zeros + merged - chain_values - own;
      if (merged - chain_values - own <= 0 || columns <= options.small_supernode ||
          zeros <= options.relaxed_fraction * merged) {
        chain_values = merged;
        chain_zeros = zeros;
        merged_chain = true;
      }
    }
    if (!merged_chain) {
      if (j > 0) first.push_back(j);
      chain_values = own;
      chain_zeros = 0;
    }
    const std::int32_t from = subtree_start[std::size_t(j)];
    if (j - from + 1 <= options.small_subtree && first.back() > from) {
      while (first.back() > from)
        first.pop_back();
      if (first.back() < from) first.push_back(from);
      chain_values = values(j - from + 1, counts[j]);
      chain_zeros = 0;
    }
  }
  if (vertices > 0) first.push_back(vertices);
  return first;
}

// Step 5a, borders: Bd(s), the later vertices adjacent to s's subtree in the filled graph (the
// structure of its last column), is what s's own columns reach plus its children's borders; its
// lowest vertex names s's parent. Fills supernode_of, the supernodal tree (parent, child lists,
// subtree_first) and the borders, ascending.
inline void find_borders(SupernodalPlan& plan, const Adjacency& graph) {
  const std::int64_t supernodes = std::int64_t(plan.first.size()) - 1;
  plan.supernode_of.resize(std::size_t(plan.vertices));
  for (std::int64_t s = 0; s < supernodes; ++s)
    for (std::int32_t j = plan.first[s]; j < plan.first[s + 1]; ++j)
      plan.supernode_of[std::size_t(j)] = std::int32_t(s);
  plan.parent.assign(std::size_t(supernodes), -1);
  plan.subtree_first.resize(std::size_t(supernodes));
  plan.border_start.assign(1, 0);
  std::vector<std::vector<std::int32_t>> children(static_cast<std::size_t>(supernodes));
  std::vector<std::int32_t> mark(std::size_t(plan.vertices), -1), bd;
  for (std::int64_t s = 0; s < supernodes; ++s) {
    const std::int32_t f = plan.first[s], last = plan.first[s + 1] - 1;
    bd.clear();
    const auto add = [&](std::int32_t i) {
      if (i > last && mark[i] != s) {
        mark[i] = std::int32_t(s);
        bd.push_back(i);
      }
    };
    for (std::int32_t j = f; j <= last; ++j)
      for (std::int64_t e = graph.start[j]; e < graph.start[j + 1]; ++e)
        add(graph.adj[std::size_t(e)]);
    plan.subtree_first[s] = f;
    for (const std::int32_t c : children[std::size_t(s)]) {
      plan.subtree_first[s] = std::min(plan.subtree_first[s], plan.subtree_first[c]);
      for (std::int64_t e = plan.border_start[c]; e < plan.border_start[c + 1]; ++e)
        add(plan.border[std::size_t(e)]);
    }
    std::sort(bd.begin(), bd.end());
    if (!bd.empty()) {
      plan.parent[s] = plan.supernode_of[std::size_t(bd.front())];
      children[std::size_t(plan.parent[s])].push_back(std::int32_t(s));
    }
    plan.border.insert(plan.border.end(), bd.begin(), bd.end());
    plan.border_start.push_back(std::int64_t(plan.border.size()));
  }
  plan.child_start.assign(1, 0);
  for (const std::vector<std::int32_t>& list : children) {
    plan.child.insert(plan.child.end(), list.begin(), list.end());
    plan.child_start.push_back(std::int32_t(plan.child.size()));
  }
}

// Step 5b: where each border vertex lands in its parent's front (padded front coordinates: the
// parent's columns, then its border from padded(columns)), for the extend-add.
inline void place_in_parents(SupernodalPlan& plan) {
  plan.relative.resize(plan.border.size());
  for (std::int64_t s = 0; s < plan.supernodes(); ++s) {
    const std::int32_t p = plan.parent[s];
    if (p < 0) continue;
    const auto pb = plan.border.begin() + plan.border_start[p],
               pe = plan.border.begin() + plan.border_start[p + 1];
    for (std::int64_t e = plan.border_start[s]; e < plan.border_start[s + 1]; ++e) {
      const std::int32_t v = plan.border[std::size_t(e)];
      if (v < plan.first[p + 1]) {
        plan.relative[std::size_t(e)] = v - plan.first[p];
      } else {
        const auto at = std::lower_bound(pb, pe, v);
        if (at == pe || *at != v)
          throw Error(
              "supernodal: internal error, a border vertex missing from its parent's front");
        plan.relative[std::size_t(e)] = plan.padded(plan.columns(p)) + std::int32_t(at - pb);
      }
    }
  }
}

// Step 6a: the tree's levels. Supernodes of one height (leaves 0, a parent one above its
// highest child) are independent, so the factor closes a level at a time.
inline void level_by_height(SupernodalPlan& plan) {
  const std::int64_t supernodes = plan.supernodes();
  std::vector<std::int32_t> height(static_cast<std::size_t>(supernodes), 0);
  std::int32_t top = -1;
  for (std::int64_t s = 0; s < supernodes; ++s) {
    top = std::max(top, height[std::size_t(s)]);
    if (plan.parent[s] >= 0)
      height[std::size_t(plan.parent[s])] =
          std::max(height[std::size_t(plan.parent[s])], height[std::size_t(s)] + 1);
  }
  plan.level_start.assign(std::size_t(top + 2), 0);
  for (std::int64_t s = 0; s < supernodes; ++s)
    ++plan.level_start[std::size_t(height[std::size_t(s)]) + 1];
  for (std::size_t h = 0; h + 1 < plan.level_start.size(); ++h)
    plan.level_start[h + 1] += plan.level_start[h];
  plan.by_level.resize(std::size_t(supernodes));
  std::vector<std::int64_t> at(plan.level_start.begin(), plan.level_start.end() - 1);
  for (std::int64_t s = 0; s < supernodes; ++s)
    plan.by_level[std::size_t(at[std::size_t(height[std::size_t(s)])]++)] = std::int32_t(s);
}

// Step 6b: the pool. A Schur complement of a border of at most small_front vertices waits for
// its parent there (b x b, in the factor's order), so that its front need not stay alive.
inline void place_in_pool(SupernodalPlan& plan) {
  plan.pool_offset.assign(std::size_t(plan.supernodes()), -1);
  std::int64_t pool = 0;
  for (const std::int32_t s : plan.by_level) {
    const int b = plan.border_size(s);
    if (b > 0 && b <= plan.small_front) {
      plan.pool_offset[std::size_t(s)] = pool;
      pool += std::int64_t(b) * b;
    }
  }
}

// Step 6c: where each supernode's values start in the factor: C_ss, A(s,Bd) and A(Bd,s), rows
// padded to factor_ld (the layout of SupernodeViews).
inline void place_values(SupernodalPlan& plan) {
  plan.values_start.assign(std::size_t(plan.supernodes()) + 1, 0);
  for (std::int64_t s = 0; s < plan.supernodes(); ++s) {
    const int c = plan.columns(s), b = plan.border_size(s);
    plan.values_start[std::size_t(s) + 1] = plan.values_start[std::size_t(s)] +
                                            std::int64_t(c + b) * factor_ld(c) +
                                            std::int64_t(c) * factor_ld(b);
  }
}

// Step 6e: each column's place in a row's path arrays (the row sweeps, supernodal_kernels.hpp).
// A row's sweeps only ever hold the columns of one root-to-supernode path at a time, so each
// supernode's columns go after those of its proper ancestors: the columns of one path never
// share a place, and a border vertex (a column of a proper ancestor) has its supernode's place.
// A parent has a larger id than its children (postorder): descending ids see it first.
inline void place_on_paths(SupernodalPlan& plan) {
  const std::int64_t supernodes = plan.supernodes();
  plan.path_offset.assign(std::size_t(supernodes), 0);
  for (std::int64_t s = supernodes - 1; s >= 0; --s) {
    const std::int32_t p = plan.parent[std::size_t(s)];
    if (p >= 0)
      plan.path_offset[std::size_t(s)] = plan.path_offset[std::size_t(p)] + plan.columns(p);
  }
  plan.border_path.resize(plan.border.size());
  for (std::size_t e = 0; e < plan.border.size(); ++e) {
    const std::int32_t v = plan.border[e], a = plan.supernode_of[std::size_t(v)];
    plan.border_path[e] = plan.path_offset[std::size_t(a)] + v - plan.first[std::size_t(a)];
  }
}

// Step 6d: the factor's order of work where fronts of at most small_front vertices (columns +
// border, unpadded) are small: each level's small fronts, its large ones, and the workspace
// that the large fronts leaving nothing behind share. The symbolic phase makes the plan's own;
// the numeric phase another where the device's scratch holds fewer vertices.
inline SupernodalSchedule front_schedule(const SupernodalPlan& plan, int small_front) {
  SupernodalSchedule schedule;
  schedule.small_front = small_front;
  const std::size_t levels = plan.level_start.empty() ? 0 : plan.level_start.size() - 1;
  schedule.small_start.assign(1, 0);
  schedule.large_start.assign(1, 0);
  for (std::size_t h = 0; h < levels; ++h) {
    for (std::int64_t e = plan.level_start[h]; e < plan.level_start[h + 1]; ++e) {
      const std::int32_t s = plan.by_level[std::size_t(e)];
      const int front = plan.columns(s) + plan.border_size(s);
      if (front <= small_front) {
        schedule.small.push_back(s);
      } else {
        schedule.large.push_back(s);
        if (plan.pooled(s) || plan.parent[s] < 0)
          schedule.workspace = std::max<std::int64_t>(schedule.workspace, plan.front_size(s));
      }
    }
    schedule.small_start.push_back(std::int64_t(schedule.small.size()));
    schedule.large_start.push_back(std::int64_t(schedule.large.size()));
  }
  return schedule;
}

// Step 7, the prediction: memory and work before any numeric work. Memory, in the factor's
// order (level by level): the pool; one workspace for the fronts that leave nothing behind (a
// pooled Schur complement, or none: a root), at most the largest such front (the small ones
// are closed in scratch where the device's scratch holds them); and each other front from its
// own step until its parent has added it.
inline SupernodalPrediction predict(const SupernodalPlan& plan) {
  SupernodalPrediction pr;
  const std::int64_t supernodes = plan.supernodes();
  pr.supernodes = supernodes;
  pr.levels = std::int64_t(plan.level_start.size()) - 1;
  for (const std::int32_t s : plan.by_level)
    if (plan.pooled(s)) pr.pool_values += std::uint64_t(plan.border_size(s)) * plan.border_size(s);
  pr.dense_updates = double(plan.vertices) * double(plan.vertices) * double(plan.vertices);
  std::uint64_t alive = 0, peak = 0, workspace = 0;
  for (const std::int32_t s : plan.by_level) {
    const std::uint64_t front = std::uint64_t(plan.front_size(s));
    if (plan.pooled(s) || plan.parent[s] < 0) {
      workspace = std::max(workspace, front * front);
    } else {
      alive += front * front;
      peak = std::max(peak, alive);
    }
    for (std::int32_t k = plan.child_start[s]; k < plan.child_start[s + 1]; ++k)
      if (!plan.pooled(plan.child[std::size_t(k)])) {
        const std::uint64_t f = std::uint64_t(plan.front_size(plan.child[std::size_t(k)]));
        alive -= f * f;
      }
  }
  pr.front_values = pr.pool_values + workspace + peak;
  pr.factor_values = std::uint64_t(plan.values_start.back());
  for (std::int64_t s = 0; s < supernodes; ++s) {
    const int c = plan.columns(s), b = plan.border_size(s), front = plan.front_size(s);
    pr.largest_supernode = std::max<std::int64_t>(pr.largest_supernode, c);
    pr.largest_border = std::max<std::int64_t>(pr.largest_border, b);
    pr.largest_front = std::max<std::int64_t>(pr.largest_front, front);
    pr.small_fronts += c + b <= plan.small_front;
    pr.largest_path = std::max<std::int64_t>(pr.largest_path, plan.path_offset[std::size_t(s)] + c);
    pr.factor_updates += double(plan.padded(c)) * double(front) * double(front);
    // Per row: the backward pass over every supernode, the forward pass over the rows whose
    // tree path goes through s (those of its subtree).
    const double per_row = double(c) * double(factor_ld(c) + factor_ld(b));
    pr.row_updates +=
        per_row * (double(plan.vertices) + double(plan.first[s + 1] - plan.subtree_first[s]));
  }
  return pr;
}

// The rows' updates (both passes) of all V rows where each row's backward pass stops at its own
// supernode (half rows: a symmetric graph's measures, RowSweeps::half): row i sweeps s backward
// only where i < first(s + 1), about half of SupernodalPrediction::row_updates.
inline double half_row_updates(const SupernodalPlan& plan) {
  double updates = 0;
  for (std::int64_t s = 0; s < plan.supernodes(); ++s) {
    const int c = plan.columns(s), b = plan.border_size(s);
    const double per_row = double(c) * double(factor_ld(c) + factor_ld(b));
    updates +=
        per_row * (double(plan.first[std::size_t(s) + 1]) +
                   double(plan.first[std::size_t(s) + 1] - plan.subtree_first[std::size_t(s)]));
  }
  return updates;
}

}  // namespace detail
}  // namespace apsp
