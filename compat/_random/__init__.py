"""PyTorch's CPU random streams: the same values as torch after the same seed.

engine (mt19937 with PyTorch's seeding and state) -> generator (torch.Generator, the
default generator, get/set_rng_state) -> continuous, discrete, counts (each distribution's
draws and transform, as PyTorch's kernels do them; exact and avx2_math repeat the kernels'
floating-point steps) -> api (torch's functions and Tensor methods on compat tensors).
"""
from .api import (bernoulli, binomial, install_tensor_methods, multinomial, normal, poisson,
                  rand, rand_like, randint, randint_like, randn, randn_like, randperm)
from .generator import (Generator, default_generator, get_rng_state, initial_seed,
                        manual_seed, seed, set_rng_state)

__all__ = ["Generator", "bernoulli", "binomial", "default_generator", "get_rng_state",
           "initial_seed", "install_tensor_methods", "manual_seed", "multinomial", "normal",
           "poisson", "rand", "rand_like", "randint", "randint_like", "randn", "randn_like",
           "randperm", "seed", "set_rng_state"]
