// The wire forms of what each rank of an MPI analysis job contributes to the report: its
// locations' severities and spans, the instances it kept, its diagnostics and its share of the
// event views. The first rank reads them back in rank order and adds them up.
//
// Doubles travel as their bits, so sums on the first rank are the sums one process makes.
#pragma once

#include <span>
#include <vector>

#include "analysis/critpath/critical_path.h"
#include "analysis/delay/delay_analysis.h"
#include "analysis/metrics/severity.h"
#include "base/diagnostics.h"
#include "comm/wire.h"
#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::driver::internal {

// Diagnostics with their kinds' name, severity and description: a kind read back is made from
// them once per process and name, and lives as long as the process (Diagnostics holds kinds by
// pointer and matches them by name).
void PutDiagnostics(comm::ByteWriter& out, const Diagnostics& diagnostics);
Diagnostics GetDiagnostics(comm::ByteReader& in);

// The non-zero values of `locations`' severities, added into `into` on reading.
void PutSeverities(comm::ByteWriter& out, std::span<const uint32_t> locations,
                   const std::vector<analysis::LocationSeverities>& severities);
void GetSeverities(comm::ByteReader& in, std::vector<analysis::LocationSeverities>& into);

void PutSpans(comm::ByteWriter& out, std::span<const uint32_t> locations,
              const std::vector<trace::LocationSpan>& spans);
void GetSpans(comm::ByteReader& in, std::vector<trace::LocationSpan>& into);

void PutAnalysisInstances(comm::ByteWriter& out, const std::vector<analysis::Instance>& instances);
std::vector<analysis::Instance> GetAnalysisInstances(comm::ByteReader& in);

void PutReportInstances(comm::ByteWriter& out, const std::vector<report::Instance>& instances);
std::vector<report::Instance> GetReportInstances(comm::ByteReader& in);

void PutEventViews(comm::ByteWriter& out, const report::EventViews& views);
report::EventViews GetEventViews(comm::ByteReader& in);

// The delay analysis's counts and diagnostics, added into `into` on reading.
void PutDelayResult(comm::ByteWriter& out, const analysis::DelayResult& delay);
void AddDelayResult(comm::ByteReader& in, analysis::DelayResult& into);

// The critical-path facts of `locations` (and the segments and diagnostics of the walk), put
// into `into` (sized by location) on reading.
void PutPathFacts(comm::ByteWriter& out, std::span<const uint32_t> locations,
                  const analysis::CriticalPathFacts& facts);
void AddPathFacts(comm::ByteReader& in, analysis::CriticalPathFacts& into);

}  // namespace cw::driver::internal
