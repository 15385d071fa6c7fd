// What the symbolic phase of supernodal Floyd-Warshall (supernodal_symbolic.hpp) hands the
// numeric phases (supernodal.hpp): the order, the supernodes and their borders, the factor's
// schedule, and what the numeric phases will cost (SupernodalPrediction). The plan is a function
// of the structure alone, so one rank can make it and hand it to the others (broadcast_plan).
#pragma once

#include <apsp/error.hpp>
#include <apsp/ranks.hpp>

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
