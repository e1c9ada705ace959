#pragma once
// The /particles datasets of snapshots and checkpoints as Markdown tables, generated from the
// particle field table (granite/body/particle_fields.hpp). docs/output.md holds both tables
// verbatim; a unit test checks that they agree.
#include <string>

namespace granite::io {

enum class ParticleFile { snapshot, checkpoint };

/// The table of /particles datasets of one kind of file: dataset, shape, type, unit, meaning.
std::string particle_datasets_markdown(ParticleFile file);

}  // namespace granite::io
