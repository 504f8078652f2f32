// Text from traces is untrusted bytes: names may hold anything. Writers of formats that require
// UTF-8 (JSON, XML) pass it through here first.
#pragma once

#include <string>
#include <string_view>

namespace cw {

// `text` with every byte that does not begin a well-formed UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

// `text` as it may be shown on a terminal or in a text file: valid UTF-8, and every control
// character (C0, DEL, C1) written as a visible escape ("\n", "\x1b", "\u009b"), so that a
// name cannot start a line of its own, forge report lines or send escape sequences to the
// terminal. Other text, backslashes included, is unchanged (a shell-quoted path stays pasteable).
std::string DisplayText(std::string_view text);

// `text` as one word for a POSIX shell: unchanged if it holds only characters no shell treats
// specially, else in single quotes (a quote inside written as '\'').
std::string ShellQuoted(std::string_view text);

}  // namespace cw
