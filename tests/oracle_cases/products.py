"""Oracle cases: matmul, dot, tensordot, einsum."""
import hypothesis.strategies as st

from oracle import Case, array, dtypes


@st.composite
def matmul_args(draw):
    """Vectors, matrices, and batched stacks with broadcast batch dimensions."""
    m, k, n = (draw(st.integers(1, 3)) for _ in range(3))
    batch = tuple(draw(st.lists(st.integers(1, 2), max_size=2)))
    kinds = draw(st.sampled_from(["vv", "vm", "mv", "mm", "bb", "bm", "mb", "bv"]))
    a_shape = {"v": (k,), "m": (m, k), "b": batch + (m, k)}[kinds[0]]
    b_shape = {"v": (k,), "m": (k, n),
               "b": tuple(1 if draw(st.booleans()) else s for s in batch) + (k, n)}[kinds[1]]
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {}


@st.composite
def dot_args(draw):
    k = draw(st.integers(1, 3))
    a_shape = draw(st.sampled_from([(), (k,), (2, k), (2, 3, k)]))
    b_shape = draw(st.sampled_from([(), (k,), (k, 2), (2, k, 3)]))
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {}


@st.composite
def tensordot_args(draw):
    a_shape = (2, 3, 2)
    b_shape = (3, 2, 2)
    axes = draw(st.sampled_from([0, ((2,), (1,)), ((1,), (0,)), ((1, 2), (0, 1)), ((2, 1), (1, 0)),
                                 ((0,), (2,)), ((-1,), (-2,))]))
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {
        "axes": axes}


_EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 2)]), ("ij,jk", [(2, 3), (3, 2)]), ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(2,), (3,)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("iij->ij", [(2, 2, 3)]), ("ij,ij->ij", [(2, 3), (2, 3)]), ("i...->...", [(2, 3)]),
    ("ji", [(2, 3)]), ("ik,k...->i...", [(2, 3), (3, 1, 2)]),
]


@st.composite
def einsum_args(draw):
    subscripts, arg_shapes = draw(st.sampled_from(_EINSUM))
    return tuple(draw(array(s, draw(dtypes()))) for s in arg_shapes), {
        "subscripts": subscripts}


CASES = [
    Case("matmul", lambda np, a, b: np.matmul(a, b), matmul_args(), order=2),
    Case("matmul_operator", lambda np, a, b: a @ b, matmul_args()),
    Case("dot", lambda np, a, b: np.dot(a, b), dot_args(), order=2),
    Case("tensordot", lambda np, a, b, axes: np.tensordot(a, b, axes), tensordot_args(),
         order=2),
    Case("einsum", lambda np, *ops, subscripts: np.einsum(subscripts, *ops), einsum_args(),
         order=2),
]
