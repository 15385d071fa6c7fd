// apsp_ordering_ratio: how much of dense Floyd-Warshall's work an ordering leaves, counted.
//   apsp_ordering_ratio GRAPH... [--order nd|natural] [--method auto|etree|bitset|both]
//                                [--format F] [--threads N]
// Counts the updates of Floyd-Warshall that skips every update with an operand still infinite:
// at pivot k (in the order), the rows i with d(i, k) finite times the columns j with d(k, j)
// finite; prints dense V^3 over that count (issue 25's "counted ordering ratio"). d(i, k) is finite
// at step k iff a path i -> k has every interior vertex ordered before k, so the count depends on
// the structure alone:
// - etree (symmetric structures): the rows reaching k are k's subtree in the elimination tree of
//   the ordered structure (the connected component of k among the vertices up to k; Liu 1990)
//   and the rows below k of column k of the symbolic Cholesky factor (the fill path lemma of
//   Rose, Tarjan and Lueker 1976). O(nnz(L)) time and memory: any V whose factor fits.
// - bitset: the closure's structure simulated pivot by pivot, V^2 bits (any structure; V up to
//   ~40k here). `both` runs the two and fails if they differ.
// The order is METIS' nested dissection (apsp::nested_dissection_order on N threads, default all;
// its time is printed) or the file's own numbering.
#include <apsp/detail/measure.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/ordering.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>
#include <vector>
#include "io/read_graph.hpp"

