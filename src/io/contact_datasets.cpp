// The /contacts group of a snapshot and its XDMF sidecar (see contact_datasets.hpp).
#include "contact_datasets.hpp"

#include "particle_datasets_hdf5.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

namespace granite::io::detail {
namespace {

constexpr const char* kGroup = "/contacts";

std::vector<double> flatten(const std::vector<Vec3>& v, double scale = 1.0) {
  std::vector<double> out(3 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < 3; ++k) out[3 * i + k] = scale * v[i][k];
  return out;
}

}  // namespace

std::int64_t write_contact_datasets(hid_t file, const timestep::ContactRecord& record,
                                    hid_t transfer, int compression, int rank,
                                    const comm::Communicator& comm) {
  Slab slab = slab_of(record.size(), comm);
  slab.compression = compression;
  slab.transfer = transfer;
  Handle group(check_id(H5Gcreate2(file, "contacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        "H5Gcreate2", "group /contacts"),
               H5Gclose);
  const hid_t g = group.get();
  auto ids = [&](const char* name, const std::vector<BodyId>& v) {
    write_dataset(g, kGroup, name, H5T_STD_I64LE, H5T_NATIVE_INT64, 1, v.data(), slab);
  };
  auto vectors = [&](const char* name, const std::vector<double>& v) {
    write_dataset(g, kGroup, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, v.data(), slab);
  };
  ids("body1", record.body1);
  ids("body2", record.body2);
  vectors("point1", flatten(record.point1));
  vectors("point2", flatten(record.point2));
  vectors("normal", flatten(record.normal));
  vectors("impulse", flatten(record.impulse));
  // force = impulse / dt: the mean force over the step (Moreau–Jean: impulses, not forces).
  vectors("force", flatten(record.impulse, record.dt > 0.0 ? 1.0 / record.dt : 0.0));
  if (record.compatible) {  // the same on every rank: the datasets are collective
    std::vector<Vec3> compatible(record.size());
    for (std::size_t j = 0; j < record.size(); ++j)
      compatible[j] = record.compatible_impulse[j] * record.normal[j];
    vectors("compatible_impulse", flatten(compatible));
    vectors("compatible_force", flatten(compatible, record.dt > 0.0 ? 1.0 / record.dt : 0.0));
  }
  if (record.rolling) {  // the same on every rank, as above
    vectors("torque_impulse", flatten(record.torque));
    vectors("torque", flatten(record.torque, record.dt > 0.0 ? 1.0 / record.dt : 0.0));
  }
  write_dataset(g, kGroup, "gap", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, record.gap.data(), slab);
  const std::vector<std::int32_t> owner(record.size(), std::int32_t(rank));
  write_dataset(g, kGroup, kOwnerRank, H5T_STD_I32LE, H5T_NATIVE_INT32, 1, owner.data(), slab);
  const std::int64_t total = std::int64_t(slab.total);
  write_attribute(g, "count", H5T_STD_I64LE, H5T_NATIVE_INT64, &total);
  write_attribute(g, "dt", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &record.dt);
  if (record.compatible) {  // the pass's figures: never a success it did not reach
    const solver::CompatibleResult& r = record.compatible_result;
    const std::int32_t converged = r.converged() ? 1 : 0;
    const std::int64_t outer = r.outer_iterations, inner = r.inner_iterations;
    write_string_attribute(g, "compatible_law", record.compatible_law);
    write_string_attribute(g, "compatible_status", solver::to_string(r.status));
    write_attribute(g, "compatible_converged", H5T_STD_I32LE, H5T_NATIVE_INT32, &converged);
    write_attribute(g, "compatible_tolerance", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                    &record.compatible_tolerance);
    write_attribute(g, "compatible_outer_iterations", H5T_STD_I64LE, H5T_NATIVE_INT64, &outer);
    write_attribute(g, "compatible_inner_iterations", H5T_STD_I64LE, H5T_NATIVE_INT64, &inner);
    write_attribute(g, "compatible_relative_violation", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                    &r.relative_violation);
    write_attribute(g, "compatible_stationarity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                    &r.stationarity);
  }
  return total;
}

std::string xdmf_contacts_document(const std::string& h5_file_name, std::int64_t count, double time,
                                   std::int64_t step, bool compatible) {
  std::ostringstream out;
  auto item = [&](const char* dataset, const char* type, int precision, int columns) {
    out << "        <DataItem Dimensions=\"" << count;
    if (columns > 1) out << ' ' << columns;
    out << "\" NumberType=\"" << type << "\" Precision=\"" << precision << "\" Format=\"HDF\">"
        << h5_file_name << ":/contacts/" << dataset << "</DataItem>\n";
  };
  char time_text[32];
  std::snprintf(time_text, sizeof time_text, "%.17g", time);
  out << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<Xdmf Version=\"3.0\">\n  <Domain>\n"
      << "    <Grid Name=\"contacts\" GridType=\"Uniform\">\n"
      << "      <Information Name=\"step\" Value=\"" << step << "\"/>\n"
      << "      <Time Value=\"" << time_text << "\"/>\n"
      << "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << count
      << "\" NodesPerElement=\"1\"/>\n"
      << "      <Geometry GeometryType=\"XYZ\">\n";
  item("point2", "Float", 8, 3);
  out << "      </Geometry>\n";
  std::vector<const char*> vector_names{"impulse", "force", "normal"};
  if (compatible)
    vector_names.insert(vector_names.end(), {"compatible_impulse", "compatible_force"});
  for (const char* name : vector_names) {
    out << "      <Attribute Name=\"" << name << "\" AttributeType=\"Vector\" Center=\"Node\">\n";
    item(name, "Float", 8, 3);
    out << "      </Attribute>\n";
  }
  out << "      <Attribute Name=\"gap\" AttributeType=\"Scalar\" Center=\"Node\">\n";
  item("gap", "Float", 8, 1);
  out << "      </Attribute>\n";
  for (const char* name : {"body1", "body2"}) {
    out << "      <Attribute Name=\"" << name << "\" AttributeType=\"Scalar\" Center=\"Node\">\n";
    item(name, "Int", 8, 1);
    out << "      </Attribute>\n";
  }
  out << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return out.str();
}

std::string contacts_xdmf_path_for(const std::string& h5_path) {
  std::filesystem::path path(h5_path);
  const std::string stem = path.stem().string();
  return (path.parent_path() / (stem + "_contacts.xdmf")).string();
}

}  // namespace granite::io::detail
