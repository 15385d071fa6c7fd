#include "io/prepared_file.hpp"

#include <apsp/version.hpp>

#include "io/posix_files.hpp"

#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace apsp {
namespace {

constexpr char magic[8] = {'A', 'P', 'S', 'P', 'P', 'R', 'E', 'P'};
constexpr std::uint32_t byte_order = 0x01020304;
// The algorithm's code in the header.
constexpr std::uint32_t supernodal_code = 1, sssp_code = 2;
constexpr std::uint64_t edge_bytes = 16;  // i32 src, i32 dst, f64 weight
constexpr std::array<const char*, 3> section_names = {"graph", "plan", "factor"};

// 64-bit FNV-1a over little-endian words, then the last bytes one at a time.
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

// The header's fields, put or taken in order at fixed offsets.
class HeaderBytes {
 public:
  HeaderBytes() { bytes_.fill(0); }
  char* data() { return bytes_.data(); }
  template <class X>
  void put(std::size_t at, const X& x) {
    std::memcpy(bytes_.data() + at, &x, sizeof x);
  }
  template <class X>
  X take(std::size_t at) const {
    X x;
    std::memcpy(&x, bytes_.data() + at, sizeof x);
    return x;
  }
  std::uint64_t sum() const { return checksum(bytes_.data(), 160); }

 private:
  std::array<char, prepared_header_bytes> bytes_;
};

std::vector<char> graph_bytes(const Graph& graph) {
  std::vector<char> bytes(graph.edges.size() * edge_bytes);
  char* p = bytes.data();
  for (const Edge& e : graph.edges) {
    std::memcpy(p, &e.src, 4);
    std::memcpy(p + 4, &e.dst, 4);
    std::memcpy(p + 8, &e.weight, 8);
    p += edge_bytes;
  }
  return bytes;
}

// The whole file (`size` bytes), mapped into memory where the system can (the page cache's own
// pages: nothing copied, nothing allocated), else read.
Bytes map_or_read(std::FILE* file, std::uint64_t size, const std::string& path) {
  if (size == 0) return Bytes();
  void* mapped =
      ::mmap(nullptr, std::size_t(size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(file), 0);
  if (mapped != MAP_FAILED) {
    char* at = static_cast<char*>(mapped);
    return Bytes(std::shared_ptr<char>(at, [size](char* p) { ::munmap(p, std::size_t(size)); }), at,
                 std::size_t(size));
  }
  Bytes whole(static_cast<std::size_t>(size));
  if (std::fseek(file, 0, SEEK_SET) != 0 ||
      std::fread(whole.data(), 1, whole.size(), file) != whole.size())
    throw Error(detail::system_error("cannot read", path));
  return whole;
}

std::string shown(double w) {
  if (std::isnan(w)) return "NaN";
  if (std::isinf(w)) return w > 0 ? "+inf" : "-inf";
  return std::to_string(w);
}

}  // namespace

bool is_prepared_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  detail::File file(std::fopen(path.c_str(), "rb"));
  char start[sizeof magic];
  return file && std::fread(start, 1, sizeof start, file.get()) == sizeof start &&
         std::memcmp(start, magic, sizeof magic) == 0;
}

std::uint64_t prepared_file_bytes(std::int64_t edges, std::uint64_t plan, std::uint64_t factor) {
  return prepared_header_bytes + std::uint64_t(edges) * edge_bytes + plan + factor;
}
std::uint64_t prepared_file_bytes(const PreparedFile& file) {
  return prepared_file_bytes(std::int64_t(file.graph.edges.size()), file.plan.size(),
                             file.factor.size());
}

