// Small helpers the library's sources share, with no Kokkos in them: sizes in messages, stage
// timers, complete POSIX writes, error text.
#pragma once

#include <apsp/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

// "512.00 MiB", "6.40 GiB".
inline std::string size_text(std::uint64_t bytes) {
  char text[32];
  const double mib = double(bytes) / (1024.0 * 1024.0);
  if (mib < 1024)
    std::snprintf(text, sizeof text, "%.2f MiB", mib);
  else
    std::snprintf(text, sizeof text, "%.2f GiB", mib / 1024.0);
  return text;
}

// Memory sizes add up to "too much", never wrap (V near 2^31 makes V^2 * 4 bytes reach 2^64).
inline std::uint64_t saturating_sum(const std::vector<std::uint64_t>& sizes) {
  std::uint64_t sum = 0;
  for (const std::uint64_t s : sizes)
    sum = s > UINT64_MAX - sum ? UINT64_MAX : sum + s;
  return sum;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline std::string system_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// pwrite() until all bytes are written; `path` names the file in the error.
inline void write_all_at(int fd, std::uint64_t offset, const void* data, std::size_t bytes,
                         const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(system_error("cannot write output", path));
    p += n;
    offset += std::uint64_t(n);
    bytes -= std::size_t(n);
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// An input opened for reading: apsp::Error when it cannot be, or is a directory.
inline File open_for_reading(const std::string& path) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) throw Error(system_error("cannot open input", path));
  struct stat st;
  if (fstat(fileno(file.get()), &st) != 0) throw Error(system_error("cannot stat", path));
  if (S_ISDIR(st.st_mode)) throw Error("input '" + path + "' is a directory");
  return file;
}

inline std::uint64_t file_size(std::FILE* file) {
  struct stat st;
  fstat(fileno(file), &st);
  return std::uint64_t(st.st_size);
}

}  // namespace detail
}  // namespace apsp
