#pragma once
// Growing the per-step arrays (contacts, their solver blocks, keys, body states): std::vector
// doubles its capacity when it grows by even one element, which leaves up to half of a large
// array unused for the rest of the run. These arrays grow by an eighth more than asked instead.
#include <cstddef>

namespace granite {

/// Makes room for n elements: if the capacity is short, n + n/8.
template <class Vector>
void reserve_with_margin(Vector& v, std::size_t n) {
  if (n > v.capacity()) v.reserve(n + n / 8);
}

}  // namespace granite
