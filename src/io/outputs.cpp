// Output files that appear complete or not at all, and the checks around them
// (src/io/outputs.hpp).
#include <apsp/error.hpp>

#include "io/outputs.hpp"
#include "io/posix_files.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace apsp {
namespace {

using detail::File;
using detail::file_size;
using detail::open_for_reading;
using detail::size_text;
using detail::system_error;

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A name of what an output's name reaches: standard output's is /dev/stdout (whatever the shell
// opened as this process's standard output), every other name itself.
std::string reached_name(const std::string& path) {
  return path == standard_output ? "/dev/stdout" : path;
}

bool stdout_closed_at_start = false;  // hold_standard_streams

std::string closed_standard_output(const std::string& role) {
  return role + " '-' is standard output, and standard output is closed (apsp was started with " +
         "it closed, as by >&-): name a file instead";
}

}  // namespace

void check_disk_space(const std::vector<OutputSpace>& outputs) {
  struct Need {
    std::string dir, names;
    std::uint64_t bytes = 0;
    bool at_least = false;
  };
  std::map<dev_t, Need> needs;  // by the file system of each output's directory
  for (const OutputSpace& output : outputs) {
    const std::string path = reached_name(output.path);
    struct stat st;
    const bool exists = stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) continue;
    // The file system of what is written: an existing file's own (stat and statvfs follow every
    // link to it, /proc/self/fd/1 too, whose directory is procfs, which has no free space), a
    // new one's directory (a symbolic link's target's).
    const std::string dir =
        exists && S_ISREG(st.st_mode) ? path : directory_of(output_target(path));
    struct stat dir_st;
    if (stat(dir.c_str(), &dir_st) != 0)
      throw Error(system_error("cannot reach output directory", dir));
    Need& need = needs[dir_st.st_dev];
    need.dir = dir;
    need.names += (need.names.empty() ? "'" : " and '") + output.path + "'";
    need.bytes += output.bytes;
    need.at_least = need.at_least || output.at_least;
  }
  for (const auto& [device, need] : needs) {
    struct statvfs fs;
    if (statvfs(need.dir.c_str(), &fs) != 0)
      throw Error(system_error("cannot reach output directory", need.dir));
    const std::uint64_t free_bytes = std::uint64_t(fs.f_bavail) * fs.f_frsize;
    if (free_bytes < need.bytes)
      throw Error("not enough disk space for " + need.names + ": " +
                  (need.names.find(" and ") == std::string::npos ? "it needs " : "they need ") +
                  (need.at_least ? "at least " : "") + size_text(need.bytes) + ", " +
                  size_text(free_bytes) + " free in '" + need.dir + "'");
  }
}

void check_disk_space(const std::string& path, std::uint64_t bytes) {
  check_disk_space({{path, bytes}});
}

namespace {

// What a file name stands for: its identity when it exists, and its absolute name with every
// symbolic link, "." and ".." resolved (the directory's, when the file does not exist yet).
struct FileIdentity {
  bool exists = false, regular = false;
  bool standard_output = false;  // one stream: two outputs there would run together
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;
};

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `output`: a name an output is written to ("-" is standard output there, a file elsewhere).
FileIdentity identify(const std::string& name, bool output) {
  FileIdentity id;
  id.standard_output = output && name == standard_output;
  const std::string path = output ? reached_name(name) : name;
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.regular = S_ISREG(st.st_mode);
    id.device = st.st_dev;
    id.inode = st.st_ino;
  }
  const std::string target = output_target(path);
  std::unique_ptr<char, void (*)(void*)> dir(realpath(directory_of(target).c_str(), nullptr),
                                             std::free);
  id.resolved = dir ? std::string(dir.get()) + "/" + base_name(target) : target;
  return id;
}

bool same_file(const FileIdentity& a, const FileIdentity& b) {
  if (a.standard_output && b.standard_output) return true;
  if (a.exists && b.exists)
    return a.regular && b.regular && a.device == b.device && a.inode == b.inode;
  return !a.exists && !b.exists && a.resolved == b.resolved;
}

// The signals that end a run, and the temporaries to remove when one does: fixed buffers that
// the handler reads without allocating. Only the thread that creates outputs writes them.
constexpr int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
struct TemporarySlot {
  char path[4096];
  volatile std::sig_atomic_t used;
};
TemporarySlot temporaries[8];

sigset_t ending_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : ending_signals)
    sigaddset(&set, s);
  return set;
}

