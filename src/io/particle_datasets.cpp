// Writing the /particles datasets of a snapshot or checkpoint, and their tables in
// docs/output.md, from the particle field table.
#include "particle_datasets_hdf5.hpp"

#include "granite/io/particle_datasets.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace granite::io {
namespace detail {

void write_particle_datasets(hid_t group, const body::Particles& particles, unsigned flag, int rank,
                             const Slab& slab) {
  body::for_each_particle_field([&](const auto& field) {
    using Element = typename std::decay_t<decltype(field)>::Element;
    using Layout = typename std::decay_t<decltype(field)>::Layout;
    using Scalar = typename Layout::Scalar;
    if (!field.has(flag)) return;
    const std::vector<Element>& array = particles.*field.array;
    std::vector<Scalar> block;  // one block's rows in the file's layout, when memory differs
    const RowSource rows_of = [&](std::size_t first, std::size_t count) -> const void* {
      if constexpr (Layout::same_as_memory) {
        return &array[first];
      } else {
        block.resize(count * Layout::components);
        for (std::size_t i = 0; i < count; ++i)
          Layout::flatten(array[first + i], &block[i * Layout::components]);
        return block.data();
      }
    };
    write_dataset(group, "/particles", field.name, ScalarType<Scalar>::file(),
                  ScalarType<Scalar>::memory(), Layout::components, rows_of, slab);
  });
  std::vector<std::int32_t> owner;
  write_dataset(
      group, "/particles", kOwnerRank, ScalarType<std::int32_t>::file(),
      ScalarType<std::int32_t>::memory(), 1,
      [&](std::size_t, std::size_t count) {
        owner.assign(count, std::int32_t(rank));
        return static_cast<const void*>(owner.data());
      },
      slab);
}

}  // namespace detail

std::string particle_datasets_markdown(ParticleFile file) {
  using Row = std::array<std::string, 5>;
  std::vector<Row> rows = {{"dataset", "shape", "type (little endian)", "unit", "meaning"}};
  const unsigned flag = file == ParticleFile::snapshot ? body::kSnapshotted : body::kCheckpointed;
  body::for_each_particle_field([&](const auto& field) {
    using Layout = typename std::decay_t<decltype(field)>::Layout;
    if (!field.has(flag)) return;
    const std::size_t c = Layout::components;
    rows.push_back({"`/particles/" + std::string(field.name) + "`",
                    c > 1 ? "N × " + std::to_string(c) : "N",
                    detail::ScalarType<typename Layout::Scalar>::name,
                    *field.unit ? field.unit : "–", field.description});
  });
  rows.push_back({"`/particles/" + std::string(detail::kOwnerRank) + "`", "N",
                  detail::ScalarType<std::int32_t>::name, "–",
                  "MPI rank that owned (and wrote) the body"});

  // Pad every column but the last to its widest entry, counting characters, not UTF-8 bytes.
  auto width = [](const std::string& text) {
    return std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
  };
  std::array<std::size_t, 4> widths{};
  for (const Row& row : rows)
    for (std::size_t k = 0; k < widths.size(); ++k) widths[k] = std::max(widths[k], width(row[k]));
  auto line = [&](const Row& row) {
    std::string out = "|";
    for (std::size_t k = 0; k < widths.size(); ++k)
      out += " " + row[k] + std::string(widths[k] - width(row[k]), ' ') + " |";
    return out + " " + row[4] + " |\n";
  };
  std::string out = line(rows[0]);
  out += "|";
  for (std::size_t w : widths) out += std::string(w + 2, '-') + "|";
  out += "---------|\n";
  for (std::size_t r = 1; r < rows.size(); ++r) out += line(rows[r]);
  return out;
}

}  // namespace granite::io
