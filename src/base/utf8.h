// Text from traces is untrusted bytes: names may hold anything. Writers of formats that require
// UTF-8 (JSON, XML) pass it through here first.
#pragma once

#include <string>
#include <string_view>

namespace cw {

// `text` with every byte that does not begin a well-formed UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace cw
