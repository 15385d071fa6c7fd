// Host code only, no Kokkos: the fuzzing build (tests/fuzz) compiles this file with clang and
// libFuzzer, without a Kokkos built by that compiler. The exact check, on a Kokkos backend,
// comes in through VerifyOptions::certificate (verify_certificate.cpp).
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include "io/compare.hpp"
#include "io/hw3_io.hpp"
#include "io/output_formats.hpp"
#include "io/outputs.hpp"
#include "io/posix_files.hpp"
#include "io/read_graph.hpp"
#include "verify/host_dijkstra.hpp"
#include "verify/verify_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace apsp {
namespace {

using detail::Arc;
using detail::ArcLists;
using detail::unreachable;

// The distances from `source` and, in `edges`, the edge count of each path found.
std::vector<double> shortest_distances(const ArcLists& g, std::int32_t source,
                                       std::vector<std::int32_t>& edges) {
  edges.assign(std::size_t(g.vertices()), 0);
  return detail::shortest_distances(g, source, [&](std::int32_t u, const Arc& a) {
    edges[std::size_t(a.to)] = edges[std::size_t(u)] + 1;
  });
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

// The output, a few megabytes of rows at a time, each row as doubles: int32 values exactly, with
// the int32 no-path value (hw3_no_path) as +inf, like the floats'. Other values stay as they are,
// in range or not: verify checks the range.
class RowStream {
 public:
  RowStream(const std::string& path, std::int32_t vertices, const std::string& input)
      : path_(path), vertices_(vertices), file_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (file_.fd < 0) throw Error("cannot open output '" + path + "': " + std::strerror(errno));
    struct stat st;
    if (fstat(file_.fd, &st) != 0)
      throw Error("cannot stat '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw Error("output '" + path + "' is a directory");
    // HW3, the values after an .npy header, or text (told apart by content).
    std::string head(std::size_t(std::min<std::int64_t>(st.st_size, 4096)), '\0');
    if (::pread(file_.fd, &head[0], head.size(), 0) != ssize_t(head.size()))
      throw Error("cannot read output '" + path + "': " + std::strerror(errno));
    if (is_text_matrix(head)) {
      type_ = TextMatrix::written_type(path);
      text_file_ = detail::open_for_reading(path);
      text_.emplace(text_file_.get(), path);
      if (text_->vertices() != vertices)
        throw Error("output '" + path + "' is text of " + std::to_string(text_->vertices()) +
                    " numbers a line, but V = " + std::to_string(vertices) + " (from '" + input +
                    "')");
      row_.resize(std::size_t(vertices));
      return;
    }
    const MatrixLayout layout = matrix_layout(head, path);
    type_ = layout.type;
    if (layout.vertices >= 0 && layout.vertices != vertices)
      throw Error("output '" + path + "' is a " + std::to_string(layout.vertices) + " x " +
                  std::to_string(layout.vertices) +
                  " .npy matrix, but V = " + std::to_string(vertices) + " (from '" + input + "')");
    const std::uint64_t value = value_bytes(type_);
    const std::uint64_t values = std::uint64_t(vertices) * std::uint64_t(vertices);
    const std::uint64_t expected = layout.offset + values * value;
    if (std::uint64_t(st.st_size) != expected)
      throw Error("output '" + path + "' has " + std::to_string(st.st_size) +
                  " bytes, but V = " + std::to_string(vertices) + " (from '" + input + "') needs " +
                  (layout.offset ? "its .npy header and " : "") + "V*V*" + std::to_string(value) +
                  " = " + std::to_string(values * value));
    if (::lseek(file_.fd, off_t(layout.offset), SEEK_SET) < 0)
      throw Error("cannot read output '" + path + "': " + std::strerror(errno));
    posix_fadvise(file_.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const std::int64_t row_bytes = std::int64_t(vertices) * std::int64_t(value);
    rows_per_chunk_ = std::max<std::int64_t>(1, (8 << 20) / row_bytes);
    buffer_.resize(std::size_t(std::min<std::int64_t>(rows_per_chunk_, vertices) * row_bytes));
    row_.resize(std::size_t(vertices));
  }

  DistanceType type() const { return type_; }

  // The next row; valid until the next call.
  const double* next() {
    if (text_) {
      row_ = text_->next_row(type_);
      if (type_ == DistanceType::int32)
        for (double& x : row_)
          if (x == double(hw3_no_path)) x = unreachable;
      return row_.data();
    }
    if (in_buffer_ == 0) fill();
    const char* raw = buffer_.data() + std::size_t(used_ * vertices_) * value_bytes(type_);
    ++used_;
    --in_buffer_;
    visit_distance_type(type_, [&](auto t) {
      using T = decltype(t);
      const T* values = reinterpret_cast<const T*>(raw);
      if constexpr (std::is_integral<T>::value) {
        for (std::int64_t j = 0; j < vertices_; ++j)
          row_[std::size_t(j)] = values[j] == hw3_no_path ? unreachable : double(values[j]);
      } else {
        for (std::int64_t j = 0; j < vertices_; ++j)
          row_[std::size_t(j)] = double(values[j]);
      }
    });
    return row_.data();
  }

 private:
  void fill() {
    const std::int64_t rows = std::min<std::int64_t>(rows_per_chunk_, vertices_ - rows_read_);
    char* p = buffer_.data();
    std::size_t left = std::size_t(rows * vertices_) * value_bytes(type_);
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
  DistanceType type_ = DistanceType::int32;
  std::int64_t rows_per_chunk_ = 1, rows_read_ = 0, in_buffer_ = 0, used_ = 0;
  std::vector<char> buffer_;
  std::vector<double> row_;
  detail::File text_file_;
  std::optional<TextMatrix> text_;  // a text output
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

std::string dist_of(std::int64_t i, std::int64_t j) {
  return "d(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}
std::string dist_of(std::int64_t i, const char* j) {
  return "d(" + std::to_string(i) + ", " + j + ")";
}

// Comparisons within the rounding of the output's type, from the sums themselves (0 for int32
// and for floats whose sums are all exact). `unit` is the type's unit roundoff u (with double's
// own, for the reference's sums). The solver's value is a rounded sum of the weights (each
// rounded to the type) of some path of at most V - 1 edges (`span`), so it is at most (V - 1) u
// times itself below the exact distance; and at most h u times the distance above it, h the
// edges of any shortest path (the solver's min never passes over that path's own rounded sum).
// So x <= y holds up to (V - 1) u (|x| + |y|), and a value against a sampled exact distance up
// to h u |exact| above and (V - 1) u |exact| below; +inf (no path) is only ever equal to
// itself. (Each bound k u is taken as k u / (1 - k u), which covers products of roundings.)
double rounding_bound(double k, double u) {
  return k * u < 1 ? k * u / (1 - k * u) : unreachable;
}

struct Rounding {
  double unit = 0;
  double span = 0;  // rounding_bound(V - 1, unit)
  bool at_most(double x, double y) const {
    return x <= y ||
           (x != unreachable && y != unreachable && x - y <= span * (std::fabs(x) + std::fabs(y)));
  }
  // `value` against the exact distance of a path of `edges` edges.
  bool matches(double value, double exact, std::int32_t edges) const {
    if (value == exact) return true;
    if (value == unreachable || exact == unreachable) return false;
    return value - exact <= rounding_bound(double(edges), unit) * std::fabs(exact) &&
           exact - value <= span * std::fabs(exact);
  }
};

}  // namespace

VerifyResult verify(const std::string& input, const std::string& output,
                    const VerifyOptions& options) {
  if (options.samples < 0)
    throw Error("verify: the number of samples must not be negative, got " +
                std::to_string(options.samples));
  VerifyResult result;
  // Read with negative weights allowed: the exact check takes them, and a graph that only the
  // sampled check could take gets the reason it is refused rather than the reader's hint at
  // --allow-negative, an option verify does not have.
  Graph graph = read_graph(input, options.format, true);
  const std::int32_t v = graph.vertices;
  result.vertices = v;
  result.edges = std::int64_t(graph.edges.size());
  const WeightRange weights = weight_range(graph);
  // Opened before anything of size V is allocated: V comes from an untrusted header, the
  // output's size confirms it.
  RowStream rows(output, v, input);
  const DistanceType type = rows.type();
  const Rounding within = visit_distance_type(type, [&](auto t) {
    using T = decltype(t);
    if (rounding_slack<T>(v, weights.integers, weights.largest_magnitude()) == 0) return Rounding{};
    const double unit = unit_roundoff<T>() + 2 * unit_roundoff<double>();
    return Rounding{unit, rounding_bound(double(std::max(v - 1, 1)), unit)};
  });

  // The exact check where V x E allows, else the sampled one, and why.
  const std::uint64_t work =
      result.edges > 0 && std::uint64_t(v) > UINT64_MAX / std::uint64_t(result.edges)
          ? UINT64_MAX
          : std::uint64_t(v) * std::uint64_t(result.edges);
  const std::string work_text = "V x E = " + std::to_string(work);
  std::string not_exact;
  std::unique_ptr<RowCertificate> certificate;
  if (options.exact_limit == 0) {
    not_exact = "the exact check is off (--exact-limit 0)";
  } else if (work > options.exact_limit) {
    not_exact = work_text + " is above the exact check's limit of " +
                std::to_string(options.exact_limit) + " (--exact-limit)";
  } else if (!options.certificate) {
    not_exact = "this build has no exact check";
  } else {
    // The check computes in the output's type, which must hold the weights and their sums.
    not_exact = visit_distance_type(type, [&](auto t) {
      using T = decltype(t);
      if (std::is_integral<T>::value && !weights.integers)
        return std::string("int32 distances cannot be sums of weights that are not whole numbers");
      return path_bounds_problem<T>(v, weights.largest_magnitude(), weights.negative());
    });
    if (not_exact.empty()) {
      certificate = options.certificate(CertificateGraph{v, &graph.edges, weights, type});
      if (!certificate)
        not_exact = std::string("this build has no exact check of ") + distance_type_name(type) +
                    " distances";
    }
  }
  result.exact = certificate != nullptr;
  // Where the exact check's sums round, the sampled rows bound the rounding as well.
  const bool sampling = !certificate || (within.unit > 0 && !weights.negative());
  if (sampling && weights.negative()) {
    const auto negative = std::find_if(graph.edges.begin(), graph.edges.end(),
                                       [](const Edge& e) { return e.weight < 0; });
    throw Error("verify: edge " + std::to_string(negative - graph.edges.begin()) + " (" +
                std::to_string(negative->src) + " -> " + std::to_string(negative->dst) +
                ") has weight " + number_text(negative->weight) +
                " < 0, which the sampled check cannot take (it samples rows by Dijkstra), and " +
                not_exact);
  }

  // A weight as the output's type holds it (the solver starts from these).
  const auto stored = [&](double w) {
    return visit_distance_type(type, [&](auto t) { return double(decltype(t)(w)); });
  };
  ArcLists forward, backward;
  if (sampling) {
    forward = detail::build_adjacency(v, graph.edges, false);
    backward = detail::build_adjacency(v, graph.edges, true);
    result.sampled = sample_vertices(v, options.samples, options.seed);
  }
  std::vector<Edge>().swap(graph.edges);
  const std::size_t k = result.sampled.size();
  // from[t][j] = d(s_t, j) and to[t][i] = d(i, s_t), exact for whole-number weights.
  // from_edges[t][j] and to_edges[t][i]: the edges of those shortest paths.
  std::vector<std::vector<double>> from(k), to(k);
  std::vector<std::vector<std::int32_t>> from_edges(k), to_edges(k);
  for (std::size_t t = 0; t < k; ++t) {
    from[t] = shortest_distances(forward, result.sampled[t], from_edges[t]);
    to[t] = shortest_distances(backward, result.sampled[t], to_edges[t]);
  }
  std::vector<std::int32_t> sample_index(sampling ? std::size_t(v) : 0, -1);
  for (std::size_t t = 0; t < k; ++t)
    sample_index[std::size_t(result.sampled[t])] = int(t);

  // Values as the output's type writes them: the int32 no-path value, or inf.
  const std::string inf = type == DistanceType::int32 ? std::to_string(hw3_no_path) : "inf";
  const auto shown = [&](double x) { return x == unreachable ? inf : number_text(x); };
  const std::string within_text =
      within.unit > 0 ? " (within the rounding of " + std::string(distance_type_name(type)) + ")"
                      : "";
  // The range of distances: no path, or a sum of at most V - 1 weights (with negative ones,
  // above -(V - 1) max |w| for int32; for the floats, above what their sums may reach).
  const double lowest =
      !weights.negative() ? 0
      : type == DistanceType::int32
          ? double(std::max(v - 1, 1)) * weights.lowest
          : -visit_distance_type(type, [](auto t) { return Distance<decltype(t)>::limit; });
  const double highest =
      type == DistanceType::int32 ? double(hw3_no_path) - 1 : std::numeric_limits<double>::max();
  const std::string range = "[" + shown(lowest) + ", " + inf + "]";

  auto report = [&](VerifyCheck check, std::int64_t i, std::int64_t j, std::string expected,
                    double found, std::string reason) {
    result.passed = false;
    result.check = check;
    result.row = i;
    result.column = j;
    result.expected = std::move(expected);
    result.found = found;
    result.reason = std::move(reason);
    result.message = "mismatch at (" + std::to_string(i) + ", " + std::to_string(j) +
                     "): expected " + result.expected + ", found " + shown(found) + " (" +
                     result.reason + ")";
    return result;
  };
  const auto at_most = [&](double x) { return "at most " + shown(x) + within_text; };
  const auto at_least = [&](double x) { return "at least " + shown(x) + within_text; };
  const auto edge_text = [&](std::int64_t u, std::int64_t to, double w) {
    return "edge " + std::to_string(u) + " -> " + std::to_string(to) + " of weight " +
           number_text(w);
  };
  const auto report_certificate = [&](const CertificateViolation& c) {
    const std::int64_t i = c.row, j = c.column;
    switch (c.check) {
      case VerifyCheck::relaxation:
        return report(c.check, i, j, at_most(c.bound), c.found,
                      edge_text(c.from, j, c.weight) + " from " + dist_of(i, c.from));
      case VerifyCheck::tight_edge:
        if (c.bound == unreachable)
          return report(c.check, i, j, inf, c.found,
                        "no edge into " + std::to_string(j) + " leaves a vertex that " +
                            std::to_string(i) + " reaches");
        return report(c.check, i, j, at_least(c.bound), c.found,
                      dist_of(i, j) + " is the least " + dist_of(i, "u") +
                          " + w of the edges u -> " + std::to_string(j) + ": here " +
                          edge_text(c.from, j, c.weight));
      default:
        return report(c.check, i, j, "more than " + shown(c.found) + within_text, c.found,
                      "the edges u -> x with " + dist_of(i, "u") + " + w = " + dist_of(i, "x") +
                          " that lead to " + std::to_string(j) +
                          " come from a cycle of weight 0, "
                          "not from " +
                          std::to_string(i));
    }
  };
  // Rows [checked, i) are with the exact check, not yet checked: a mismatch found later in file
  // order waits for theirs.
  std::int64_t checked = 0;
  const auto check_rows = [&](std::int64_t end) {
    std::optional<CertificateViolation> found;
    if (certificate && end > checked) found = certificate->check(checked, end - checked);
    checked = end;
    return found;
  };
  auto fail = [&](VerifyCheck check, std::int64_t i, std::int64_t j, std::string expected,
                  double found, std::string reason) {
    if (const auto earlier = check_rows(i)) return report_certificate(*earlier);
    return report(check, i, j, std::move(expected), found, std::move(reason));
  };

  for (std::int32_t i = 0; i < v; ++i) {
    const double* row = rows.next();
    std::int64_t j = first_violation(v, [&](std::int64_t c) {
      return !(row[c] == unreachable || (row[c] >= lowest && row[c] <= highest));
    });
    if (j >= 0)
      return fail(VerifyCheck::range, i, j, "a value in " + range, row[j], "not a distance");
    if (row[i] != 0) return fail(VerifyCheck::diagonal, i, i, "0", row[i], "the diagonal is zero");

    const int t_row = sampling ? sample_index[std::size_t(i)] : -1;
    if (t_row >= 0) {
      const double* exact = from[std::size_t(t_row)].data();
      const std::int32_t* edges = from_edges[std::size_t(t_row)].data();
      j = first_violation(
          v, [&](std::int64_t c) { return !within.matches(row[c], exact[c], edges[c]); });
      if (j >= 0)
        return fail(VerifyCheck::sampled_row, i, j, shown(exact[j]) + within_text, row[j],
                    exact[j] == unreachable ? "no path from sampled source " + std::to_string(i)
                                            : "Dijkstra from sampled source " + std::to_string(i));
    }
    for (std::size_t t = 0; t < k; ++t) {
      const std::int32_t s = result.sampled[t];
      const double exact = to[t][std::size_t(i)];
      if (!within.matches(row[s], exact, to_edges[t][std::size_t(i)]))
        return fail(VerifyCheck::sampled_column, i, s, shown(exact) + within_text, row[s],
                    exact == unreachable ? "no path to sampled target " + std::to_string(s)
                                         : "Dijkstra to sampled target " + std::to_string(s));
    }
    // The solver starts from the lightest edge as stored, and only lowers it: exact.
    if (sampling)
      for (const Arc* a = forward.begin(i); a != forward.end(i); ++a)
        if (row[a->to] > stored(a->weight))
          return fail(VerifyCheck::edge, i, a->to, "at most " + shown(stored(a->weight)),
                      row[a->to], edge_text(i, a->to, a->weight));

    if (sampling && t_row < 0) {
      for (std::size_t t = 0; t < k; ++t) {
        const std::int32_t s = result.sampled[t];
        const double* ds = from[t].data();
        const double dsi = ds[i], dis = row[s];
        j = first_violation(v,
                            [&](std::int64_t c) { return !within.at_most(ds[c], dsi + row[c]); });
        if (j >= 0)
          return ds[j] == unreachable
                     ? fail(VerifyCheck::triangle, i, j, inf, row[j],
                            "sampled vertex " + std::to_string(s) + " reaches " +
                                std::to_string(i) + " but not " + std::to_string(j))
                     : fail(VerifyCheck::triangle, i, j, at_least(ds[j] - dsi), row[j],
                            dist_of(s, i) + " + " + dist_of(i, j) + " >= " + dist_of(s, j) + " = " +
                                shown(ds[j]));
        j = first_violation(v,
                            [&](std::int64_t c) { return !within.at_most(row[c], dis + ds[c]); });
        if (j >= 0)
          return fail(VerifyCheck::triangle, i, j, at_most(dis + ds[j]), row[j],
                      "the path through sampled vertex " + std::to_string(s) + ", " +
                          dist_of(i, s) + " + " + dist_of(s, j));
      }
    } else if (sampling) {
      // A second opinion on the sampled row that does not trust our Dijkstra: a wrong
      // Dijkstra would have to agree with a wrong output to slip through.
      for (std::int32_t u = 0; u < v; ++u) {
        if (row[u] == unreachable) continue;
        for (const Arc* a = forward.begin(u); a != forward.end(u); ++a)
          if (!within.at_most(row[a->to], row[u] + stored(a->weight)))
            return fail(VerifyCheck::relaxation, i, a->to, at_most(row[u] + stored(a->weight)),
                        row[a->to], edge_text(u, a->to, a->weight) + " from " + dist_of(i, u));
      }
    }
    if (certificate) {
      certificate->set_row(i - checked, row);
      if (i + 1 - checked == certificate->block_rows() || i + 1 == v)
        if (const auto found = check_rows(i + 1)) return report_certificate(*found);
    }
  }

  result.passed = true;
  std::string checks;
  if (certificate)
    checks = std::string("every row ") +
             (within.unit > 0 ? "within the rounding of " + std::string(distance_type_name(type))
                              : "exact") +
             " by the shortest-path certificate (" + work_text + ", at most " +
             std::to_string(options.exact_limit) + ")";
  else
    checks = "sampled, not every row: " + not_exact + ";";
  if (sampling)
    checks += (certificate ? ", and " : " ") + std::to_string(k) + " sampled rows and columns " +
              (within.unit > 0 ? "within rounding" : "exact") + " (seed " +
              std::to_string(options.seed) + ")";
  checks += std::string(": zero diagonal, all ") + distance_type_name(type) + " values in " + range;
  if (certificate)
    checks +=
        ", every edge relaxed in every row, every finite distance the length of a path of "
        "edges it makes tight";
  if (sampling)
    checks +=
        ", d(u, v) <= w for every edge, triangle inequality through the sampled vertices on "
        "every row";
  result.message = "verified: V = " + std::to_string(v) + ", E = " + std::to_string(result.edges) +
                   ": " + checks;
  return result;
}

}  // namespace apsp
