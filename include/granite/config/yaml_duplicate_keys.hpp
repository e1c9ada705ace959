#pragma once
// Duplicate keys in a YAML document. yaml-cpp accepts a map with a key given twice and keeps
// the first value, so a repeated section (`run:` twice) would be silently ignored; the
// configuration loader rejects such files with both line numbers.
#include <optional>
#include <string>

namespace granite::config {

/// A key given twice in one map; lines and columns count from 1.
struct DuplicateKey {
  std::string key;
  int line = 0;
  int column = 0;
  int first_line = 0;
};

/// The first repeated scalar key of any map (top level, nested, inside lists) of the first
/// document of `text`, or nullopt. Aliases are not expanded, so the scan is linear in the text.
/// Throws YAML::ParserException on a syntax error.
std::optional<DuplicateKey> find_duplicate_key(const std::string& text);

}  // namespace granite::config