// The janitor: a process of its own (its own session, deaf to the ending signals) that removes
// the temporaries when this process ends without committing them, however it ends. The
// handler below cannot run when the process is killed (SIGKILL, the OOM killer, mpirun
// escalating a second SIGTERM to SIGKILL after 1 s): the janitor sees its end of the socket
// close and removes what is still listed. Started by remove_temporaries_on_signals(), first
// thing in main: a fork before any thread, MPI or GPU runtime exists, of a process still small.
// Told "+path" and "-path", each ending in '\0'.
int janitor_socket = -1;

// The janitor's whole life, after fork(): async-signal-safe calls only (other threads may have
// held locks at the fork), fixed buffers.
[[noreturn]] void janitor(int socket) {
  setsid();
  for (const int s : ending_signals)
    signal(s, SIG_IGN);
  struct rlimit files;
  const int open_max =
      getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? int(files.rlim_cur) : 65536;
  for (int fd = 0; fd < open_max; ++fd)  // none held open: mpirun waits for stdout to close
    if (fd != socket) close(fd);
  static char listed[8][4096];
  static bool used[8];
  static char message[4097];
  std::size_t length = 0;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(socket, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] != '\0') {
        if (length < sizeof message - 1) message[length++] = buffer[i];
        continue;
      }
      message[length] = '\0';
      const char* path = message + 1;
      for (int k = 0; k < 8; ++k) {
        if (message[0] == '+' && !used[k]) {
          std::size_t c = 0;
          for (; path[c] != '\0' && c < sizeof listed[k] - 1; ++c)
            listed[k][c] = path[c];
          listed[k][c] = '\0';
          used[k] = true;
          break;
        }
        if (message[0] == '-' && used[k] && std::strcmp(listed[k], path) == 0) {
          used[k] = false;
          break;
        }
      }
      length = 0;
    }
  }
  for (int k = 0; k < 8; ++k)
    if (used[k]) unlink(listed[k]);
  _exit(0);
}

void start_janitor() {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return;
  // On 0, 1 or 2, what else is written there (the distances of OUT "-", a message on stderr)
  // would reach the janitor as names of files to remove.
  ends[0] = detail::off_standard_streams(ends[0]);
  ends[1] = detail::off_standard_streams(ends[1]);
  if (ends[0] < 0 || ends[1] < 0) {
    if (ends[0] >= 0) close(ends[0]);
    if (ends[1] >= 0) close(ends[1]);
    return;
  }
  const pid_t pid = fork();
  if (pid == 0) janitor(ends[1]);
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    return;
  }
  janitor_socket = ends[0];
}

void tell_janitor(char op, const std::string& path) {
  if (janitor_socket < 0) return;
  const std::string message = op + path + '\0';
  // MSG_NOSIGNAL: a janitor that is gone is no reason to die of SIGPIPE.
  for (std::size_t sent = 0; sent < message.size();) {
    const ssize_t n =
        send(janitor_socket, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    sent += std::size_t(n);
  }
}

void track_temporary(const std::string& path) {
  for (auto& slot : temporaries)
    if (!slot.used && path.size() < sizeof slot.path) {
      std::memcpy(slot.path, path.c_str(), path.size() + 1);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the path before the flag
      slot.used = 1;
      tell_janitor('+', path);
      return;
    }
  throw Error("too many outputs at once to remove them on a signal: '" + path + "'");
}

void forget_temporary(const std::string& path) {
  for (auto& slot : temporaries)
    if (slot.used && path == slot.path) {
      slot.used = 0;
      tell_janitor('-', path);
      return;
    }
}

// Runs with every ending signal blocked (sa_mask): a second signal, even 10 ms later, waits.
void remove_temporaries_and_die(int signal_number) {
  for (auto& slot : temporaries)
    if (slot.used) unlink(slot.path);
  // SIGQUIT would dump core: nothing is to be left behind.
  const struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  // Die of the same signal, so that the parent sees how the process ended: its default action
  // back, raised while blocked, then unblocked alone.
  signal(signal_number, SIG_DFL);
  raise(signal_number);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  _exit(128 + signal_number);
}

}  // namespace

