"""Whether operations are recorded: no_grad, enable_grad, set_grad_enabled, inference_mode.

One switch per thread, as PyTorch keeps it: a thread inside ``no_grad`` leaves other
threads recording, and a new thread starts with recording on (whatever the thread that
started it had). Each class works as a context manager, as a decorator (``@no_grad()``),
and, like PyTorch's, also undecorated (``@no_grad``).
"""
import functools
import threading
import weakref

from ._tape import INFERENCE


class _State(threading.local):
    """The calling thread's switches; the class attributes are every new thread's values."""

    enabled = True
    inference = False


STATE = _State()

# The tensors made inside inference_mode (PyTorch's inference tensors): id -> a weak
# reference, the entry dropped with the tensor (a WeakSet would compare tensors, which
# compare elementwise); and the inference_mode blocks open in any thread, so that making a
# tensor outside them costs one check.
_inference_tensors = {}
OPEN_INFERENCE_BLOCKS = [0]


def note_if_inference(t, new_storage):
    """Record `t`, a new tensor, as made in inference mode if it is; its version counter
    too (an inference storage) if it is `new_storage`, not an alias of another's."""
    if STATE.inference:
        key = id(t)
        _inference_tensors[key] = weakref.ref(
            t, lambda _, entries=_inference_tensors: entries.pop(key, None))
        if new_storage:
            t._version_counter[INFERENCE] = True


def is_inference(input):
    """Whether `input` is an inference tensor: its storage was made inside inference_mode
    (views, detach() and .data of such a tensor are inference tensors too)."""
    return INFERENCE in input._version_counter


def made_in_inference_mode(t):
    """Whether tensor `t` itself was made inside inference_mode."""
    ref = _inference_tensors.get(id(t))
    return ref is not None and ref() is t


def refuse_inference_update(t, through_view=False):
    """PyTorch's refusal of an in-place update of an inference tensor, or of a view of one
    (`through_view`: the update writes through a view of t, as an indexed assignment),
    outside inference_mode (a detach() or .data alias made outside it is let through, as
    PyTorch lets it)."""
    if INFERENCE in t._version_counter and not STATE.inference and (
            through_view or t._base is not None or made_in_inference_mode(t)):
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not "
                           "allowed.You can make a clone to get a normal tensor before doing "
                           "inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
                           "details.")


def refuse_saving_inference(version_counter):
    """PyTorch's refusal to save an inference tensor (its `version_counter`) for backward."""
    if INFERENCE in version_counter:
        raise RuntimeError("Inference tensors cannot be saved for backward. Please do not use "
                           "Tensors created in inference mode in computation tracked by "
                           "autograd. To work around this, you can make a clone to get a "
                           "normal tensor and use it in autograd, or use `torch.no_grad()` "
                           "instead of `torch.inference_mode()`.")


def is_grad_enabled():
    """True when operations on tensors that require grad are being recorded."""
    return STATE.enabled


def is_inference_mode_enabled():
    """True inside an ``inference_mode()`` block of the calling thread."""
    return STATE.inference


class _GradMode:
    """Sets recording to `enabled` inside a `with` block or a decorated function."""

    enabled = None

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if func is not None:  # used as a decorator without parentheses
            return self(func)
        return self

    def __init__(self, func=None):
        self._saved = []

    def __enter__(self):
        self._saved.append(STATE.enabled)
        STATE.enabled = self.enabled

    def __exit__(self, *exc_info):
        STATE.enabled = self._saved.pop()

    def __call__(self, func):
        mode = type(self)

        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            with mode():
                return func(*args, **kwargs)
        return run_in_mode


class no_grad(_GradMode):
    """Operations inside do not record history (their results do not require grad)."""

    enabled = False


class enable_grad(_GradMode):
    """Record history again, e.g. inside a no_grad block."""

    enabled = True


class inference_mode(_GradMode):
    """no_grad that also reports is_inference_mode_enabled(); ``inference_mode(False)``
    turns both off, recording back on, as PyTorch's does. (compat does not forbid using
    its results in recorded operations later, as PyTorch's inference tensors do.)"""

    def __new__(cls, mode=True):
        if callable(mode):
            return super().__new__(cls, mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        super().__init__()
        self._mode = bool(mode) if not callable(mode) else True

    def __enter__(self):
        self._saved.append((STATE.enabled, STATE.inference))
        STATE.enabled = not self._mode
        STATE.inference = self._mode
        OPEN_INFERENCE_BLOCKS[0] += 1

    def __exit__(self, *exc_info):
        STATE.enabled, STATE.inference = self._saved.pop()
        OPEN_INFERENCE_BLOCKS[0] -= 1


class set_grad_enabled:
    """Turn recording on or off: at once when called, until the end of a ``with`` block
    when used as one, or around a function when used as a decorator."""

    def __init__(self, mode):
        self.enabled = bool(mode)
        self._previous = STATE.enabled
        STATE.enabled = self.enabled

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        STATE.enabled = self._previous

    def __call__(self, func):
        STATE.enabled = self._previous  # as a decorator it only applies inside func
        enabled = self.enabled

        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            with set_grad_enabled(enabled):
                return func(*args, **kwargs)
        return run_in_mode


__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "is_inference"]
