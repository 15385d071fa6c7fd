// Host code only, no Kokkos: the fuzzing build (tests/fuzz) compiles this file with clang and
// libFuzzer, without a Kokkos built by that compiler.
#include <apsp/error.hpp>
#include <apsp/formats.hpp>
#include <apsp/graph.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/outputs.hpp>
#include <apsp/verify.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <queue>
#include <utility>

namespace apsp {
namespace {

struct Arc {
  std::int32_t to;
  std::int32_t weight;
};

// Compressed adjacency: arcs of u are arcs[first[u]] .. arcs[first[u+1]-1], sorted by target.
// Parallel edges keep their smallest weight and self-loops are dropped: neither changes a
// shortest distance, and merged arcs make "d(u, v) <= w" one check per pair.
struct Adjacency {
  std::vector<std::int64_t> first;
  std::vector<Arc> arcs;

  const Arc* begin(std::int32_t u) const { return arcs.data() + first[std::size_t(u)]; }
  const Arc* end(std::int32_t u) const { return arcs.data() + first[std::size_t(u) + 1]; }
};

Adjacency build_adjacency(std::int32_t vertices, const std::vector<Edge>& edges, bool reversed) {
  Adjacency g;
  g.first.assign(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges)
    if (e.src != e.dst) ++g.first[std::size_t(reversed ? e.dst : e.src) + 1];
  for (std::size_t u = 0; u < std::size_t(vertices); ++u)
    g.first[u + 1] += g.first[u];
  g.arcs.resize(std::size_t(g.first.back()));
  std::vector<std::int64_t> next(g.first.begin(), g.first.end() - 1);
  for (const Edge& e : edges) {
    if (e.src == e.dst) continue;
    const std::int32_t from = reversed ? e.dst : e.src, to = reversed ? e.src : e.dst;
    g.arcs[std::size_t(next[std::size_t(from)]++)] = Arc{to, e.weight};
  }
  std::int64_t kept = 0;
  for (std::int32_t u = 0; u < vertices; ++u) {
    Arc* first = g.arcs.data() + g.first[std::size_t(u)];
    Arc* last = g.arcs.data() + g.first[std::size_t(u) + 1];
    std::sort(first, last, [](const Arc& a, const Arc& b) {
      return a.to != b.to ? a.to < b.to : a.weight < b.weight;
    });
    last = std::unique(first, last, [](const Arc& a, const Arc& b) { return a.to == b.to; });
    g.first[std::size_t(u)] = kept;
    for (const Arc* a = first; a != last; ++a)
      g.arcs[std::size_t(kept++)] = *a;
  }
  g.first.back() = kept;
  g.arcs.resize(std::size_t(kept));
  g.arcs.shrink_to_fit();
  return g;
}

// Dijkstra with a binary heap and lazy deletion.
std::vector<std::int32_t> shortest_distances(const Adjacency& g, std::int32_t source) {
  const std::size_t n = g.first.size() - 1;
  std::vector<std::int64_t> dist(n, std::int64_t(infinity));
  using Entry = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[std::size_t(source)] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[std::size_t(u)]) continue;
    for (const Arc* a = g.begin(u); a != g.end(u); ++a) {
      const std::int64_t through = d + a->weight;
      if (through < dist[std::size_t(a->to)]) {
        dist[std::size_t(a->to)] = through;
        heap.push({through, a->to});
      }
    }
  }
  // A path has at most V-1 edges of weight <= 1000, so it stays below INF for every V up to
  // 1073742, whose output alone would be 4.6 TB: int32 holds every distance.
  return std::vector<std::int32_t>(dist.begin(), dist.end());
}

