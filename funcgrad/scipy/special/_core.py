"""The primitives behind funcgrad.scipy.special's first functions (gamma, error and
Bessel I functions, logs): values from SciPy's ufuncs, partial derivatives written with
funcgrad functions so that higher derivatives work. Conventions at singular points follow
JAX (``jax.scipy.special``)."""
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ...numpy.elementwise_special import bessel_i1_slope
from ._rules import elementwise, in_precision_of

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_TWO_PI = math.sqrt(2.0 * math.pi)


gammaln = elementwise(_scipy.gammaln, "gammaln", lambda ans, x: digamma(x))
gamma = elementwise(_scipy.gamma, "gamma", lambda ans, x: fnp.multiply(ans, digamma(x)))
digamma = elementwise(_scipy.digamma, "digamma", lambda ans, x: polygamma(1, x))
polygamma = elementwise(in_precision_of(_scipy.polygamma, 1), "polygamma", None,
                        lambda ans, n, x: polygamma(np.add(n, 1), x))
erf = elementwise(_scipy.erf, "erf",
                  lambda ans, x: fnp.multiply(_TWO_OVER_SQRT_PI, fnp.exp(-(x * x))))
erfc = elementwise(_scipy.erfc, "erfc",
                   lambda ans, x: fnp.multiply(-_TWO_OVER_SQRT_PI, fnp.exp(-(x * x))))
erfinv = elementwise(_scipy.erfinv, "erfinv",
                     lambda ans, x: fnp.multiply(0.5 * math.sqrt(math.pi), fnp.exp(ans * ans)))
expit = elementwise(_scipy.expit, "expit", lambda ans, x: ans * (1.0 - ans))
logit = elementwise(_scipy.logit, "logit", lambda ans, x: fnp.divide(1.0, x * (1.0 - x)))
ndtr = elementwise(_scipy.ndtr, "ndtr",
                   lambda ans, x: fnp.exp(-0.5 * (x * x)) / _SQRT_TWO_PI)
ndtri = elementwise(_scipy.ndtri, "ndtri",
                    lambda ans, x: fnp.exp(0.5 * (ans * ans)) * _SQRT_TWO_PI)
# exp(-x**2/2) / ndtr(x) computed as one exponent: finite far into the lower tail.
log_ndtr = elementwise(_scipy.log_ndtr, "log_ndtr",
                       lambda ans, x: fnp.exp(-0.5 * (x * x) - ans) / _SQRT_TWO_PI)
# I0' = I1 and I1' = I0 - I1 / x (not the recurrence through iv: SciPy's iv(1, x) is nan at
# x = 2.2e-308); the exponentially scaled ones add -sign(x) times their own value.
i0 = elementwise(_scipy.i0, "i0", lambda ans, x: i1(x))
i1 = elementwise(_scipy.i1, "i1", lambda ans, x: bessel_i1_slope(i0(x), ans, x))
i0e = elementwise(_scipy.i0e, "i0e", lambda ans, x: i1e(x) - fnp.sign(x) * ans)
i1e = elementwise(
    _scipy.i1e, "i1e",
    lambda ans, x: bessel_i1_slope(i0e(x), ans, x, scaled=True) - fnp.sign(x) * ans)
entr = elementwise(_scipy.entr, "entr", lambda ans, x: -(fnp.log(x) + 1.0))
# JAX's convention: the plain formulas, even where x == 0 makes the value itself 0.
# fnp.divide, not /: the arguments may be Python floats, whose 0.0 / 0.0 raises.
xlogy = elementwise(_scipy.xlogy, "xlogy",
                    lambda ans, x, y: fnp.log(y), lambda ans, x, y: fnp.divide(x, y))
xlog1py = elementwise(_scipy.xlog1py, "xlog1py",
                      lambda ans, x, y: xlog1py(1.0, y), lambda ans, x, y: fnp.divide(x, 1.0 + y))


def _relative_entropy_slopes(x, y):
    """d/dx and d/dy of x log(x / y) where x, y > 0; 0 elsewhere (where the value is the
    constant 0 or inf), as JAX's."""
    inside = fnp.greater(x, 0) & fnp.greater(y, 0)
    safe_x, safe_y = fnp.where(inside, x, 1.0), fnp.where(inside, y, 1.0)
    return (fnp.where(inside, fnp.log(safe_x) - fnp.log(safe_y) + 1.0, 0.0),
            fnp.where(inside, -safe_x / safe_y, 0.0))


rel_entr = elementwise(_scipy.rel_entr, "rel_entr",
                       lambda ans, x, y: _relative_entropy_slopes(x, y)[0],
                       lambda ans, x, y: _relative_entropy_slopes(x, y)[1])
# kl_div = rel_entr - x + y.
kl_div = elementwise(_scipy.kl_div, "kl_div",
                     lambda ans, x, y: _relative_entropy_slopes(x, y)[0] - 1.0,
                     lambda ans, x, y: _relative_entropy_slopes(x, y)[1] + 1.0)
betaln = elementwise(_scipy.betaln, "betaln",
                     lambda ans, a, b: digamma(a) - digamma(a + b),
                     lambda ans, a, b: digamma(b) - digamma(a + b))

