// The archive properties in which the exporter notes each rank's run (private to
// measure/export): how its recording ended (CAUSEWAY::RANK_ENDINGS) and where it ran
// (CAUSEWAY::RANK_SCHEDULING), which otf2/ reads back into trace::Definitions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measure/export/internal/rank_clocks.h"
#include "measure/export/internal/raw_definitions.h"
#include "measure/export/raw_export.h"

namespace cw::measure::internal {

// Where each rank ran, a line "RANK HOST CPUS_ALLOWED CPUS_ONLINE RAN_NS WAITED_NS NODE_NS
// STOLEN_NS MEASURED_NS DESCHEDULED_NS" per rank (ranks that did not record it are left out; -1
// for what is unknown).
std::string RankScheduling(const std::vector<RankDefs>& defs);

// How each rank ended, a line "RANK HOW" per rank; a rank stopped at the size limit is told
// when, in seconds from the trace's start (`min_time`), as every report counts time (its entry
// in `summary.endings` too).
std::string RankEndings(std::vector<RankDefs>& defs, const RankClocks& clocks, uint64_t min_time,
                        ExportSummary& summary);

}  // namespace cw::measure::internal
