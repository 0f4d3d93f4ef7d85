// rackscope-agent: the small collector that runs on each server.
#include "rackscope_version.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0)) {
        std::printf("rackscope-agent %s\n", RACKSCOPE_VERSION);
        return 0;
    }
    std::fprintf(stderr, "usage: rackscope-agent --version\n");
    return 2;
}
