// The tuning cache (src/plan/tuning.hpp): one JSON object per entry, one entry per line,
// written with the output files' atomic replace and read back by a small parser that knows
// exactly the keys it writes.
#include <apsp/error.hpp>

#include "io/json.hpp"
#include "io/outputs.hpp"
#include "io/posix_files.hpp"
#include "plan/tuning.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace apsp {
namespace {

using detail::json_string;

std::string entry_line(const TunedShape& e) {
  std::ostringstream line;
  line.precision(6);
  const ShapeParams& s = e.shape;
  line << "{\"backend\": " << json_string(e.key.backend)
       << ", \"device\": " << json_string(e.key.device) << ", \"isa\": " << json_string(e.key.isa)
       << ", \"concurrency\": " << e.key.concurrency << ", \"dtype\": " << json_string(e.key.dtype)
       << ", \"table\": " << json_string(e.key.table) << ", \"min_vertices\": " << e.min_vertices
       << ", \"max_vertices\": " << e.max_vertices
       << ", \"measured_vertices\": " << e.measured_vertices << ", \"tile\": " << s.tile
       << ", \"team_rows\": " << s.team_rows << ", \"team_cols\": " << s.team_cols
       << ", \"reg_rows\": " << s.reg_rows << ", \"reg_cols\": " << s.reg_cols
       << ", \"k_chunk\": " << s.k_chunk << ", \"updates_per_second\": " << e.rate
       << ", \"default_updates_per_second\": " << e.default_rate << "}";
  return line.str();
}

// The "key": value pairs of one line written by entry_line (strings with \" and \\ escapes,
// numbers); false when the line is not such an object.
bool parse_object(const std::string& line, std::map<std::string, std::string>& fields) {
  std::size_t i = 0;
  const auto skip = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
  };
  const auto string_at = [&](std::string& out) {
    if (i >= line.size() || line[i] != '"') return false;
    for (++i; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && ++i >= line.size()) return false;
      out += line[i];
    }
    return i++ < line.size();
  };
  skip();
  if (i >= line.size() || line[i++] != '{') return false;
  for (;;) {
    skip();
    std::string key, value;
    if (!string_at(key)) return false;
    skip();
    if (i >= line.size() || line[i++] != ':') return false;
    skip();
    if (i < line.size() && line[i] == '"') {
      if (!string_at(value)) return false;
    } else {
      while (i < line.size() && line[i] != ',' && line[i] != '}' && line[i] != ' ')
        value += line[i++];
      if (value.empty()) return false;
    }
    fields[key] = value;
    skip();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    if (i >= line.size() || line[i++] != '}') return false;
    skip();
    return i == line.size() || (line[i] == ',' && i + 1 == line.size());
  }
}

bool parse_entry(const std::string& line, TunedShape& e) {
  std::map<std::string, std::string> f;
  if (!parse_object(line, f)) return false;
  const auto text = [&](const char* key, std::string& out) {
    const auto it = f.find(key);
    if (it == f.end()) return false;
    out = it->second;
    return true;
  };
  const auto integer = [&](const char* key, auto& out, long long low, long long high) {
    const auto it = f.find(key);
    if (it == f.end()) return false;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v < low || v > high) return false;
    out = static_cast<std::remove_reference_t<decltype(out)>>(v);
    return true;
  };
  const auto real = [&](const char* key, double& out) {
    const auto it = f.find(key);
    if (it == f.end()) return false;
    char* end = nullptr;
    out = std::strtod(it->second.c_str(), &end);
    return *end == '\0' && out >= 0;
  };
  ShapeParams& s = e.shape;
  return text("backend", e.key.backend) && text("device", e.key.device) && text("isa", e.key.isa) &&
         integer("concurrency", e.key.concurrency, 1, 1 << 30) && text("dtype", e.key.dtype) &&
         text("table", e.key.table) && integer("min_vertices", e.min_vertices, 1, INT64_MAX) &&
         integer("max_vertices", e.max_vertices, 1, INT64_MAX) &&
         integer("measured_vertices", e.measured_vertices, 1, INT64_MAX) &&
         integer("tile", s.tile, 1, 4096) && integer("team_rows", s.team_rows, 1, 4096) &&
         integer("team_cols", s.team_cols, 1, 4096) && integer("reg_rows", s.reg_rows, 1, 4096) &&
         integer("reg_cols", s.reg_cols, 1, 4096) && integer("k_chunk", s.k_chunk, 1, 4096) &&
         real("updates_per_second", e.rate) && real("default_updates_per_second", e.default_rate) &&
         e.min_vertices <= e.max_vertices;
}

void make_directories(const std::string& dir) {
  for (std::size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST)
      throw Error("cannot create the tuning cache's directory '" + part +
                  "': " + std::strerror(errno));
  }
}

}  // namespace

std::string tuning_cache_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/apsp/tuning.json";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache/apsp/tuning.json";
  return "";
}

