// Reads the global definitions of an OTF2 archive into trace::Definitions.
//
// Tolerates what real traces contain: unknown definition records and duplicate definitions
// (the first one wins; a differing duplicate is counted as a diagnostic). Rejects ids beyond
// kMaxDefinitionId, which no real trace uses and which would otherwise make a hostile file
// allocate unbounded memory.
#pragma once

#include <otf2/otf2.h>

#include "base/diagnostics.h"
#include "base/status.h"
#include "trace/definitions.h"

namespace cw::otf2 {

inline constexpr uint32_t kMaxDefinitionId = 1u << 24;

inline constexpr DiagnosticKind kDuplicateDefinition{
    "otf2.duplicate_definition", Severity::kWarning,
    "a definition id was defined twice with different content; the first one was kept"};
inline constexpr DiagnosticKind kUnknownDefinition{
    "otf2.unknown_definition", Severity::kInfo,
    "the archive holds definition records this OTF2 library does not know; they were skipped"};

// Reads all global definitions through `reader` (already opened on the anchor); returns the
// number of definition records read.
Result<uint64_t> ReadGlobalDefinitions(OTF2_Reader* reader, trace::Definitions& defs,
                                       Diagnostics& diagnostics);

}  // namespace cw::otf2
