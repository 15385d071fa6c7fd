// verify's exact check: the shortest-path certificate of every row, a block of rows at a time,
// on a Kokkos backend.
//
// Why it is exact. Let D be the matrix in the file and d the true distances of a graph without
// negative cycles (d(i, v) = INF where i does not reach v). Call an edge u -> v of weight w tight
// in row i when D(i, u) is finite and D(i, u) + w = D(i, v). D = d exactly when every row i has
//   (a) D(i, i) = 0;
//   (b) every edge relaxed: D(i, v) <= D(i, u) + w for every edge u -> v with D(i, u) + w below
//       INF (INF + w is INF, and a sum at INF or above is no distance: nothing to check), so
//       D(i, v) is finite too;
//   (c) for every finite D(i, v), v != i, a tight edge into v;
//   (d) every finite D(i, v) reached from i by a path of tight edges.
// D <= d, from (a) and (b): take a shortest path i = x0, x1, ..., xk = v (with no negative
// cycle, one exists wherever i reaches v). D(i, x0) = 0 = d(i, x0), and if D(i, xm) <= d(i, xm)
// then (b) on the edge xm -> xm+1 gives D(i, xm+1) <= D(i, xm) + w <= d(i, xm) + w = d(i, xm+1)
// (the sum is below INF, as every real distance is, so (b) checks it). Where d is INF, D <= INF
// holds anyway.
// D >= d, from (a) and (d): along a path of tight edges i = y0, ..., yk = v the values add up,
// D(i, v) = D(i, i) + w1 + ... + wk, the length of a path from i to v, which is at least
// d(i, v). Where D is INF, INF >= d holds anyway.
// (c) is the last edge of (d)'s path; on its own it is not enough: on a cycle of zero-weight
// edges that i does not reach, or reaches at a larger distance, values all too small by the
// same amount make each other's edges tight, and only a search from i shows that no path from i
// gets there (tests/test_verify.cpp has both).
//
// What a mismatch says. Where (b) holds in all of row i, D(i, .) <= d(i, .) (above), so an entry
// that breaks (c) or (d) is too small: one without a tight edge in lies below the least
// D(i, u) + w into it, which is at most the least d(i, u) + w = d(i, v) (INF where no finite
// D(i, u) leads in: then d(i, v) is INF too); and a finite D(i, v) = d(i, v) would be reached,
// since (b) makes every edge of a shortest path tight. Where (c) holds as well, the tight edges
// into the unreached entries come from unreached ones (else the search would go on), so
// stepping back along them from v comes round to a cycle of tight edges, whose weights add up to
// 0. So each row names (b)'s first violation, then (c)'s, then (d)'s.
//
// How. (d) is the predecessor search of paths.hpp (PredecessorRows): from i, level by level,
// over the edges tight in row i; a finite entry it leaves without a predecessor is not reached.
// It runs on every edge, not on the shortest-path edges that the solver selects (w = D(u, v),
// from rows this block does not hold): an edge tight in row i but not a shortest-path edge can
// only be tight where D is wrong, and (b) or (d) sees that anyway. Where every weight is
// positive and every sum exact, (c) alone gives (d) (needs_search below) and the search is left
// out. (b) and (c) are one pass over the edges per row, a team per row, the edges by source as
// path_edges lays them out. (a) and the range are checked on the host as the rows are read
// (verify_output.cpp); in range, the sums in the output's type cannot overflow. The first
// violation of a block is looked at again on the host, to name the edge and the bound.
//
// Floats whose sums round: an edge is tight by the predecessor search's own rule (Tightness),
// and (b) allows the same slack relative to the values compared, plus, with negative weights
// (sums of them can cancel), that slack of the longest path's sum of |w|: the check is then
// within the rounding, not exact.
#include <apsp/detail/execution_spaces.hpp>
#include <apsp/distance.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/graph.hpp>
#include <apsp/paths.hpp>

#include <Kokkos_Core.hpp>

