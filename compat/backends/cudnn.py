"""torch.backends.cudnn of a build without CUDA: the flags scripts set for reproducibility
exist and change nothing."""

enabled = True
deterministic = False
benchmark = False


def is_available():
    return False
