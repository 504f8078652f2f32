// Scaling models per call path, as Extra-P fits them: the performance-model normal form
// t(p) = c0 + c1 * p^i * log2(p)^j with one term, the exponents from a small set
// (i in {0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 2}, j in {0, 1, 2}; and i in {-1/2, -1},
// for a strong-scaling time per process that shrinks as the work is divided), or the constant
// t(p) = c0. Each hypothesis is fitted by least squares; the one chosen predicts the measured
// points best under leave-one-out cross-validation (each point predicted by the fit to the
// others, scored by the symmetric mean absolute percentage error), and a term is taken only if
// it predicts them clearly better than the constant, so that noise does not pick a needlessly
// complex model, or if its coefficient is significant at 0.5 % by the F test (points that grow
// tenfold with a little noise are not constant, even when no term predicts them closely). With 5 %
// noise on five process counts neighbouring exponents (p^(1/3), p^(1/2), p^(1/3) * log2(p)) cannot
// always be told apart; the predictions they make stay close (docs/metrics.md, "Comparing runs",
// gives the rates).
//
//   ScalingModel m = FitScalingModel({{2, 3.0}, {4, 5.1}, {8, 10.2}});
//   m.Formula();   // "1.0 + 0.5 * p * log2(p)"
//   m.At(64);
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cw::compare {

// An exponent of p as a fraction (1/3 is not a double one can print back).
struct Exponent {
  int numerator = 0;
  int denominator = 1;
  double value() const { return static_cast<double>(numerator) / denominator; }
};

struct ScalingModel {
  double c0 = 0;
  double c1 = 0;  // 0 for the constant model
  Exponent i;     // of p
  int j = 0;      // of log2(p)
  bool constant = true;
  double cv_error = 0;   // leave-one-out SMAPE, 0..2 (0: every point predicted exactly)
  double r_squared = 1;  // of the fit to all points (1 when the points do not vary)

  double At(double p) const;
  // "2.1 + 0.48 * p * log2(p)", "10 + 3 * p^(1/2)", "7.5" (c0 and c1 with 3 significant digits).
  std::string Formula() const;
};

// The exponent sets of the normal form, in order of complexity.
const std::vector<Exponent>& PolynomialExponents();
inline constexpr int kMaxLogExponent = 2;

// P(|T| >= t) for Student's t with `dof` >= 1 degrees of freedom (t >= 0): the significance of a
// fitted term's coefficient (its F statistic is t squared).
double StudentTwoSidedTail(double t, int dof);

// `points`: (process count, value), at least one; process counts >= 1. With fewer than three
// distinct process counts only the constant model is fitted (two points cannot tell a model).
ScalingModel FitScalingModel(const std::vector<std::pair<double, double>>& points);

}  // namespace cw::compare