#include "platform/backends.hpp"
#include "verify/verify_certificate.hpp"
#include "verify/verify_output.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace apsp {
namespace {

// (b) for one edge: d(i, v) <= d(i, u) + w, within `slack` where sums round. A sum at INF or
// above bounds nothing (int32's sum of two values in range does not overflow): every real
// distance is below INF, so a finite d(i, u) that large is wrong itself, too large ((b) on the
// edge into u that a shortest path takes) or too small ((c) or (d) at (i, u)).
template <class T>
struct Relaxed {
  T slack = 0;     // Tightness::slack of the rule: 0 where every sum is exact
  T absolute = 0;  // with negative weights: slack times (V - 1) max |w|, any path's sum of |w|
  KOKKOS_INLINE_FUNCTION bool operator()(T from, T w, T to) const {
    if (from == Distance<T>::infinity || !(from + w < Distance<T>::infinity)) return true;
    if (to == Distance<T>::infinity) return false;
    if (slack == T(0)) return to <= from + w;
    using Rule = Tightness<T>;
    return to <= from + w +
                     slack * (Rule::magnitude(from) + Rule::magnitude(w) + Rule::magnitude(to)) +
                     absolute;
  }
};

// Per row of a block, the first column of each kind of violation (`none` where there is none):
// an edge in that is not relaxed (b), a finite entry without a tight edge in (c), marked in
// scratch as the edges are relaxed, and a finite entry that the search (`pred`) did not reach
// (d).
template <class ExecSpace, class T>
struct CertificateRows {
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Columns = Kokkos::View<int* [3], typename ExecSpace::memory_space>;
  using Bits = Kokkos::View<unsigned*, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int none = std::numeric_limits<int>::max();  // Kokkos::Min's identity

  DistanceMatrix<ExecSpace, T> dist;  // row r is row first + r
  DistanceMatrix<ExecSpace> pred;     // the search's, of the same rows; empty: no search
  PathEdges<ExecSpace, T> edges;      // every edge, by source
  Columns bad;
  Relaxed<T> relaxed;
  Tightness<T> tight;
  std::int64_t first;
  int vertices, level;  // level: the scratch of the marks

  static std::size_t scratch(std::int64_t n) { return Bits::shmem_size((n + 31) / 32); }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int r = team.league_rank();
    const int i = int(first + r);
    const T* d = &dist(r, 0);
    const bool search = pred.extent(0) > 0, shared = team.team_size() > 1;
    const Bits marked(team.team_scratch(level), (vertices + 31) / 32);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, int(marked.extent(0))),
                         [&](int w) { marked(w) = 0; });
    team.team_barrier();
    int relax = none, untight = none, unreached = none;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, vertices),
        [&](int u, int& lowest) {
          const T du = d[u];
          if (du == Distance<T>::infinity) return;
          for (std::int64_t e = edges.offsets(u); e < edges.offsets(u + 1); ++e) {
            const int v = edges.targets(e);
            const T w = edges.weights(e), dv = d[v];
            const bool relaxes = relaxed(du, w, dv);
            if (!relaxes && v < lowest) lowest = v;
            // Marked without a branch: about one edge in three is tight, at random.
            const unsigned bit = unsigned(relaxes & tight(du, w, dv)) << (v % 32);
            if (!shared)
              marked(v / 32) |= bit;
            else if (bit)
              Kokkos::atomic_fetch_or(&marked(v / 32), bit);
          }
        },
        Kokkos::Min<int>(relax));
    team.team_barrier();
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, vertices),
        [&](int v, int& lowest) {
          if (v < lowest && v != i && d[v] != Distance<T>::infinity &&
              !((marked(v / 32) >> (v % 32)) & 1u))
            lowest = v;
        },
        Kokkos::Min<int>(untight));
    if (search)
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, vertices),
          [&](int v, int& lowest) {
            if (v < lowest && v != i && d[v] != Distance<T>::infinity && pred(r, v) == no_vertex)
              lowest = v;
          },
          Kokkos::Min<int>(unreached));
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      bad(r, 0) = relax;
      bad(r, 1) = untight;
      bad(r, 2) = unreached;
    });
  }
};

