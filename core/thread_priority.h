#pragma once
// Work that runs beside a window (the fan-out to servers, the workspace's imports and layouts)
// yields to the window's own thread when the cores are busy. Without a window (the CLI) it keeps
// its priority, so a busy terminal does not slow it down.

namespace rackscope {

// Called by the window once it exists: from then on, runBesideTheWindow() lowers a thread's priority.
void keepTheWindowFirst();

// The calling thread from now on runs at nice 19 when there is a window (Linux gives each thread its
// own nice value; what the thread starts, the hwloc reader, inherits it). Nice 19 costs the work
// nothing while the window is idle; with 32 servers in flight on 2 cores, nice 5 still let the
// workers keep the window from a core for 30-40 ms at a time.
void runBesideTheWindow();

} // namespace rackscope
