// What the symbolic phase of supernodal Floyd-Warshall (supernodal_symbolic.hpp) hands the
// numeric phases (supernodal.hpp): the order, the supernodes and their borders, the factor's
// schedule, and what the numeric phases will cost (SupernodalPrediction). The plan is a function
// of the structure alone, so one rank can make it and hand it to the others (broadcast_plan).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/ranks.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
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
  std::int64_t largest_path = 0;       // columns on the longest root-to-supernode path: a row's
                                       // two path arrays in the row sweeps hold this many each
  double factor_updates = 0;           // min-plus updates of the factor, padding included
  double row_updates = 0;              // ... of all V rows (both passes)
  double dense_updates = 0;            // V^3: dense Floyd-Warshall
  bool fill_exceeded = false;          // stopped at SupernodalOptions::max_fill: no plan
  double updates() const { return factor_updates + row_updates; }
};

// The factor's order of work for one limit on small fronts: per tree level (SupernodalPlan's
// by_level), in ascending ids, the fronts of at most small_front vertices (columns + border),
// closed in one launch, a team each in scratch, and the others, one at a time by the blocked
// kernels. The plan holds the one for its own small_front; the numeric phase makes another only
// where the device's scratch holds less.
struct SupernodalSchedule {
  int small_front = 0;
  std::vector<std::int32_t> small;        // level h: small[small_start[h] .. small_start[h + 1])
  std::vector<std::int64_t> small_start;  // levels + 1
  std::vector<std::int32_t> large;        // level h: large[large_start[h] .. large_start[h + 1])
  std::vector<std::int64_t> large_start;  // levels + 1
  // The side of the one workspace of the large fronts that leave nothing behind in their front
  // (a pooled Schur complement, or none: a root).
  std::int64_t workspace = 0;

  std::int64_t levels() const { return std::int64_t(small_start.size()) - 1; }
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
  std::vector<std::int32_t> supernode_of;   // V: the supernode of each column
  std::vector<std::int32_t> subtree_first;  // S
  std::vector<std::int32_t> parent;         // S, -1 at roots
  std::vector<std::int32_t> child_start;    // S + 1: the children of s, ascending, are
  std::vector<std::int32_t> child;          // child[child_start[s] .. child_start[s + 1])
  std::vector<std::int64_t> border_start;   // S + 1, into border
  std::vector<std::int32_t> border;         // Bd(s), ascending, plan numbering
  std::vector<std::int32_t> relative;       // per border entry: its row in the parent's front
  // The factor's values: supernode s's from values_start[s] (S + 1; the layout of
  // detail::SupernodeViews).
  std::vector<std::int64_t> values_start;
  // The factor's schedule: supernodes by height (leaves 0, a parent one above its highest
  // child), ascending ids within a height: level h is by_level[level_start[h] ..
  // level_start[h + 1]). pool_offset[s]: where supernode s leaves its Schur complement (b x b,
  // row-major) in the pool, or -1 (no border, or more than small_front vertices: its front stays).
  int small_front = 0;
  std::vector<std::int32_t> by_level;     // S
  std::vector<std::int64_t> level_start;  // levels + 1
  std::vector<std::int64_t> pool_offset;  // S
  SupernodalSchedule schedule;            // by small_front
  // Where the row sweeps keep each column in a row's path arrays: supernode s's columns from
  // path_offset[s] (S; the columns of its proper ancestors come before), a border entry's at
  // border_path (per border entry).
  std::vector<std::int32_t> path_offset;
  std::vector<std::int32_t> border_path;
  SupernodalPrediction prediction;

  std::int64_t supernodes() const { return std::int64_t(parent.size()); }
  int columns(std::int64_t s) const { return first[s + 1] - first[s]; }
  int border_size(std::int64_t s) const { return int(border_start[s + 1] - border_start[s]); }
  // A front is its supernode's columns, then its border, each padded to the tile.
  int padded(int n) const { return (n + tile - 1) / tile * tile; }
  int front_size(std::int64_t s) const { return padded(columns(s)) + padded(border_size(s)); }
  bool pooled(std::int64_t s) const { return pool_offset[s] >= 0; }
};

