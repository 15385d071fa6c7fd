// Small helpers the library's sources share, with no Kokkos in them: sizes in messages, stage
// timers, complete POSIX writes, error text.
#pragma once

#include <apsp/detail/measure.hpp>
#include <apsp/error.hpp>

#include <fcntl.h>
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

// A descriptor apsp opened for writing, kept off 0, 1 and 2: where those were closed when the
// process started (a daemon, a cron job, `apsp ... >&-`), a fresh descriptor takes the lowest free
// number, and whatever then writes to standard output or error (printf, a library's warning)
// would write into the file. `fd` itself when it is above 2 or -1, else a close-on-exec duplicate
// above 2 with `fd` closed (-1 and errno when none can be made). The command line holds 0, 1 and
// 2 open from its start (hold_standard_streams, outputs.hpp); this keeps a library caller's
// process right too. Descriptors opened for reading only need no move: a write there fails as it
// would on a closed descriptor.
inline int off_standard_streams(int fd) {
  if (fd < 0 || fd > STDERR_FILENO) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  const int error = errno;
  ::close(fd);
  errno = error;
  return moved;
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
