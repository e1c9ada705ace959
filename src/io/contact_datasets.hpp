#pragma once
// The optional /contacts group of a snapshot (output.contacts) and its XDMF sidecar: one row per
// contact of the last step, each rank writing the contacts it is responsible for (the same
// collective slabs as /particles). Layout in docs/output.md. Private to src/io.
#include "hdf5_util.hpp"

#include "granite/comm/communicator.hpp"
#include "granite/timestep/contact_record.hpp"

#include <hdf5.h>

#include <cstdint>
#include <string>

namespace granite::io::detail {

/// Collective. Creates /contacts in `file` and writes this rank's rows of `record`; `transfer`
/// is the collective transfer property list, `compression` the gzip level. Returns the total
/// number of contacts over ranks.
std::int64_t write_contact_datasets(hid_t file, const timestep::ContactRecord& record,
                                    hid_t transfer, int compression, int rank,
                                    const comm::Communicator& comm);

/// A complete XDMF document with one Polyvertex grid at the contact points of the snapshot
/// `h5_file_name` (name relative to the XDMF file) carrying the impulse, force and normal
/// vectors (with `compatible`: also compatible_impulse and compatible_force) and the gap and
/// body ids, for ParaView (e.g. Glyph filter on `force`).
std::string xdmf_contacts_document(const std::string& h5_file_name, std::int64_t count, double time,
                                   std::int64_t step, bool compatible = false);

/// "snapshot_00000042_contacts.xdmf" next to "snapshot_00000042.h5".
std::string contacts_xdmf_path_for(const std::string& h5_path);

}  // namespace granite::io::detail
