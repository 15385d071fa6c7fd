// The write stage: every rank's rows of one output (the distances, the predecessors), in the
// output's format, into the file that rank 0's AtomicOutputFile created (outputs.hpp).
//
// Three ways, chosen once by rank 0:
//   - at offsets: HW3 and .npy rows into a regular file have fixed places (after the .npy
//     header, which rank 0 writes), so every rank opens the unfinished file and writes its rows
//     there at once, behind its producer (write_behind.hpp: a writer thread per rank, no MPI
//     in it);
//   - discarded by each rank: the null device keeps nothing, so every rank drops its own rows
//     (text still formatted: the work of writing it, less the writing), none travels;
//   - through rank 0: text rows (their length varies) and outputs without offsets (a pipe, a
//     device such as /dev/full) are written by rank 0 alone, in row order: rank 0 writes its own
//     rows, then each other rank in turn ships its rows to rank 0 in pieces.
// With one rank all are the rank writing its rows. Collective, like everything on Ranks: every
// rank calls write() for the same outputs in the same order, and a failure on any rank is
// agreed on (ranks.hpp) once every rank has finished its part.
#pragma once

#include <apsp/error.hpp>
#include <apsp/ranks.hpp>

#include "io/hw3_io.hpp"
#include "io/output_formats.hpp"
#include "io/outputs.hpp"
#include "io/posix_files.hpp"
#include "io/write_behind.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

class RowOutput {
 public:
  // A row: its global index (rows come in increasing order) and its values of the output's type
  // (V, or `columns`).
  using Sink = std::function<void(std::int64_t, const void*)>;
  enum class Way : std::uint64_t { at_offsets, discarded, through_root };

  // Collective. `file`: rank 0's output (null on the other ranks); `name`: the output as the
  // user named it, for messages; `type`: its values' (the distances', or int32 predecessors).
  // A V x V matrix, or with `columns` >= 0 a table of `vertices` rows of `columns` values
  // (--sources, --targets; not HW3, which has no shape).
  RowOutput(Ranks& ranks, AtomicOutputFile* file, const std::string& name, OutputFormat format,
            std::int64_t vertices, DistanceType type, std::int64_t columns = -1)
      : ranks_(ranks),
        file_(file),
        name_(name),
        format_(format),
        vertices_(vertices),
        columns_(columns < 0 ? vertices : columns),
        type_(type),
        header_(format == OutputFormat::npy ? npy_header(vertices, columns_, type) : "") {
    std::string path;
    if (ranks.root()) {
      way_ = file->null_device()                                               ? Way::discarded
             : format != OutputFormat::text && !file->temporary_path().empty() ? Way::at_offsets
                                                                               : Way::through_root;
      path = file->temporary_path();
    }
    broadcast_value(ranks, way_, 0);
    if (way_ == Way::at_offsets) path = broadcast_string(ranks, path, 0);
    if (way_ == Way::at_offsets) {
      collectively(ranks, [&] {
        fd_ = detail::off_standard_streams(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
        // A rank that does not find rank 0's temporary sees another file system.
        if (fd_ < 0) {
          const bool missing = errno == ENOENT;
          throw Error(system_error("cannot open the unfinished output", path) +
                      (missing ? " (every rank writes its rows there: OUT must be on a file "
                                 "system all ranks share)"
                               : ""));
        }
#if defined(O_DIRECT)
        // -1 where the file system refuses it (tmpfs before Linux 6.6): the writer then writes
        // through the page cache.
        direct_fd_ =
            detail::off_standard_streams(::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_DIRECT));
#endif
      });
    }
    if (way_ == Way::through_root) pairs_ = pairs(ranks);
  }

  Way way() const {
    return way_;
  }
  // How the rows went, in words (--stats).
  const char* way_name() const {
    return way_ == Way::at_offsets  ? "at offsets"
           : way_ == Way::discarded ? "discarded by each rank"
                                    : "through rank 0 in order";
  }
  // This rank's rows, and the bytes it wrote itself (through rank 0: rank 0 all of them).
  std::int64_t rows() const {
    return rows_;
  }
  std::uint64_t bytes() const {
    return bytes_;
  }

  ~RowOutput() {
    if (fd_ >= 0) ::close(fd_);
    if (direct_fd_ >= 0) ::close(direct_fd_);
  }
  RowOutput(const RowOutput&) = delete;
  RowOutput& operator=(const RowOutput&) = delete;

