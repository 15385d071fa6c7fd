// --sources S and --targets T (pipeline.cpp): OUT and P hold the |S| x |T| table of the rows of S
// and the columns of T, in the lists' orders, duplicates kept.
//
// Where a solver can make the rows of a list (SupernodalSolver and SsspSolver's
// distance_rows_of), each rank makes those of its contiguous share of S's positions; otherwise
// (Floyd-Warshall, and supernodal with predecessors, whose search needs every row's
// shortest-path edges) each rank's rows are made and those of S kept. Either way each row's
// columns of T are picked as the row is handed over, and the table is gathered on rank 0, which
// writes it in S's order: the table is held in host memory (|S| x |T| values on each rank).
#pragma once

#include <apsp/error.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>

#include "io/row_output.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

// The lists, each given or every vertex.
struct Subsets {
  std::vector<std::int32_t> sources, targets;

  // Throws, naming the option, for an id outside [0, V).
  static Subsets of(const std::optional<std::vector<std::int32_t>>& sources,
                    const std::optional<std::vector<std::int32_t>>& targets,
                    std::int64_t vertices) {
    const auto list = [&](const char* option, const auto& given) {
      std::vector<std::int32_t> ids;
      if (!given) {
        ids.resize(std::size_t(vertices));
        std::iota(ids.begin(), ids.end(), 0);
        return ids;
      }
      for (const std::int32_t v : *given)
        if (v < 0 || v >= vertices)
          throw Error(std::string(option) + ": vertex " + std::to_string(v) + " out of range [0, " +
                      std::to_string(vertices) + ")");
      return *given;
    };
    return {list("--sources", sources), list("--targets", targets)};
  }

  // This rank's share of S's positions: [first, first + count) (RowBlocks of single positions).
  std::pair<std::int64_t, std::int64_t> share(const Ranks& ranks) const {
    const std::int64_t n = std::int64_t(sources.size()), p = ranks.size(), r = ranks.rank();
    const std::int64_t base = n / p, extra = n % p;
    return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
  }
};

// One output's table: the rows handed over, their columns of T picked, gathered on rank 0.
template <class V>
class SubsetTable {
 public:
  explicit SubsetTable(const Subsets& subsets) : s_(subsets) {}

  // Rows by vertex (a solver's own rows): each kept at every position of S that names it.
  RowSink<V> by_vertex() {
    if (positions_of_.empty()) {
      std::int32_t most = 0;
      for (const std::int32_t v : s_.sources)
        most = std::max(most, v);
      positions_of_.assign(std::size_t(most) + 2, {});
      for (std::size_t i = 0; i < s_.sources.size(); ++i)
        positions_of_[std::size_t(s_.sources[i])].push_back(std::int64_t(i));
    }
    return [this](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
      for (std::int64_t r = 0; r < count; ++r) {
        const std::size_t v = std::size_t(first + r);
        if (v >= positions_of_.size()) return;
        for (const std::int64_t at : positions_of_[v])
          keep(at, rows + r * stride);
      }
    };
  }

  // Rows by position: row r is S's position first_position + first + r (distance_rows_of a
  // share of S).
  RowSink<V> by_position(std::int64_t first_position) {
    return [this, first_position](std::int64_t first, std::int64_t count, const V* rows,
                                  std::int64_t stride) {
      for (std::int64_t r = 0; r < count; ++r)
        keep(first_position + first + r, rows + r * stride);
    };
  }

  // Rows of S from position first_position on, each already T's columns alone (a solver that
  // keeps them where it makes the rows), in S's order.
  RowSink<V> by_position_of_targets(std::int64_t first_position) {
    return [this, first_position](std::int64_t first, std::int64_t count, const V* rows,
                                  std::int64_t stride) {
      for (std::int64_t r = 0; r < count; ++r) {
        positions_.push_back(first_position + first + r);
        values_.insert(values_.end(), rows + r * stride, rows + r * stride + s_.targets.size());
      }
    };
  }

  // Collective: every rank's rows to rank 0 (one rank: nothing moves); then rank 0's sink gets
  // the table's rows in S's order (the other ranks hand over none).
  void write_into(Ranks& ranks, const detail::RowOutput::Sink& sink) {
    if (ranks.size() > 1) {
      positions_ = gather_to(ranks, positions_, 0);
      values_ = gather_to(ranks, values_, 0);
    }
    if (!ranks.root()) return;
    const std::size_t t = s_.targets.size();
    std::vector<std::int64_t> row_at(s_.sources.size(), -1);
    for (std::size_t k = 0; k < positions_.size(); ++k)
      row_at[std::size_t(positions_[k])] = std::int64_t(k);
    for (std::size_t i = 0; i < row_at.size(); ++i) {
      if (row_at[i] < 0) throw Error("subsets: row " + std::to_string(i) + " of S was not made");
      sink(std::int64_t(i), values_.data() + std::size_t(row_at[i]) * t);
    }
  }

 private:
  void keep(std::int64_t position, const V* row) {
    positions_.push_back(position);
    for (const std::int32_t j : s_.targets)
      values_.push_back(row[j]);
  }

  const Subsets& s_;
  std::vector<std::vector<std::int64_t>> positions_of_;  // by vertex: its positions in S
  std::vector<std::int64_t> positions_;                  // of the rows kept, in their order
  std::vector<V> values_;                                // their columns of T
};

}  // namespace apsp
