#include "granite/config/schema.hpp"

#include "granite/core/error.hpp"

#include <cmath>
#include <sstream>

namespace granite::config {

// ---- builders -------------------------------------------------------------------------------

namespace {
SchemaPtr make(Kind kind) {
  auto s = std::make_shared<Schema>();
  s->kind = kind;
  return s;
}
SchemaPtr ranged(Kind kind, double min, double max, bool min_exclusive, bool max_exclusive) {
  auto s = std::make_shared<Schema>();
  s->kind = kind;
  s->min = min;
  s->max = max;
  s->min_exclusive = min_exclusive;
  s->max_exclusive = max_exclusive;
  return s;
}
}  // namespace

SchemaPtr boolean() { return make(Kind::boolean); }
SchemaPtr integer(double min, double max) { return ranged(Kind::integer, min, max, false, false); }
SchemaPtr wide_integer(double min) {
  auto s = std::make_shared<Schema>(*integer(min));
  s->wide = true;
  return s;
}
SchemaPtr real(double min, double max, bool min_exclusive, bool max_exclusive) {
  return ranged(Kind::real, min, max, min_exclusive, max_exclusive);
}
SchemaPtr any_real() { return make(Kind::real); }
SchemaPtr text() { return make(Kind::string); }
SchemaPtr choice(std::vector<std::string> choices) {
  auto s = std::make_shared<Schema>();
  s->kind = Kind::choice;
  s->choices = std::move(choices);
  return s;
}
SchemaPtr vec3(double min, double max) { return ranged(Kind::vec3, min, max, false, false); }
SchemaPtr int3(double min, double max) { return ranged(Kind::int3, min, max, false, false); }
SchemaPtr bool3() { return make(Kind::bool3); }
SchemaPtr map(std::vector<Field> fields) {
  auto s = std::make_shared<Schema>();
  s->kind = Kind::map;
  s->fields = std::move(fields);
  return s;
}
SchemaPtr list(SchemaPtr element, std::size_t min_size) {
  auto s = std::make_shared<Schema>();
  s->kind = Kind::list;
  s->element = std::move(element);
  s->min_size = min_size;
  return s;
}
SchemaPtr tagged(std::vector<std::pair<std::string, SchemaPtr>> variants) {
  auto s = std::make_shared<Schema>();
  s->kind = Kind::tagged;
  s->variants = std::move(variants);
  return s;
}

// ---- descriptions ---------------------------------------------------------------------------

namespace {

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os << v;
  return os.str();
}

bool has_range(const Schema& s) { return !std::isinf(s.min) || !std::isinf(s.max); }

std::string range_text(const Schema& s) {
  if (!has_range(s)) return "";
  if (std::isinf(s.max)) return std::string(s.min_exclusive ? " > " : " >= ") + number(s.min);
  if (std::isinf(s.min)) return std::string(s.max_exclusive ? " < " : " <= ") + number(s.max);
  return std::string(" in ") + (s.min_exclusive ? "(" : "[") + number(s.min) + ", " +
         number(s.max) + (s.max_exclusive ? ")" : "]");
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

}  // namespace

std::string describe(const Schema& s) {
  switch (s.kind) {
  case Kind::map:
    return "a map";
  case Kind::list:
    return "a list";
  case Kind::tagged: {
    std::vector<std::string> names;
    for (const auto& [name, _] : s.variants) names.push_back(name);
    return "a map with 'type: " + joined(names, "|") + "'";
  }
  case Kind::boolean:
    return "true or false";
  case Kind::integer:
    return "an integer" + range_text(s);
  case Kind::real:
    return "a number" + range_text(s);
  case Kind::string:
    return "a string";
  case Kind::choice:
    return "one of " + joined(s.choices, "|");
  case Kind::vec3:
    return "a list of 3 numbers" + (has_range(s) ? ", each" + range_text(s) : "");
  case Kind::int3:
    return "a list of 3 integers" + (has_range(s) ? ", each" + range_text(s) : "");
  case Kind::bool3:
    return "a list of 3 booleans";
  }
  return "?";
}

// ---- validation -----------------------------------------------------------------------------

namespace {

class Resolver {
public:
  Resolver(const std::string& file, const std::map<std::string, std::string>& origins) :
      file_(file), origins_(origins) {}

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& path,
                         const std::string& what) const {
    std::ostringstream os;
    if (const std::string* origin = origin_of(path)) {
      os << *origin;
    } else {
      os << file_;
      if (mark.line >= 0) os << ':' << mark.line + 1 << ':' << mark.column + 1;
    }
    os << ": " << (path.empty() ? "(top level)" : path) << ": " << what;
    throw InputError(os.str());
  }

