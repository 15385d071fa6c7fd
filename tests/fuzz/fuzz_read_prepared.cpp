// apsp::read_prepared on arbitrary bytes (a prepared graph's file, io/prepared_file.hpp): it
// throws apsp::Error naming the file, or returns a file whose graph keeps its promises, whose
// graph opens as every reader's does (two_readings.hpp), which write_prepared writes back to the
// same bytes (but for the writer's version and the header's checksum), and whose supernodal plan
// either is refused with an apsp::Error (plan_from_bytes, check_plan, check_plan_edges) or reads
// back to its own bytes and stays, wherever the numeric phases index by it, inside what they
// allocate by it (numeric_reach below). Anything else (another exception, a crash, a leak, a
// sanitizer report) is a finding.
//
// A random change to a file breaks a checksum, and the reader stops there: so when byte 167 (the
// header checksum's last) is even, the checksums are first made right for the bytes as they are
// (repaired), and the fuzzer explores what lies past them, as a forged file would be; when it
// is odd the bytes are read as they are, and the checksums' own checks are explored.
#include "memory_file.hpp"
#include "two_readings.hpp"

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/supernodal_plan.hpp>
#include <apsp/version.hpp>

#include "io/outputs.hpp"
#include "io/prepared_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr std::size_t header = 168, header_sum = 160, sections = 3;

// prepared_file.cpp's checksum, 64-bit FNV-1a over little-endian words, then the last bytes one
// at a time; copied, not shared: the file keeps it to itself, and an oracle that called the
// reader's own code would repair a file with the reader's mistakes.
std::uint64_t checksum(const char* data, std::uint64_t bytes) {
  constexpr std::uint64_t prime = 0x100000001b3ULL;
  std::uint64_t h = 0xcbf29ce484222325ULL;
  std::uint64_t at = 0;
  for (; at + 8 <= bytes; at += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + at, 8);
    h = (h ^ word) * prime;
  }
  for (; at < bytes; ++at)
    h = (h ^ std::uint64_t(static_cast<unsigned char>(data[at]))) * prime;
  return h;
}

// Each section's checksum over the bytes the header's sizes give it (the sections one after
// another from the header's end, as far as they fit), then the header's over its first 160.
void repair_checksums(std::vector<char>& file) {
  std::uint64_t at = header;
  for (std::size_t s = 0; s < sections; ++s) {
    std::uint64_t size;
    std::memcpy(&size, file.data() + 88 + 24 * s + 8, 8);
    if (size > file.size() - at) break;
    const std::uint64_t sum = checksum(file.data() + at, size);
    std::memcpy(file.data() + 88 + 24 * s + 16, &sum, 8);
    at += size;
  }
  const std::uint64_t sum = checksum(file.data(), header_sum);
  std::memcpy(file.data() + header_sum, &sum, 8);
}

// Whether `what` threw apsp::Error with a message (true) or returned (false); any other
// exception goes on to the fuzzer, a finding.
template <class What>
bool refused(What&& what) {
  try {
    what();
    return false;
  } catch (const apsp::Error& e) {
    if (*e.what() == '\0') std::abort();
    return true;
  }
}

// The graph that open_graph gives, or nothing after an apsp::Error, whose message goes to
// `error`.
std::optional<apsp::Graph> opened(const apsp::PreparedFile& file, const std::string& path,
                                  bool allow_negative, std::string& error) {
  try {
    return apsp::open_graph(file, path, allow_negative);
  } catch (const apsp::Error& e) {
    error = e.what();
    if (error.empty()) std::abort();
    return std::nullopt;
  }
}

void require(bool holds) {
  if (!holds) std::abort();
}

