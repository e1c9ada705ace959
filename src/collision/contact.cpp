#include "granite/collision/contact.hpp"

namespace granite::collision {

void ContactList::clear() {
  for_each_array(*this, [](auto& a) { a.clear(); });
}

}  // namespace granite::collision
