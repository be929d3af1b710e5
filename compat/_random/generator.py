"""torch.Generator for the CPU: an mt19937 engine plus the normal samples PyTorch caches,
and the default generator with torch's module-level seeding functions."""
import numbers
import os
import threading

import numpy as np

from .._tensor import Tensor, make
from .engine import STATE_WORDS, MT19937

# PyTorch's seed for a Generator made without one (c10's default_rng_seed_val).
DEFAULT_SEED = 67280421310721

# The byte layout of torch.get_rng_state() (CPUGeneratorImplState on x86-64 and arm64):
# the legacy TH generator struct followed by the float normal cache.
STATE_LAYOUT = np.dtype({
    "names": ["seed", "left", "seeded", "next", "words", "normal_x", "normal_y",
              "normal_rho", "normal_is_valid", "float_normal", "float_normal_is_valid"],
    "formats": ["<u8", "<i4", "<i4", "<u8", ("<u8", STATE_WORDS), "<f8", "<f8", "<f8", "<i4",
                "<f4", "u1"],
    "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
    "itemsize": 5056,
})


def nondeterministic_seed():
    """A 64-bit seed from the operating system (torch.seed() and Generator.seed())."""
    return int.from_bytes(os.urandom(8), "little")


def _seed_value(seed):
    """A Python integer seed as PyTorch's generator takes it: negative seeds wrap modulo
    2**64, anything outside [-2**63, 2**64) is an error."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


class Generator:
    """A source of random numbers that draws exactly what torch.Generator draws.

    ``Generator()`` is seeded with PyTorch's default seed; ``manual_seed(s)`` restarts it;
    ``get_state()``/``set_state()`` exchange the same 5056-byte state as torch's CPU
    generator, so a state saved by one library restores in the other.
    """

    __slots__ = ("_engine", "next_double_normal", "next_float_normal", "lock")

    def __init__(self, device="cpu"):
        if str(device).split(":")[0] != "cpu":
            raise RuntimeError(f"compat runs on the CPU only; a {device!r} generator is not "
                               f"available")
        self._engine = MT19937(DEFAULT_SEED)
        self.lock = threading.RLock()  # held for each operation's draws
        # Box-Muller's second value, kept for the next scalar normal draw (None: empty).
        self.next_double_normal = None
        self.next_float_normal = None

    @property
    def device(self):
        return "cpu"

    def manual_seed(self, seed):
        """Restart the stream from `seed` (an int in [-2**63, 2**64)); returns self."""
        self._restart(_seed_value(seed))
        return self

    def seed(self):
        """Restart from a nondeterministic seed and return that seed."""
        seed = nondeterministic_seed()
        self._restart(seed)
        return seed

    def _restart(self, seed):
        with self.lock:
            self._engine.reseed(seed)
            self.next_double_normal = None
            self.next_float_normal = None

    def initial_seed(self):
        """The seed the stream last started from."""
        return self._engine.seed

    def get_state(self):
        """The generator's state as a uint8 tensor of 5056 bytes (torch's layout)."""
        return make(self.state_bytes())

    def set_state(self, new_state):
        """Restore a state from get_state() (of compat or of torch); returns self."""
        if not isinstance(new_state, Tensor) or new_state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        self.load_state_bytes(np.ascontiguousarray(new_state._data).ravel())
        return self

    def clone_state(self):
        """A new generator in this one's state."""
        twin = Generator()
        with self.lock:
            twin._engine = self._engine.copy()
            twin.next_double_normal = self.next_double_normal
            twin.next_float_normal = self.next_float_normal
        return twin

    def get_offset(self):
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset):
        raise RuntimeError("CPU Generator does not use offset")

    def state_bytes(self):
        state = np.zeros((), STATE_LAYOUT)
        with self.lock:
            state["seed"], state["left"], state["next"], state["words"] = (
                self._engine.torch_state())
            double_normal, float_normal = self.next_double_normal, self.next_float_normal
        state["seeded"] = 1
        if double_normal is not None:
            state["normal_is_valid"] = 1
            state["normal_y"] = double_normal
        if float_normal is not None:
            state["float_normal_is_valid"] = 1
            state["float_normal"] = float_normal
        return np.frombuffer(state.tobytes(), np.uint8).copy()

    def load_state_bytes(self, raw):
        if raw.size != STATE_LAYOUT.itemsize:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size "
                               f"{STATE_LAYOUT.itemsize} but found the input RNG state size "
                               f"to be {raw.size}")
        state = np.frombuffer(raw.tobytes(), STATE_LAYOUT)[0]
        if not state["seeded"]:
            raise RuntimeError("Invalid mt19937 state")
        with self.lock:
            self._engine.set_torch_state(int(state["seed"]), int(state["left"]),
                                         int(state["next"]), state["words"])
            self.next_double_normal = (float(state["normal_y"]) if state["normal_is_valid"]
                                       else None)
            self.next_float_normal = (float(state["float_normal"])
                                      if state["float_normal_is_valid"] else None)

    # ---- draws (used by the distributions) ----------------------------------------------

    def words(self, count):
        """`count` 32-bit draws (PyTorch's random()), as uint64."""
        return self._engine.words(count)

    def words64(self, count):
        """`count` 64-bit draws (PyTorch's random64())."""
        return self._engine.words64(count)

    def __repr__(self):
        return f"<compat.Generator object at {id(self):#x}>"


# torch's default CPU generator starts from a nondeterministic seed.
default_generator = Generator()
default_generator.seed()


def generator_or_default(generator, where):
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"{where}(): argument 'generator' must be a compat.Generator, not "
                        f"{type(generator).__name__}")
    return generator


def manual_seed(seed):
    """Seed the default generator with ``int(seed)``, as torch.manual_seed; returns it."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seed the default generator nondeterministically; returns the seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator last started from."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state (a uint8 tensor, torch's layout)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator from a get_rng_state() tensor."""
    default_generator.set_state(new_state)