// The numeric phases (supernodal.hpp, detail/supernodal_kernels.hpp) on a plan that check_plan
// and check_plan_edges passed, walked without values: every index they compute from the plan
// lies inside the buffer they allocate for it from the plan (the factor: values_start's last;
// the pool: prediction.pool_values; the workspace: schedule.workspace squared; a kept front: its
// own size squared; a small front: the scratch of small_front vertices; the path arrays:
// prediction.largest_path, or V for whole rows), and every front they read (a child's kept
// front, a pooled Schur complement) was written before. The factor goes in the plan's schedule
// and in the one a device with no scratch makes (every front large: the numeric phase makes its
// own where the device's scratch holds fewer vertices).
void numeric_reach(const apsp::SupernodalPlan& plan, const std::vector<apsp::Edge>& edges) {
  using std::int64_t;
  const int64_t supernodes = plan.supernodes(), values = plan.values_start.back(),
                pool = int64_t(plan.prediction.pool_values);
  const auto id = [&](int64_t s) { require(s >= 0 && s < supernodes); };
  const auto ld = [](int64_t n) { return (n + 15) / 16 * 16; };
  // The factor's layout: C_ss, A(s,Bd), A(Bd,s).
  for (int64_t s = 0; s < supernodes; ++s) {
    const int64_t c = plan.columns(s), b = plan.border_size(s);
    require(c > 0 && b >= 0 && plan.values_start[s] >= 0 &&
            plan.values_start[s] + c * ld(c) + c * ld(b) + b * ld(c) <= values);
    require(plan.front_size(s) % plan.tile == 0);
    for (int64_t k = 0; k < c; ++k)
      require(plan.perm[std::size_t(plan.first[s] + k)] >= 0);  // negative_diagonal_vertex
  }
  // front_edges: each edge's row and column in its supernode's front (padded coordinates).
  std::vector<std::vector<std::pair<int64_t, int64_t>>> at(static_cast<std::size_t>(supernodes));
  for (const apsp::Edge& e : edges) {
    const std::int32_t a = plan.position[std::size_t(e.src)], b = plan.position[std::size_t(e.dst)];
    const std::int32_t s = plan.supernode_of[std::size_t(std::min(a, b))];
    id(s);
    const auto local = [&](std::int32_t v) -> int64_t {
      if (v < plan.first[s + 1]) return v - plan.first[s];
      const auto from = plan.border.begin() + plan.border_start[s],
                 to = plan.border.begin() + plan.border_start[s + 1];
      return plan.padded(plan.columns(s)) + (std::lower_bound(from, to, v) - from);
    };
    at[std::size_t(s)].push_back({local(a), local(b)});
  }
  // SmallFronts' unpadded coordinates of a padded position.
  const auto unpadded = [&](int64_t p, int64_t s) {
    const int64_t c = plan.columns(s), pad = plan.padded(int(c));
    return p < pad ? p : p - pad + c;
  };
  const auto factor = [&](const std::vector<std::int32_t>& small,
                          const std::vector<std::int64_t>& small_start,
                          const std::vector<std::int32_t>& large,
                          const std::vector<std::int64_t>& large_start, int64_t workspace,
                          int64_t small_front) {
    require(small_start.size() == large_start.size() && !small_start.empty());
    std::vector<char> closed(static_cast<std::size_t>(supernodes), 0),
        kept(static_cast<std::size_t>(supernodes), 0);
    const auto in_pool = [&](int64_t s) {
      const int64_t b = plan.border_size(s), offset = plan.pool_offset[std::size_t(s)];
      require(offset >= 0 && offset + b * b <= pool);
    };
    for (std::size_t h = 0; h + 1 < small_start.size(); ++h) {
      require(small_start[h] <= small_start[h + 1] && large_start[h] <= large_start[h + 1] &&
              small_start[h + 1] <= int64_t(small.size()) &&
              large_start[h + 1] <= int64_t(large.size()));
      std::vector<std::int32_t> level(small.begin() + small_start[h],
                                      small.begin() + small_start[h + 1]);
      level.insert(level.end(), large.begin() + large_start[h], large.begin() + large_start[h + 1]);
      const int64_t smalls = small_start[h + 1] - small_start[h];
      for (std::size_t e = 0; e < level.size(); ++e) {
        const std::int32_t s = level[e];
        id(s);
        require(!closed[std::size_t(s)]);
        const int64_t c = plan.columns(s), b = plan.border_size(s);
        const bool is_small = int64_t(e) < smalls;
        // In scratch the front is c + b unpadded; else front_size, in its own memory or the
        // workspace.
        const int64_t size = is_small ? c + b : plan.front_size(s);
        require(!is_small || size <= small_front);  // the scratch holds small_front vertices
        const bool keeps = !is_small && plan.pool_offset[std::size_t(s)] < 0 && b > 0;
        if (!is_small && !keeps) require(size <= workspace);
        for (const auto& [r, q] : at[std::size_t(s)])
          require(is_small ? unpadded(r, s) < size && unpadded(q, s) < size
                           : r >= 0 && r < size && q >= 0 && q < size);
        for (std::int32_t k = plan.child_start[s]; k < plan.child_start[s + 1]; ++k) {
          const std::int32_t ch = plan.child[std::size_t(k)];
          id(ch);
          require(closed[std::size_t(ch)]);
          if (is_small || plan.pool_offset[std::size_t(ch)] >= 0) {
            in_pool(ch);
          } else {
            require(kept[std::size_t(ch)]);
            kept[std::size_t(ch)] = 0;
          }
          for (int64_t i = plan.border_start[ch]; i < plan.border_start[ch + 1]; ++i) {
            const int64_t r = plan.relative[std::size_t(i)];
            require(r >= 0 && (is_small ? unpadded(r, s) < size : r < size));
          }
        }
        if (keeps)
          kept[std::size_t(s)] = 1;
        else if (b > 0)
          in_pool(s);
        closed[std::size_t(s)] = 1;
      }
    }
    require(std::all_of(closed.begin(), closed.end(), [](char x) { return x != 0; }));
  };
  const apsp::SupernodalSchedule& q = plan.schedule;
  factor(q.small, q.small_start, q.large, q.large_start, q.workspace, plan.small_front);
  std::vector<std::int64_t> none(plan.level_start.size(), 0);
  std::int64_t workspace = 0;
  for (std::int64_t s = 0; s < supernodes; ++s)
    if (plan.pool_offset[std::size_t(s)] >= 0 || plan.parent[s] < 0)
      workspace = std::max<std::int64_t>(workspace, plan.front_size(s));
  factor({}, none, plan.by_level, plan.level_start, workspace, 0);
  // The row sweeps, with path arrays and with whole rows: each supernode's columns and its
  // border's places inside the arrays; each row's place, and its walk up the tree.
  for (const bool whole : {false, true}) {
    const int64_t path = whole ? plan.vertices : plan.prediction.largest_path;
    for (int64_t s = 0; s < supernodes; ++s) {
      const int64_t offset = whole ? plan.first[s] : plan.path_offset[s];
      require(offset >= 0 && offset + plan.columns(s) <= path);
      for (int64_t i = plan.border_start[s]; i < plan.border_start[s + 1]; ++i) {
        const int64_t place =
            whole ? plan.border[std::size_t(i)] : plan.border_path[std::size_t(i)];
        require(place >= 0 && place < path);
      }
    }
  }
  for (std::int64_t row = 0; row < plan.vertices; ++row) {
    require(plan.position[std::size_t(row)] >= 0 &&
            plan.position[std::size_t(row)] < plan.vertices);
    const std::int32_t s = plan.supernode_of[std::size_t(row)];
    id(s);
    require(row >= plan.first[s] && row < plan.first[s + 1] && plan.subtree_first[s] <= row);
    std::int64_t steps = 0;
    for (std::int32_t a = s; a >= 0; a = plan.parent[a]) {
      id(a);
      require(++steps <= supernodes);
    }
  }
}

