// The symbolic phase of supernodal Floyd-Warshall (supernodal.hpp), on the host: everything the
// numeric phases need from the structure alone, and what they will cost.
//
// Floyd-Warshall is Gaussian elimination in the (min, +) semiring, so the fill of sparse
// Cholesky on the symmetrized structure bounds where finite values can appear (George & Liu,
// "Computer solution of large sparse positive definite systems", 1981; the supernodal APSP of
// Sao, Kannan, Gera, Vuduc, PPoPP 2020). The steps, as in sparse Cholesky codes:
//   1. the elimination tree of the permuted symmetrized structure (Liu's algorithm with path
//      compression: J. Liu, "The role of elimination trees in sparse factorization", 1990);
//   2. its postorder, composed with the caller's permutation: every subtree becomes a contiguous
//      range of indices that ends at its root, which changes no fill;
//   3. the column counts |struct(L(:,j))|, merging the children's structures in postorder;
//   4. supernodes: small subtrees whole, chains of the tree merged while the explicit
//      infinities they add stay few
//      (relaxed amalgamation: fundamental supernodes add none, small fronts cost launches);
//   5. the border Bd(s) of each supernode: the later vertices adjacent to its subtree in the
//      filled graph (= struct of its last column), and where each lands in its parent's front;
//   6. the factor's schedule: the supernodes by height in the tree (those of one height are
//      independent), and where each small Schur complement waits for its parent (the pool).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// What the symbolic phase is told: the tile the fronts are padded to (0: 32, which every
// backend's table has), how far supernodes are merged and which fronts count as small.
struct SupernodalOptions {
  int tile = 0;
  // Fronts of at most this many vertices (columns + border, unpadded; a multiple of 4) are closed
  // a tree level at a time, one team each in scratch, where the device's scratch holds them
  // (supernodal.hpp); Schur complements of borders up to this size wait in one pool. 0: none,
  // every front through the blocked kernels.
  int small_front = 128;
  int small_supernode = 16;       // chains merged up to this many columns whatever they add
  double relaxed_fraction = 0.1;  // ... and beyond it while the added infinities stay below this
                                  // fraction of the merged supernode's values
  int small_subtree = 32;         // a subtree of at most this many columns is one supernode
  // Stop once the factor's structure (the fill, entries below the diagonal) passes this many
  // entries, 0: never. A caller that only wants the plan where the fill is small bounds the
  // symbolic phase's own time and memory this way (a random graph fills in almost densely).
  double max_fill = 0;
};

// Predictions of the symbolic phase, before any numeric work (values: distances of the type
// the numeric phase uses; bytes = values x sizeof(T)).
struct SupernodalPrediction {
  std::int64_t supernodes = 0;
  std::int64_t largest_supernode = 0;  // columns
  std::int64_t largest_border = 0;     // |Bd(s)|
  std::int64_t largest_front = 0;      // padded front size
  std::uint64_t factor_values = 0;     // the factor kept for the rows: sum |s| (|s| + 2 |Bd(s)|),
                                       // rows padded to whole vectors
  std::uint64_t front_values = 0;      // peak of the fronts alive at once during the factor, the
                                       // pool and the workspace of the blocked kernels included
  std::uint64_t pool_values = 0;       // the pool: the Schur complements of borders of at most
                                       // small_front vertices, b x b each
  std::int64_t levels = 0;             // heights in the supernodal tree (the factor's steps)
  std::int64_t small_fronts = 0;       // supernodes whose front is small (c + b <= small_front)
  double factor_updates = 0;           // min-plus updates of the factor, padding included
  double row_updates = 0;              // ... of all V rows (both passes)
  double dense_updates = 0;            // V^3: dense Floyd-Warshall
  bool fill_exceeded = false;          // stopped at SupernodalOptions::max_fill: no plan
  double updates() const { return factor_updates + row_updates; }
};