// The sampled vertices: 0 and V-1 (the corners, where off-by-one errors in tiling and padding
// show first), the rest drawn by splitmix64 so that a seed means the same on every platform.
std::vector<std::int32_t> sample_vertices(std::int32_t vertices, std::int32_t samples,
                                          std::uint64_t seed) {
  const std::size_t k = std::size_t(std::clamp(samples, 0, vertices));
  std::vector<char> taken(std::size_t(vertices), 0);
  std::vector<std::int32_t> sampled;
  auto take = [&](std::int32_t v) {
    if (sampled.size() < k && !taken[std::size_t(v)]) {
      taken[std::size_t(v)] = 1;
      sampled.push_back(v);
    }
  };
  take(0);
  take(vertices - 1);
  std::uint64_t state = seed;
  while (sampled.size() < k) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    take(std::int32_t((z >> 32) * std::uint64_t(vertices) >> 32));  // multiply-shift (Lemire)
  }
  std::sort(sampled.begin(), sampled.end());
  return sampled;
}

// Closes on every way out, the constructor's exceptions included.
class Descriptor {
 public:
  explicit Descriptor(int opened) : fd(opened) {}
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  const int fd;
};

// The output, a few megabytes of rows at a time.
class RowStream {
 public:
  RowStream(const std::string& path, std::int32_t vertices, const std::string& input)
      : path_(path), vertices_(vertices), file_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (file_.fd < 0) throw Error("cannot open output '" + path + "': " + std::strerror(errno));
    struct stat st;
    if (fstat(file_.fd, &st) != 0)
      throw Error("cannot stat '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw Error("output '" + path + "' is a directory");
    // HW3, or the same values after an .npy header.
    std::string head(std::size_t(std::min<std::int64_t>(st.st_size, 4096)), '\0');
    if (::pread(file_.fd, &head[0], head.size(), 0) != ssize_t(head.size()))
      throw Error("cannot read output '" + path + "': " + std::strerror(errno));
    const MatrixLayout layout = matrix_layout(head, path);
    if (layout.vertices >= 0 && layout.vertices != vertices)
      throw Error("output '" + path + "' is a " + std::to_string(layout.vertices) + " x " +
                  std::to_string(layout.vertices) +
                  " .npy matrix, but V = " + std::to_string(vertices) + " (from '" + input + "')");
    const std::uint64_t expected = layout.offset + hw3_output_bytes(vertices);
    if (std::uint64_t(st.st_size) != expected)
      throw Error("output '" + path + "' has " + std::to_string(st.st_size) +
                  " bytes, but V = " + std::to_string(vertices) + " (from '" + input + "') needs " +
                  (layout.offset ? "its .npy header and " : "") +
                  "V*V*4 = " + std::to_string(hw3_output_bytes(vertices)));
    if (::lseek(file_.fd, off_t(layout.offset), SEEK_SET) < 0)
      throw Error("cannot read output '" + path + "': " + std::strerror(errno));
    posix_fadvise(file_.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const std::int64_t row_bytes = std::int64_t(vertices) * 4;
    rows_per_chunk_ = std::max<std::int64_t>(1, (8 << 20) / row_bytes);
    buffer_.resize(std::size_t(std::min<std::int64_t>(rows_per_chunk_, vertices) * vertices));
  }

  // The next row; valid until the next call.
  const std::int32_t* next() {
    if (in_buffer_ == 0) fill();
    const std::int32_t* row = buffer_.data() + std::size_t(used_ * vertices_);
    ++used_;
    --in_buffer_;
    return row;
  }

 private:
  void fill() {
    const std::int64_t rows = std::min<std::int64_t>(rows_per_chunk_, vertices_ - rows_read_);
    char* p = reinterpret_cast<char*>(buffer_.data());
    std::size_t left = std::size_t(rows * vertices_) * 4;
    while (left > 0) {
      const ssize_t n = ::read(file_.fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw Error("cannot read output '" + path_ + "': " + std::strerror(errno));
      if (n == 0) throw Error("output '" + path_ + "' ended early: was it truncated meanwhile?");
      p += n;
      left -= std::size_t(n);
    }
    rows_read_ += rows;
    in_buffer_ = rows;
    used_ = 0;
  }

  std::string path_;
  std::int64_t vertices_;
  Descriptor file_;
  std::int64_t rows_per_chunk_ = 1, rows_read_ = 0, in_buffer_ = 0, used_ = 0;
  std::vector<std::int32_t> buffer_;
};

// The first j in [0, n) with bad(j), or -1. Scans blocks branch-free (the compiler vectorizes
// the inner loop; this is the hot loop of a large verification) and looks closer only inside
// a block that has a violation.
template <class Bad>
std::int64_t first_violation(std::int64_t n, Bad bad) {
  constexpr std::int64_t block = 1024;
  for (std::int64_t j0 = 0; j0 < n; j0 += block) {
    const std::int64_t j1 = std::min(n, j0 + block);
    int any = 0;
    for (std::int64_t j = j0; j < j1; ++j)
      any |= int(bad(j));
    if (any)
      for (std::int64_t j = j0; j < j1; ++j)
        if (bad(j)) return j;
  }
  return -1;
}

std::string at_most(std::int64_t x) {
  return "at most " + std::to_string(x);
}
std::string at_least(std::int64_t x) {
  return "at least " + std::to_string(x);
}
std::string dist_of(std::int64_t i, std::int64_t j) {
  return "d(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

}  // namespace

VerifyResult verify(const std::string& input, const std::string& output,
                    const VerifyOptions& options) {
  if (options.samples < 0)
    throw Error("verify: the number of samples must not be negative, got " +
                std::to_string(options.samples));
  VerifyResult result;
  // Read with negative weights allowed, so that such a graph gets the reason verify refuses it
  // rather than the reader's hint at --allow-negative, an option verify does not have.
  Graph graph = read_graph(input, options.format, true);
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    const Edge& edge = graph.edges[e];
    if (edge.weight < 0)
      throw Error("verify: edge " + std::to_string(e) + " (" + std::to_string(edge.src) + " -> " +
                  std::to_string(edge.dst) + ") has weight " + std::to_string(edge.weight) +
                  " < 0; verify checks graphs with non-negative weights only (it samples rows "
                  "by Dijkstra)");
  }
  const std::int32_t v = graph.vertices;
  result.vertices = v;
  result.edges = std::int64_t(graph.edges.size());
  // Opened before anything of size V is allocated: V comes from an untrusted header, the
  // output's size confirms it.
  RowStream rows(output, v, input);
  const Adjacency forward = build_adjacency(v, graph.edges, false);
  const Adjacency backward = build_adjacency(v, graph.edges, true);
  std::vector<Edge>().swap(graph.edges);
  result.sampled = sample_vertices(v, options.samples, options.seed);
  const std::size_t k = result.sampled.size();
  // from[t][j] = d(s_t, j) and to[t][i] = d(i, s_t), exact.
  std::vector<std::vector<std::int32_t>> from(k), to(k);
  for (std::size_t t = 0; t < k; ++t) {
    from[t] = shortest_distances(forward, result.sampled[t]);
    to[t] = shortest_distances(backward, result.sampled[t]);
  }
  std::vector<std::int32_t> sample_index(std::size_t(v), -1);
  for (std::size_t t = 0; t < k; ++t)
    sample_index[std::size_t(result.sampled[t])] = int(t);

  auto fail = [&](VerifyCheck check, std::int64_t i, std::int64_t j, std::string expected,
                  std::int32_t found, std::string reason) {
    result.passed = false;
    result.check = check;
    result.row = i;
    result.column = j;
    result.expected = std::move(expected);
    result.found = found;
    result.reason = std::move(reason);
    result.message = "mismatch at (" + std::to_string(i) + ", " + std::to_string(j) +
                     "): expected " + result.expected + ", found " + std::to_string(found) + " (" +
                     result.reason + ")";
    return result;
  };
  const std::string inf = std::to_string(infinity);

  for (std::int32_t i = 0; i < v; ++i) {
    const std::int32_t* row = rows.next();
    // The bound first: every sum below then stays within 2 * INF < 2^31.
    std::int64_t j = first_violation(
        v, [&](std::int64_t c) { return std::uint32_t(row[c]) > std::uint32_t(infinity); });
    if (j >= 0)
      return fail(VerifyCheck::range, i, j, "a value in [0, " + inf + "]", row[j],
                  "not a distance");
    if (row[i] != 0) return fail(VerifyCheck::diagonal, i, i, "0", row[i], "the diagonal is zero");

    const int t_row = sample_index[std::size_t(i)];
    if (t_row >= 0) {
      const std::int32_t* exact = from[std::size_t(t_row)].data();
      j = first_violation(v, [&](std::int64_t c) { return row[c] != exact[c]; });
      if (j >= 0)
        return fail(VerifyCheck::sampled_row, i, j, std::to_string(exact[j]), row[j],
                    exact[j] == infinity ? "no path from sampled source " + std::to_string(i)
                                         : "Dijkstra from sampled source " + std::to_string(i));
    }
    for (std::size_t t = 0; t < k; ++t) {
      const std::int32_t s = result.sampled[t];
      if (row[s] != to[t][std::size_t(i)])
        return fail(
            VerifyCheck::sampled_column, i, s, std::to_string(to[t][std::size_t(i)]), row[s],
            to[t][std::size_t(i)] == infinity ? "no path to sampled target " + std::to_string(s)
                                              : "Dijkstra to sampled target " + std::to_string(s));
    }
    for (const Arc* a = forward.begin(i); a != forward.end(i); ++a)
      if (row[a->to] > a->weight)
        return fail(VerifyCheck::edge, i, a->to, at_most(a->weight), row[a->to],
                    "edge " + std::to_string(i) + " -> " + std::to_string(a->to) + " of weight " +
                        std::to_string(a->weight));

    if (t_row < 0) {
      for (std::size_t t = 0; t < k; ++t) {
        const std::int32_t s = result.sampled[t];
        const std::int32_t* ds = from[t].data();
        const std::int32_t dsi = ds[i], dis = row[s];
        j = first_violation(v, [&](std::int64_t c) { return ds[c] > dsi + row[c]; });
        if (j >= 0)
          return ds[j] == infinity
                     ? fail(VerifyCheck::triangle, i, j, inf, row[j],
                            "sampled vertex " + std::to_string(s) + " reaches " +
                                std::to_string(i) + " but not " + std::to_string(j))
                     : fail(VerifyCheck::triangle, i, j, at_least(ds[j] - dsi), row[j],
                            dist_of(s, i) + " + " + dist_of(i, j) + " >= " + dist_of(s, j) + " = " +
                                std::to_string(ds[j]));
        j = first_violation(v, [&](std::int64_t c) { return row[c] > dis + ds[c]; });
        if (j >= 0)
          return fail(VerifyCheck::triangle, i, j, at_most(std::int64_t(dis) + ds[j]), row[j],
                      "the path through sampled vertex " + std::to_string(s) + ", " +
                          dist_of(i, s) + " + " + dist_of(s, j));
      }
    } else {
      // A second opinion on the sampled row that does not trust our Dijkstra: a wrong
      // Dijkstra would have to agree with a wrong output to slip through.
      for (std::int32_t u = 0; u < v; ++u) {
        if (row[u] == infinity) continue;
        for (const Arc* a = forward.begin(u); a != forward.end(u); ++a)
          if (row[a->to] > row[u] + a->weight)
            return fail(VerifyCheck::relaxation, i, a->to, at_most(row[u] + a->weight), row[a->to],
                        "edge " + std::to_string(u) + " -> " + std::to_string(a->to) +
                            " of weight " + std::to_string(a->weight) + " from " + dist_of(i, u));
      }
    }
  }

  result.passed = true;
  result.message = "verified: V = " + std::to_string(v) + ", E = " + std::to_string(result.edges) +
                   ": " + std::to_string(k) + " sampled rows and columns exact (seed " +
                   std::to_string(options.seed) + "), zero diagonal, all values in [0, " + inf +
                   "], d(u, v) <= w for every edge, triangle inequality through the sampled "
                   "vertices on every row";
  return result;
}

}  // namespace apsp
