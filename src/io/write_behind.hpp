// Writing behind the producer of rows: WriteBehind copies each piece handed to it into one of a
// few buffers and returns; a writer thread writes the filled buffers (consecutive pieces
// together), so that computing the next rows and writing the last ones go on at once. The
// producer waits only when every buffer is full; its memory is the buffers, whatever the file's
// size.
//
// Where the file system takes O_DIRECT, the writer writes the buffers' whole blocks that way,
// past the page cache: the page cache would only add a copy of every byte and a writeback that
// the final fsync has to wait for (docs/PERFORMANCE.md entry 40 compares the two), and the fsync
// finds nothing left but metadata. Buffers cover aligned ranges of the file for that, so that only
// the ends of a run of consecutive pieces (a rank's first and last rows) go through the page cache.
// Where O_DIRECT is refused, the writer starts the disk's writeback of what it wrote as it goes
// (sync_file_range), so that the fsync that finishes the file finds little left either way.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace apsp {
namespace detail {

class WriteBehind {
 public:
  static constexpr std::size_t default_buffer_bytes = std::size_t(16) << 20;
  static constexpr int default_buffers = 4;

  // `fd`: a file open for writing; `direct_fd`: the same file opened with O_DIRECT, or -1 where
  // the file system refused it; both stay the caller's. `name`: the output as the user named it,
  // for messages. Starts the writer, with the ending signals held off on it (outputs.hpp): they
  // reach the thread that handles them, as with every other thread.
  WriteBehind(int fd, int direct_fd, const std::string& name,
              std::size_t buffer_bytes = default_buffer_bytes, int buffers = default_buffers);
  // Joins the writer; what finish() did not wait for may be left unwritten (a failed run).
  ~WriteBehind();
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // `bytes` to be written at `offset`; copied before it returns. Throws the writer's error
  // ("cannot write output 'OUT': No space left on device"), once it has had one.
  void put(std::uint64_t offset, const void* data, std::size_t bytes);
  // Returns once everything put is in the file (not yet on the disk: the caller's fsync); throws
  // the writer's error. The writer has ended either way.
  void finish();

  // The caller's seconds in put() and finish(): copying, and waiting for buffers or the end.
  double waited_seconds() const { return waited_; }
  // The writer's seconds in pwrite and writeback, alongside the caller's work (after finish()).
  double writer_seconds() const { return writing_; }

 private:
  struct FreeMemory {
    void operator()(char* p) const { std::free(p); }
  };
  // The file's bytes [offset, offset + size), at data + offset % block_: the buffer covers the
  // blocks from offset's, buffer_bytes_ in all.
  struct Buffer {
    std::unique_ptr<char, FreeMemory> data;  // block-aligned, allocated when first filled
    std::uint64_t offset = 0;
    std::size_t size = 0;
  };

  void hand_over();  // the current buffer to the writer
  void run();        // the writer
  void write_buffer(const Buffer& buffer);
  // Whole blocks past the page cache, or buffered where the file system refuses that.
  void write_direct(std::uint64_t offset, const char* data, std::size_t bytes);
  // The writer's writeback: started on each step of what it wrote, waited for where more than
  // a few steps are in flight, so that the file's dirty pages stay few.
  void written(std::uint64_t offset, std::size_t bytes);
  void start_writeback();

  int fd_;
  int direct_fd_;  // -1 once refused
  // What O_DIRECT asks of offsets, lengths and memory: 4096 bytes (a disk's sector is 512 or
  // 4096), or the page where it is larger, so that no page holds both direct and buffered
  // bytes. Buffers are whole blocks.
  std::size_t block_;
  std::string name_;
  std::size_t buffer_bytes_;
  std::vector<Buffer> buffers_;
  int current_ = -1;  // the buffer the caller fills, -1 for none

  std::mutex mutex_;  // guards what follows, up to the thread
  std::condition_variable to_writer_, to_caller_;
  std::deque<int> free_, filled_;
  bool finishing_ = false;  // the caller puts no more: the writer ends once filled_ is empty
  bool abandoned_ = false;  // the writer ends at once
  std::exception_ptr error_;
  std::thread writer_;

  double waited_ = 0;   // the caller's
  double writing_ = 0;  // the writer's, read after it ended
  // The writer's alone: written, writeback not started; writeback started, not waited for.
  std::uint64_t unflushed_begin_ = 0, unflushed_end_ = 0;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> flushing_;
  bool writeback_ = true;  // off where the file system has no sync_file_range
};

}  // namespace detail
}  // namespace apsp
