// How the pivot rows of dense Floyd-Warshall travel between the GPUs of the ranks (--transport):
// the choice every rank agrees on, and the device links (apsp::DeviceLink) that carry them:
//   nccl  ncclBroadcast (RCCL on HIP), in place on the owner; builds with -DAPSP_ENABLE_NCCL=ON
//   ipc   CUDA/HIP IPC: the owner copies into every other rank's buffer, device to device;
//         ranks of one node on distinct GPUs that reach each other (peer access)
//   host  through pinned host memory and Ranks::broadcast (MPI), also the one way of host
//         backends, whose rows are in host memory already
// The links use only the Ranks interface for their host-side messages, so they need no MPI here.
#pragma once

#include <apsp/device_link.hpp>
#include <apsp/ranks.hpp>

#include <optional>
#include <string>

namespace apsp {

enum class Transport { automatic, nccl, ipc, host };

// "auto", "nccl", "ipc", "host"; none for another name.
std::optional<Transport> transport_named(const std::string& name);
const char* transport_name(Transport transport);

// Whether this build has NCCL (RCCL on HIP): -DAPSP_ENABLE_NCCL=ON.
bool have_nccl();

// Throws apsp::Error where `request` cannot run at all: nccl in a build without NCCL, nccl or ipc
// on a host backend (`backend`, device: false).
void check_transport(Transport request, const std::string& backend, bool device);

struct TransportChoice {
  Transport transport = Transport::host;
  // Why a named transport, or under auto a device link, gave way to host; "" where none did.
  std::string note;
  DeviceLinkMaker link;  // empty for host
};

// Collective over `ranks`, on a GPU backend (each rank's current device): the transport that every
// rank can run, the same on all. A named request runs where every rank can run it, else host
// (and a note says why); auto is nccl where built, else ipc, else host. Neither runs where two
// ranks share a GPU (NCCL refuses it, and IPC is for distinct devices): auto notes that too. With
// one rank nothing travels: host.
TransportChoice choose_transport(Ranks& ranks, Transport request);

}  // namespace apsp