template <class ExecSpace, class T>
class BackendCertificate final : public RowCertificate {
 public:
  BackendCertificate(const ExecSpace& exec, const CertificateGraph& graph,
                     std::uint64_t block_bytes)
      : exec_(exec),
        vertices_(graph.vertices),
        kept_(kept(*graph.edges)),
        rule_(tightness_for<T>(graph.vertices, graph.weights.integers,
                               graph.weights.largest_magnitude())),
        searching_(needs_search(kept_, rule_)),
        rows_(block_rows_for(graph.vertices, block_bytes, searching_)),
        dist_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::rows"), rows_,
              graph.vertices),
        host_(Kokkos::create_mirror_view(dist_)),
        edges_(path_edges<T>(exec, graph.vertices, upload_edges(exec, kept_))),
        bad_("apsp::verify::bad_columns", rows_),
        bad_host_(Kokkos::create_mirror_view(bad_)) {
    if (searching_) search_.emplace(exec, dist_, 0, vertices_, edges_, rows_, rule_);
    relaxed_.slack = rule_.slack;
    if (rule_.slack != T(0) && graph.weights.negative())
      relaxed_.absolute = T(double(rule_.slack) * double(std::max<std::int64_t>(vertices_ - 1, 1)) *
                            graph.weights.largest_magnitude());
    // The edges into each vertex, for a second look at a violation.
    into_first_.assign(std::size_t(vertices_) + 1, 0);
    for (const Edge& e : kept_)
      ++into_first_[std::size_t(e.dst) + 1];
    for (std::size_t x = 0; x < std::size_t(vertices_); ++x)
      into_first_[x + 1] += into_first_[x];
    into_.resize(kept_.size());
    std::vector<std::int64_t> next(into_first_.begin(), into_first_.end() - 1);
    for (const Edge& e : kept_)
      into_[std::size_t(next[std::size_t(e.dst)]++)] = In{e.src, e.weight, T(e.weight)};
    std::vector<Edge>().swap(kept_);
  }

  std::int64_t block_rows() const override { return rows_; }

  void set_row(std::int64_t r, const double* row) override {
    T* h = &host_(r, 0);
    for (std::int64_t j = 0; j < vertices_; ++j)
      h[j] = row[j] == std::numeric_limits<double>::infinity() ? Distance<T>::infinity : T(row[j]);
  }

  std::optional<CertificateViolation> check(std::int64_t first, std::int64_t count) override {
    if (count <= 0) return std::nullopt;
    const auto block = std::make_pair(std::int64_t(0), count);
    Kokkos::deep_copy(exec_, Kokkos::subview(dist_, block, Kokkos::ALL),
                      Kokkos::subview(host_, block, Kokkos::ALL));
    DistanceMatrix<ExecSpace> pred;
    if (search_) {
      search_->use_rows(dist_, first);
      pred = search_->compute(first, count);
    }
    using Rows = CertificateRows<ExecSpace, T>;
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    // One thread per row on CPUs, as the search; a team per row on GPUs, the marks in its
    // scratch pad where they fit.
    const bool host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const std::size_t scratch = Rows::scratch(vertices_);
    const int level = detail::scratch_level<Policy>(scratch);
    const Rows rows{dist_, pred, edges_, bad_, relaxed_, rule_, first, int(vertices_), level};
    Policy policy = host ? Policy(exec_, int(count), 1) : Policy(exec_, int(count), Kokkos::AUTO);
    policy.set_scratch_size(level, Kokkos::PerTeam(scratch));
    Kokkos::parallel_for("apsp::verify::certificate", policy, rows);
    Kokkos::deep_copy(exec_, bad_host_, bad_);
    exec_.fence();
    // In a row, (b) first: (c) and (d) show a value too small where (b) holds in all the row.
    constexpr VerifyCheck kinds[] = {VerifyCheck::relaxation, VerifyCheck::tight_edge,
                                     VerifyCheck::unreached};
    for (std::int64_t r = 0; r < count; ++r)
      for (int k = 0; k < 3; ++k)
        if (bad_host_(r, k) != Rows::none)
          return violation(r, first + r, bad_host_(r, k), kinds[k]);
    return std::nullopt;
  }

 private:
  struct In {
    std::int32_t from;
    double weight;  // as the input has it
    T stored;       // as the solver sums it
  };

  // Self-loops of weight >= 0 constrain nothing and need not fit T (weight_range leaves them
  // out); a negative one is a negative cycle, which (b) rejects.
  static std::vector<Edge> kept(const std::vector<Edge>& edges) {
    std::vector<Edge> out;
    out.reserve(edges.size());
    for (const Edge& e : edges)
      if (e.src != e.dst || e.weight < 0) out.push_back(e);
    return out;
  }

  // Whether (d) needs the search: with every weight positive and every sum exact, (c) alone
  // gives (d). From a finite D(i, v), v != i, step back along a tight edge u -> v: D(i, u) =
  // D(i, v) - w is smaller, so no vertex comes twice, and the steps end only at i, the one
  // finite entry (c) leaves without a tight edge in: reversed, a path of tight edges from i.
  // A zero weight (a cycle of tight edges keeps its values), a negative one or a slack breaks
  // the first step.
  static bool needs_search(const std::vector<Edge>& edges, const Tightness<T>& rule) {
    return rule.slack != T(0) || rule.unit > 0 ||
           std::any_of(edges.begin(), edges.end(),
                       [](const Edge& e) { return !(T(e.weight) > 0); });
  }

  // The rows that fit in `bytes` with the search's buffers, at least one.
  static std::int64_t block_rows_for(std::int64_t vertices, std::uint64_t bytes, bool search) {
    const std::uint64_t row = matrix_bytes(1, vertices, sizeof(T)) +
                              (search ? PredecessorRows<ExecSpace, T>::bytes(1, vertices) : 0);
    return std::int64_t(std::clamp<std::uint64_t>(bytes / row, 1, std::uint64_t(vertices)));
  }

  static double value(T x) {
    return x == Distance<T>::infinity ? std::numeric_limits<double>::infinity() : double(x);
  }

  // Entry (row, column) of block row r, which breaks `check`: the edge into it that shows how
  // (of those that break (b), the lowest bound; else the least d(row, u) + w).
  CertificateViolation violation(std::int64_t r, std::int64_t row, std::int64_t column,
                                 VerifyCheck check) const {
    const T* d = &host_(r, 0);
    const T dv = d[column];
    CertificateViolation c;
    c.check = check;
    c.row = row;
    c.column = column;
    c.found = value(dv);
    c.bound = std::numeric_limits<double>::infinity();
    for (std::int64_t e = into_first_[std::size_t(column)];
         e < into_first_[std::size_t(column) + 1]; ++e) {
      const In& in = into_[std::size_t(e)];
      const T du = d[in.from];
      // A sum at INF or above is no distance, and no bound to name (Relaxed).
      if (du == Distance<T>::infinity || !(du + in.stored < Distance<T>::infinity) ||
          (check == VerifyCheck::relaxation && relaxed_(du, in.stored, dv)))
        continue;
      const double sum = double(T(du + in.stored));
      if (c.from < 0 || sum < c.bound) {
        c.bound = sum;
        c.from = in.from;
        c.weight = in.weight;
      }
    }
    return c;
  }

  ExecSpace exec_;
  std::int64_t vertices_;
  std::vector<Edge> kept_;  // while constructing
  Tightness<T> rule_;
  Relaxed<T> relaxed_;
  bool searching_;
  std::int64_t rows_;
  DistanceMatrix<ExecSpace, T> dist_;
  decltype(Kokkos::create_mirror_view(DistanceMatrix<ExecSpace, T>())) host_;
  PathEdges<ExecSpace, T> edges_;
  std::optional<PredecessorRows<ExecSpace, T>> search_;
  typename CertificateRows<ExecSpace, T>::Columns bad_;
  decltype(Kokkos::create_mirror_view(typename CertificateRows<ExecSpace, T>::Columns())) bad_host_;
  std::vector<std::int64_t> into_first_;
  std::vector<In> into_;
};

}  // namespace

CertificateMaker backend_certificate(const std::string& backend, std::uint64_t block_bytes) {
  return [backend, block_bytes](const CertificateGraph& graph) {
    std::unique_ptr<RowCertificate> made;
    with_backend(backend, [&](auto exec) {
      // A GPU wants many rows at once; host threads take a row each, and a smaller block is
      // touched (and paged in) less.
      using Exec = decltype(exec);
      const bool host =
          Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;
      const std::uint64_t bytes = block_bytes ? block_bytes : std::uint64_t(host ? 16 : 256) << 20;
      visit_distance_type(graph.type, [&](auto t) {
        made = std::make_unique<BackendCertificate<Exec, decltype(t)>>(exec, graph, bytes);
      });
    });
    return made;
  };
}

}  // namespace apsp