  // Collective: produce(sink) runs once on every rank and hands its rows, in increasing order, to
  // sink. Returns the seconds that writing and shipping rows held up this rank's producer (rows
  // written at offsets: copying them, and waiting for the writer; its own seconds add up in
  // behind_seconds()).
  double write(const std::function<void(const Sink&)>& produce) {
    seconds_ = 0;
    if (way_ == Way::discarded) {
      collectively(ranks_, [&] {
        if (ranks_.root() && !header_.empty()) put(header_.data(), header_.size());
        std::string text;
        produce([&](std::int64_t, const void* data) {
          ++rows_;
          if (format_ != OutputFormat::text) {
            bytes_ += row_bytes();
            return;
          }
          text.clear();
          append_row(text, data);
          bytes_ += text.size();
        });
      });
      return seconds_;
    }
    if (way_ == Way::at_offsets) {
      collectively(ranks_, [&] {
        const std::size_t bytes = row_bytes();
        const std::uint64_t whole = header_.size() + std::uint64_t(vertices_) * bytes;
        WriteBehind behind(fd_, direct_fd_, name_,
                           std::size_t(std::min<std::uint64_t>(WriteBehind::default_buffer_bytes,
                                                               std::max<std::uint64_t>(whole, 1))));
        if (ranks_.root() && !header_.empty()) {
          behind.put(0, header_.data(), header_.size());
          bytes_ += header_.size();
        }
        produce([&](std::int64_t row, const void* data) {
          behind.put(header_.size() + std::uint64_t(row) * bytes, data, bytes);
          ++rows_;
          bytes_ += bytes;
        });
        behind.finish();
        seconds_ = behind.waited_seconds();
        behind_seconds_ += behind.writer_seconds();
      });
      return seconds_;
    }
    // Through rank 0, in rank order.
    std::string error;
    const auto attempt = [&](auto&& f) {
      try {
        f();
      } catch (...) {
        if (error.empty()) error = current_exception_message();
      }
    };
    if (ranks_.root()) {
      attempt([&] {
        if (!header_.empty()) put(header_.data(), header_.size());
        std::string text;
        produce([&](std::int64_t, const void* data) {
          ++rows_;
          if (format_ != OutputFormat::text) return put(data, row_bytes());
          text.clear();
          append_row(text, data);
          put(text.data(), text.size());
        });
      });
      for (int p = 1; p < ranks_.size(); ++p)
        receive_from(p, error);
    } else {
      Ranks* pair = pairs_[std::size_t(ranks_.rank())].get();
      std::string pending;
      attempt([&] {
        produce([&](std::int64_t, const void* data) {
          ++rows_;
          append_row(pending, data);
          if (pending.size() >= piece_bytes) ship(*pair, pending);
        });
      });
      if (!pending.empty()) ship(*pair, pending);
      std::uint64_t end = 0;  // the end of this rank's rows, even after a failure
      pair->broadcast(&end, sizeof end, 1);
    }
    if (!error.empty() && ranks_.size() > 1)
      error = "rank " + std::to_string(ranks_.rank()) + " of " + std::to_string(ranks_.size()) +
              ": " + error;
    agree(ranks_, error);
    return seconds_;
  }

  // Seconds the writer threads of every write() spent writing rows at offsets, alongside the
  // producer's work (0 through rank 0).
  double behind_seconds() const {
    return behind_seconds_;
  }

  // Collective: this rank's rows on the disk (rank 0's file is finished by its transaction).
  void close() {
    collectively(ranks_, [&] {
      if (direct_fd_ >= 0) ::close(direct_fd_);
      direct_fd_ = -1;
      if (fd_ < 0) return;
      const int fd = fd_;
      fd_ = -1;
      const bool synced = fsync(fd) == 0 || errno == EINVAL;
      if (::close(fd) != 0 || !synced) throw Error(system_error("cannot finish output", name_));
    });
  }

 private:
  static constexpr std::size_t piece_bytes = std::size_t(8) << 20;

  // The group {rank 0, rank p} for each p >= 1 (index p; null where this rank is not in it).
  static std::vector<std::unique_ptr<Ranks>> pairs(Ranks& ranks) {
    std::vector<std::unique_ptr<Ranks>> all(std::size_t(ranks.size()));
    for (int p = 1; p < ranks.size(); ++p)
      all[std::size_t(p)] = ranks.split(ranks.root() || ranks.rank() == p ? 0 : -1);
    return all;
  }

  std::size_t row_bytes() const {
    return std::size_t(columns_) * value_bytes(type_);
  }

  // A row in the output's format, appended to `to`.
  void append_row(std::string& to, const void* row) const {
    if (format_ != OutputFormat::text)
      to.append(static_cast<const char*>(row), row_bytes());
    else
      visit_distance_type(type_, [&](auto t) {
        append_text_row(to, static_cast<const decltype(t)*>(row), columns_);
      });
  }

  // Rank 0 writes; errors are kept so that the other ranks are drained all the same.
  void put(const void* data, std::size_t bytes) {
    const auto start = Clock::now();
    file_->write(data, bytes);
    bytes_ += bytes;
    seconds_ += seconds_since(start);
  }

  void ship(Ranks& pair, std::string& pending) {
    const auto start = Clock::now();
    std::uint64_t size = pending.size();
    pair.broadcast(&size, sizeof size, 1);
    pair.broadcast(&pending[0], size, 1);
    pending.clear();
    seconds_ += seconds_since(start);
  }

  void receive_from(int p, std::string& error) {
    Ranks& pair = *pairs_[std::size_t(p)];
    std::string piece;
    for (;;) {
      std::uint64_t size = 0;
      pair.broadcast(&size, sizeof size, 1);
      if (size == 0) return;
      piece.resize(size);
      pair.broadcast(&piece[0], size, 1);
      if (!error.empty()) continue;
      try {
        put(piece.data(), piece.size());
      } catch (...) {
        error = current_exception_message();
      }
    }
  }

  Ranks& ranks_;
  AtomicOutputFile* file_;
  std::string name_;
  OutputFormat format_;
  std::int64_t vertices_;  // rows
  std::int64_t columns_;
  DistanceType type_;
  std::string header_;  // before the rows: the .npy header, or nothing
  Way way_ = Way::through_root;
  std::int64_t rows_ = 0;
  std::uint64_t bytes_ = 0;
  int fd_ = -1;
  int direct_fd_ = -1;  // the same file with O_DIRECT, where its file system allows
  std::vector<std::unique_ptr<Ranks>> pairs_;
  double seconds_ = 0;
  double behind_seconds_ = 0;
};

}  // namespace detail
}  // namespace apsp
