#include <apsp/error.hpp>
#include <apsp/hw3_io.hpp>

#include "support.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace apsp {
namespace {

using detail::size_text;
using detail::system_error;

static_assert(sizeof(Edge) == 12, "Edge must match the 12-byte HW3 triple");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "apsp reads and writes the little-endian HW3 format on little-endian hosts only"
#endif

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_for_reading(const std::string& path) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) throw Error(system_error("cannot open input", path));
  struct stat st;
  if (fstat(fileno(file.get()), &st) != 0) throw Error(system_error("cannot stat", path));
  if (S_ISDIR(st.st_mode)) throw Error("input '" + path + "' is a directory");
  return file;
}

std::uint64_t file_size(std::FILE* file) {
  struct stat st;
  fstat(fileno(file), &st);
  return std::uint64_t(st.st_size);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Why a weight outside [lowest_weight(allow_negative), max_weight] is refused, as the message
// goes on after "weight W": a negative one without allow_negative says how to have it accepted.
std::string weight_refusal(std::int32_t weight, bool allow_negative) {
  if (weight < 0 && !allow_negative) return "is negative (negative weights need --allow-negative)";
  return "out of range [" + std::to_string(lowest_weight(allow_negative)) + ", " +
         std::to_string(max_weight) + "]";
}

}  // namespace

Graph read_hw3(const std::string& path, bool allow_negative) {
  File file = open_for_reading(path);
  // A regular file's size tells a truncated or overlong file before anything is allocated;
  // a pipe is read to its end instead.
  struct stat st;
  fstat(fileno(file.get()), &st);
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t size = regular ? std::uint64_t(st.st_size) : 0;
  std::int32_t header[2];
  const std::size_t got = std::fread(header, 1, sizeof header, file.get());
  if (got < sizeof header)
    throw Error("input '" + path + "': truncated header (" + std::to_string(got) +
                " bytes; V and E need 8)");
  Graph graph;
  graph.vertices = header[0];
  const std::int64_t edges = header[1];
  if (graph.vertices <= 0)
    throw Error("input '" + path + "': V = " + std::to_string(graph.vertices) +
                ", the number of vertices must be at least 1");
  if (edges < 0)
    throw Error("input '" + path + "': E = " + std::to_string(edges) +
                ", the number of edges must not be negative");
  const std::uint64_t expected = sizeof header + std::uint64_t(edges) * sizeof(Edge);
  auto truncated = [&](std::uint64_t bytes) {
    return Error("input '" + path + "': truncated edge list (E = " + std::to_string(edges) +
                 " needs " + std::to_string(expected) + " bytes, the file has " +
                 std::to_string(bytes) + ")");
  };
  auto trailing = [&](std::uint64_t bytes) {
    return Error("input '" + path + "': " + std::to_string(bytes) +
                 " bytes of trailing data after the " + std::to_string(edges) + " edges");
  };
  if (regular && size < expected) throw truncated(size);
  if (regular && size > expected) throw trailing(size - expected);
  try {
    graph.edges.resize(std::size_t(edges));
  } catch (const std::bad_alloc&) {
    throw Error("input '" + path + "': not enough host memory for " + std::to_string(edges) +
                " edges (" + size_text(std::uint64_t(edges) * sizeof(Edge)) + ")");
  }
  const std::size_t read =
      edges > 0 ? std::fread(graph.edges.data(), sizeof(Edge), graph.edges.size(), file.get()) : 0;
  if (read != graph.edges.size()) {
    if (std::ferror(file.get())) throw Error(system_error("cannot read the edges of", path));
    throw truncated(sizeof header + read * sizeof(Edge));
  }
  if (!regular) {
    std::uint64_t extra = 0;
    char sink[4096];
    for (std::size_t n; (n = std::fread(sink, 1, sizeof sink, file.get())) > 0;)
      extra += n;
    if (extra > 0) throw trailing(extra);
  }
  const std::int32_t lowest = lowest_weight(allow_negative);
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    const Edge& edge = graph.edges[e];
    for (const std::int32_t v : {edge.src, edge.dst})
      if (v < 0 || v >= graph.vertices)
        throw Error("input '" + path + "': edge " + std::to_string(e) + ": vertex " +
                    std::to_string(v) + " out of range [0, " + std::to_string(graph.vertices) +
                    ")");
    if (edge.weight < lowest || edge.weight > max_weight)
      throw Error("input '" + path + "': edge " + std::to_string(e) + ": weight " +
                  std::to_string(edge.weight) + " " + weight_refusal(edge.weight, allow_negative));
  }
  return graph;
}

void write_hw3_graph(const std::string& path, const Graph& graph) {
  if (graph.edges.size() > std::size_t(INT32_MAX))
    throw Error("the HW3 format stores E as int32: " + std::to_string(graph.edges.size()) +
                " edges do not fit");
  AtomicOutputFile out(path);
  const std::int32_t header[2] = {graph.vertices, std::int32_t(graph.edges.size())};
  out.write(header, sizeof header);
  if (!graph.edges.empty()) out.write(graph.edges.data(), graph.edges.size() * sizeof(Edge));
  out.commit();
}