void write_prepared(AtomicOutputFile& out, const PreparedFile& file) {
  static_assert(sizeof(std::int32_t) == 4 && sizeof(double) == 8, "the layout's sizes");
  const std::vector<char> graph = graph_bytes(file.graph);
  struct Section {
    const char* data;
    std::size_t size;
  };
  const std::array<Section, 3> sections = {Section{graph.data(), graph.size()},
                                           Section{file.plan.data(), file.plan.size()},
                                           Section{file.factor.data(), file.factor.size()}};
  HeaderBytes h;
  std::memcpy(h.data(), magic, sizeof magic);
  h.put(8, prepared_format_version);
  h.put(12, byte_order);
  std::strncpy(h.data() + 16, APSP_VERSION, 15);
  h.put(32, std::uint32_t(file.type));
  h.put(36, file.algorithm == Algorithm::sssp ? sssp_code : supernodal_code);
  h.put(40, std::int64_t(file.graph.vertices));
  h.put(48, std::int64_t(file.graph.edges.size()));
  h.put(56, file.weights.lowest);
  h.put(64, file.weights.highest);
  h.put(72, file.weights.longest_path);
  h.put(80, std::uint32_t(file.weights.integers));
  h.put(84, std::uint32_t(sections.size()));
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const std::size_t at = 88 + 24 * s;
    std::strncpy(h.data() + at, section_names[s], 8);
    h.put(at + 8, std::uint64_t(sections[s].size));
    h.put(at + 16, checksum(sections[s].data, sections[s].size));
  }
  h.put(160, h.sum());
  out.write(h.data(), prepared_header_bytes);
  for (const Section& section : sections)
    out.write(section.data, section.size);
}

PreparedFile read_prepared(const std::string& path) {
  const auto fail = [&](const std::string& what) {
    return Error("prepared graph '" + path + "': " + what);
  };
  detail::File file = detail::open_for_reading(path);
  const std::uint64_t size = detail::file_size(file.get());
  HeaderBytes h;
  const std::size_t got = std::fread(h.data(), 1, prepared_header_bytes, file.get());
  if (got < sizeof magic || std::memcmp(h.data(), magic, sizeof magic) != 0)
    throw fail("not a prepared graph (it does not start with APSPPREP)");
  const auto version = h.take<std::uint32_t>(8);
  if (got >= 12 && version != prepared_format_version)
    throw fail("format version " + std::to_string(version) +
               "; this apsp (" APSP_VERSION ") reads version " +
               std::to_string(prepared_format_version) +
               ": prepare the graph again (apsp prepare)");
  if (got < prepared_header_bytes)
    throw fail("the file ends early, in its header (" + std::to_string(size) +
               " bytes; the header alone is " + std::to_string(prepared_header_bytes) + ")");
  if (h.take<std::uint32_t>(12) != byte_order)
    throw fail("written with another byte order than this machine's");
  if (h.take<std::uint64_t>(160) != h.sum())
    throw fail("the header is damaged (its checksum does not match)");

  PreparedFile out;
  out.apsp_version.assign(h.data() + 16, strnlen(h.data() + 16, 16));
  const auto type = h.take<std::uint32_t>(32);
  if (type > std::uint32_t(DistanceType::float64))
    throw fail("unknown distance type " + std::to_string(type));
  out.type = DistanceType(type);
  const auto algorithm = h.take<std::uint32_t>(36);
  if (algorithm != supernodal_code && algorithm != sssp_code)
    throw fail("unknown algorithm " + std::to_string(algorithm));
  out.algorithm = algorithm == sssp_code ? Algorithm::sssp : Algorithm::supernodal;
  const auto vertices = h.take<std::int64_t>(40), edges = h.take<std::int64_t>(48);
  if (vertices < 0 || vertices > std::numeric_limits<std::int32_t>::max() || edges < 0)
    throw fail("V = " + std::to_string(vertices) + ", E = " + std::to_string(edges) +
               " is no graph");
  out.weights.lowest = h.take<double>(56);
  out.weights.highest = h.take<double>(64);
  out.weights.longest_path = h.take<double>(72);
  if (h.take<std::uint32_t>(80) > 1)
    throw fail("whole-numbers flag " + std::to_string(h.take<std::uint32_t>(80)) +
               ", neither 0 nor 1");
  out.weights.integers = h.take<std::uint32_t>(80) != 0;
  if (h.take<std::uint32_t>(84) != section_names.size())
    throw fail(std::to_string(h.take<std::uint32_t>(84)) + " sections, not " +
               std::to_string(section_names.size()));
  std::uint64_t expected = prepared_header_bytes;
  std::array<std::uint64_t, 3> bytes{};
  for (std::size_t s = 0; s < section_names.size(); ++s) {
    const std::size_t at = 88 + 24 * s;
    char name[8] = {};  // NUL-padded, as written
    std::strncpy(name, section_names[s], sizeof name);
    if (std::memcmp(h.data() + at, name, sizeof name) != 0)
      throw fail(std::string("section ") + std::to_string(s) + " is not '" + section_names[s] +
                 "'");
    bytes[s] = h.take<std::uint64_t>(at + 8);
    if (bytes[s] > size)
      throw fail(std::string("section '") + section_names[s] + "' is longer than the file");
    expected += bytes[s];
  }
  if (bytes[0] % edge_bytes != 0 || bytes[0] / edge_bytes != std::uint64_t(edges))
    throw fail("the graph section holds " + std::to_string(bytes[0]) + " bytes; E = " +
               std::to_string(edges) + " needs " + std::to_string(edge_bytes) + " bytes an edge");
  if (out.algorithm == Algorithm::sssp && bytes[2] != 0)
    throw fail("prepared for sssp, yet it holds a factor of " + std::to_string(bytes[2]) +
               " bytes");
  if (size < expected)
    throw fail("the file ends early (" + std::to_string(size) + " bytes of " +
               std::to_string(expected) + "): truncated");
  if (size > expected)
    throw fail(std::to_string(size - expected) + " bytes after the last section");

  const Bytes whole = map_or_read(file.get(), size, path);
  std::array<Bytes, 3> read;
  std::uint64_t at = prepared_header_bytes;
  for (std::size_t s = 0; s < section_names.size(); ++s) {
    read[s] = whole.part(at, bytes[s]);
    at += bytes[s];
    if (checksum(read[s].data(), bytes[s]) != h.take<std::uint64_t>(88 + 24 * s + 16))
      throw fail(std::string("the ") + section_names[s] +
                 " section is damaged (its checksum does not match)");
  }

  out.graph.vertices = std::int32_t(vertices);
  out.graph.edges.resize(std::size_t(edges));
  const char* p = read[0].data();
  for (Edge& e : out.graph.edges) {
    std::memcpy(&e.src, p, 4);
    std::memcpy(&e.dst, p + 4, 4);
    std::memcpy(&e.weight, p + 8, 8);
    p += edge_bytes;
    if (e.src < 0 || e.src >= vertices || e.dst < 0 || e.dst >= vertices)
      throw fail("edge " + std::to_string(&e - out.graph.edges.data()) + ": a vertex out of [0, " +
                 std::to_string(vertices) + ")");
    if (std::isnan(e.weight) || e.weight == -std::numeric_limits<double>::infinity())
      throw fail("edge " + std::to_string(&e - out.graph.edges.data()) + ": weight " +
                 shown(e.weight));
  }
  out.plan = std::move(read[1]);
  out.factor = std::move(read[2]);
  return out;
}

