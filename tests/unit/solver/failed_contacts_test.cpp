// A single-contact model that fails (ContactCase::failed: the polyhedral model when Lemke's
// answer fails its check, here forced by a non-finite right-hand side) is counted by the
// relaxation, contact by contact, in the last sweep: the run stops on any (scenario/run.cpp).
#include "granite/solver/relaxation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace granite;

namespace {

// One sphere (m = 1 kg, I = 1 kg m²) against an immovable body, approaching at 1 m/s.
struct OneContact {
  std::vector<solver::SolverContact> contacts;
  std::vector<solver::BodyState> bodies;
  OneContact(double gap_term) {
    solver::BodyState sphere{Vec3(0, 0, -1), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1.0, 1.0};
    solver::BodyState wall{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.0, 0.0};
    bodies = {sphere, wall};
    solver::SolverContact c;
    c.set_frame(Vec3::UnitZ());  // (n, t, o) = (z, x, y), right-handed
    c.r1 = Vec3(0, 0, -0.1);
    c.r2 = Vec3::Zero();
    c.A = Mat3::Identity();  // a Delassus block (SPD); its exact value does not matter here
    c.reduction = contact::block_reduction(c.A.full());
    c.gap_term = gap_term;
    c.mu = 0.5;
    c.body1 = 0;
    c.body2 = 1;
    contacts = {c, c};  // the same contact twice
  }
};

solver::RelaxationResult relax(OneContact& s, contact::Model model) {
  solver::RelaxationSettings settings;
  settings.model.model = model;
  settings.max_sweeps = 3;
  std::vector<Vec3> impulses(s.contacts.size(), Vec3::Zero());
  return solver::relax(settings, s.contacts, impulses, s.bodies);
}

}  // namespace

TEST(FailedContacts, PolyhedralLemkeFailureIsCountedPerContact) {
  OneContact fine(0.0);
  EXPECT_EQ(relax(fine, contact::Model::polyhedral).failed_contacts, 0u);
  // A NaN gap term makes b non-finite: Lemke refuses it (invalid input) and the model answers
  // failed with the frictionless stand-in, for both contacts in every sweep.
  OneContact broken(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(relax(broken, contact::Model::polyhedral).failed_contacts, 2u);
  // Models that do not fail are never counted.
  OneContact other(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(relax(other, contact::Model::mdp).failed_contacts, 0u);
}
