// Finding the OTF2 anchor file of an archive.
//
// Users pass either the anchor file ("run1/traces.otf2", any name ending in .otf2 or not) or the
// directory that holds it. ResolveAnchor returns the anchor path or an error that says what is
// wrong with the path: missing, a directory without an anchor, several candidates, or a file
// that is not an OTF2 anchor.
#pragma once

#include <string>

#include "base/status.h"

namespace cw::otf2 {

Result<std::string> ResolveAnchor(const std::string& path);

// True if the first bytes of `file` carry the OTF2 anchor signature.
bool LooksLikeAnchor(const std::string& file);

}  // namespace cw::otf2
