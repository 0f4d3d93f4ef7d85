#pragma once
// The processes of one benchmark run and what they agree on, through MPI as
// nccl-tests does (mpirun or srun --mpi=pmix start them; rank 0 makes NCCL's
// unique id and broadcasts it). Built without MPI, the world is this process.
#include <cstddef>
#include <string>
#include <vector>

namespace rackscope::bench {

struct World {
    int rank = 0;
    int size = 1;
    int localRank = 0; // among the processes on this host: picks this process's GPUs
};

World startWorld(int* argc, char*** argv);
void stopWorld();
[[noreturn]] void abortWorld(int code);
void barrier();
void broadcastBytes(void* data, std::size_t bytes); // from rank 0
// Across every process: 0 rank 0's value, 1 the mean, 2 the minimum, 3 the maximum (nccl-tests' -a).
double combineTime(double seconds, int average);
long long sumAll(long long value);
// Every process's text, in rank order, on rank 0 (empty elsewhere).
std::string gatherText(const std::string& mine);

} // namespace rackscope::bench
