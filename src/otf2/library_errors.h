// Routes the OTF2 library's error reports into causeway errors.
//
// By default the OTF2 library prints every error to stderr. causeway installs one process-wide
// handler that records the last message per thread instead, so that a failed call can be turned
// into a cw::Error naming the file and the reason, and nothing is printed behind the CLI's back.
#pragma once

#include <string>

#include <otf2/otf2.h>

#include "base/status.h"

namespace cw::otf2 {

// Installs the handler, and keeps the library's chunk buffers fresh mappings
// (library_errors.cc says why); idempotent, thread-safe. Every reader calls it before it opens
// an archive.
void PrepareLibrary();

// The message the library reported last on this thread ("" if none), and clears it.
std::string TakeLastLibraryMessage();

// A cw::Error for a failed OTF2 call: "<what>: <OTF2 error name>: <library message>".
Error LibraryError(ErrorCode code, const std::string& what, OTF2_ErrorCode otf2_code);

}  // namespace cw::otf2
