#pragma once
// JSON Lines front-end to the single-contact solvers (`granite contact --model NAME`).
//
// Input: one problem per line, {"A": [[..],[..],[..]], "b": [..], "mu": ..} in the contact frame
// (n, t, o); blank lines are skipped. Output: one line per problem,
// {"x": [..], "objective": .., "case": "separating|frictionless|sticking|sliding|degenerate"},
// or for the model "coulomb_all_solutions" {"solutions": [{"x": [..], "objective": .., "case": ..}, ...]}.
// Doubles are printed with 17 significant digits.
#include <iosfwd>
#include <string_view>

namespace granite::io {

/// Solves every problem read from `in` with `model` (a contact::Model name or
/// "coulomb_all_solutions") and writes the answers to `out`. Returns 0 on success. On the first
/// bad line (malformed JSON, wrong shape, unknown key, non-finite number, A not symmetric
/// positive definite, μ < 0) writes one line "error: line N: …" to `err` and returns 2; the
/// lines before it stay printed, nothing is printed for the bad line. An unknown model name or
/// a golden-iteration count below 1 also returns 2 with one line on `err`.
int solve_contact_stream(std::string_view model, int golden_iterations, std::istream& in,
                         std::ostream& out, std::ostream& err, int friction_directions = 8);

}  // namespace granite::io
