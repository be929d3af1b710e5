"""parametrizations.orthogonal: a matrix (or batch of matrices) kept with orthonormal columns
(rows, if it is wide), as the image of an unconstrained matrix under the matrix exponential,
the Cayley map or a product of Householder reflectors. With the "dynamic trivialization"
(the default) the map's result multiplies a stored orthogonal ``base``, and assigning an
orthogonal matrix makes it the base."""
from enum import Enum, auto

from ... import _factories, _ops, linalg
from ..._info import finfo
from ..._grad_mode import no_grad
from ..._random.api import randn
from ..._tensor import Tensor
from ..module import Module
from . import parametrize


def _is_orthogonal(Q):
    """Whether Q^H Q is the identity, to a tolerance that grows with Q's height."""
    n, k = Q.size(-2), Q.size(-1)
    identity = _factories.eye(k, dtype=Q.dtype)
    return _ops.allclose(Q.mH @ Q, identity, atol=10.0 * n * finfo(Q.dtype).eps)


def _make_orthogonal(A):
    """The Q of A = QR (A tall) with R's diagonal real and non-negative."""
    X, tau = A.geqrf()
    Q = linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """The orthogonal matrix of the shape of `weight` given by `orthogonal_map` (an
    _OrthMaps) of the unconstrained matrix, times the buffer ``base`` if
    `use_trivialization`."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        # A complex matrix has more degrees of freedom than its reflectors' vectors hold.
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        transposed = X.size(-2) < X.size(-1)
        if transposed:
            X = X.mT
        if self.orthogonal_map == _OrthMaps.householder:
            Q = _householder(X)
        else:
            Q = self._exponential_or_cayley(X)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def _exponential_or_cayley(self, X):
        """The map of the skew-symmetric (skew-Hermitian) matrix made from the lower
        triangle of the tall X, completed to a square; its first columns."""
        n, k = X.size(-2), X.size(-1)
        X = X.tril()
        if n != k:
            padding = X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)
            X = _ops.cat([X, padding], dim=-1)
        A = X - X.mH
        if self.orthogonal_map == _OrthMaps.matrix_exp:
            Q = A.matrix_exp()
        else:  # the Cayley retraction (I + A/2)(I - A/2)^-1
            identity = _factories.eye(n, dtype=A.dtype)
            Q = linalg.solve(_ops.add(identity, A, alpha=-0.5), _ops.add(identity, A, alpha=0.5))
        return Q[..., :k] if n != k else Q

    def right_inverse(self, Q):
        """The unconstrained matrix giving Q: with the trivialization, Q (made orthogonal)
        becomes the base and the unconstrained matrix is -I; without it, Householder
        reflectors of Q (not possible for the other maps)."""
        with no_grad():
            if Q.shape != self.shape:
                raise ValueError(f"Expected a matrix or batch of matrices of shape "
                                 f"{self.shape}. Got a tensor of shape {Q.shape}.")
            unconstrained = Q
            transpose = Q.size(-2) < Q.size(-1)
            if transpose:
                Q = Q.mT
            if not hasattr(self, "base"):
                if self.orthogonal_map != _OrthMaps.householder:
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential or the "
                        "Cayley parametrizations when use_trivialization=False.")
                A = _reflectors(Q)
                return A.mT if transpose else A
            self.base = _completed_orthogonal(Q)
            # -I: the Householder map of its lower triangle is the identity (its diagonal
            # holds the signs), the exponential and Cayley maps of 0 too.
            negative_identity = _factories.zeros_like(unconstrained)
            negative_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return negative_identity


def _householder(X):
    """The product of the reflectors below X's diagonal (scaled so that each is one),
    its columns signed by X's diagonal (a cast: not differentiated)."""
    A = X.tril(diagonal=-1)
    tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
    Q = linalg.householder_product(A, tau)
    return Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)


def _reflectors(Q):
    """QR reflectors of the tall Q with the diagonal holding the signs of R's diagonal
    (flipped where LAPACK skipped the reflection), so that `_householder` gives Q back."""
    A, tau = Q.geqrf()
    A.diagonal(dim1=-2, dim2=-1).sign_()
    A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
    return A


def _completed_orthogonal(Q):
    """The tall Q as a square orthogonal matrix: kept (a copy) if square and orthogonal,
    else orthogonalized, after columns drawn from a normal distribution if not square."""
    n, k = Q.size(-2), Q.size(-1)
    if n == k:
        return Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
    extra = randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
    return _make_orthogonal(_ops.cat([Q, extra], dim=-1))


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Parametrize ``module.<name>`` (a matrix or batch of matrices) as orthogonal
    (unitary): `orthogonal_map` "matrix_exp", "cayley" or "householder" (by default
    "matrix_exp" for a square or complex matrix, else "householder"). Returns `module`."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.size(-2) == weight.size(-1)
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    orthogonal_enum = _OrthMaps.__members__.get(orthogonal_map)
    if orthogonal_enum is None:
        raise ValueError(f'orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    parametrization = _Orthogonal(weight, orthogonal_enum,
                                  use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, parametrization, unsafe=True)
    return module
