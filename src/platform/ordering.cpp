#include "platform/ordering.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#if defined(APSP_HAVE_METIS)
#include <metis.h>

static_assert(sizeof(idx_t) == sizeof(std::int32_t), "apsp passes METIS 32-bit indices");
#endif

namespace apsp {

#if defined(APSP_HAVE_METIS)

bool have_nested_dissection() {
  return true;
}

namespace {

// The symmetrized structure of the non-isolated vertices in METIS' CSR form (xadj, adjncy),
// vertices renumbered 0..n-1 in increasing order of their old number (`old_of`).
struct Structure {
  std::vector<idx_t> xadj, adjncy;
  std::vector<std::int32_t> old_of;
  std::vector<std::int32_t> isolated;
};

Structure symmetrized_structure(std::int32_t vertices, const std::vector<Edge>& edges) {
  std::vector<std::int64_t> start(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges) {
    if (e.src < 0 || e.src >= vertices || e.dst < 0 || e.dst >= vertices)
      throw Error("ordering: edge " + std::to_string(e.src) + " -> " + std::to_string(e.dst) +
                  " out of range [0, " + std::to_string(vertices) + ")");
    if (e.src == e.dst) continue;
    ++start[std::size_t(e.src) + 1];
    ++start[std::size_t(e.dst) + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::int32_t> neighbours(std::size_t(start.back()));
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (const Edge& e : edges) {
    if (e.src == e.dst) continue;
    neighbours[std::size_t(fill[std::size_t(e.src)]++)] = e.dst;
    neighbours[std::size_t(fill[std::size_t(e.dst)]++)] = e.src;
  }
  // Unique neighbours per vertex; new numbers for the vertices that have any.
  std::vector<std::int64_t> unique_end(static_cast<std::size_t>(vertices));
  std::vector<std::int32_t> new_of(static_cast<std::size_t>(vertices), -1);
  Structure s;
  std::int64_t entries = 0;
  for (std::int32_t v = 0; v < vertices; ++v) {
    auto first = neighbours.begin() + start[std::size_t(v)];
    auto last = neighbours.begin() + start[std::size_t(v) + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    unique_end[std::size_t(v)] = last - neighbours.begin();
    if (first == last) {
      s.isolated.push_back(v);
    } else {
      new_of[std::size_t(v)] = std::int32_t(s.old_of.size());
      s.old_of.push_back(v);
      entries += last - first;
    }
  }
  if (entries > INT32_MAX)
    throw Error("ordering: the symmetrized graph has " + std::to_string(entries / 2) +
                " edges; METIS' 32-bit indices hold at most 1073741823");
  s.xadj.reserve(s.old_of.size() + 1);
  s.adjncy.reserve(std::size_t(entries));
  s.xadj.push_back(0);
  for (const std::int32_t v : s.old_of) {
    for (std::int64_t a = start[std::size_t(v)]; a < unique_end[std::size_t(v)]; ++a)
      s.adjncy.push_back(new_of[std::size_t(neighbours[std::size_t(a)])]);
    s.xadj.push_back(idx_t(s.adjncy.size()));
  }
  return s;
}

}  // namespace

std::vector<std::int32_t> nested_dissection_order(std::int64_t vertices,
                                                  const std::vector<Edge>& edges) {
  if (vertices < 0 || vertices > INT32_MAX)
    throw Error("ordering: " + std::to_string(vertices) + " vertices; at most 2147483647");
  Structure s = symmetrized_structure(std::int32_t(vertices), edges);
  std::vector<std::int32_t> perm = s.isolated;
  perm.reserve(std::size_t(vertices));
  if (s.old_of.empty()) return perm;

  idx_t n = idx_t(s.old_of.size());
  std::vector<idx_t> metis_perm(static_cast<std::size_t>(n)), metis_iperm(metis_perm.size());
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 1;  // fixed: the order is a function of the graph
  const int status = METIS_NodeND(&n, s.xadj.data(), s.adjncy.data(), nullptr, options,
                                  metis_perm.data(), metis_iperm.data());
  if (status == METIS_ERROR_MEMORY)
    throw Error("ordering: METIS ran out of memory ordering " + std::to_string(n) + " vertices");
  if (status != METIS_OK)
    throw Error("ordering: METIS_NodeND failed (status " + std::to_string(status) + ") on " +
                std::to_string(n) + " vertices");
  for (const idx_t p : metis_perm)
    perm.push_back(s.old_of[std::size_t(p)]);
  return perm;
}

#else

bool have_nested_dissection() {
  return false;
}

std::vector<std::int32_t> nested_dissection_order(std::int64_t, const std::vector<Edge>&) {
  throw OrderingUnavailable(
      "this build has no METIS: nested-dissection orderings need apsp configured with "
      "-DAPSP_ENABLE_METIS=ON (scripts/bootstrap-deps builds METIS)");
}

#endif

}  // namespace apsp
