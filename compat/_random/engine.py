"""PyTorch's CPU random engine: a 32-bit Mersenne Twister (mt19937) with PyTorch's seeding
and its (left, next) bookkeeping of the 624-word state.

Seeding is Matsumoto and Nishimura's init_genrand on the low 32 bits of a 64-bit seed.
The twist and the tempering are the standard mt19937 recurrence, which NumPy's MT19937 bit
generator computes in C: the engine keeps its state there and asks it for many words at
once (1e6 words in a few ms; a NumPy-vectorised twist needs ten calls per 624 words and is
about ten times slower). NumPy's bit generator is only the word source: its seeding,
SeedSequence, is never used.
"""
import numpy as np

STATE_WORDS = 624
_MULTIPLIER = 1812433253
_WORD = 0xFFFFFFFF


def _init_genrand(seed):
    """The 624 state words init_genrand makes from the low 32 bits of `seed`."""
    words = [0] * STATE_WORDS
    word = words[0] = seed & _WORD
    for j in range(1, STATE_WORDS):
        word = words[j] = (_MULTIPLIER * (word ^ (word >> 30)) + j) & _WORD
    return np.array(words, np.uint32)


class MT19937:
    """PyTorch's at::mt19937: 32-bit draws, state as PyTorch's get_rng_state reports it.

    The position of the next word follows NumPy's convention (`_pos`, 624 = twist first);
    PyTorch's `left` and `next` are derived from it. A freshly seeded engine reports
    left = 1, next = 0 as PyTorch does (it twists on its first draw either way).
    """

    __slots__ = ("seed", "_bits", "_pos", "_idle_next")

    def __init__(self, seed):
        self._bits = np.random.MT19937()
        self.reseed(seed)

    def reseed(self, seed):
        """Start over from `seed` (an int in [0, 2**64))."""
        self.seed = seed
        self._load(_init_genrand(seed), STATE_WORDS)
        self._idle_next = 0

    def _load(self, words, pos):
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": words, "pos": pos}}
        self._pos = pos

    def words(self, count):
        """The next `count` 32-bit outputs, as a uint64 array."""
        if count <= 0:
            return np.empty(0, np.uint64)
        pos = self._pos + count
        if pos > STATE_WORDS:
            pos = (pos - STATE_WORDS - 1) % STATE_WORDS + 1
        self._pos = pos
        self._idle_next = None
        return self._bits.random_raw(count)

    def words64(self, count):
        """`count` 64-bit values, each made of two consecutive draws (the first is the high
        half), as PyTorch's random64() makes them."""
        pairs = self.words(2 * count).reshape(count, 2)
        return (pairs[:, 0] << np.uint64(32)) | pairs[:, 1]

    # ---- PyTorch's view of the state ----------------------------------------------------

    def torch_state(self):
        """(seed, left, next, 624 state words) as PyTorch's mt19937_data_pod holds them."""
        words = self._bits.state["state"]["key"].copy()
        pos = self._pos
        if pos == STATE_WORDS:
            nxt = self._idle_next if self._idle_next is not None else STATE_WORDS
            return self.seed, 1, nxt, words
        return self.seed, STATE_WORDS + 1 - pos, pos, words

    def set_torch_state(self, seed, left, nxt, words):
        """Load a state PyTorch reported (`left` and `next` as its get_rng_state has them);
        raises for states PyTorch's own generator cannot have produced."""
        if not (0 < left <= STATE_WORDS and 0 <= nxt <= STATE_WORDS):
            raise RuntimeError("Invalid mt19937 state")
        if left == 1:
            pos, idle_next = STATE_WORDS, nxt
        elif left + nxt == STATE_WORDS + 1:
            pos, idle_next = nxt, None
        else:
            raise RuntimeError(
                f"Invalid mt19937 state: left={left} and next={nxt} must add up to "
                f"{STATE_WORDS + 1} (PyTorch's generator never reports other states)")
        self.seed = seed
        self._load(np.asarray(words, np.uint64).astype(np.uint32), pos)
        self._idle_next = idle_next

    def copy(self):
        twin = MT19937.__new__(MT19937)
        twin._bits = np.random.MT19937()
        twin._bits.state = self._bits.state
        twin.seed, twin._pos, twin._idle_next = self.seed, self._pos, self._idle_next
        return twin
