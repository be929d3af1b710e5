"""Functions built on the gamma function: beta, 1/gamma, the sign of gamma, complex-capable
log gamma, Pochhammer's symbol, binomial coefficients, and the zeta functions of Hurwitz
and Riemann."""
import scipy.special as _scipy

from ._core import digamma
from ._rules import elementwise, no_derivative, zero_partial

beta = elementwise(_scipy.beta, "beta",
                   lambda ans, a, b: ans * (digamma(a) - digamma(a + b)),
                   lambda ans, a, b: ans * (digamma(b) - digamma(a + b)))
rgamma = elementwise(_scipy.rgamma, "rgamma", lambda ans, x: -ans * digamma(x))
gammasgn = elementwise(_scipy.gammasgn, "gammasgn", zero_partial)
# On real arguments loggamma is gammaln where Gamma > 0 (and nan elsewhere).
loggamma = elementwise(_scipy.loggamma, "loggamma", lambda ans, x: digamma(x))
poch = elementwise(_scipy.poch, "poch",
                   lambda ans, z, m: ans * (digamma(z + m) - digamma(z)),
                   lambda ans, z, m: ans * digamma(z + m))
binom = elementwise(_scipy.binom, "binom",
                    lambda ans, n, k: ans * (digamma(n + 1.0) - digamma(n - k + 1.0)),
                    lambda ans, n, k: ans * (digamma(n - k + 1.0) - digamma(k + 1.0)))
# d/dq zeta(x, q) = -x zeta(x + 1, q); the derivative in x is a sum of log(n + q) / (n + q)**x
# with no implementation here.
_IN_THE_EXPONENT = no_derivative("zeta", "x",
                                 "the derivative in the exponent has no implementation")
zeta = elementwise(_scipy.zeta, "zeta", _IN_THE_EXPONENT,
                   lambda ans, x, q: -x * zeta(x + 1.0, q))
# Riemann's zeta, zeta(x) with no q: SciPy continues it below x = 1 (zeta(-1) = -1/12),
# where Hurwitz's zeta(x, 1) is NaN.
riemann_zeta = elementwise(_scipy.zeta, "riemann_zeta", _IN_THE_EXPONENT)
