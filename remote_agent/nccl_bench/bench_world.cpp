#include "bench_world.h"

#include <cstdlib>
#ifdef RACKSCOPE_BENCH_MPI
#include <mpi.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#endif

namespace rackscope::bench {

#ifdef RACKSCOPE_BENCH_MPI
namespace {
int worldSize = 1;

// Open MPI keeps much of what MPI_Init allocates for the life of the process (also past MPI_Finalize)
// and unloads its components at the end, so LeakSanitizer would report leaks inside it that it
// cannot even name. What this program allocates outside MPI's calls is still checked.
struct InsideMpi {
#if defined(__SANITIZE_ADDRESS__)
    __lsan::ScopedDisabler notOurs;
#endif
};
} // namespace

World startWorld(int* argc, char*** argv) {
    [[maybe_unused]] const InsideMpi mpi;
    MPI_Init(argc, argv);
    World w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    worldSize = w.size;
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &w.localRank);
    MPI_Comm_free(&local);
    return w;
}
void stopWorld() {
    [[maybe_unused]] const InsideMpi mpi;
    MPI_Finalize();
}
void abortWorld(int code) {
    [[maybe_unused]] const InsideMpi mpi;
    if (worldSize > 1)
        MPI_Abort(MPI_COMM_WORLD, code); // the other ranks would wait for this one forever
    std::exit(code);
}
void barrier() {
    MPI_Barrier(MPI_COMM_WORLD);
}
void broadcastBytes(void* data, std::size_t bytes) {
    MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
}

double combineTime(double seconds, int average) {
    if (average == 0) {
        MPI_Bcast(&seconds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        return seconds;
    }
    double out = 0;
    MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE,
                  average == 2   ? MPI_MIN
                  : average == 3 ? MPI_MAX
                                 : MPI_SUM,
                  MPI_COMM_WORLD);
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return average == 1 ? out / size : out;
}

long long sumAll(long long value) {
    long long out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

std::string gatherText(const std::string& mine) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        offsets[i] = total;
        total += lengths[i];
    }
    std::string all(rank == 0 ? static_cast<std::size_t>(total) : 0, '\0');
    MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    return all;
}

#else

World startWorld(int*, char***) {
    return {};
}
void stopWorld() {}
void abortWorld(int code) {
    std::exit(code);
}
void barrier() {}
void broadcastBytes(void*, std::size_t) {}
double combineTime(double seconds, int) {
    return seconds;
}
long long sumAll(long long value) {
    return value;
}
std::string gatherText(const std::string& mine) {
    return mine;
}

#endif

} // namespace rackscope::bench
