#pragma once
// One name table per enumeration: the configuration's choices, its parsing into typed
// settings, the command line and the run log all read the same {value, name} pairs.
//
//   inline constexpr std::array<Named<Ordering>, 2> kOrderingNames{{{Ordering::a, "a"}, ...}};
//   value_named(kOrderingNames, "a")  -> Ordering::a (std::nullopt for an unknown name)
//   name_of(kOrderingNames, Ordering::a) -> "a"
//   names_of(kOrderingNames) -> {"a", ...}, in the table's order (the schema's choices)
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace granite {

template <class E>
struct Named {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
constexpr std::optional<E> value_named(const std::array<Named<E>, N>& table,
                                       std::string_view name) {
  for (const Named<E>& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

/// The name of `value`; "?" if the table has none (a table missing a value is a bug).
template <class E, std::size_t N>
constexpr std::string_view name_of(const std::array<Named<E>, N>& table, E value) {
  for (const Named<E>& entry : table)
    if (entry.value == value) return entry.name;
  return "?";
}

template <class E, std::size_t N>
std::vector<std::string> names_of(const std::array<Named<E>, N>& table) {
  std::vector<std::string> names;
  for (const Named<E>& entry : table) names.emplace_back(entry.name);
  return names;
}

}  // namespace granite