std::string output_target(const std::string& path) {
  std::string target = path;
  for (int hops = 0; hops < 40; ++hops) {  // ELOOP's limit
    struct stat st;
    if (lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return target;
    // st_size is no bound: procfs says 64 for /proc/self/fd/N whatever its text's length.
    std::vector<char> link(std::size_t(st.st_size > 4096 ? st.st_size : 4096));
    ssize_t n = 0;
    while ((n = readlink(target.c_str(), link.data(), link.size())) >= 0 &&
           std::size_t(n) == link.size() && link.size() < (std::size_t(1) << 20))
      link.resize(2 * link.size());
    if (n < 0 || std::size_t(n) == link.size()) return target;
    const std::string to(link.data(), std::size_t(n));
    target = to[0] == '/' || target.find('/') == std::string::npos
                 ? to
                 : directory_of(target) + "/" + to;
  }
  throw Error("output '" + path + "': too many levels of symbolic links");
}

bool hold_standard_streams() {
  const int modes[] = {O_WRONLY, O_RDONLY, O_RDONLY};  // the way no one uses each stream
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // The lowest free number: those below are open by now.
    const int held = open("/dev/null", modes[fd]);
    if (held != fd) {
      if (held >= 0) close(held);
      return false;
    }
    if (fd == STDOUT_FILENO) stdout_closed_at_start = true;
  }
  return true;
}

bool standard_output_closed() {
  return stdout_closed_at_start;
}

bool same_output_file(const std::string& a, const std::string& b) {
  return same_file(identify(a, true), identify(b, true));
}

void check_distinct_files(const std::vector<NamedFile>& files) {
  std::vector<FileIdentity> ids;
  for (const NamedFile& f : files) {
    if (f.path.empty()) throw Error(f.role + " is an empty file name");
    if (f.role != "IN" && f.path == standard_output && standard_output_closed())
      throw Error(closed_standard_output(f.role));
    ids.push_back(identify(f.path, f.role != "IN"));
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j)
      if (same_file(ids[i], ids[j]))
        throw Error(files[i].role + " '" + files[i].path + "' and " + files[j].role + " '" +
                    files[j].path + "' are the same file" +
                    (i == 0 && files[0].role == "IN" ? " (it would be overwritten)" : "") +
                    ": give each a file of its own");
}

void remove_temporaries_on_signals() {
  struct sigaction action = {};
  action.sa_handler = remove_temporaries_and_die;
  action.sa_mask = ending_signal_set();
  for (const int signal_number : ending_signals) {
    struct sigaction inherited;
    // A signal the parent ignores stays ignored (a script's background job survives Ctrl-C).
    if (sigaction(signal_number, nullptr, &inherited) == 0 && inherited.sa_handler == SIG_IGN)
      continue;
    sigaction(signal_number, &action, nullptr);
  }
  signal(SIGXFSZ, SIG_IGN);
  start_janitor();
}

HeldSignals::HeldSignals() {
  const sigset_t set = ending_signal_set();
  pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

HeldSignals::~HeldSignals() {
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

AtomicOutputFile::AtomicOutputFile(const std::string& path)
    : path_(path), target_(path == standard_output ? path : output_target(path)) {
  if (path.empty()) throw Error("the output file name is empty");
  if (path == standard_output) {
    if (standard_output_closed()) throw Error(closed_standard_output("the output"));
    fd_ = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (fd_ < 0) throw Error(system_error("cannot write to standard output", path));
    struct stat st;
    regular_ = fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
    return;
  }
  // What the name reaches, every link followed: /dev/stdout and /proc/self/fd/N too, whose
  // link text ("pipe:[123]", a file outside our root) need not be a name of it.
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw Error("output '" + path + "' is a directory");
  // A file the user may not write is not replaced either (as cp, not mv, would have it): its
  // mode says that it is to be kept. Root may write anything, and so replaces it.
  if (exists && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0) {
    if (errno == EROFS) throw Error("output '" + path + "' is on a read-only file system");
    if (errno == EACCES) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
      throw Error("output '" + path + "' exists and you may not write it (mode " + mode +
                  "): apsp replaces only files you could write; make it writable (chmod u+w) " +
                  "or remove it first");
    }
  }
  if (exists && !S_ISREG(st.st_mode)) {  // /dev/null, a pipe: nothing to rename into place
    fd_ = detail::off_standard_streams(open(path.c_str(), O_WRONLY));
    if (fd_ < 0) throw Error(system_error("cannot open output", path));
    return;
  }
  struct stat target_st;
  if (exists && (stat(target_.c_str(), &target_st) != 0 || target_st.st_dev != st.st_dev ||
                 target_st.st_ino != st.st_ino)) {
    // A regular file open in this process with no name we can reach (/proc/self/fd/1 of a
    // deleted file, or of one outside our root): no directory to put a temporary in, so it is
    // written where it is, from its start, and cut to what was written by finish().
    fd_ = detail::off_standard_streams(open(path.c_str(), O_WRONLY));
    if (fd_ < 0) throw Error(system_error("cannot open output", path));
    in_place_ = true;
    return;
  }
  // The replaced file's mode, or what a new file gets from the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  // TARGET.apsp-tmp.XXXXXX, the target's name shortened where the whole would pass NAME_MAX.
  const std::string suffix = ".apsp-tmp.XXXXXX";
  std::string base = base_name(target_);
  constexpr std::size_t name_max = 255;
  if (base.size() + suffix.size() > name_max) base.resize(name_max - suffix.size());
  const std::string dir = target_.find('/') == std::string::npos ? "" : directory_of(target_);
  std::string name = (dir.empty() ? "" : dir == "/" ? "/" : dir + "/") + base + suffix;
  const HeldSignals held;  // the temporary is tracked as soon as it exists
  fd_ = mkstemp(&name[0]);
  if (fd_ < 0) {
    // procfs and sysfs answer "no such file" for a name in a directory that is there.
    const int error = errno;
    struct stat dir_st;
    if (error == ENOENT && !dir.empty() && stat(dir.c_str(), &dir_st) == 0)
      throw Error("cannot create output next to '" + path + "': '" + dir + "' takes no new files");
    errno = error;
    throw Error(system_error("cannot create output next to", path));
  }
  fd_ = detail::off_standard_streams(fd_);
  if (fd_ < 0) {
    const Error error(system_error("cannot create output next to", path));
    unlink(name.c_str());
    throw error;
  }
  temp_path_ = name;
  try {
    track_temporary(temp_path_);
  } catch (...) {
    close(fd_);
    unlink(temp_path_.c_str());
    throw;
  }
  if (fchmod(fd_, mode) != 0) {
    const Error error(system_error("cannot set the mode of output", path));
    close(fd_);
    unlink(temp_path_.c_str());
    forget_temporary(temp_path_);
    throw error;
  }
}

AtomicOutputFile::~AtomicOutputFile() {
  if (fd_ >= 0) close(fd_);
  if (committed_ || temp_path_.empty()) return;
  const HeldSignals held;
  unlink(temp_path_.c_str());
  forget_temporary(temp_path_);
}

void AtomicOutputFile::write(const void* data, std::size_t bytes) {
  end_ += bytes;
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(system_error("cannot write output", path_));
    p += n;
    bytes -= std::size_t(n);
  }
}

void AtomicOutputFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  end_ = std::max<std::uint64_t>(end_, offset + bytes);
  detail::write_all_at(fd_, offset, data, bytes, path_);
}

bool AtomicOutputFile::null_device() const {
  struct stat st;
  if (fd_ < 0 || fstat(fd_, &st) != 0 || !S_ISCHR(st.st_mode)) return false;
  struct stat null;
  if (stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) && null.st_rdev == st.st_rdev)
    return true;
#if defined(__linux__)
  // Linux's null device is character device 1:3, also where /dev/null is missing (a chroot).
  return major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
#else
  return false;
#endif
}

void AtomicOutputFile::finish() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  // A pipe or terminal cannot be synced (EINVAL): only a regular file must be.
  const bool cut = !in_place_ || ftruncate(fd, off_t(end_)) == 0;
  const bool regular = !temp_path_.empty() || in_place_ || regular_;
  const bool synced = cut && (!regular || fsync(fd) == 0);
  const int sync_errno = errno;
  if (close(fd) != 0 || !synced) {
    if (!synced) errno = sync_errno;
    throw Error(system_error("cannot finish output", path_));
  }
}

void AtomicOutputFile::rename_into_place() {
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  if (std::rename(temp_path_.c_str(), target_.c_str()) != 0)
    throw Error(system_error("cannot move the finished output into place as", path_));
  committed_ = true;
  forget_temporary(temp_path_);
}

void AtomicOutputFile::commit() {
  finish();
  const HeldSignals held;
  rename_into_place();
}

AtomicOutputFile& OutputTransaction::add(const std::string& path) {
  return add(std::make_unique<AtomicOutputFile>(path));
}

AtomicOutputFile& OutputTransaction::add(std::unique_ptr<AtomicOutputFile> file) {
  files_.push_back(std::move(file));
  return *files_.back();
}

void OutputTransaction::commit() {
  for (const auto& file : files_)
    file->finish();
  const HeldSignals held;
  for (const auto& file : files_)
    file->rename_into_place();
  // The renames themselves reach the disk with their directories.
  for (const auto& file : files_) {
    if (file->temp_path_.empty()) continue;
    const int dir = open(directory_of(file->target_).c_str(), O_RDONLY | O_DIRECTORY);
    if (dir >= 0) {
      fsync(dir);
      close(dir);
    }
  }
}

}  // namespace apsp
