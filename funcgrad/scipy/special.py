"""funcgrad.scipy.special (being filled in, see issue 3)."""

__all__ = []
