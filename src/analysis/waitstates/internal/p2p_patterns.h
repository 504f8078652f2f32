// Point-to-point wait states and message counts of one location (private).
#pragma once

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

// Late Sender, Late Sender / Wrong Order (on the receiving location), Late Receiver (on the
// sending location), the counts and bytes of received messages, and p2p clock-condition
// violations. (Send-side counts come from LocationScan: every send record counts.)
void AnalyzePointToPoint(const Context& ctx, uint32_t location, LocationOutput& out);

}  // namespace cw::analysis::internal