// The result of the symbolic phase. Vertices are numbered in the plan's order: vertex `new` is
// the user's perm[new]; position[old] = new. Supernode s holds the columns
// [first[s], first[s + 1]); its subtree the columns [subtree_first[s], first[s + 1]).
struct SupernodalPlan {
  std::int64_t vertices = 0;
  int tile = 32;
  std::vector<std::int32_t> perm;
  std::vector<std::int32_t> position;
  std::vector<std::int32_t> first;          // S + 1
  std::vector<std::int32_t> subtree_first;  // S
  std::vector<std::int32_t> parent;         // S, -1 at roots
  std::vector<std::int64_t> border_start;   // S + 1, into border
  std::vector<std::int32_t> border;         // Bd(s), ascending, plan numbering
  std::vector<std::int32_t> relative;       // per border entry: its row in the parent's front
  // The factor's schedule: supernodes by height (leaves 0, a parent one above its highest
  // child), ascending ids within a height: level h is by_level[level_start[h] ..
  // level_start[h + 1]). pool_offset[s]: where supernode s leaves its Schur complement (b x b,
  // row-major) in the pool, or -1 (no border, or more than small_front vertices: its front stays).
  int small_front = 0;
  std::vector<std::int32_t> by_level;     // S
  std::vector<std::int64_t> level_start;  // levels + 1
  std::vector<std::int64_t> pool_offset;  // S
  SupernodalPrediction prediction;

  std::int64_t supernodes() const { return std::int64_t(parent.size()); }
  int columns(std::int64_t s) const { return first[s + 1] - first[s]; }
  int border_size(std::int64_t s) const { return int(border_start[s + 1] - border_start[s]); }
  // A front is its supernode's columns, then its border, each padded to the tile.
  int padded(int n) const { return (n + tile - 1) / tile * tile; }
  int front_size(std::int64_t s) const { return padded(columns(s)) + padded(border_size(s)); }
};

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

// |struct(L(:,j))| for every column (parent[j] > j: postorder): the column's later neighbours and
// its children's structures, less itself. A child's structure is freed once its parent has it.
// Empty once their sum passes max_fill (> 0).
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

}  // namespace detail