namespace detail {

// Every field of a plan, in one order, for the plan's bytes both ways: f(scalar) or f(vector).
template <class Plan, class F>
void plan_fields(Plan& plan, F&& f) {
  f(plan.vertices);
  f(plan.tile);
  f(plan.perm);
  f(plan.position);
  f(plan.first);
  f(plan.supernode_of);
  f(plan.subtree_first);
  f(plan.parent);
  f(plan.child_start);
  f(plan.child);
  f(plan.border_start);
  f(plan.border);
  f(plan.relative);
  f(plan.values_start);
  f(plan.small_front);
  f(plan.by_level);
  f(plan.level_start);
  f(plan.pool_offset);
  f(plan.schedule.small_front);
  f(plan.schedule.small);
  f(plan.schedule.small_start);
  f(plan.schedule.large);
  f(plan.schedule.large_start);
  f(plan.schedule.workspace);
  f(plan.path_offset);
  f(plan.border_path);
  // Member by member: the struct's padding would put bytes of no value into the plan's bytes
  // (a prepared graph's file would differ from run to run).
  auto& w = plan.prediction;
  f(w.supernodes);
  f(w.largest_supernode);
  f(w.largest_border);
  f(w.largest_front);
  f(w.factor_values);
  f(w.front_values);
  f(w.pool_values);
  f(w.levels);
  f(w.small_fronts);
  f(w.largest_path);
  f(w.factor_updates);
  f(w.row_updates);
  f(w.dense_updates);
  f(w.fill_exceeded);
}

template <class X>
struct IsVector : std::false_type {};
template <class X>
struct IsVector<std::vector<X>> : std::true_type {};

// The plan as bytes: each scalar as it is in memory, each vector as its length, then its
// elements.
inline std::vector<char> plan_bytes(const SupernodalPlan& plan) {
  std::vector<char> bytes;
  const auto put = [&](const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    bytes.insert(bytes.end(), p, p + size);
  };
  plan_fields(plan, [&](const auto& field) {
    using X = std::decay_t<decltype(field)>;
    if constexpr (IsVector<X>::value) {
      const std::uint64_t length = field.size();
      put(&length, sizeof length);
      put(field.data(), field.size() * sizeof(typename X::value_type));
    } else {
      static_assert(std::is_trivially_copyable_v<X>);
      put(&field, sizeof field);
    }
  });
  return bytes;
}

// The plan that plan_bytes gave these `count` bytes. Throws apsp::Error where they end early or
// go on.
inline SupernodalPlan plan_from_bytes(const char* bytes, std::size_t count) {
  SupernodalPlan plan;
  std::size_t at = 0;
  const auto take = [&](void* data, std::size_t size) {
    if (size > count - at)
      throw Error("supernodal: a plan's bytes end early (" + std::to_string(count) + " bytes)");
    if (size > 0) std::memcpy(data, bytes + at, size);
    at += size;
  };
  plan_fields(plan, [&](auto& field) {
    using X = std::decay_t<decltype(field)>;
    if constexpr (IsVector<X>::value) {
      std::uint64_t length = 0;
      take(&length, sizeof length);
      const std::size_t unit = sizeof(typename X::value_type);
      if (length > (count - at) / unit)
        throw Error("supernodal: a plan's bytes end early (" + std::to_string(count) + " bytes)");
      field.resize(std::size_t(length));
      take(field.data(), field.size() * unit);
    } else if constexpr (std::is_same_v<X, bool>) {
      // A bool's byte other than 0 or 1 is no bool (reading it is undefined behaviour).
      static_assert(sizeof(bool) == 1, "plan_bytes puts a bool as one byte");
      unsigned char byte = 0;
      take(&byte, 1);
      if (byte > 1)
        throw Error("supernodal: a plan's flag at byte " + std::to_string(at - 1) + " is " +
                    std::to_string(byte) + ", neither 0 nor 1");
      field = byte == 1;
    } else {
      take(&field, sizeof field);
    }
  });
  if (at != count)
    throw Error("supernodal: a plan's bytes go on past its last field (" +
                std::to_string(count - at) + " more bytes)");
  return plan;
}
inline SupernodalPlan plan_from_bytes(const std::vector<char>& bytes) {
  return plan_from_bytes(bytes.data(), bytes.size());
}

// Throws apsp::Error naming the first field that breaks the plan's invariants: what the symbolic
// phase (supernodal_symbolic.hpp) makes and the numeric phases (supernodal.hpp) index by without
// a check of their own. plan_from_bytes checks the bytes' lengths alone, and a prepared graph's
// checksums find a damaged file, not a forged one: a plan read from a file goes through here
// before anything indexes by it. Every rule is the symbolic phase's own, exactly (so that every
// size is known to be right, not only large enough): the postordered supernodal tree of
// contiguous subtrees, each border ascending in its proper ancestors' columns, the levels by
// height, the pool and the factor's values in their order, the schedule of the plan's
// small_front, the path arrays and the predictions of every size (not the work's: doubles no
// index depends on). O(V + S + border entries) time, O(S) memory.
inline void check_plan(const SupernodalPlan& plan) {
  const auto require = [](bool holds, const char* what, std::int64_t supernode = -1) {
    if (!holds)
      throw Error(std::string("supernodal: a plan's ") + what +
                  (supernode >= 0 ? " (supernode " + std::to_string(supernode) + ")" : ""));
  };
  const SupernodalPrediction& w = plan.prediction;
  require(!w.fill_exceeded, "symbolic phase stopped at its fill limit: it holds no plan");
  const std::int64_t v = plan.vertices, supernodes = plan.supernodes();
  const std::size_t n = std::size_t(v), count = std::size_t(supernodes);
  require(v >= 0 && v <= INT32_MAX, "V is out of range");
  // Fronts are padded to the tile, factor rows to 16 values (detail::factor_ld), in int.
  require(plan.tile > 0 && plan.tile % 4 == 0 && v + 2 * std::int64_t(plan.tile) + 16 <= INT32_MAX,
          "tile is not a multiple of 4 whose fronts fit int32");
  require(plan.small_front >= 0 && plan.small_front % 4 == 0, "small_front is not a multiple of 4");
  require(plan.perm.size() == n && plan.position.size() == n && plan.supernode_of.size() == n,
          "perm, position or supernode_of does not have V entries");
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t old = plan.perm[k];
    require(old >= 0 && old < v && plan.position[std::size_t(old)] == std::int32_t(k),
            "perm is not a permutation of 0 .. V - 1 whose inverse is position");
  }
  require(plan.first.size() == count + 1 && plan.subtree_first.size() == count &&
              plan.child_start.size() == count + 1 && plan.border_start.size() == count + 1 &&
              plan.relative.size() == plan.border.size() && plan.values_start.size() == count + 1 &&
              plan.by_level.size() == count && plan.pool_offset.size() == count &&
              plan.path_offset.size() == count && plan.border_path.size() == plan.border.size(),
          "arrays do not have an entry per supernode (S + 1 for first, child_start, "
          "border_start, values_start) or per border entry (relative, border_path)");
  require(plan.first[0] == 0 && plan.first[count] == v, "first does not run from 0 to V");
  require(plan.border_start[0] == 0 && plan.child_start[0] == 0 && plan.values_start[0] == 0,
          "border_start, child_start or values_start does not start at 0");
  const auto padded = [&](std::int64_t x) { return (x + plan.tile - 1) / plan.tile * plan.tile; };
  const auto ld = [](std::int64_t x) { return (x + 15) / 16 * 16; };
  // The supernodes' columns and borders, the tree that the borders' lowest vertices make, its
  // child lists and subtrees, the factor's values.
  std::int64_t roots = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const std::int32_t f = plan.first[s], end = plan.first[s + 1];
    require(f < end && end <= v, "first is not increasing", s);
    for (std::int32_t j = f; j < end; ++j)
      require(plan.supernode_of[std::size_t(j)] == std::int32_t(s),
              "supernode_of is not the supernode whose columns hold the vertex", s);
    const std::int64_t from = plan.border_start[s], to = plan.border_start[s + 1];
    require(from <= to && to <= std::int64_t(plan.border.size()),
            "border_start is not ascending within the border", s);
    for (std::int64_t e = from; e < to; ++e) {
      const std::int32_t x = plan.border[std::size_t(e)];
      require(x >= end && x < v && (e == from || plan.border[std::size_t(e) - 1] < x),
              "border is not ascending vertices after its supernode's columns", s);
    }
    require(plan.parent[s] == (from == to ? -1 : plan.supernode_of[std::size_t(plan.border[from])]),
            "parent is not the supernode of the border's lowest vertex", s);
    roots += plan.parent[s] < 0;
    const std::int32_t c0 = plan.child_start[s], c1 = plan.child_start[s + 1];
    require(c0 <= c1 && std::size_t(c1) <= plan.child.size(),
            "child_start is not ascending within child", s);
    // Postorder: s's subtree is its children's subtrees, one after another, then its columns.
    std::int32_t subtree = f;
    for (std::int32_t k = c1; k-- > c0;) {
      const std::int32_t ch = plan.child[std::size_t(k)];
      require(ch >= 0 && std::size_t(ch) < s && plan.parent[std::size_t(ch)] == std::int32_t(s) &&
                  (k == c1 - 1 || ch < plan.child[std::size_t(k) + 1]) &&
                  plan.first[std::size_t(ch) + 1] == subtree,
              "children are not the supernodes whose subtrees end where its next child's or "
              "its own columns start",
              s);
      subtree = plan.subtree_first[std::size_t(ch)];
    }
    require(plan.subtree_first[s] == subtree, "subtree_first is not its first child's", s);
    const std::int64_t c = end - f, b = to - from;
    require(plan.values_start[s + 1] >= plan.values_start[s] &&
                plan.values_start[s + 1] - plan.values_start[s] == (c + b) * ld(c) + c * ld(b),
            "values_start does not count each supernode's values", s);
  }
  require(plan.border_start[count] == std::int64_t(plan.border.size()),
          "border_start does not end at the border's size");
  require(std::int64_t(plan.child.size()) == supernodes - roots &&
              plan.child_start[count] == std::int32_t(plan.child.size()),
          "child lists do not hold every supernode with a parent");
  // Each border entry's place in its parent's front (padded front coordinates) and in the path
  // arrays, whose supernodes' places follow their proper ancestors' (parents first).
  std::int64_t largest_path = 0;
  for (std::size_t s = count; s-- > 0;) {
    const std::int32_t p = plan.parent[s];
    require(plan.path_offset[s] == (p < 0 ? 0 : plan.path_offset[std::size_t(p)] + plan.columns(p)),
            "path_offset does not follow its parent's columns", std::int64_t(s));
    largest_path = std::max<std::int64_t>(largest_path, plan.path_offset[s] + plan.columns(s));
  }
  for (std::size_t s = 0; s < count; ++s) {
    const std::int32_t p = plan.parent[s];
    for (std::int64_t e = plan.border_start[s]; e < plan.border_start[s + 1]; ++e) {
      const std::int32_t x = plan.border[std::size_t(e)], r = plan.relative[std::size_t(e)];
      const std::int64_t in_border = std::int64_t(r) - padded(plan.columns(p)),
                         parent_border = plan.border_start[std::size_t(p)] + in_border;
      require(x < plan.first[std::size_t(p) + 1]
                  ? r == x - plan.first[std::size_t(p)]
                  : in_border >= 0 && in_border < plan.border_size(p) &&
                        plan.border[std::size_t(parent_border)] == x,
              "relative is not each border vertex's row in its parent's front", std::int64_t(s));
      const std::int32_t a = plan.supernode_of[std::size_t(x)];
      require(plan.border_path[std::size_t(e)] ==
                  plan.path_offset[std::size_t(a)] + x - plan.first[std::size_t(a)],
              "border_path is not each border vertex's place in the path arrays", std::int64_t(s));
    }
  }
  // The levels: heights in the tree, ascending ids within each.
  std::vector<std::int32_t> height(count, 0);
  std::int32_t top = -1;
  for (std::size_t s = 0; s < count; ++s) {
    top = std::max(top, height[s]);
    if (plan.parent[s] >= 0)
      height[std::size_t(plan.parent[s])] =
          std::max(height[std::size_t(plan.parent[s])], height[s] + 1);
  }
  const std::size_t levels = std::size_t(top + 1);
  const SupernodalSchedule& q = plan.schedule;
  require(plan.level_start.size() == levels + 1 && plan.level_start[0] == 0 &&
              plan.level_start[levels] == supernodes,
          "level_start does not run from 0 to S over the tree's heights");
  require(q.small_front == plan.small_front && q.small_start.size() == levels + 1 &&
              q.large_start.size() == levels + 1 && q.small_start[0] == 0 && q.large_start[0] == 0,
          "schedule is not one of its small_front and levels");
  // In the factor's order: the pool, the schedule's fronts and the workspace, the fronts alive.
  std::int64_t pool = 0, workspace = 0, small_fronts = 0;
  std::uint64_t alive = 0, peak = 0, largest_square = 0;
  std::size_t small = 0, large = 0;
  for (std::size_t h = 0; h < levels; ++h) {
    const std::int64_t from = plan.level_start[h], to = plan.level_start[h + 1];
    require(from <= to && to <= supernodes, "level_start is not ascending");
    for (std::int64_t e = from; e < to; ++e) {
      const std::int32_t s = plan.by_level[std::size_t(e)];
      require(s >= 0 && s < supernodes && height[std::size_t(s)] == std::int32_t(h) &&
                  (e == from || plan.by_level[std::size_t(e) - 1] < s),
              "by_level is not the supernodes by height, ascending within each");
      const std::int64_t c = plan.columns(s), b = plan.border_size(s);
      const bool pooled = b > 0 && b <= plan.small_front;
      require(plan.pool_offset[std::size_t(s)] == (pooled ? pool : -1),
              "pool_offset is not the place of each small border's Schur complement", s);
      if (pooled) pool += b * b;
      const std::uint64_t front = std::uint64_t(padded(c) + padded(b));
      if (c + b <= plan.small_front) {
        require(small < q.small.size() && q.small[small++] == s,
                "schedule's small fronts are not those of its levels", s);
        ++small_fronts;
      } else {
        require(large < q.large.size() && q.large[large++] == s,
                "schedule's large fronts are not those of its levels", s);
        if (pooled || b == 0) workspace = std::max(workspace, std::int64_t(front));
      }
      if (pooled || b == 0) {
        largest_square = std::max(largest_square, front * front);
      } else {
        alive += front * front;
        peak = std::max(peak, alive);
      }
      for (std::int32_t k = plan.child_start[s]; k < plan.child_start[s + 1]; ++k) {
        const std::int32_t ch = plan.child[std::size_t(k)];
        if (plan.pool_offset[std::size_t(ch)] < 0) {
          const std::uint64_t f = std::uint64_t(plan.front_size(ch));
          alive -= f * f;
        }
      }
    }
    require(
        q.small_start[h + 1] == std::int64_t(small) && q.large_start[h + 1] == std::int64_t(large),
        "schedule's level starts do not match its levels");
  }
  require(small == q.small.size() && large == q.large.size() && q.workspace == workspace,
          "schedule does not hold exactly its levels' fronts and their workspace");
  // The sizes that the numeric phases allocate by.
  std::int64_t largest_supernode = 0, largest_border = 0, largest_front = 0;
  for (std::size_t s = 0; s < count; ++s) {
    largest_supernode = std::max<std::int64_t>(largest_supernode, plan.columns(s));
    largest_border = std::max<std::int64_t>(largest_border, plan.border_size(s));
    largest_front = std::max<std::int64_t>(largest_front, plan.front_size(s));
  }
  require(w.supernodes == supernodes && w.levels == std::int64_t(levels) &&
              w.largest_supernode == largest_supernode && w.largest_border == largest_border &&
              w.largest_front == largest_front && w.small_fronts == small_fronts,
          "prediction does not count its supernodes, levels and their largest");
  require(w.factor_values == std::uint64_t(plan.values_start[count]) &&
              w.pool_values == std::uint64_t(pool) &&
              w.front_values == std::uint64_t(pool) + largest_square + peak &&
              w.largest_path == largest_path,
          "prediction does not size its factor, pool, fronts and path arrays");
}

