// apsp::Ranks over MPI, and the MPI session of the command line (src/platform/mpi.hpp).
#include "platform/mpi.hpp"
#include "platform/backends.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace apsp {
namespace {

// MPI counts are int: large transfers go in pieces of at most this many elements.
constexpr std::uint64_t piece = std::uint64_t(1) << 30;
// The tag of gather_to's messages (a pair of ranks receives them in the order they were sent).
constexpr int gather_tag = 17;

class MpiRanks final : public Ranks {
 public:
  MpiRanks(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiRanks() override {
    if (owned_) MPI_Comm_free(&comm_);
  }
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void broadcast(void* data, std::uint64_t bytes, int root) override {
    char* p = static_cast<char*>(data);
    for (std::uint64_t done = 0; done < bytes; done += piece)
      MPI_Bcast(p + done, int(std::min(piece, bytes - done)), MPI_BYTE, root, comm_);
  }
  void min(std::int64_t* values, int count) override {
    MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, MPI_MIN, comm_);
  }

  std::vector<char> gather(const void* data, std::uint64_t count, int unit) override {
    std::vector<std::uint64_t> counts(std::size_t(size_), 0);
    MPI_Allgather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm_);
    std::uint64_t total = 0;
    for (const std::uint64_t c : counts)
      total += c;
    std::vector<char> all(std::size_t(total * std::uint64_t(unit)));
    // Each rank's part broadcast from it, in pieces: no int count or displacement overflows.
    std::uint64_t at = 0;
    for (int p = 0; p < size_; ++p) {
      char* part = all.data() + at * std::uint64_t(unit);
      const std::uint64_t bytes = counts[std::size_t(p)] * std::uint64_t(unit);
      if (p == rank_ && bytes > 0) std::memcpy(part, data, bytes);
      broadcast(part, bytes, p);
      at += counts[std::size_t(p)];
    }
    return all;
  }

  std::vector<char> gather_to(const void* data, std::uint64_t count, int unit, int root) override {
    std::vector<std::uint64_t> counts(std::size_t(size_), 0);
    MPI_Gather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, root, comm_);
    const std::uint64_t bytes = count * std::uint64_t(unit);
    if (rank_ != root) {  // this rank's part to root, in pieces
      const char* p = static_cast<const char*>(data);
      for (std::uint64_t done = 0; done < bytes; done += piece)
        MPI_Send(p + done, int(std::min(piece, bytes - done)), MPI_BYTE, root, gather_tag, comm_);
      return {};
    }
    std::uint64_t total = 0;
    for (const std::uint64_t c : counts)
      total += c;
    std::vector<char> all(std::size_t(total * std::uint64_t(unit)));
    char* at = all.data();
    for (int q = 0; q < size_; ++q) {
      const std::uint64_t part = counts[std::size_t(q)] * std::uint64_t(unit);
      if (q == root && part > 0) std::memcpy(at, data, part);
      if (q != root)
        for (std::uint64_t done = 0; done < part; done += piece)
          MPI_Recv(at + done, int(std::min(piece, part - done)), MPI_BYTE, q, gather_tag, comm_,
                   MPI_STATUS_IGNORE);
      at += part;
    }
    return all;
  }

  std::vector<char> scatter(const void* data, const std::vector<std::uint64_t>& counts, int unit,
                            int root) override {
    std::uint64_t mine = 0;
    std::vector<std::uint64_t> sizes = counts;
    sizes.resize(std::size_t(size_), 0);
    MPI_Scatter(sizes.data(), 1, MPI_UINT64_T, &mine, 1, MPI_UINT64_T, root, comm_);
    std::vector<char> part(std::size_t(mine * std::uint64_t(unit)));
    if (rank_ == root) {
      const char* p = static_cast<const char*>(data);
      for (int q = 0; q < size_; ++q) {
        const std::uint64_t bytes = sizes[std::size_t(q)] * std::uint64_t(unit);
        if (q == root)
          std::memcpy(part.data(), p, bytes);
        else
          for (std::uint64_t done = 0; done < bytes; done += piece)
            MPI_Send(p + done, int(std::min(piece, bytes - done)), MPI_BYTE, q, 0, comm_);
        p += bytes;
      }
    } else {
      for (std::uint64_t done = 0; done < part.size(); done += piece)
        MPI_Recv(part.data() + done, int(std::min<std::uint64_t>(piece, part.size() - done)),
                 MPI_BYTE, root, 0, comm_, MPI_STATUS_IGNORE);
    }
    return part;
  }

  std::unique_ptr<Ranks> split(int color) override {
    MPI_Comm part;
    MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, rank_, &part);
    if (part == MPI_COMM_NULL) return nullptr;
    return std::make_unique<MpiRanks>(part, true);
  }

  std::unique_ptr<Ranks> sharing_device(int device_key) override {
    MPI_Comm node, device;
    MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_split(node, device_key, rank_, &device);
    MPI_Comm_free(&node);
    return std::make_unique<MpiRanks>(device, true);
  }

 private:
  MPI_Comm comm_;
  bool owned_;
  int rank_ = 0, size_ = 1;
};

bool chooses_device(int argc, char** argv) {
  for (const char* name : {"KOKKOS_DEVICE_ID", "KOKKOS_NUM_DEVICES", "KOKKOS_MAP_DEVICE_ID_BY"})
    if (std::getenv(name)) return true;
  for (int i = 1; i < argc; ++i)
    for (const char* option :
         {"--kokkos-device-id", "--kokkos-num-devices", "--kokkos-map-device-id-by"})
      if (std::strncmp(argv[i], option, std::strlen(option)) == 0) return true;
  return false;
}

}  // namespace

namespace mpi {
std::unique_ptr<Ranks> ranks(MPI_Comm comm) {
  return std::make_unique<MpiRanks>(comm, false);
}
}  // namespace mpi

MpiSession::MpiSession(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  const int devices = gpu_count();
  if (devices <= 0 || chooses_device(argc, argv)) return;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  arguments_.assign(argv, argv + argc);
  arguments_.push_back("--kokkos-device-id=" + std::to_string(node_rank % devices));
  for (std::string& a : arguments_)
    pointers_.push_back(&a[0]);
  pointers_.push_back(nullptr);
  argc = int(arguments_.size());
  argv = pointers_.data();
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

bool MpiSession::launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE", "PMIX_RANK",
                           "MV2_COMM_WORLD_RANK", "MPI_LOCALRANKID", "SLURM_PROCID",
                           "FLUX_TASK_RANK", "PALS_RANKID", "ALPS_APP_PE", "JSM_NAMESPACE_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

bool MpiSession::active() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int MpiSession::rank() {
  int initialized = 0, rank = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace apsp
