// verify's exact check on a Kokkos backend (verify_certificate.cpp): what the command line and
// the tests hand to apsp::verify as VerifyOptions::certificate.
#pragma once

#include "verify/verify_output.hpp"

#include <cstdint>
#include <string>

namespace apsp {

// The shortest-path certificate of every row on the backend called `backend` ("" for the
// default one): the device of a GPU build, the host's threads of an OpenMP one. A block of rows
// takes at most `block_bytes` of its memory (the rows and the search's buffers; one row at
// least; 0: 256 MiB on a GPU, 16 MiB on the host), whatever the size of the output.
CertificateMaker backend_certificate(const std::string& backend = "",
                                     std::uint64_t block_bytes = 0);

}  // namespace apsp
