// The ranks of a run and how its rows are partitioned among them.
//
// One process is one rank (OneRank, no MPI needed); under MPI, apsp::mpi::ranks(comm)
// (src/platform/mpi.hpp) wraps an MPI communicator. The pipeline (src/run/pipeline.cpp) and the
// row-block rounds (detail/row_block_rounds.hpp) are written once against this interface: with
// one rank every collective is a no-op or a copy, so P = 1 is the same path as P > 1.
//
// Failures: every step that can fail on one rank runs inside `collectively`, which ends with an
// agreement (the lowest failing rank's message, on every rank), so that every rank stops at the
// same collective with the same error and rank 0 removes the unfinished outputs.
#pragma once

#include <apsp/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Collectives: every rank of the group calls them, in the same order.
  virtual void broadcast(void* data, std::uint64_t bytes, int root) = 0;
  // Element-wise over the ranks, the result on every rank.
  virtual void min(std::int64_t* values, int count) = 0;
  // `count` elements of `unit` bytes from every rank, concatenated in rank order, on every rank.
  virtual std::vector<char> gather(const void* data, std::uint64_t count, int unit) = 0;
  // The same on `root` alone (the other ranks get nothing): a group whose other ranks need not
  // hold the whole moves each part once (MPI: to root only).
  virtual std::vector<char> gather_to(const void* data, std::uint64_t count, int unit, int root) {
    std::vector<char> all = gather(data, count, unit);
    if (rank() != root) all.clear();
    return all;
  }
  // Root's data holds counts[p] elements of `unit` bytes for each rank p, in rank order; each
  // rank receives its own.
  virtual std::vector<char> scatter(const void* data, const std::vector<std::uint64_t>& counts,
                                    int unit, int root) = 0;
  // The ranks that pass the same color >= 0, numbered in this group's order; null for a rank
  // that passes a negative color.
  virtual std::unique_ptr<Ranks> split(int color) = 0;
  // The ranks of this node that pass the same device key: they share one device's memory.
  virtual std::unique_ptr<Ranks> sharing_device(int device_key) = 0;

  bool root() const { return rank() == 0; }
};

// One process.
class OneRank final : public Ranks {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void broadcast(void*, std::uint64_t, int) override {}
  void min(std::int64_t*, int) override {}
  std::vector<char> gather(const void* data, std::uint64_t count, int unit) override {
    const char* p = static_cast<const char*>(data);
    return std::vector<char>(p, p + count * std::uint64_t(unit));
  }
  std::vector<char> scatter(const void* data, const std::vector<std::uint64_t>& counts, int unit,
                            int) override {
    return gather(data, counts.at(0), unit);
  }
  std::unique_ptr<Ranks> split(int color) override {
    return color < 0 ? nullptr : std::make_unique<OneRank>();
  }
  std::unique_ptr<Ranks> sharing_device(int) override { return std::make_unique<OneRank>(); }
};

// An error all ranks have agreed on: `collectively` lets it pass. It keeps the failing rank's
// message and facts (error.hpp), so each driver words it the same on every rank.
struct Agreed : Error {
  using Error::Error;
};

inline std::string broadcast_string(Ranks& ranks, std::string text, int root) {
  std::uint64_t length = text.size();
  ranks.broadcast(&length, sizeof length, root);
  text.resize(length);
  ranks.broadcast(&text[0], length, root);
  return text;
}

