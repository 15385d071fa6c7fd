// The transports of pivot rows (device_links.hpp): the choice, and the NCCL and IPC links.
#include "platform/device_links.hpp"

#include <Kokkos_Core.hpp>

// One spelling for the CUDA and HIP runtimes, whose calls differ by their prefix only.
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#define APSP_GPU(name) cuda##name
#if defined(APSP_HAVE_NCCL)
#include <nccl.h>
#endif
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#define APSP_GPU(name) hip##name
#if defined(APSP_HAVE_NCCL)
#include <rccl/rccl.h>
#endif
#endif

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace apsp {

std::optional<Transport> transport_named(const std::string& name) {
  for (const Transport t : {Transport::automatic, Transport::nccl, Transport::ipc, Transport::host})
    if (name == transport_name(t)) return t;
  return std::nullopt;
}

const char* transport_name(Transport transport) {
  switch (transport) {
    case Transport::automatic:
      return "auto";
    case Transport::nccl:
      return "nccl";
    case Transport::ipc:
      return "ipc";
    case Transport::host:
      break;
  }
  return "host";
}

bool have_nccl() {
#if defined(APSP_HAVE_NCCL) && defined(APSP_GPU)
  return true;
#else
  return false;
#endif
}

void check_transport(Transport request, const std::string& backend, bool device) {
  if (request == Transport::nccl && !have_nccl())
    throw Error(
        "--transport nccl needs a build with NCCL: configure with -DAPSP_ENABLE_NCCL=ON (RCCL on "
        "HIP)");
  if ((request == Transport::nccl || request == Transport::ipc) && !device)
    throw Error(std::string("--transport ") + transport_name(request) +
                " moves pivot rows between GPUs, and the " + backend +
                " backend runs on none: use --transport auto or host");
}

#if defined(APSP_GPU)
namespace {

void check(APSP_GPU(Error_t) e, const char* what) {
  if (e != APSP_GPU(Success)) throw Error(std::string(what) + ": " + APSP_GPU(GetErrorString)(e));
}

// Where a rank's GPU is: its node and PCI bus, which name one device whatever each process's
// device numbering (CUDA_VISIBLE_DEVICES, Kokkos' device id).
struct DeviceId {
  char node[64] = {};
  char bus[32] = {};
  bool same_node(const DeviceId& other) const { return std::strcmp(node, other.node) == 0; }
  bool same_device(const DeviceId& other) const {
    return same_node(other) && std::strcmp(bus, other.bus) == 0;
  }
};

DeviceId this_device() {
  DeviceId id;
  if (gethostname(id.node, sizeof id.node - 1) != 0) throw Error("gethostname failed");
  int device = 0;
  check(APSP_GPU(GetDevice)(&device), "GetDevice");
  check(APSP_GPU(DeviceGetPCIBusId)(id.bus, int(sizeof id.bus - 1), device), "DeviceGetPCIBusId");
  return id;
}

// Whether this rank's GPU can map and copy into `other` directly.
bool reaches(const DeviceId& other) {
  int mine = 0, theirs = 0, can = 0;
  check(APSP_GPU(GetDevice)(&mine), "GetDevice");
  if (APSP_GPU(DeviceGetByPCIBusId)(&theirs, other.bus) != APSP_GPU(Success)) {
    (void)APSP_GPU(GetLastError)();  // not visible to this process: no mapping
    return false;
  }
  check(APSP_GPU(DeviceCanAccessPeer)(&can, mine, theirs), "DeviceCanAccessPeer");
  return can != 0;
}

// Receive buffers of plain device memory, which IPC can map.
class Buffers {
 public:
  Buffers(std::uint64_t bytes, int slots) : buffers_(std::size_t(slots), nullptr) {
    for (void*& b : buffers_)
      check(APSP_GPU(Malloc)(&b, bytes), "Malloc (pivot rows' receive buffer)");
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  ~Buffers() {
    for (void* b : buffers_)
      if (b) (void)APSP_GPU(Free)(b);
  }
  void* operator[](int slot) const { return buffers_.at(std::size_t(slot)); }

 private:
  std::vector<void*> buffers_;
};

#if defined(APSP_HAVE_NCCL)
void check_nccl(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw Error(std::string("NCCL ") + what + ": " + ncclGetErrorString(r));
}

// One communicator among the holders, from an id that rank 0 makes and broadcasts.
class NcclLink final : public DeviceLink {
 public:
  NcclLink(Ranks& holders, std::uint64_t bytes, int slots) : holders_(holders) {
    collectively(holders, [&] { buffers_ = std::make_unique<Buffers>(bytes, slots); });
    // NVLink SHARP (multicast) buys nothing for one block of rows a round, and on the project's
    // nodes it must stay off: a user's own setting still wins.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    ncclUniqueId id{};
    collectively(holders, [&] {
      if (holders.root()) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    });
    broadcast_value(holders, id, 0);
    // A rank whose ncclCommInitRank fails leaves the others inside theirs until NCCL's bootstrap
    // times out: NCCL has no way to call the others off.
    collectively(holders, [&] {
      check_nccl(ncclCommInitRank(&comm_, holders.size(), id, holders.rank()), "ncclCommInitRank");
    });
  }
  // Abort, not destroy: after an error another rank may never queue its part of a broadcast this
  // one has queued, and only an abort ends it. After the last round nothing is left to end.
  ~NcclLink() override {
    if (comm_) (void)ncclCommAbort(comm_);
  }

  std::string name() const override { return "nccl"; }
  void* buffer(int slot) override { return (*buffers_)[slot]; }
  void broadcast(const void* from, std::uint64_t bytes, int slot, int root, void* stream) override {
    void* rows = holders_.rank() == root ? const_cast<void*>(from) : buffer(slot);
    check_nccl(ncclBroadcast(rows, rows, std::size_t(bytes), ncclUint8, root, comm_,
                             static_cast<APSP_GPU(Stream_t)>(stream)),
               "ncclBroadcast");
  }

 private:
  Ranks& holders_;
  std::unique_ptr<Buffers> buffers_;
  ncclComm_t comm_ = nullptr;
};
#endif

// The owner copies into every other holder's buffer, mapped through IPC. Interprocess events
// order the device work of two processes: "free" (a receiver's buffer is no longer read; it
// records, the owner's copy waits) and "sent" (the copy is done; the owner records, the
// receiver's stream waits). A wait takes the event's latest record when it is queued, so the
// holders' agreements give the host order: a receiver records before the owner waits, and the
// owner records before the receivers wait.
class IpcLink final : public DeviceLink {
  static constexpr int max_slots = 2;
  struct Handles {  // what a holder shares of its own
    APSP_GPU(IpcMemHandle_t) buffer[max_slots];
    APSP_GPU(IpcEventHandle_t) free[max_slots], sent[max_slots];
  };
  struct Peer {  // another holder's, opened here
    void* buffer[max_slots] = {};
    APSP_GPU(Event_t) free[max_slots] = {}, sent[max_slots] = {};
  };

 public:
  IpcLink(Ranks& holders, int slots) : holders_(holders), slots_(slots) {
    if (slots > max_slots)
      throw Error("an IPC link has at most " + std::to_string(max_slots) + " buffers");
  }
  IpcLink(const IpcLink&) = delete;
  IpcLink& operator=(const IpcLink&) = delete;

  // Collective: the buffers and events made, shared and opened by every holder.
  void connect(std::uint64_t bytes) {
    Handles mine{};
    collectively(holders_, [&] {
      buffers_ = std::make_unique<Buffers>(bytes, slots_);
      for (int s = 0; s < slots_; ++s) {
        check(APSP_GPU(IpcGetMemHandle)(&mine.buffer[s], (*buffers_)[s]), "IpcGetMemHandle");
        free_[s] = make_event(&mine.free[s]);
        sent_[s] = make_event(&mine.sent[s]);
      }
    });
    const std::vector<Handles> all = gather_all(holders_, std::vector<Handles>{mine});
    peers_.resize(all.size());
    collectively(holders_, [&] {
      for (int q = 0; q < int(all.size()); ++q) {
        if (q == holders_.rank()) continue;
        for (int s = 0; s < slots_; ++s) {
          check(APSP_GPU(IpcOpenMemHandle)(&peers_[q].buffer[s], all[q].buffer[s],
                                           APSP_GPU(IpcMemLazyEnablePeerAccess)),
                "IpcOpenMemHandle");
          check(APSP_GPU(IpcOpenEventHandle)(&peers_[q].free[s], all[q].free[s]),
                "IpcOpenEventHandle");
          check(APSP_GPU(IpcOpenEventHandle)(&peers_[q].sent[s], all[q].sent[s]),
                "IpcOpenEventHandle");
        }
      }
    });
  }

  // Collective: a holder frees its buffers only once no other holder has them mapped (freeing
  // mapped memory is undefined), and its copies into the others' are done.
  ~IpcLink() override {
    if (stream_) (void)APSP_GPU(StreamSynchronize)(stream_);
    for (Peer& p : peers_)
      for (int s = 0; s < max_slots; ++s) {
        if (p.buffer[s]) (void)APSP_GPU(IpcCloseMemHandle)(p.buffer[s]);
        if (p.free[s]) (void)APSP_GPU(EventDestroy)(p.free[s]);
        if (p.sent[s]) (void)APSP_GPU(EventDestroy)(p.sent[s]);
      }
    std::int64_t closed = 0;
    holders_.min(&closed, 1);
    for (int s = 0; s < max_slots; ++s) {
      if (free_[s]) (void)APSP_GPU(EventDestroy)(free_[s]);
      if (sent_[s]) (void)APSP_GPU(EventDestroy)(sent_[s]);
    }
  }

  std::string name() const override { return "ipc"; }
  void* buffer(int slot) override { return (*buffers_)[slot]; }

  void broadcast(const void* from, std::uint64_t bytes, int slot, int root, void* native) override {
    const auto stream = static_cast<APSP_GPU(Stream_t)>(native);
    stream_ = stream;
    const int me = holders_.rank();
    std::string error;
    try {
      // The buffer is free once this stream gets here.
      if (me != root) check(APSP_GPU(EventRecord)(free_[slot], stream), "EventRecord");
    } catch (const Error& e) {
      error = e.what();
    }
    agree(holders_, error);  // every receiver has recorded "free"
    try {
      if (me == root) {
        for (int q = 0; q < holders_.size(); ++q) {
          if (q == root) continue;
          check(APSP_GPU(StreamWaitEvent)(stream, peers_[q].free[slot], 0), "StreamWaitEvent");
          check(APSP_GPU(MemcpyAsync)(peers_[q].buffer[slot], from, std::size_t(bytes),
                                      APSP_GPU(MemcpyDeviceToDevice), stream),
                "MemcpyAsync (pivot rows to another GPU)");
        }
        check(APSP_GPU(EventRecord)(sent_[slot], stream), "EventRecord");
      }
    } catch (const Error& e) {
      error = e.what();
    }
    agree(holders_, error);  // the owner has recorded "sent"
    if (me != root)
      check(APSP_GPU(StreamWaitEvent)(stream, peers_[root].sent[slot], 0), "StreamWaitEvent");
  }

 private:
  static APSP_GPU(Event_t) make_event(APSP_GPU(IpcEventHandle_t) * handle) {
    APSP_GPU(Event_t) e;
    check(APSP_GPU(EventCreateWithFlags)(
              &e, APSP_GPU(EventInterprocess) | APSP_GPU(EventDisableTiming)),
          "EventCreate (interprocess)");
    check(APSP_GPU(IpcGetEventHandle)(handle, e), "IpcGetEventHandle");
    return e;
  }

  Ranks& holders_;
  int slots_;
  std::unique_ptr<Buffers> buffers_;
  APSP_GPU(Event_t) free_[max_slots] = {}, sent_[max_slots] = {};
  std::vector<Peer> peers_;
  APSP_GPU(Stream_t) stream_ = nullptr;  // the one the copies ran on
};

}  // namespace

TransportChoice choose_transport(Ranks& ranks, Transport request) {
  TransportChoice choice;
  if (ranks.size() == 1) return choice;
  DeviceId mine;
  collectively(ranks, [&] { mine = this_device(); });
  const std::vector<DeviceId> all = gather_all(ranks, std::vector<DeviceId>{mine});
  // What keeps each transport from running, in words; the same on every rank.
  std::string shared, nodes;
  for (std::size_t p = 0; p < all.size() && shared.empty(); ++p)
    for (std::size_t q = p + 1; q < all.size() && shared.empty(); ++q)
      if (all[p].same_device(all[q]))
        shared = "ranks " + std::to_string(p) + " and " + std::to_string(q) + " share the GPU " +
                 all[p].bus + " of " + all[p].node;
  for (const DeviceId& d : all)
    if (!d.same_node(all[0]) && nodes.empty())
      nodes =
          std::string("the ranks are on more than one node (") + all[0].node + ", " + d.node + ")";
  std::int64_t peers = 1;
  if (shared.empty() && nodes.empty())
    collectively(ranks, [&] {
      for (int q = 0; q < ranks.size(); ++q)
        if (q != ranks.rank() && !reaches(all[std::size_t(q)])) peers = 0;
    });
  ranks.min(&peers, 1);
  const std::string no_nccl = !have_nccl() ? "this build has no NCCL" : shared;
  const std::string no_ipc = !shared.empty()  ? shared
                             : !nodes.empty() ? nodes
                             : !peers ? "a rank's GPU cannot reach another's (no peer access)"
                                      : "";
  const auto use = [&](Transport t) {
    choice.transport = t;
    if (t == Transport::ipc)
      choice.link = [](Ranks& holders, std::uint64_t bytes, int slots) {
        auto link = std::make_unique<IpcLink>(holders, slots);
        link->connect(bytes);
        return std::unique_ptr<DeviceLink>(std::move(link));
      };
#if defined(APSP_HAVE_NCCL)
    if (t == Transport::nccl)
      choice.link = [](Ranks& holders, std::uint64_t bytes, int slots) {
        return std::unique_ptr<DeviceLink>(std::make_unique<NcclLink>(holders, bytes, slots));
      };
#endif
  };
  if (request == Transport::host) return choice;
  // Auto: ipc on one node, where it was the fastest (4x H200, dense V = 40,000 on 2 GPUs: compute
  // 2.61 s with ipc, 2.73 s host, 3.6-3.7 s nccl; docs/PERFORMANCE.md entry 48), nccl across nodes.
  if ((request == Transport::ipc || request == Transport::automatic) && no_ipc.empty())
    use(Transport::ipc);
  else if ((request == Transport::nccl || request == Transport::automatic) && no_nccl.empty())
    use(Transport::nccl);
  else if (request != Transport::automatic || !shared.empty())
    // Auto notes only a shared GPU: otherwise host is simply what the build and nodes give.
    choice.note = std::string("--transport ") + transport_name(request) + ": " +
                  (request == Transport::ipc    ? no_ipc
                   : request == Transport::nccl ? no_nccl
                                                : shared) +
                  "; the pivot rows go through host memory";
  return choice;
}

#else

TransportChoice choose_transport(Ranks&, Transport) {
  return {};
}

#endif

}  // namespace apsp