// Throws apsp::Error unless `plan` (one that check_plan passed) can be a plan of these edges:
// each edge, in the plan's order, lies in the front of its lower end's supernode (its higher end
// among that supernode's columns or border), where the factor puts it (supernodal.hpp). A plan
// read from a file with its graph is checked against the graph's edges this way before a factor
// is made of them. O(E log(largest border)) time.
inline void check_plan_edges(const SupernodalPlan& plan, const std::vector<Edge>& edges) {
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const Edge& edge = edges[e];
    const auto fail = [&](const std::string& why) {
      return Error("supernodal: the plan is not one of its graph's: edge " + std::to_string(e) +
                   " (" + std::to_string(edge.src) + " -> " + std::to_string(edge.dst) + ") " +
                   why);
    };
    if (edge.src < 0 || edge.src >= plan.vertices || edge.dst < 0 || edge.dst >= plan.vertices)
      throw fail("has a vertex outside the plan's V = " + std::to_string(plan.vertices));
    const std::int32_t a = plan.position[std::size_t(edge.src)],
                       b = plan.position[std::size_t(edge.dst)];
    const std::int32_t low = std::min(a, b), high = std::max(a, b);
    const std::int32_t s = plan.supernode_of[std::size_t(low)];
    if (high < plan.first[std::size_t(s) + 1]) continue;
    const auto from = plan.border.begin() + plan.border_start[std::size_t(s)],
               to = plan.border.begin() + plan.border_start[std::size_t(s) + 1];
    if (!std::binary_search(from, to, high)) throw fail("lies in no front");
  }
}

}  // namespace detail

// Root's plan on every rank of the group (a collective): each rank's plan becomes a copy of
// root's, field for field, so that one rank runs the symbolic phase for all.
inline void broadcast_plan(Ranks& ranks, SupernodalPlan& plan, int root = 0) {
  std::vector<char> bytes;
  if (ranks.rank() == root) bytes = detail::plan_bytes(plan);
  std::uint64_t size = bytes.size();
  ranks.broadcast(&size, sizeof size, root);
  bytes.resize(std::size_t(size));
  ranks.broadcast(bytes.data(), size, root);
  if (ranks.rank() != root) plan = detail::plan_from_bytes(bytes);
}

}  // namespace apsp