void check_disk_space(const std::vector<std::pair<std::string, std::uint64_t>>& outputs) {
  struct Need {
    std::string dir, names;
    std::uint64_t bytes = 0;
  };
  std::map<dev_t, Need> needs;  // by the file system of each output's directory
  for (const auto& [path, bytes] : outputs) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) continue;
    const std::string dir = directory_of(path);
    struct stat dir_st;
    if (stat(dir.c_str(), &dir_st) != 0)
      throw Error(system_error("cannot reach output directory", dir));
    Need& need = needs[dir_st.st_dev];
    need.dir = dir;
    need.names += (need.names.empty() ? "'" : " and '") + path + "'";
    need.bytes += bytes;
  }
  for (const auto& [device, need] : needs) {
    struct statvfs fs;
    if (statvfs(need.dir.c_str(), &fs) != 0)
      throw Error(system_error("cannot reach output directory", need.dir));
    const std::uint64_t free_bytes = std::uint64_t(fs.f_bavail) * fs.f_frsize;
    if (free_bytes < need.bytes)
      throw Error("not enough disk space for " + need.names + ": " +
                  (need.names.find(" and ") == std::string::npos ? "it needs " : "they need ") +
                  size_text(need.bytes) + ", " + size_text(free_bytes) + " free in '" + need.dir +
                  "'");
  }
}

void check_disk_space(const std::string& path, std::uint64_t bytes) {
  check_disk_space({{path, bytes}});
}

bool same_output_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  const bool ea = stat(a.c_str(), &sa) == 0, eb = stat(b.c_str(), &sb) == 0;
  if (ea && eb) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return a == b;
}

AtomicOutputFile::AtomicOutputFile(const std::string& path) : path_(path) {
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw Error("output '" + path + "' is a directory");
  if (exists && !S_ISREG(st.st_mode)) {  // /dev/null, a pipe: nothing to rename into place
    fd_ = open(path.c_str(), O_WRONLY);
    if (fd_ < 0) throw Error(system_error("cannot open output", path));
    return;
  }
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = ".apsp-tmp.XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  fd_ = mkstemp(name.data());
  if (fd_ < 0) throw Error(system_error("cannot create output next to", path));
  temp_path_ = name.data();
  if (temporary_file_hook) temporary_file_hook(temp_path_.c_str(), true);
  fchmod(fd_, 0644);
}

AtomicOutputFile::~AtomicOutputFile() {
  if (fd_ >= 0) close(fd_);
  if (committed_ || temp_path_.empty()) return;
  unlink(temp_path_.c_str());
  if (temporary_file_hook) temporary_file_hook(temp_path_.c_str(), false);
}

void AtomicOutputFile::write(const void* data, std::size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(system_error("cannot write output", path_));
    p += n;
    bytes -= std::size_t(n);
  }
}

void AtomicOutputFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  detail::write_all_at(fd_, offset, data, bytes, path_);
}

void AtomicOutputFile::commit() {
  if (close(fd_) != 0) {
    fd_ = -1;
    throw Error(system_error("cannot finish output", path_));
  }
  fd_ = -1;
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw Error(system_error("cannot move the finished output into place as", path_));
  committed_ = true;
  if (temporary_file_hook) temporary_file_hook(temp_path_.c_str(), false);
}

Comparison compare_hw3_outputs(const std::string& a, const std::string& b) {
  File fa = open_for_reading(a), fb = open_for_reading(b);
  const std::uint64_t sa = file_size(fa.get()), sb = file_size(fb.get());
  if (sa != sb)
    return {false, "sizes differ: '" + a + "' has " + std::to_string(sa) + " bytes, '" + b +
                       "' has " + std::to_string(sb)};
  if (sa == 0) return {false, "'" + a + "' and '" + b + "' are empty: no HW3 output has V = 0"};
  if (sa % 4 != 0) return {false, "'" + a + "' is not a whole number of int32 values"};
  std::uint64_t v = 0;
  while (v * v * 4 < sa)
    ++v;
  if (v * v * 4 != sa)
    return {false, "'" + a + "' holds " + std::to_string(sa / 4) +
                       " values, not the square of a vertex count"};
  constexpr std::size_t chunk = 1 << 20;
  const std::size_t buffer = std::size_t(std::min<std::uint64_t>(chunk, sa / 4));
  std::vector<std::int32_t> xa(buffer), xb(buffer);
  std::uint64_t index = 0;
  while (index < sa / 4) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(chunk, sa / 4 - index));
    if (std::fread(xa.data(), 4, n, fa.get()) != n) throw Error(system_error("cannot read", a));
    if (std::fread(xb.data(), 4, n, fb.get()) != n) throw Error(system_error("cannot read", b));
    for (std::size_t k = 0; k < n; ++k)
      if (xa[k] != xb[k]) {
        const std::uint64_t at = index + k;
        return {false, "first difference at (" + std::to_string(at / v) + ", " +
                           std::to_string(at % v) + "): " + std::to_string(xa[k]) + " in '" + a +
                           "', " + std::to_string(xb[k]) + " in '" + b + "'"};
      }
    index += n;
  }
  return {true, "identical (V = " + std::to_string(v) + ")"};
}

}  // namespace apsp
