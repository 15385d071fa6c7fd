// The files a run writes: output files that appear complete or not at all, the transaction that
// commits all outputs of a run together, the checks before any work (disk space, two names of
// one file) and the signal handling that removes unfinished outputs. Format-neutral: HW3, text
// and .npy outputs all go through these (io/output_formats.hpp).
#pragma once

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace apsp {

// Standard output as an output's name ("-", as for --stats): written as a stream, in order, to
// whatever the shell opened (a pipe, a terminal, a file: from where it stands, appended to if
// opened so); never a file named "-" ("./-" is that).
constexpr const char* standard_output = "-";

// What an output takes on its file system: `bytes` exactly, or (`at_least`) at least that many,
// where only writing it tells (text: the numbers' lengths).
struct OutputSpace {
  std::string path;
  std::uint64_t bytes = 0;
  bool at_least = false;
};
// Throws apsp::Error when the file system holding `path` has less than `bytes` free.
void check_disk_space(const std::string& path, std::uint64_t bytes);
// The same for several outputs: those on one file system must fit together.
void check_disk_space(const std::vector<OutputSpace>& outputs);

// Whether two file names are one regular file however spelled: the same device and inode when
// both exist, else the same absolute name once symbolic links and "." or ".." are resolved.
// Two names of /dev/null, a pipe or a terminal are not: writing both there loses nothing.
bool same_output_file(const std::string& a, const std::string& b);

// A file of a run and what it is for ("IN", the input; outputs "OUT", "--predecessors",
// "--stats").
struct NamedFile {
  std::string role;
  std::string path;
};
// Throws apsp::Error naming both when any two of `files` are the same regular file
// (same_output_file) or both standard output, when a name is empty, or when an output is
// standard output ("-") and standard output was closed at the start (standard_output_closed).
// Runs before any work.
void check_distinct_files(const std::vector<NamedFile>& files);

// The file an output name writes: the final target when `path` is a symbolic link (relative
// links resolved from the link's directory), else `path` itself.
std::string output_target(const std::string& path);

// Descriptors 0, 1 and 2 open from the start: each one closed when the process started (a
// daemon, a cron job, `apsp IN - >&-`) is opened on /dev/null, standard input for writing only and
// standard output and error for reading only (as glibc does for set-user-ID programs), so that no
// descriptor the run opens later (the janitor's socket, an output, a lock) takes its number, and
// a write to a closed standard output still fails (EBADF) instead of reaching a file. Call first
// in main, before anything opens a descriptor. False when one was closed and /dev/null cannot be
// opened in its place.
bool hold_standard_streams();
// Whether standard output was closed when hold_standard_streams() ran: an output named "-" is
// then refused before any work (check_distinct_files, AtomicOutputFile).
bool standard_output_closed();

// Installs the handler of SIGINT, SIGTERM, SIGHUP and SIGQUIT that removes every temporary of
// an unfinished AtomicOutputFile and then ends the process by the same signal (exit status
// 128 + N), further signals blocked meanwhile; a signal that arrives while an OutputTransaction
// commits waits until the commit is done. SIGXFSZ is ignored, so that a write beyond
// `ulimit -f` fails as a write error (EFBIG) that removes the temporaries like any error.
// A signal that the parent ignores stays ignored. It also starts the janitor: a small process
// that removes what is left of the temporaries once this process has ended, however (SIGKILL,
// the OOM killer). Call once, first in main: before any thread exists, before any output.
void remove_temporaries_on_signals();

// Holds off those signals on the calling thread while it lives, to be acted upon when it ends.
// Threads started meanwhile (OpenMP, MPI, GPU runtimes) inherit the mask: held around their
// creation, every signal then reaches the thread that holds them off while committing.
class HeldSignals {
 public:
  HeldSignals();
  ~HeldSignals();
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t previous_;
};

// An output file that appears complete or not at all: rows go to a temporary file beside the
// target (a symbolic link's final target), finish() flushes it to the disk (fsync), commit()
// renames it into place; destroyed before commit(), the temporary is removed. The file gets the
// mode of the file it replaces, or 0666 less the umask when new. A target that exists and is
// not a regular file (/dev/null, a pipe) is written directly, and so is a regular file that a
// name such as /proc/self/fd/1 reaches but none of its names can (it is cut to what was written).
// standard_output ("-") is written directly too, as a stream: what the shell opened is kept
// (refused when standard output was closed at the start).
class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(const std::string& path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  // Writes at an absolute offset (for ranks writing their own rows).
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  // fsync and close: every error of the data shows here, before anything is renamed.
  void finish();
  // finish() if not done, then the rename into place.
  void commit();
  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temp_path_; }
  // Whether the output is the null device (however named: /dev/null, a link to it, standard
  // output sent there, a device node of its own): what is written there is discarded.
  bool null_device() const;

 private:
  friend class OutputTransaction;
  void rename_into_place();
  std::string path_;    // as the user named it, for messages
  std::string target_;  // the file replaced: path_, or the final target of a symbolic link
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  bool in_place_ = false;  // a file reached by no name of ours (/proc/self/fd/N)
  bool regular_ = false;   // standard output, and a regular file: synced by finish()
  std::uint64_t end_ = 0;  // the end of what was written
};

// The outputs of one run (distances, predecessors, stats): each written to its own
// AtomicOutputFile, and committed together only once all are complete. commit() finishes
// (fsyncs) every file first, so that a write error commits nothing; then renames them back to
// back with SIGINT, SIGTERM, SIGHUP and SIGQUIT held off until the last rename is done.
// Destroyed before commit(), no output appears. docs/TRUST.md says what remains possible.
class OutputTransaction {
 public:
  // The files are renamed in the order they were added.
  AtomicOutputFile& add(const std::string& path);
  AtomicOutputFile& add(std::unique_ptr<AtomicOutputFile> file);  // one opened earlier
  void commit();

 private:
  std::vector<std::unique_ptr<AtomicOutputFile>> files_;
};

}  // namespace apsp
