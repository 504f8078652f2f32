// One pass over a location's events for what needs no partner (private): send, collective and
// RMA traffic counts, and finding the location's MPI_Init and MPI_Finalize calls.
#pragma once

#include "analysis/waitstates/internal/context.h"
#include "analysis/waitstates/internal/init_finalize.h"
#include "analysis/waitstates/internal/traffic_counts.h"

namespace cw::analysis::internal {

// Call-path facts the scan needs, computed once per trace.
struct CallpathFlags {
  std::vector<uint8_t> flags;  // by call path: kInitCall, kFinalizeCall, kFileCall
  static constexpr uint8_t kInitCall = 1, kFinalizeCall = 2, kFileCall = 4;
  // By call path: which of Scalasca's MPI file operation counts a visit of it adds to
  // (FileOperationOf), kNoFileOperation for the others.
  std::vector<FileOperation> file_operations;
};
CallpathFlags ComputeCallpathFlags(const trace::Trace& trace);

void ScanLocation(const Context& ctx, const CallpathFlags& callpaths, uint32_t location,
                  LocationOutput& out, InitFinalize::Call& init, InitFinalize::Call& finalize);

}  // namespace cw::analysis::internal