// The accepted plan of `file`: its bytes again from it, and its indices inside the numeric
// phases' buffers.
void check_plan_section(const apsp::PreparedFile& file) {
  apsp::SupernodalPlan plan;
  if (refused([&] {
        plan = apsp::detail::plan_from_bytes(file.plan.data(), file.plan.size());
        apsp::detail::check_plan(plan);
      }))
    return;
  const std::vector<char> bytes = apsp::detail::plan_bytes(plan);
  require(bytes.size() == file.plan.size() &&
          std::equal(bytes.begin(), bytes.end(), file.plan.data()));
  if (plan.vertices != file.graph.vertices ||
      refused([&] { apsp::detail::check_plan_edges(plan, file.graph.edges); }))
    return;
  numeric_reach(plan, file.graph.edges);
}

// The bytes write_prepared writes of `file` (into a file in memory, through AtomicOutputFile as
// apsp prepare writes it).
std::vector<char> written(const apsp::PreparedFile& file, apsp_fuzz::MemoryFile& out) {
  const std::string path = out.hold(nullptr, 0);
  apsp::AtomicOutputFile output(path);
  apsp::write_prepared(output, file);
  output.commit();
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile input, output;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  std::vector<char> bytes(data, data + size);
  if (size >= header && bytes[header - 1] % 2 == 0) repair_checksums(bytes);
  const std::string path =
      input.hold(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  apsp::PreparedFile file;
  if (refused([&] { file = apsp::read_prepared(path); })) return 0;

  // The graph: its vertices and weights as the reader promises, and opened as every reader's.
  const std::int64_t vertices = file.graph.vertices;
  for (const apsp::Edge& e : file.graph.edges)
    require(e.src >= 0 && e.src < vertices && e.dst >= 0 && e.dst < vertices &&
            !std::isnan(e.weight) && e.weight != -std::numeric_limits<double>::infinity());
  std::string strict_error, relaxed_error;
  const std::optional<apsp::Graph> strict = opened(file, path, false, strict_error);
  const std::optional<apsp::Graph> relaxed = opened(file, path, true, relaxed_error);
  const apsp::Graph* graph = apsp_fuzz::checked_readings(strict, strict_error, relaxed);
  if (graph) {
    std::vector<apsp::Edge> open;
    for (const apsp::Edge& e : file.graph.edges)
      if (e.weight != std::numeric_limits<double>::infinity()) open.push_back(e);
    require(apsp_fuzz::same_graph(*graph, apsp::Graph{file.graph.vertices, open}));
  }

  if (file.algorithm == apsp::Algorithm::supernodal && file.plan.size() > 0)
    check_plan_section(file);

  // Written back: the same bytes, but for the writer's version (16 .. 31) and so the header's
  // checksum (160 .. 167).
  const std::vector<char> again = written(file, output);
  require(again.size() == bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i)
    require((i >= 16 && i < 32) || (i >= header_sum && i < header) || again[i] == bytes[i]);
  char version[16] = {};
  std::strncpy(version, APSP_VERSION, 15);
  require(std::memcmp(again.data() + 16, version, 16) == 0);
  return 0;
}