  static std::string got(const YAML::Node& node) {
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    if (node.IsNull()) return "nothing";
    return "'" + shown(node.Scalar()) + "'";
  }

  [[noreturn]] void expected(const YAML::Node& node, const std::string& path,
                             const Schema& s) const {
    fail(node.Mark(), path, "expected " + describe(s) + "; got " + got(node));
  }

  double parse_real(const YAML::Node& node, const std::string& path, const Schema& s) const {
    double v = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, v)) expected(node, path, s);
    if (!std::isfinite(v)) expected(node, path, s);
    return v;
  }

  void check_range(double v, const YAML::Node& node, const std::string& path,
                   const Schema& s) const {
    const bool below = s.min_exclusive ? v <= s.min : v < s.min;
    const bool above = s.max_exclusive ? v >= s.max : v > s.max;
    const bool integral = s.kind == Kind::integer || s.kind == Kind::int3;
    const bool beyond_int =
        integral && !s.wide &&
        (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max());
    if (below || above || beyond_int)
      fail(node.Mark(), path,
           "expected " + describe(s) + "; got " + shown(node.Scalar()) + " (out of range)");
  }

  YAML::Node scalar(const YAML::Node& node, const std::string& path, const Schema& s) const {
    switch (s.kind) {
    case Kind::boolean: {
      bool v = false;
      if (!node.IsScalar() || !YAML::convert<bool>::decode(node, v)) expected(node, path, s);
      return YAML::Node(v);
    }
    case Kind::integer: {
      long long v = 0;
      if (!node.IsScalar() || !YAML::convert<long long>::decode(node, v)) expected(node, path, s);
      check_range(double(v), node, path, s);
      return YAML::Node(v);
    }
    case Kind::real: {
      const double v = parse_real(node, path, s);
      check_range(v, node, path, s);
      return YAML::Node(v);
    }
    case Kind::string:
      if (!node.IsScalar()) expected(node, path, s);
      return YAML::Node(node.Scalar());
    case Kind::choice:
      if (!node.IsScalar()) expected(node, path, s);
      for (const auto& c : s.choices)
        if (c == node.Scalar()) return YAML::Node(c);
      expected(node, path, s);
    default:
      break;
    }
    expected(node, path, s);
  }

  YAML::Node triple(const YAML::Node& node, const std::string& path, const Schema& s) const {
    if (!node.IsSequence() || node.size() != 3) expected(node, path, s);
    YAML::Node out(YAML::NodeType::Sequence);
    out.SetStyle(YAML::EmitterStyle::Flow);
    for (std::size_t i = 0; i < 3; ++i) {
      const YAML::Node item = node[i];
      if (!item.IsScalar()) expected(node, path, s);
      if (s.kind == Kind::bool3) {
        bool v = false;
        if (!YAML::convert<bool>::decode(item, v)) expected(node, path, s);
        out.push_back(v);
      } else if (s.kind == Kind::int3) {
        long long v = 0;
        if (!YAML::convert<long long>::decode(item, v)) expected(node, path, s);
        check_range(double(v), item, path, s);
        out.push_back(v);
      } else {
        const double v = parse_real(item, path, s);
        check_range(v, item, path, s);
        out.push_back(v);
      }
    }
    return out;
  }

  YAML::Node fields(const YAML::Node& node, const std::string& path,
                    const std::vector<Field>& fields, const char* skip_key) const {
    YAML::Node out(YAML::NodeType::Map);
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (skip_key && key == skip_key) continue;
      bool known = false;
      for (const auto& f : fields) known = known || f.key == key;
      if (!known) {
        std::vector<std::string> names;
        for (const auto& f : fields) names.push_back(f.key);
        fail(it->first.Mark(), join(path, key),
             "unknown key (known here: " + joined(names, ", ") + ")");
      }
    }
    for (const auto& f : fields) {
      const std::string child_path = join(path, f.key);
      const YAML::Node child = node[f.key];
      if (child) {
        out[f.key] = resolve(child, child_path, *f.schema);
      } else if (f.default_yaml == kAbsent) {
        continue;  // an optional section: stays absent
      } else if (!f.default_yaml.empty()) {
        out[f.key] = resolve(YAML::Load(f.default_yaml), child_path, *f.schema);
      } else if (f.required) {
        fail(node.Mark(), child_path,
             "missing required key (expected " + describe(*f.schema) + ")");
      } else if (f.schema->kind == Kind::map) {
        out[f.key] = resolve(YAML::Node(YAML::NodeType::Map), child_path, *f.schema);
      } else if (f.schema->kind == Kind::list) {
        out[f.key] = YAML::Node(YAML::NodeType::Sequence);
      }
    }
    return out;
  }

  YAML::Node resolve(const YAML::Node& node, const std::string& path, const Schema& s) const {
    switch (s.kind) {
    case Kind::map:
      if (node.IsNull()) return fields(YAML::Node(YAML::NodeType::Map), path, s.fields, nullptr);
      if (!node.IsMap()) expected(node, path, s);
      return fields(node, path, s.fields, nullptr);
    case Kind::tagged: {
      if (!node.IsMap()) expected(node, path, s);
      const YAML::Node type = node["type"];
      if (!type)
        fail(node.Mark(), join(path, "type"),
             "missing required key (expected " + describe(s) + ")");
      for (const auto& [name, variant] : s.variants) {
        if (type.IsScalar() && type.Scalar() == name) {
          YAML::Node out = fields(node, path, variant->fields, "type");
          out["type"] = name;
          return out;
        }
      }
      fail(type.Mark(), join(path, "type"), "expected " + describe(s) + "; got " + got(type));
    }
    case Kind::list: {
      if (!node.IsSequence()) expected(node, path, s);
      if (node.size() < s.min_size)
        fail(node.Mark(), path,
             "expected at least " + std::to_string(s.min_size) + " entries; got " +
                 std::to_string(node.size()));
      YAML::Node out(YAML::NodeType::Sequence);
      for (std::size_t i = 0; i < node.size(); ++i)
        out.push_back(resolve(node[i], path + "[" + std::to_string(i) + "]", *s.element));
      return out;
    }
    case Kind::vec3:
    case Kind::int3:
    case Kind::bool3:
      return triple(node, path, s);
    default:
      return scalar(node, path, s);
    }
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

private:
  // The override that set `path` or one of its parents, if any.
  const std::string* origin_of(const std::string& path) const {
    for (const auto& [key, origin] : origins_)
      if (path == key || path.rfind(key + ".", 0) == 0 || path.rfind(key + "[", 0) == 0)
        return &origin;
    return nullptr;
  }

  const std::string& file_;
  const std::map<std::string, std::string>& origins_;
};

}  // namespace

