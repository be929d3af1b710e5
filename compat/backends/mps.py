"""torch.backends.mps of a build without Metal."""


def is_available():
    return False


def is_built():
    return False
