// What differs between the configuration a checkpoint was written with and the present one
// (see config.hpp: restart_differences).
#include "granite/core/error.hpp"
#include "granite/config/config.hpp"
#include "granite/config/scenario_schema.hpp"

#include <map>

namespace granite::config {

namespace {

// Every scalar of `node` by its key path ("materials[0].friction"); an empty list or map is
// one entry too.
void flatten(const YAML::Node& node, const std::string& path,
             std::map<std::string, std::string>& out) {
  if (node.IsMap() && node.size() > 0) {
    for (const auto& item : node)
      flatten(item.second, (path.empty() ? "" : path + ".") + item.first.as<std::string>(), out);
  } else if (node.IsSequence() && node.size() > 0) {
    for (std::size_t i = 0; i < node.size(); ++i)
      flatten(node[i], path + "[" + std::to_string(i) + "]", out);
  } else {
    out[path] = node.IsScalar() ? node.Scalar() : node.IsSequence() ? "[]" : "{}";
  }
}

// Keys a restart may change: when the run ends and what it writes, not how it moves.
bool may_change(const std::string& path) {
  return path == "run.end_time" || path == "run.thermo_every" || path.rfind("output.", 0) == 0;
}

// Defaults that changed: a checkpoint written before holds the old default in its resolved
// configuration, and its restart is told which key to set to continue it.
struct ChangedDefault {
  const char* key;
  const char* before;
  const char* now;
};
constexpr ChangedDefault kChangedDefaults[] = {{"domain.balance", "none", "auto"},
                                               {"solver.exchange", "overlapped", "auto"}};

std::string hint(const std::string& key, const std::string& before, const std::string& after) {
  for (const ChangedDefault& c : kChangedDefaults)
    if (key == c.key && before == c.before && after == c.now)
      return std::string(" (its default is now ") + c.now + ": set " + c.key + ": " + c.before +
             " to continue this run)";
  return "";
}

}  // namespace

std::vector<std::string> restart_differences(const std::string& saved_text, const YAML::Node& now,
                                             const std::function<bool(const std::string&)>& also) {
  std::map<std::string, std::string> saved, present;
  YAML::Node stored;
  try {
    stored = YAML::Load(saved_text);
  } catch (const YAML::Exception&) {
    return {"the configuration stored in the checkpoint is not readable YAML"};
  }
  // A key added since the checkpoint's version was written takes its default there too, as
  // it does in a configuration that leaves it out; a stored configuration this schema no
  // longer reads is compared as it is.
  try {
    stored = resolve(stored, scenario_schema(), "checkpoint");
  } catch (const InputError&) {
  } catch (const YAML::Exception&) {
  }
  flatten(stored, "", saved);
  flatten(now, "", present);
  std::vector<std::string> differences;
  const auto value = [](const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? std::string("absent") : shown(it->second, 40);
  };
  std::map<std::string, std::string> keys = saved;
  keys.insert(present.begin(), present.end());
  for (const auto& [key, unused] : keys) {
    if (may_change(key) || (also && also(key))) continue;
    const std::string before = value(saved, key), after = value(present, key);
    if (before != after)
      differences.push_back(key + ": " + before + " in the checkpoint, " + after + " now" +
                            hint(key, before, after));
  }
  return differences;
}

}  // namespace granite::config