// Typed forms of the byte collectives, for plain data (trivially copyable).
namespace detail {
// The bytes a collective gave back, as values of X.
template <class X>
std::vector<X> values_of(const std::vector<char>& bytes) {
  static_assert(std::is_trivially_copyable<X>::value, "gathered as bytes");
  std::vector<X> out(bytes.size() / sizeof(X));
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}
}  // namespace detail
// Every rank's `mine`, concatenated in rank order, on every rank.
template <class X>
std::vector<X> gather_all(Ranks& ranks, const std::vector<X>& mine) {
  return detail::values_of<X>(ranks.gather(mine.data(), mine.size(), int(sizeof(X))));
}
// ... on `root` alone; empty on the other ranks.
template <class X>
std::vector<X> gather_to(Ranks& ranks, const std::vector<X>& mine, int root) {
  return detail::values_of<X>(ranks.gather_to(mine.data(), mine.size(), int(sizeof(X)), root));
}
// Root's `parts` holds counts[p] elements for each rank p, in rank order; each rank gets its own.
template <class X>
std::vector<X> scatter_parts(Ranks& ranks, const std::vector<X>& parts,
                             const std::vector<std::uint64_t>& counts, int root) {
  static_assert(std::is_trivially_copyable<X>::value, "scattered as bytes");
  const std::vector<char> mine = ranks.scatter(parts.data(), counts, int(sizeof(X)), root);
  std::vector<X> out(mine.size() / sizeof(X));
  if (!mine.empty()) std::memcpy(out.data(), mine.data(), mine.size());
  return out;
}
// Root's vector (its size too) on every rank.
template <class X>
void broadcast_vector(Ranks& ranks, std::vector<X>& values, int root) {
  static_assert(std::is_trivially_copyable<X>::value, "broadcast as bytes");
  std::uint64_t count = values.size();
  ranks.broadcast(&count, sizeof count, root);
  values.resize(std::size_t(count));
  ranks.broadcast(values.data(), count * sizeof(X), root);
}
// Root's value on every rank.
template <class X>
void broadcast_value(Ranks& ranks, X& value, int root) {
  static_assert(std::is_trivially_copyable<X>::value, "broadcast as bytes");
  ranks.broadcast(&value, sizeof value, root);
}

// Returns when no rank has an error (an empty message); otherwise throws, on every rank, the
// error of the lowest rank that has one.
inline void agree(Ranks& ranks, const std::string& error, ErrorFacts facts = {}) {
  std::int64_t failing = error.empty() ? ranks.size() : ranks.rank();
  ranks.min(&failing, 1);
  if (failing == ranks.size()) return;
  ranks.broadcast(&facts, sizeof facts, int(failing));
  throw Agreed(broadcast_string(ranks, error, int(failing)), facts);
}

namespace detail {
// The message of the exception in flight, and its facts if it is an apsp::Error.
inline std::string current_exception_message(ErrorFacts* facts = nullptr) {
  try {
    throw;
  } catch (const Error& e) {
    if (facts) *facts = e.facts();
    return e.what();
  } catch (const std::bad_alloc& e) {
    return std::string("out of memory (") + e.what() + ")";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}
}  // namespace detail

// Runs f on every rank, then agrees: all ranks go on, or all throw the first failing rank's
// error. f must make no collective call that a failure could skip. name_rank: prefix
// "rank R of P: " (off where only rank 0 can fail and says enough, as for the input).
template <class F>
void collectively(Ranks& ranks, F&& f, bool name_rank = true) {
  std::string error;
  ErrorFacts facts;
  try {
    f();
  } catch (const Agreed&) {
    throw;
  } catch (...) {
    error = detail::current_exception_message(&facts);
    if (error.empty()) error = "unknown error";
    if (name_rank && ranks.size() > 1)
      error = "rank " + std::to_string(ranks.rank()) + " of " + std::to_string(ranks.size()) +
              ": " + error;
  }
  agree(ranks, error, facts);
}

// Rows in contiguous blocks of whole units (tiles of the matrix for Floyd-Warshall, single rows
// for sssp): rank p holds units [first(p), first(p) + count(p)); the first units % ranks ranks
// hold one more. When units < ranks, ranks units.. hold none, so the ranks that hold rows are
// always 0 .. holders() - 1.
struct RowBlocks {
  int units = 0;
  int ranks = 1;
  int count(int p) const { return units / ranks + (p < units % ranks ? 1 : 0); }
  int first(int p) const { return p * (units / ranks) + std::min(p, units % ranks); }
  int holders() const { return std::min(units, ranks); }
  int owner(int unit) const {
    const int small = units / ranks, large = units % ranks;
    const int in_large = large * (small + 1);
    return unit < in_large ? unit / (small + 1) : large + (unit - in_large) / small;
  }
};

}  // namespace apsp
