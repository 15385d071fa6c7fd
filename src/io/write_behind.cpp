// Writing behind the producer of rows (src/io/write_behind.hpp).
#include "io/write_behind.hpp"

#include <apsp/error.hpp>

#include "io/outputs.hpp"
#include "io/posix_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace apsp {
namespace detail {
namespace {

// Where O_DIRECT is refused, everything goes through the page cache: writeback starts on each
// step of this many bytes written; once more steps than this are in flight, the writer
// waits for the oldest, so that the file's dirty pages stay under 512 MB and the final fsync has
// little to do, however large the file.
constexpr std::uint64_t writeback_step = std::uint64_t(32) << 20;
constexpr std::size_t steps_in_flight = 16;

}  // namespace

WriteBehind::WriteBehind(int fd, int direct_fd, const std::string& name, std::size_t buffer_bytes,
                         int buffers)
    : fd_(fd),
      direct_fd_(direct_fd),
      block_(std::max<std::size_t>(4096, std::size_t(sysconf(_SC_PAGESIZE)))),
      name_(name),
      buffer_bytes_((std::max<std::size_t>(buffer_bytes, 1) + block_ - 1) / block_ * block_),
      buffers_(std::size_t(std::max(buffers, 1))) {
  for (int b = 0; b < int(buffers_.size()); ++b)
    free_.push_back(b);
  const HeldSignals held;  // the writer inherits the mask
  writer_ = std::thread([this] { run(); });
}

WriteBehind::~WriteBehind() {
  if (!writer_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
  }
  to_writer_.notify_one();
  writer_.join();
}

void WriteBehind::put(std::uint64_t offset, const void* data, std::size_t bytes) {
  const auto start = Clock::now();
  const char* from = static_cast<const char*>(data);
  while (bytes > 0) {
    if (current_ >= 0) {
      const Buffer& b = buffers_[std::size_t(current_)];
      if (b.offset + b.size != offset || b.offset % block_ + b.size == buffer_bytes_) hand_over();
    }
    if (current_ < 0) {
      std::unique_lock<std::mutex> lock(mutex_);
      to_caller_.wait(lock, [&] { return error_ || !free_.empty(); });
      if (error_) std::rethrow_exception(error_);
      current_ = free_.front();
      free_.pop_front();
      lock.unlock();
      Buffer& b = buffers_[std::size_t(current_)];
      if (!b.data) {
        b.data.reset(static_cast<char*>(std::aligned_alloc(block_, buffer_bytes_)));
        if (!b.data) throw std::bad_alloc();
      }
      b.offset = offset;
      b.size = 0;
    }
    Buffer& b = buffers_[std::size_t(current_)];
    const std::size_t at = std::size_t(b.offset % block_) + b.size;
    const std::size_t n = std::min(bytes, buffer_bytes_ - at);
    std::memcpy(b.data.get() + at, from, n);
    b.size += n;
    from += n;
    offset += n;
    bytes -= n;
  }
  waited_ += seconds_since(start);
}

void WriteBehind::finish() {
  if (!writer_.joinable()) return;
  const auto start = Clock::now();
  if (current_ >= 0) hand_over();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    finishing_ = true;
  }
  to_writer_.notify_one();
  writer_.join();
  waited_ += seconds_since(start);
  if (error_) std::rethrow_exception(error_);
}

void WriteBehind::hand_over() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    filled_.push_back(current_);
  }
  current_ = -1;
  to_writer_.notify_one();
}

void WriteBehind::run() {
  try {
    for (;;) {
      int next = -1;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        to_writer_.wait(lock, [&] { return abandoned_ || finishing_ || !filled_.empty(); });
        if (abandoned_) return;
        if (filled_.empty()) break;  // finishing, and all written
        next = filled_.front();
        filled_.pop_front();
      }
      const auto start = Clock::now();
      write_buffer(buffers_[std::size_t(next)]);
      writing_ += seconds_since(start);
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(next);
      }
      to_caller_.notify_one();
    }
    const auto start = Clock::now();
    start_writeback();  // the tail, for the fsync that follows
    writing_ += seconds_since(start);
  } catch (...) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
    }
    to_caller_.notify_one();
  }
}

void WriteBehind::write_buffer(const Buffer& buffer) {
  // The whole blocks inside the buffer direct, the partial ones at its ends buffered.
  const std::uint64_t begin = buffer.offset, end = begin + buffer.size;
  const std::uint64_t first = std::min((begin + block_ - 1) / block_ * block_, end);
  const std::uint64_t last = std::max(end / block_ * block_, first);
  const char* data = buffer.data.get() + begin % block_;
  const auto buffered = [&](std::uint64_t from, std::uint64_t to) {
    if (to > from) write_all_at(fd_, from, data + (from - begin), std::size_t(to - from), name_);
  };
  buffered(begin, first);
  write_direct(first, data + (first - begin), std::size_t(last - first));
  buffered(last, end);
  if (!writeback_ || direct_fd_ >= 0) return;  // direct: only a few partial blocks are dirty
  if (buffer.offset != unflushed_end_) {
    start_writeback();
    unflushed_begin_ = buffer.offset;
  }
  unflushed_end_ = buffer.offset + buffer.size;
  if (unflushed_end_ - unflushed_begin_ >= writeback_step) start_writeback();
}

void WriteBehind::write_direct(std::uint64_t offset, const char* data, std::size_t bytes) {
  while (bytes > 0 && direct_fd_ >= 0) {
    const ssize_t n = ::pwrite(direct_fd_, data, bytes, off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    // A file system may take O_DIRECT at open() and refuse these blocks (a larger sector).
    if (n < 0 && errno == EINVAL) {
      direct_fd_ = -1;
      break;
    }
    if (n <= 0) throw Error(system_error("cannot write output", name_));
    data += n;
    offset += std::uint64_t(n);
    bytes -= std::size_t(n);
    if (std::size_t(n) % block_ != 0) break;  // a short write off the blocks: the rest buffered
  }
  if (bytes > 0) write_all_at(fd_, offset, data, bytes, name_);
}

void WriteBehind::start_writeback() {
  const std::uint64_t begin = unflushed_begin_, end = unflushed_end_;
  unflushed_begin_ = end;
  if (!writeback_ || begin == end) return;
#if defined(__linux__)
  // Where the file system has no such call, the final fsync does it all. Any other error is
  // the file's own, and must be reported here: the fsync would not report it again.
  const auto refused = [&] {
    if (errno == EINTR) return;
    if (errno != EINVAL && errno != ESPIPE && errno != ENOSYS && errno != EOPNOTSUPP)
      throw Error(system_error("cannot write output", name_));
    writeback_ = false;
    flushing_.clear();
  };
  if (sync_file_range(fd_, off_t(begin), off_t(end - begin), SYNC_FILE_RANGE_WRITE) != 0)
    return refused();
  flushing_.emplace_back(begin, end);
  while (flushing_.size() > steps_in_flight) {
    const auto [from, to] = flushing_.front();
    flushing_.pop_front();
    const unsigned wait =
        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
    if (sync_file_range(fd_, off_t(from), off_t(to - from), wait) != 0) return refused();
  }
#else
  writeback_ = false;
#endif
}

}  // namespace detail
}  // namespace apsp
