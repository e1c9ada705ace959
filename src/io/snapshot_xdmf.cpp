// XDMF 3 sidecars for HDF5 snapshots: one document per snapshot and a temporal collection
// (series.xdmf). ParaView opens both with its "XDMF Reader" family; the grids are inlined in the
// series file rather than xi:include'd, which every XDMF reader handles.
#include "snapshot_xdmf.hpp"

#include "particle_datasets_hdf5.hpp"

#include "granite/core/error.hpp"
#include "granite/io/snapshot.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>
#include <system_error>

namespace granite::io::detail {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

// The shortest text that reads back as the same double (0.025, not 0.025000000000000001).
std::string format_double(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string data_item(const std::string& h5, std::int64_t count, const char* dataset,
                      const char* number_type, int precision, int columns,
                      const std::string& indent, const char* group = "particles") {
  std::ostringstream out;
  out << indent << "<DataItem Dimensions=\"" << count;
  if (columns > 1) out << ' ' << columns;
  out << "\" NumberType=\"" << number_type << "\" Precision=\"" << precision << "\" Format=\"HDF\">"
      << h5 << ":/" << group << "/" << dataset << "</DataItem>\n";
  return out.str();
}

// The particles' <Grid>, every line prefixed by `in`; `step_and_time`: the <Information> and
// <Time> lines of a grid that is a member of the temporal collection itself ("" otherwise).
std::string particle_grid(const std::string& h5, std::int64_t count, const std::string& in,
                          const std::string& step_and_time) {
  std::ostringstream out;
  out << in << "<Grid Name=\"particles\" GridType=\"Uniform\">\n"
      << step_and_time << in << "  <Topology TopologyType=\"Polyvertex\" NumberOfElements=\""
      << count << "\" NodesPerElement=\"1\"/>\n"
      << in << "  <Geometry GeometryType=\"XYZ\">\n"
      << data_item(h5, count, "position", "Float", 8, 3, in + "    ") << in << "  </Geometry>\n";
  // Every other snapshot dataset ParaView can show: scalars and vectors (it has no quaternions).
  for_each_particle_dataset(
      body::kSnapshotted, [&](const char* name, auto type, std::size_t columns) {
        using Type = decltype(type);
        if (std::string_view(name) == "position" || (columns != 1 && columns != 3)) return;
        out << in << "  <Attribute Name=\"" << name << "\" AttributeType=\""
            << (columns == 3 ? "Vector" : "Scalar") << "\" Center=\"Node\">\n"
            << data_item(h5, count, name, Type::xdmf, int(sizeof(typename Type::Scalar)),
                         int(columns), in + "    ")
            << in << "  </Attribute>\n";
      });
  out << in << "</Grid>\n";
  return out.str();
}

}  // namespace

std::string xdmf_grid(const std::string& h5_file_name, std::int64_t count, double time,
                      std::int64_t step, const std::string& extra_grids, bool collection) {
  const std::string h5 = xml_escape(h5_file_name);
  const std::string step_and_time = "      <Information Name=\"step\" Value=\"" +
                                    std::to_string(step) + "\"/>\n" + "      <Time Value=\"" +
                                    format_double(time) + "\"/>\n";
  // The same grid names at every time: ParaView matches blocks across time steps by name.
  if (extra_grids.empty() && !collection) return particle_grid(h5, count, "    ", step_and_time);
  // With further grids (the global bodies, the shapes) the snapshot is a spatial collection.
  return "    <Grid Name=\"snapshot\" GridType=\"Collection\" CollectionType=\"Spatial\">\n" +
         step_and_time + particle_grid(h5, count, "      ", "") + extra_grids + "    </Grid>\n";
}

std::string xdmf_triangle_grid(const std::string& h5_file_name, const TriangleGroup& group,
                               std::int64_t vertices, std::int64_t triangles,
                               const std::string& in) {
  if (triangles == 0) return "";
  const std::string h5 = xml_escape(h5_file_name);
  std::ostringstream out;
  out << in << "<Grid Name=\"" << group.name << "\" GridType=\"Uniform\">\n"
      << in << "  <Topology TopologyType=\"Triangle\" NumberOfElements=\"" << triangles << "\">\n"
      << data_item(h5, triangles, "triangles", "Int", 8, 3, in + "    ", group.name) << in
      << "  </Topology>\n"
      << in << "  <Geometry GeometryType=\"XYZ\">\n"
      << data_item(h5, vertices, "vertices", "Float", 8, 3, in + "    ", group.name) << in
      << "  </Geometry>\n"
      << in << "  <Attribute Name=\"" << group.cell_attribute
      << "\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
      << data_item(h5, triangles, group.cell_attribute, "Int", group.cell_attribute_bytes, 1,
                   in + "    ", group.name)
      << in << "  </Attribute>\n"
      << in << "</Grid>\n";
  return out.str();
}

namespace {
constexpr const char* kHeader =
    "<?xml version=\"1.0\" ?>\n"
    "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
    "  <Domain>\n";
constexpr const char* kFooter = "  </Domain>\n</Xdmf>\n";
}  // namespace

std::string xdmf_document(const std::string& grid) { return kHeader + grid + kFooter; }

std::string xdmf_series_document(const std::map<std::int64_t, std::string>& grids) {
  std::string out = kHeader;
  out += "    <Grid Name=\"series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& [step, grid] : grids) {
    // Indent the member grid by two more spaces.
    std::istringstream lines(grid);
    for (std::string line; std::getline(lines, line);) out += "  " + line + "\n";
  }
  out += "    </Grid>\n";
  out += kFooter;
  return out;
}

std::map<std::int64_t, std::string> scan_snapshot_grids(const std::string& dir) {
  namespace fs = std::filesystem;
  static const std::regex kName(R"(snapshot_(\d{8,})\.xdmf)");
  std::map<std::int64_t, std::string> grids;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw InputError("cannot list snapshot directory '" + dir + "': " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) throw InputError("cannot list snapshot directory '" + dir + "': " + ec.message());
    const fs::path file = it->path();
    std::smatch match;
    const std::string name = file.filename().string();
    if (!std::regex_match(name, match, kName)) continue;
    fs::path h5 = file;
    h5.replace_extension(".h5");
    if (!fs::exists(h5, ec)) continue;
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    auto begin = content.find("<Grid");
    const auto end = content.rfind("</Grid>");
    if (!in || begin == std::string::npos || end == std::string::npos || end < begin) continue;
    begin = content.rfind('\n', begin) + 1;  // keep the indentation (npos + 1 == 0)
    std::int64_t step = 0;
    try {
      step = std::stoll(match[1].str());
    } catch (const std::exception&) {
      continue;  // out of range: not one of ours
    }
    grids[step] = content.substr(begin, end + std::strlen("</Grid>\n") - begin);
  }
  return grids;
}

}  // namespace granite::io::detail

namespace granite::io {

void write_series_xdmf(const std::string& dir) {
  detail::write_text_atomically((std::filesystem::path(dir) / "series.xdmf").string(),
                                detail::xdmf_series_document(detail::scan_snapshot_grids(dir)));
}

}  // namespace granite::io
