// The readers take file names; a fuzz input becomes a file in memory (memfd), named through
// /proc/self/fd, so that millions of runs touch no disk. LeakSanitizer sees lost memory, not
// lost file descriptors: NoDescriptorLeak watches those.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace apsp_fuzz {

class MemoryFile {
 public:
  MemoryFile() : fd_(memfd_create("apsp-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();
  }
  ~MemoryFile() { close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  // Replaces the contents; returns a path that opens them.
  std::string hold(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = pwrite(fd_, data + done, size - done, off_t(done));
      if (n <= 0) std::abort();
      done += std::size_t(n);
    }
    return "/proc/self/fd/" + std::to_string(fd_);
  }

 private:
  int fd_;
};

// The lowest free file descriptor: a reader that leaks a descriptor moves it.
inline int lowest_free_descriptor() {
  const int fd = dup(0);
  if (fd < 0) std::abort();
  close(fd);
  return fd;
}

// Aborts when its scope ends with more descriptors open than it began with.
class NoDescriptorLeak {
 public:
  ~NoDescriptorLeak() {
    if (lowest_free_descriptor() != lowest_) std::abort();
  }

 private:
  int lowest_ = lowest_free_descriptor();
};

}  // namespace apsp_fuzz
