#pragma once
// Work that runs beside the window (the fan-out to servers, the workspace's imports and layouts)
// yields to the window's own thread when the cores are busy.

namespace rackscope {

// The calling thread from now on runs at nice 5 (Linux gives each thread its own nice value); what
// it starts (the hwloc reader) inherits it.
void runBesideTheWindow();

} // namespace rackscope
