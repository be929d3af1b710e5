"""What the Dask tests share: a record of the computes a block of code starts."""
import contextlib

from dask.callbacks import Callback


@contextlib.contextmanager
def counting_computes():
    """A list that receives one entry (the number of tasks) per Dask computation the block
    starts on a local scheduler, so a test can assert that tracing stayed lazy."""
    started = []
    with Callback(start=lambda dsk: started.append(len(dsk))):
        yield started
