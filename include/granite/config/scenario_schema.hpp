#pragma once
// The schema of a Granite scenario file (`granite run CONFIG`). The single place where every
// configuration key, its type, unit, default and meaning is declared; docs/config.md is
// generated from it.
#include "granite/config/schema.hpp"

namespace granite::config {

const Schema& scenario_schema();

}  // namespace granite::config
