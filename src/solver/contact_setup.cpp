#include "granite/solver/contact_setup.hpp"

#include "granite/core/capacity.hpp"
#include "granite/solver/delassus.hpp"

namespace granite::solver {

void setup_contacts(const collision::ContactList& contacts, const body::Particles& particles,
                    const body::GlobalBodies& globals, const body::MaterialTable& materials,
                    const std::vector<BodyState>& states, double dt, double epsilon,
                    std::vector<SolverContact>& out) {
  const std::size_t m = contacts.size();
  const std::size_t n = particles.size();
  reserve_with_margin(out, m);
  out.resize(m);
  for (std::size_t j = 0; j < m; ++j) {
    SolverContact& c = out[j];
    c.body1 = contacts.body1[j];
    c.body2 = contacts.body2[j];
    c.set_frame(contacts.normal[j]);
    const Mat3 frame = c.frame();
    // Each lever arm from the body's own witness point (narrow_phase.hpp).
    c.r1 = contacts.witness1(j) - particles.position[c.body1];
    // A global body's lever arm runs from its rotation centre, so that its wall velocity at
    // the witness point is v + ω × (x − c).
    const Vec3& centre2 =
        c.body2 < n ? particles.position[c.body2] : globals[c.body2 - n].rotation_center;
    c.r2 = contacts.witness2(j) - centre2;
    const BodyState& s1 = states[c.body1];
    const BodyState& s2 = states[c.body2];
    // Eq. (2): between spheres from their lever arms ∓R n (a global body adds nothing); with
    // a shaped body (a clump's part is off its centre) from the lever arms themselves.
    const bool shaped = particles.shape[c.body1] != body::kSphere ||
                        (c.body2 < n && particles.shape[c.body2] != body::kSphere);
    c.A = shaped ? delassus_diagonal(frame, s1.inverse_mass, s1.inverse_inertia(), c.r1,
                                     s2.inverse_mass, s2.inverse_inertia(), c.r2)
                 : sphere_contact_delassus(frame, s1, particles.radius[c.body1], s2,
                                           c.body2 < n ? particles.radius[c.body2] : 0.0);
    c.reduction = contact::block_reduction(c.A.full());
    c.gap_term = signorini_gap_term(contacts.gap[j], dt, epsilon);
    c.mu = materials.pair_friction(particles.material[c.body1],
                                   material_of(particles, globals, c.body2));
    c.weight = 1.0;  // the distributed step lowers it for contacts with a ghost body
  }
}

}  // namespace granite::solver