// The symbolic phase: V vertices, the edges (directed or not: the structure is symmetrized) and
// a fill-reducing permutation, perm[new] = old (empty: the identity). Every permutation gives
// exact results; a nested-dissection one gives small fronts. Throws apsp::Error on a bad
// permutation or edge.
inline SupernodalPlan supernodal_symbolic(std::int64_t vertices, const std::vector<Edge>& edges,
                                          const std::vector<std::int32_t>& perm = {},
                                          const SupernodalOptions& options = {}) {
  using detail::factor_ld;
  if (vertices < 0 || vertices > INT32_MAX)
    throw Error("supernodal: V = " + std::to_string(vertices) + " is out of range");
  if (options.tile < 0 || options.tile % 4 != 0)
    throw Error("supernodal: tile " + std::to_string(options.tile) + " is not a multiple of 4");
  if (options.small_front < 0 || options.small_front % 4 != 0)
    throw Error("supernodal: small_front " + std::to_string(options.small_front) +
                " is not a multiple of 4");
  const std::size_t n = std::size_t(vertices);
  SupernodalPlan plan;
  plan.vertices = vertices;
  plan.tile = options.tile > 0 ? options.tile : 32;
  plan.small_front = options.small_front;

  // The caller's order, checked.
  std::vector<std::int32_t> given(n), given_position(n, -1);
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
    if (v < 0 || std::size_t(v) >= n || given_position[std::size_t(v)] >= 0)
      throw Error("supernodal: the permutation is not one of 0 .. V - 1 (entry " +
                  std::to_string(k) + ": " + std::to_string(v) + ")");
    given_position[std::size_t(v)] = std::int32_t(k);
  }
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (edges[e].src < 0 || edges[e].src >= vertices || edges[e].dst < 0 ||
        edges[e].dst >= vertices)
      throw Error("supernodal: edge " + std::to_string(e) + " has a vertex outside [0, " +
                  std::to_string(vertices) + ")");

  // 1-2. Tree, postorder, the plan's numbering.
  const detail::Adjacency given_graph =
      detail::symmetric_structure(vertices, edges, given_position);
  const std::vector<std::int32_t> given_parent = detail::elimination_tree(vertices, given_graph);
  const std::vector<std::int32_t> order = detail::tree_postorder(given_parent);
  std::vector<std::int32_t> rank(n);
  for (std::size_t k = 0; k < n; ++k)
    rank[std::size_t(order[k])] = std::int32_t(k);
  plan.perm.resize(n);
  plan.position.resize(n);
  std::vector<std::int32_t> parent(n);
  for (std::size_t k = 0; k < n; ++k) {
    plan.perm[k] = given[std::size_t(order[k])];
    const std::int32_t p = given_parent[std::size_t(order[k])];
    parent[k] = p < 0 ? -1 : rank[std::size_t(p)];
  }
  for (std::size_t k = 0; k < n; ++k)
    plan.position[std::size_t(plan.perm[k])] = std::int32_t(k);
  const detail::Adjacency graph = detail::symmetric_structure(vertices, edges, plan.position);

  // 3. Column counts.
  const std::vector<std::int32_t> counts =
      detail::column_counts(vertices, graph, parent, options.max_fill);
  if (counts.size() != n) {
    SupernodalPlan none;
    none.vertices = vertices;
    none.tile = plan.tile;
    none.small_front = plan.small_front;
    none.prediction.fill_exceeded = true;
    return none;
  }

  // 4. Supernodes: the chain ending at column j - 1 joins column j when j is its parent (then it
  // is j's last child) and what it adds stays within the options. Values of a supernode of c
  // columns and border b: c (c + 2 b).
  const auto values = [](double c, double b) { return c * (c + 2 * b); };
  // A subtree of few columns (the leaves of a dissection, branching) becomes one supernode whole:
  // its range is contiguous and its border is its root's.
  std::vector<std::int32_t> subtree_start(n);
  for (std::size_t j = 0; j < n; ++j)
    subtree_start[j] = std::int32_t(j);
  for (std::size_t j = 0; j < n; ++j)
    if (parent[j] >= 0)
      subtree_start[std::size_t(parent[j])] =
          std::min(subtree_start[std::size_t(parent[j])], subtree_start[j]);
  plan.first.push_back(0);
  double chain_values = 0, chain_zeros = 0;
  for (std::int32_t j = 0; j < vertices; ++j) {
    const double own = values(1, counts[j]);
    bool merged_chain = false;
    if (j > 0 && parent[j - 1] == j) {
      const double columns = double(j - plan.first.back() + 1);
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
      if (j > 0) plan.first.push_back(j);
      chain_values = own;
      chain_zeros = 0;
    }
    const std::int32_t from = subtree_start[std::size_t(j)];
    if (j - from + 1 <= options.small_subtree && plan.first.back() > from) {
      while (plan.first.back() > from)
        plan.first.pop_back();
      if (plan.first.back() < from) plan.first.push_back(from);
      chain_values = values(j - from + 1, counts[j]);
      chain_zeros = 0;
    }
  }
  if (vertices > 0) plan.first.push_back(std::int32_t(vertices));
  const std::int64_t supernodes = std::int64_t(plan.first.size()) - 1;
  std::vector<std::int32_t> supernode_of(n);
  for (std::int64_t s = 0; s < supernodes; ++s)
    for (std::int32_t j = plan.first[s]; j < plan.first[s + 1]; ++j)
      supernode_of[std::size_t(j)] = std::int32_t(s);

  // 5. Borders (ascending), parents, subtrees, positions in the parent's front.
  plan.parent.assign(std::size_t(supernodes), -1);
  plan.subtree_first.resize(std::size_t(supernodes));
  plan.border_start.assign(1, 0);
  std::vector<std::vector<std::int32_t>> children(static_cast<std::size_t>(supernodes));
  std::vector<std::int32_t> mark(n, -1), bd;
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
      plan.parent[s] = supernode_of[std::size_t(bd.front())];
      children[std::size_t(plan.parent[s])].push_back(std::int32_t(s));
    }
    plan.border.insert(plan.border.end(), bd.begin(), bd.end());
    plan.border_start.push_back(std::int64_t(plan.border.size()));
  }
  plan.relative.resize(plan.border.size());
  for (std::int64_t s = 0; s < supernodes; ++s) {
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

  // 6. Heights (a parent comes after its children), the levels, the pool's offsets in the order
  // the factor fills it.
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
  {
    std::vector<std::int64_t> at(plan.level_start.begin(), plan.level_start.end() - 1);
    for (std::int64_t s = 0; s < supernodes; ++s)
      plan.by_level[std::size_t(at[std::size_t(height[std::size_t(s)])]++)] = std::int32_t(s);
  }
  const auto pooled = [&](std::int64_t s) {
    const int b = plan.border_size(s);
    return b > 0 && b <= plan.small_front;
  };
  plan.pool_offset.assign(std::size_t(supernodes), -1);
  std::int64_t pool = 0;
  for (const std::int32_t s : plan.by_level)
    if (pooled(s)) {
      plan.pool_offset[std::size_t(s)] = pool;
      pool += std::int64_t(plan.border_size(s)) * plan.border_size(s);
    }

  // Predictions. Memory, in the factor's order (level by level): the pool; one workspace for the
  // fronts that leave nothing behind (a pooled Schur complement, or none: a root), at most the
  // largest such front (the small ones are closed in scratch where the device's scratch holds
  // them); and each other front from its own step until its parent has added it.
  SupernodalPrediction& pr = plan.prediction;
  pr.supernodes = supernodes;
  pr.levels = top + 1;
  pr.pool_values = std::uint64_t(pool);
  pr.dense_updates = double(vertices) * double(vertices) * double(vertices);
  std::uint64_t alive = 0, peak = 0, workspace = 0;
  for (const std::int32_t s : plan.by_level) {
    const std::uint64_t front = std::uint64_t(plan.front_size(s));
    if (pooled(s) || plan.parent[s] < 0) {
      workspace = std::max(workspace, front * front);
    } else {
      alive += front * front;
      peak = std::max(peak, alive);
    }
    for (const std::int32_t child : children[std::size_t(s)])
      if (!pooled(child)) {
        const std::uint64_t f = std::uint64_t(plan.front_size(child));
        alive -= f * f;
      }
  }
  pr.front_values = pr.pool_values + workspace + peak;
  for (std::int64_t s = 0; s < supernodes; ++s) {
    const int c = plan.columns(s), b = plan.border_size(s), front = plan.front_size(s);
    pr.largest_supernode = std::max<std::int64_t>(pr.largest_supernode, c);
    pr.largest_border = std::max<std::int64_t>(pr.largest_border, b);
    pr.largest_front = std::max<std::int64_t>(pr.largest_front, front);
    pr.small_fronts += c + b <= plan.small_front;
    pr.factor_values += std::uint64_t(c + b) * factor_ld(c) + std::uint64_t(c) * factor_ld(b);
    pr.factor_updates += double(plan.padded(c)) * double(front) * double(front);
    // Per row: the backward pass over every supernode, the forward pass over the rows whose
    // tree path goes through s (those of its subtree).
    const double per_row = double(c) * double(factor_ld(c) + factor_ld(b));
    pr.row_updates +=
        per_row * (double(vertices) + double(plan.first[s + 1] - plan.subtree_first[s]));
  }
  return plan;
}

}  // namespace apsp
