"""funcgrad.numpy.random: NumPy's random module, whose samplers take ``like=``
(docs/arrays.md). Without another library's ``like`` every sampler is NumPy's, bit for bit;
the other libraries' samples are tested in tests/test_arrays_*.py."""
import inspect

import numpy as np
import pytest

import funcgrad.numpy as fnp
from like_calls import SAMPLERS, draw

# random_integers is deprecated in NumPy; it is still NumPy's, so still wrapped.
pytestmark = pytest.mark.filterwarnings(
    "ignore:This function is deprecated. Please call randint:DeprecationWarning")


def test_every_sampler_takes_like_and_is_called_by_the_tests():
    takes_like = {name for name in fnp.random.__all__
                  if callable(getattr(fnp.random, name)) and not isinstance(
                      getattr(fnp.random, name), type)
                  and "like" in inspect.signature(getattr(fnp.random, name)).parameters}
    assert takes_like == set(SAMPLERS)
    # The rest is NumPy's own: state, in-place shuffle, bytes, generator classes.
    for name in set(np.random.__all__) - takes_like:
        assert getattr(fnp.random, name) is getattr(np.random, name), name


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_without_another_library_the_draws_are_numpys_bit_for_bit(name):
    expected = draw(np.random, name, 7)
    np.testing.assert_array_equal(draw(fnp.random, name, 7), expected)
    np.testing.assert_array_equal(draw(fnp.random, name, 7, like=np.zeros(2)), expected)
    # And the same global stream: NumPy's next draw after ours is NumPy's next draw.
    follow = np.random.random_sample()
    draw(fnp.random, name, 7)
    assert np.random.random_sample() == follow


def test_like_must_be_an_array():
    with pytest.raises(TypeError, match=r"funcgrad\.numpy\.random\.normal: like= must be an "
                                        r"array .* got list"):
        fnp.random.normal(size=3, like=[1.0, 2.0])