YAML::Node resolve(const YAML::Node& input, const Schema& schema, const std::string& file,
                   const std::map<std::string, std::string>& origins) {
  return Resolver(file, origins).resolve(input, "", schema);
}

// ---- documentation --------------------------------------------------------------------------

namespace {

// Markdown table cell text: a '|' would end the cell.
std::string cell(std::string text) {
  for (std::size_t pos = 0; (pos = text.find('|', pos)) != std::string::npos; pos += 2)
    text.replace(pos, 1, "\\|");
  return text;
}

std::string type_text(const Schema& s) {
  switch (s.kind) {
  case Kind::map:
    return "map";
  case Kind::list:
    return "list";
  case Kind::tagged:
    return "map";
  default:
    return cell(describe(s));
  }
}

void document(const Schema& s, const std::string& path, std::ostringstream& os);

void document_fields(const std::vector<Field>& fields, const std::string& path,
                     std::ostringstream& os) {
  for (const auto& f : fields) {
    const std::string p = path.empty() ? f.key : path + "." + f.key;
    std::string def = f.required                  ? "**required**"
                      : f.default_yaml == kAbsent ? "absent: off"
                      : f.default_yaml.empty()    ? "—"
                                                  : "`" + f.default_yaml + "`";
    os << "| `" << p << "` | " << type_text(*f.schema) << " | " << (f.unit.empty() ? "—" : f.unit)
       << " | " << def << " | " << f.doc << " |\n";
    document(*f.schema, p, os);
  }
}

void document(const Schema& s, const std::string& path, std::ostringstream& os) {
  if (s.kind == Kind::map) document_fields(s.fields, path, os);
  if (s.kind == Kind::list) document(*s.element, path + "[]", os);
  if (s.kind == Kind::tagged) {
    for (const auto& [name, variant] : s.variants) {
      os << "| `" << path << ".type: " << name << "` | | | | " << variant->doc << " |\n";
      document_fields(variant->fields, path, os);
    }
  }
}

}  // namespace

std::string markdown(const Schema& schema, const std::string& title) {
  std::ostringstream os;
  os << "# " << title << "\n\n"
     << "Generated by `granite check --schema`; a unit test keeps this file and the schema in "
        "the code identical.\nUnits are SI. `[]` marks a list entry; a list entry with a "
        "`type` key takes the keys listed under that type.\n\n"
     << "| key | type | unit | default | description |\n|---|---|---|---|---|\n";
  document(schema, "", os);
  return os.str();
}

}  // namespace granite::config
