// Small helpers the library's sources share, with no Kokkos in them: sizes in messages, stage
// timers, complete POSIX writes, error text.
#pragma once

#include <apsp/detail/measure.hpp>
#include <apsp/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace apsp {
namespace detail {

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
