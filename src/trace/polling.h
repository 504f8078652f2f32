// How a trace says that one visit of a call stands for several calls (polling compaction).
//
// A program that polls (MPI_Test, MPI_Iprobe, shmem_test, ... in a loop until something
// arrives) makes millions of calls that find nothing. causeway's tracer folds a run of such calls
// of one thread, with nothing recorded between them and gaps below its threshold, into one
// Enter/Leave pair from the first call's Enter to the last call's Leave; the Leave carries the
// number of calls as the OTF2 attribute below. Every analysis sees the polling interval as one
// visit of the call (its time is the whole interval, the short gaps included); the call path's
// visits count every call. A call that found something is never folded.
#pragma once

#include <string_view>

namespace cw::trace {

inline constexpr std::string_view kCallsAttribute = "causeway::calls";

}  // namespace cw::trace
