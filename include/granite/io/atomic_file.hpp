#pragma once
// Text files that are either complete or absent: written to PATH.tmp, renamed to PATH.
#include <string>

namespace granite::io {

/// Writes `text` to `path + ".tmp"` and renames it to `path`. Throws InputError naming the path.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace granite::io