namespace {

using apsp::detail::Clock;
using apsp::detail::seconds_since;

// Arcs in the order's numbering (u -> v, u != v), sorted and unique.
std::vector<std::pair<std::int32_t, std::int32_t>> ordered_arcs(
    const apsp::Graph& graph, const std::vector<std::int32_t>& perm) {
  std::vector<std::int32_t> position(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    position[std::size_t(perm[i])] = std::int32_t(i);
  std::vector<std::pair<std::int32_t, std::int32_t>> arcs;
  arcs.reserve(graph.edges.size());
  for (const apsp::Edge& e : graph.edges)
    if (e.src != e.dst)
      arcs.push_back({position[std::size_t(e.src)], position[std::size_t(e.dst)]});
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  return arcs;
}

bool symmetric(const std::vector<std::pair<std::int32_t, std::int32_t>>& arcs) {
  for (const auto& [u, v] : arcs)
    if (!std::binary_search(arcs.begin(), arcs.end(), std::make_pair(v, u))) return false;
  return true;
}

// Sum over k of (|subtree(k)| + |struct(L(:, k)) below k|)^2, by symbolic factorization:
// struct(k) = {j > k adjacent to k} united with struct(c) \ {k} of each child c of k.
double etree_count(std::int32_t vertices,
                   const std::vector<std::pair<std::int32_t, std::int32_t>>& arcs) {
  std::vector<std::vector<std::int32_t>> later(static_cast<std::size_t>(vertices));
  for (const auto& [u, v] : arcs)
    if (v > u) later[std::size_t(u)].push_back(v);
  std::vector<std::vector<std::int32_t>> children(static_cast<std::size_t>(vertices));
  std::vector<std::vector<std::int32_t>> structure(static_cast<std::size_t>(vertices));
  std::vector<std::int64_t> subtree(static_cast<std::size_t>(vertices), 1);
  std::vector<std::int32_t> mark(static_cast<std::size_t>(vertices), -1);
  double total = 0;
  for (std::int32_t k = 0; k < vertices; ++k) {
    std::vector<std::int32_t> s;
    auto add = [&](std::int32_t j) {
      if (j > k && mark[std::size_t(j)] != k) {
        mark[std::size_t(j)] = k;
        s.push_back(j);
      }
    };
    for (const std::int32_t j : later[std::size_t(k)])
      add(j);
    for (const std::int32_t c : children[std::size_t(k)]) {
      for (const std::int32_t j : structure[std::size_t(c)])
        add(j);
      std::vector<std::int32_t>().swap(structure[std::size_t(c)]);
      subtree[std::size_t(k)] += subtree[std::size_t(c)];
    }
    std::vector<std::int32_t>().swap(later[std::size_t(k)]);
    const double reached = double(subtree[std::size_t(k)]) + double(s.size());
    total += reached * reached;
    if (!s.empty()) children[std::size_t(*std::min_element(s.begin(), s.end()))].push_back(k);
    structure[std::size_t(k)] = std::move(s);
  }
  return total;
}

// The closure's structure, pivot by pivot: rows reaching k times columns k reaches, then every
// row reaching k takes k's row.
double bitset_count(std::int32_t vertices,
                    const std::vector<std::pair<std::int32_t, std::int32_t>>& arcs) {
  const std::size_t words = (std::size_t(vertices) + 63) / 64;
  std::vector<std::uint64_t> bits(words * std::size_t(vertices));
  auto row = [&](std::int32_t i) { return bits.data() + std::size_t(i) * words; };
  auto set = [&](std::int32_t i, std::int32_t j) {
    row(i)[std::size_t(j) / 64] |= 1ull << (j % 64);
  };
  for (std::int32_t i = 0; i < vertices; ++i)
    set(i, i);
  for (const auto& [u, v] : arcs)
    set(u, v);
  double total = 0;
  std::vector<std::int32_t> rows;
  for (std::int32_t k = 0; k < vertices; ++k) {
    rows.clear();
    for (std::int32_t i = 0; i < vertices; ++i)
      if (row(i)[std::size_t(k) / 64] >> (k % 64) & 1) rows.push_back(i);
    const std::uint64_t* pivot = row(k);
    std::int64_t columns = 0;
    for (std::size_t w = 0; w < words; ++w)
      columns += __builtin_popcountll(pivot[w]);
    total += double(rows.size()) * double(columns);
    for (const std::int32_t i : rows) {
      std::uint64_t* target = row(i);
      for (std::size_t w = 0; w < words; ++w)
        target[w] |= pivot[w];
    }
  }
  return total;
}

int usage() {
  std::fprintf(stderr,
               "usage: apsp_ordering_ratio GRAPH... [--order nd|natural] "
               "[--method auto|etree|bitset|both] [--format auto|hw3|edges|mtx|dimacs] "
               "[--threads N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string order = "nd", method = "auto";
  apsp::Format format = apsp::Format::automatic;
  int threads = 0;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if ((arg == "--order" || arg == "--method" || arg == "--format" || arg == "--threads") &&
        a + 1 < argc) {
      const std::string value = argv[++a];
      if (arg == "--order") order = value;
      if (arg == "--threads") {
        threads = std::atoi(value.c_str());
        if (threads < 1) return usage();
      }
      if (arg == "--method") method = value;
      if (arg == "--format") {
        const auto f = apsp::format_named(value);
        if (!f) return usage();
        format = *f;
      }
    } else if (!arg.empty() && arg[0] != '-') {
      files.push_back(arg);
    } else {
      return usage();
    }
  }
  if (files.empty() || (order != "nd" && order != "natural") ||
      (method != "auto" && method != "etree" && method != "bitset" && method != "both"))
    return usage();
  if (order == "nd" && !apsp::have_nested_dissection()) {
    std::fprintf(stderr, "apsp_ordering_ratio: this build has no METIS (--order natural works)\n");
    return 2;
  }
  std::printf("%-28s %9s %10s %-7s %-6s %9s %12s %10s\n", "graph", "V", "arcs", "order", "method",
              "order_s", "updates", "ratio");
  try {
    for (const std::string& file : files) {
      const apsp::Graph graph = apsp::read_graph(file, format);
      const auto start = Clock::now();
      std::vector<std::int32_t> perm(std::size_t(graph.vertices));
      if (order == "nd")
        perm = apsp::nested_dissection_order(graph.vertices, graph.edges, threads);
      else
        std::iota(perm.begin(), perm.end(), 0);
      const double order_s = seconds_since(start);
      const auto arcs = ordered_arcs(graph, perm);
      const bool sym = symmetric(arcs);
      std::string used = method;
      if (method == "auto") used = sym ? "etree" : "bitset";
      if ((used == "etree" || used == "both") && !sym)
        throw apsp::Error(file + ": --method etree needs a symmetric structure (use bitset)");
      double count = 0;
      if (used == "etree" || used == "both") count = etree_count(graph.vertices, arcs);
      if (used == "bitset" || used == "both") {
        const double simulated = bitset_count(graph.vertices, arcs);
        if (used == "both" && simulated != count)
          throw apsp::Error(file + ": etree count " + std::to_string(count) + " != bitset count " +
                            std::to_string(simulated));
        count = simulated;
      }
      const double dense = double(graph.vertices) * double(graph.vertices) * double(graph.vertices);
      std::string name = file.substr(file.find_last_of('/') + 1);
      std::printf("%-28s %9d %10zu %-7s %-6s %9.3f %12.4g %10.1f\n", name.c_str(), graph.vertices,
                  arcs.size(), order.c_str(), used.c_str(), order_s, count, dense / count);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_ordering_ratio: %s\n", e.what());
    return 2;
  }
  return 0;
}
