// Duplicate keys in a YAML document (see include/granite/config/yaml_duplicate_keys.hpp): a scan of
// the parser's event stream, one frame per open map or sequence.
#include "granite/config/yaml_duplicate_keys.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <sstream>
#include <vector>

namespace granite::config {

namespace {

class DuplicateKeyFinder : public YAML::EventHandler {
public:
  std::optional<DuplicateKey> found;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { node(nullptr, {}); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { node(nullptr, {}); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    node(&value, mark);
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(nullptr, {});
    frames_.push_back(Frame{false, true, {}});
  }
  void OnSequenceEnd() override { frames_.pop_back(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(nullptr, {});
    frames_.push_back(Frame{true, true, {}});
  }
  void OnMapEnd() override { frames_.pop_back(); }

private:
  struct Frame {
    bool is_map = false;
    bool expect_key = true;            // maps alternate key, value, key, ...
    std::map<std::string, int> first;  // scalar key -> its line (0-based)
  };

  // A node starts in the innermost open container; `scalar` is its text if it is a scalar.
  // Keys that are not scalars (complex keys, aliases) are not compared.
  void node(const std::string* scalar, const YAML::Mark& mark) {
    if (frames_.empty() || !frames_.back().is_map) return;
    Frame& map = frames_.back();
    const bool is_key = map.expect_key;
    map.expect_key = !map.expect_key;
    if (!is_key || scalar == nullptr || found) return;
    const auto [it, inserted] = map.first.emplace(*scalar, mark.line);
    if (!inserted) found = DuplicateKey{*scalar, mark.line + 1, mark.column + 1, it->second + 1};
  }

  std::vector<Frame> frames_;
};

}  // namespace

std::optional<DuplicateKey> find_duplicate_key(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DuplicateKeyFinder finder;
  parser.HandleNextDocument(finder);
  return finder.found;
}

}  // namespace granite::config
