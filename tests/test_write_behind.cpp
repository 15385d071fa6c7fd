// WriteBehind (src/io/write_behind.hpp): the bytes land where they were put, whatever the
// buffers' size against the pieces', through the page cache and past it (O_DIRECT); the
// writer's error reaches the caller's next put() and no later; a caller that gives up (its
// producer threw) ends the writer without waiting for it.
#include "expect_error.hpp"
#include "temp_dir.hpp"

#include "io/write_behind.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

using apsp::detail::WriteBehind;

class WriteBehindFile : public apsp_test::TempDirTest {
 protected:
  // The file `name` opened with `flags` (O_WRONLY, or O_RDONLY: every write fails with EBADF),
  // and with O_DIRECT as well when `direct` (-1 for that where the file system refuses it).
  struct Files {
    int fd = -1, direct_fd = -1;
  };
  Files open_files(const std::string& name, int flags, bool direct) {
    const int created = ::open(path(name).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    EXPECT_GE(created, 0);
    ::close(created);
    Files f;
    f.fd = ::open(path(name).c_str(), flags | O_CLOEXEC);
    EXPECT_GE(f.fd, 0);
    if (direct) f.direct_fd = ::open(path(name).c_str(), flags | O_CLOEXEC | O_DIRECT);
    return f;
  }
  static void close_files(const Files& f) {
    ::close(f.fd);
    if (f.direct_fd >= 0) ::close(f.direct_fd);
  }
};

// Pieces of 1 to 9,000 bytes at increasing offsets with a gap now and then, through 3 buffers
// of 8 KiB: pieces split over buffers, runs of pieces in one buffer, whole blocks and partial
// ones, the caller waiting for the writer; the file is byte for byte what was put, the gaps
// zero.
TEST_F(WriteBehindFile, BytesLandWherePut) {
  for (const bool direct : {false, true}) {
    SCOPED_TRACE(direct ? "O_DIRECT" : "buffered");
    const std::string name = direct ? "direct.bin" : "buffered.bin";
    const Files files = open_files(name, O_WRONLY, direct);
    std::string expected;
    {
      WriteBehind behind(files.fd, files.direct_fd, name, 8192, 3);
      std::uint64_t offset = 0;
      for (int piece = 0; piece < 400; ++piece) {
        const std::size_t bytes = std::size_t(1 + (piece * 3187) % 9000);
        if (piece % 17 == 5) offset += std::uint64_t(piece % 7) * 1301;  // a gap
        std::string data(bytes, '\0');
        for (std::size_t k = 0; k < bytes; ++k)
          data[k] = char('a' + (piece + int(k)) % 26);
        behind.put(offset, data.data(), bytes);
        expected.resize(std::size_t(offset), '\0');
        expected += data;
        offset += bytes;
      }
      behind.finish();
      EXPECT_GT(behind.writer_seconds(), 0);
    }
    close_files(files);
    EXPECT_EQ(read_bytes(path(name)), expected);
  }
}

// The writer fails on the first buffer (EBADF): with two buffers of one block, the second put
// gets the error or the other buffer, the third cannot get a buffer back and gets the error,
// worded as a synchronous write's.
TEST_F(WriteBehindFile, WritersErrorReachesTheNextPut) {
  for (const bool direct : {false, true}) {
    SCOPED_TRACE(direct ? "O_DIRECT" : "buffered");
    const Files files = open_files("out.bin", O_RDONLY, direct);
    const std::string piece(4096, 'x');
    int accepted = 0;
    apsp_test::expect_error_naming(
        [&] {
          WriteBehind behind(files.fd, files.direct_fd, "OUT", 4096, 2);
          for (int k = 0; k < 100; ++k) {
            behind.put(std::uint64_t(k) * piece.size(), piece.data(), piece.size());
            ++accepted;
          }
          behind.finish();
        },
        {"cannot write output 'OUT': ", "Bad file descriptor"});
    EXPECT_GE(accepted, 1);
    EXPECT_LE(accepted, 2);
    close_files(files);
  }
}

// The error of the last buffer, written after the last put, comes from finish().
TEST_F(WriteBehindFile, WritersErrorReachesFinish) {
  const Files files = open_files("out.bin", O_RDONLY, false);
  WriteBehind behind(files.fd, files.direct_fd, "OUT", 4096, 2);
  behind.put(0, "abc", 3);
  apsp_test::expect_error_naming([&] { behind.finish(); }, {"cannot write output 'OUT'"});
  close_files(files);
}

// A producer that throws leaves the WriteBehind unfinished: its destructor ends the writer (no
// hang), and what was still waiting in the buffers is dropped.
TEST_F(WriteBehindFile, AbandonedWithoutFinish) {
  const Files files = open_files("out.bin", O_WRONLY, true);
  const std::string piece(1000, 'y');
  try {
    WriteBehind behind(files.fd, files.direct_fd, "OUT", 4096, 2);
    for (int k = 0; k < 50; ++k)
      behind.put(std::uint64_t(k) * piece.size(), piece.data(), piece.size());
    throw std::runtime_error("the producer failed");
  } catch (const std::runtime_error&) {
  }
  close_files(files);
  EXPECT_LE(read_bytes(path("out.bin")).size(), 50 * piece.size());
}

}  // namespace
