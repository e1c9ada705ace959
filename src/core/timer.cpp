#include "granite/core/timer.hpp"

namespace granite {

std::string_view phase_name(Phase phase) {
  switch (phase) {
  case Phase::detection:
    return "detection";
  case Phase::setup:
    return "setup";
  case Phase::relaxation:
    return "relaxation";
  case Phase::communication:
    return "communication";
  case Phase::compatible:
    return "compatible";
  case Phase::integration:
    return "integration";
  case Phase::output:
    return "output";
  case Phase::other:
    return "other";
  case Phase::count:
    break;
  }
  return "?";
}

double PhaseTimers::total() const {
  double sum = 0.0;
  for (double s : seconds_) sum += s;
  return sum;
}

}  // namespace granite