bool tuning_enabled(std::string* warning) {
  const char* value = std::getenv("APSP_TUNING");
  if (!value) return true;
  std::string v = value;
  for (char& c : v)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const char* off : {"off", "0", "no", "false", "disable", "disabled", "n", "f"})
    if (v == off) return false;
  for (const char* on : {"on", "1", "yes", "true", "enable", "enabled", "y", "t", ""})
    if (v == on) return true;
  if (warning)
    *warning = "APSP_TUNING='" + std::string(value) +
               "' is neither on nor off (on, 1, yes, true, enabled; off, 0, no, false, disabled): "
               "taken as off, the tuning cache is ignored";
  return false;
}

std::vector<TunedShape> read_tuning_cache(const std::string& path, std::string& warning) {
  std::vector<TunedShape> entries;
  if (path.empty()) return entries;
  const auto ignore = [&](const std::string& why) {
    warning = "ignoring the tuning cache '" + path + "': " + why;
    return std::vector<TunedShape>{};
  };
  // Never blocks (a FIFO at the path) and reads a bounded amount (a cache of a few hundred bytes
  // an entry, from a file that might be anything).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? entries : ignore(std::strerror(errno));
  const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  struct stat st;
  if (::fstat(fd, &st) != 0) return ignore(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return ignore("it is not a regular file");
  if (std::uint64_t(st.st_size) > max_tuning_cache_bytes)
    return ignore("it has " + std::to_string(st.st_size) + " bytes, more than the " +
                  std::to_string(max_tuning_cache_bytes >> 20) +
                  " MiB any apsp tuning cache needs (run apsp tune again to replace it)");
  std::string text(std::size_t(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, &text[got], text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ignore(std::strerror(errno));
    if (n == 0) break;
    got += std::size_t(n);
  }
  text.resize(got);
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!header) {
      header = line.rfind("{\"apsp_tuning\": 1, \"entries\": [", 0) == 0;
      if (!header) break;
      continue;
    }
    if (line.rfind("]}", 0) == 0) return entries;
    TunedShape e;
    if (!parse_entry(line, e))
      return ignore("line " + std::to_string(number) +
                    " is not an entry apsp wrote (run apsp tune again)");
    entries.push_back(e);
  }
  return ignore(std::string(header ? "it ends early" : "it is not an apsp tuning cache") +
                " (run apsp tune again)");
}

void store_tuning(const std::string& path, const std::vector<TunedShape>& entries) {
  if (path.empty()) throw Error("no place for the tuning cache: set XDG_CACHE_HOME or HOME");
  make_directories(path.substr(0, path.rfind('/')));
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw Error("the tuning cache '" + path + "' is not a regular file: remove it, or set " +
                "XDG_CACHE_HOME to another directory");
  // Read, merge and replace under an exclusive lock on a file beside the cache, so that tunes
  // running at once (one per distance type) keep each other's entries. Runs that only read need
  // no lock: the cache is replaced by a rename, never rewritten in place.
  const std::string lock_path = path + ".lock";
  const int lock =
      detail::off_standard_streams(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666));
  if (lock < 0)
    throw Error("cannot open the tuning cache's lock '" + lock_path + "': " + std::strerror(errno));
  const std::unique_ptr<int, void (*)(int*)> unlock(new int(lock), [](int* fd) {
    ::close(*fd);  // releases the lock
    delete fd;
  });
  while (::flock(lock, LOCK_EX) != 0)
    if (errno != EINTR)
      throw Error("cannot lock the tuning cache's lock '" + lock_path +
                  "': " + std::strerror(errno));
  std::string warning;
  std::vector<TunedShape> all = read_tuning_cache(path, warning);
  std::vector<TunedShape> kept;
  for (const TunedShape& e : all) {
    bool replaced = false;
    for (const TunedShape& n : entries)
      replaced = replaced || e.key.same_machine(n.key);
    if (!replaced) kept.push_back(e);
  }
  kept.insert(kept.end(), entries.begin(), entries.end());
  std::string text = "{\"apsp_tuning\": 1, \"entries\": [\n";
  for (std::size_t i = 0; i < kept.size(); ++i)
    text += entry_line(kept[i]) + (i + 1 < kept.size() ? ",\n" : "\n");
  text += "]}\n";
  AtomicOutputFile file(path);
  file.write(text.data(), text.size());
  file.commit();
}

VertexRange tuned_range(std::int64_t measured_vertices) {
  const std::int64_t m = std::max<std::int64_t>(1, measured_vertices);
  return {m / 2 + m % 2, m > INT64_MAX / 2 ? INT64_MAX : 2 * m};  // ceil(m / 2), no overflow
}

const TunedShape* find_tuned_shape(const std::vector<TunedShape>& cache, const TuningKey& key,
                                   std::int64_t vertices, std::string& warning) {
  bool stale = false;
  for (const TunedShape& e : cache) {
    if (!e.key.same_machine(key)) continue;
    if (!(e.key == key)) {
      stale = true;
      continue;
    }
    if (vertices >= e.min_vertices && vertices <= e.max_vertices &&
        tuned_range(e.measured_vertices).holds(vertices))
      return &e;
  }
  if (stale)
    warning = "ignoring tuned shapes of " + key.backend + " on " + key.device +
              ": they were measured for another shape table (run apsp tune again)";
  return nullptr;
}

}  // namespace apsp
