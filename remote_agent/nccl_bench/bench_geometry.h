#pragma once
// What each collective moves for a message size, and how its time becomes
// bandwidth: nccl-tests' element counts, in-place offsets and bus bandwidth
// factors (its doc/PERFORMANCE.md), so a row here and a row there mean the
// same thing.
#include "bench_types.h"

#include <cstddef>

namespace rackscope::bench {

struct Geometry { // in elements, for one rank
    std::size_t sendCount = 0;
    std::size_t recvCount = 0;
    std::size_t paramCount = 0; // the count passed to NCCL
    std::size_t sendInPlaceOffset =
        0; // in place, the send data starts this many elements per rank into the receive buffer
    std::size_t recvInPlaceOffset = 0; // ...and the result this many
};

// count: the message size in elements (size / element size), as nccl-tests derives it.
Geometry geometry(Op op, std::size_t count, int ranks);
// The table's size column: the larger of the send and receive bytes.
std::size_t reportedBytes(const Geometry& g, std::size_t elementSize);

struct Bandwidth {
    double algbw = 0; // GB/s (10^9 bytes)
    double busbw = 0;
};
Bandwidth bandwidth(Op op, std::size_t paramCount, std::size_t elementSize, double seconds, int ranks);
double busFactor(Op op, int ranks);

bool usesRedOp(Op op);     // the redop column names -o, and -o all runs each (else "none", once)
bool usesRoot(Op op);      // broadcast and reduce take -r
bool checksInPlace(Op op); // nccl-tests does not validate in-place alltoall and sendrecv ("N/A")

} // namespace rackscope::bench