Graph open_graph(const PreparedFile& file, const std::string& path, bool allow_negative) {
  if (file.graph.vertices == 0)
    throw Error("prepared graph '" + path + "': V = 0, the number of vertices must be at least 1");
  Graph graph;
  graph.vertices = file.graph.vertices;
  graph.edges.reserve(file.graph.edges.size());  // one allocation, not a copy at each doubling
  for (const Edge& e : file.graph.edges) {
    if (e.weight == std::numeric_limits<double>::infinity()) continue;
    if (e.weight < 0 && !allow_negative)
      throw Error("prepared graph '" + path + "': weight " + shown(e.weight) +
                  " is negative (negative weights need --allow-negative)");
    graph.edges.push_back(e);
  }
  return graph;
}

Graph reweighted(const PreparedFile& file, const std::string& path, Graph fresh,
                 const std::string& fresh_path) {
  const std::string keep = ": new weights keep the prepared graph's edges and their order";
  const auto size = [](std::int64_t v, std::size_t e) {
    return "V = " + std::to_string(v) + ", E = " + std::to_string(e);
  };
  if (fresh.vertices != file.graph.vertices || fresh.edges.size() != file.graph.edges.size())
    throw Error("--update-weights '" + fresh_path + "' has " +
                size(fresh.vertices, fresh.edges.size()) + ", the prepared graph '" + path + "' " +
                size(file.graph.vertices, file.graph.edges.size()) + keep);
  for (std::size_t e = 0; e < fresh.edges.size(); ++e) {
    const Edge &a = fresh.edges[e], &b = file.graph.edges[e];
    if (a.src != b.src || a.dst != b.dst)
      throw Error("--update-weights '" + fresh_path + "': edge " + std::to_string(e) + " is " +
                  std::to_string(a.src) + " -> " + std::to_string(a.dst) + ", the prepared " +
                  "graph's " + std::to_string(b.src) + " -> " + std::to_string(b.dst) + keep);
  }
  return fresh;
}

}  // namespace apsp
