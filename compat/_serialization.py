"""torch.save and torch.load in PyTorch's own file format, so files move both ways between
compat and PyTorch.

The format: a zip archive (stored, not compressed) whose records sit under one folder:
``data.pkl``, a protocol-2 pickle of the saved object in which each tensor is a call of
``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)``
(an nn.Parameter a call of ``torch._utils._rebuild_parameter(tensor, requires_grad,
hooks)``, which loads as an nn.Parameter) and each storage a persistent id ``('storage', torch.FloatStorage, key, 'cpu', numel)``;
``data/<key>``, each storage's raw little-endian bytes (aligned to 64 bytes); and the
small records ``byteorder``, ``version``, ``.format_version`` and ``.storage_alignment``.
Tensors that share memory share one storage, in the file and after loading.

Loading is restricted by default, as in PyTorch 2.x (``weights_only=True``): the pickle may
name only tensors, storages, dtypes, sizes, ordered dicts and plain Python containers and
numbers; anything else is refused before it is constructed.
"""
import collections
import io
import os
import pickle
import zipfile

import numpy as np

from . import _device, _dtypes
from ._layout import StorageMemory, memory_owner, window
from ._tensor import Size, Tensor, make
from .nn.parameter import Parameter

_ALIGNMENT = 64
_STORAGE_NAMES = {
    "float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
    "int64": "LongStorage", "int32": "IntStorage", "int16": "ShortStorage",
    "int8": "CharStorage", "uint8": "ByteStorage", "bool": "BoolStorage",
    "complex64": "ComplexFloatStorage", "complex128": "ComplexDoubleStorage"}
_STORAGE_DTYPES = {name: _dtypes.BY_NAME[dtype] for dtype, name in _STORAGE_NAMES.items()}


class _Global:
    """A name the pickle refers to as ``module name`` (a torch function or class that
    compat does not have under that name)."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle's reduce wants a callable; only PyTorch calls it
        raise TypeError(f"{self.module}.{self.name} is PyTorch's, not compat's")


_REBUILD_TENSOR = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_TORCH_SIZE = _Global("torch", "Size")
_STORAGE_GLOBALS = {name: _Global("torch", name) for name in _STORAGE_NAMES.values()}
_DTYPE_GLOBALS = {d.name: _Global("torch", d.name) for d in _dtypes.ALL}


class _Storages:
    """The storages of the tensors being saved: one per block of memory, by its owner."""

    def __init__(self):
        self.arrays = {}  # key -> the owning array
        self._keys = {}   # id(owning array) -> key

    def place(self, array):
        """(key, offset in elements, the array as stored) of `array`'s memory in a storage:
        the array itself, or a row-major copy of it as its own storage."""
        owner = memory_owner(array)
        if (owner.dtype != array.dtype or not owner.flags.c_contiguous
                or not np.may_share_memory(owner, array)):
            owner = array = np.ascontiguousarray(array)  # its own storage
        key = self._keys.get(id(owner))
        if key is None:
            key = self._keys[id(owner)] = str(len(self.arrays))
            self.arrays[key] = owner
        start = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        return key, start // array.itemsize if array.size else 0, array


class _Pickler(pickle._Pickler):
    """A protocol-2 pickler that writes tensors, dtypes and sizes as PyTorch names them."""

    def __init__(self, file, storages):
        super().__init__(file, protocol=2)
        self._storages = storages

    def save(self, obj, save_persistent_id=True):
        if isinstance(obj, _Global):
            if self.memo.get(id(obj)) is None:
                self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("ascii"))
                self.memoize(obj)
            else:
                self.write(self.get(self.memo[id(obj)][0]))
            return
        if isinstance(obj, _dtypes.dtype):
            return self.save(_DTYPE_GLOBALS[obj.name])
        super().save(obj, save_persistent_id)

    def persistent_id(self, obj):
        if isinstance(obj, _StorageId):
            return ("storage", _STORAGE_GLOBALS[obj.name], obj.key, "cpu", obj.numel)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Parameter):  # as PyTorch pickles one: its data, then the wrapper
            return _REBUILD_PARAMETER, (make(obj._data), obj.requires_grad,
                                        collections.OrderedDict())
        if isinstance(obj, Tensor):
            return self._tensor(obj)
        if isinstance(obj, Size):
            return _TORCH_SIZE, (tuple(obj),)
        return NotImplemented

    def _tensor(self, t):
        key, offset, array = self._storages.place(t._data)
        owner = self._storages.arrays[key]
        storage = _StorageId(_STORAGE_NAMES[array.dtype.name], key, owner.size)
        stride = tuple(step // array.itemsize for step in array.strides)
        return _REBUILD_TENSOR, (storage, offset, tuple(array.shape), stride,
                                 t.requires_grad, collections.OrderedDict())


class _StorageId:
    __slots__ = ("name", "key", "numel")

    def __init__(self, name, key, numel):
        self.name, self.key, self.numel = name, key, numel


def _folder(f):
    """The archive's folder name: the file's name without its extension, as PyTorch."""
    if isinstance(f, (str, os.PathLike)):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def _padded(archive, name, data):
    """Write record `name` so that its data starts at a multiple of the alignment."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    header = archive.fp.tell() + 30 + len(name.encode())
    padding = (-(header + 4)) % _ALIGNMENT
    info.extra = b"FB" + padding.to_bytes(2, "little") + b"Z" * padding
    archive.writestr(info, data, compress_type=zipfile.ZIP_STORED)


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write `obj` (tensors, dicts and lists of them, numbers, strings) to the path or
    binary file `f` in PyTorch's format; PyTorch's torch.load reads it."""
    if pickle_module is not None or pickle_protocol != 2 or not _use_new_zipfile_serialization:
        raise NotImplementedError("compat.save writes PyTorch's zip format with pickle "
                                  "protocol 2 only")
    storages = _Storages()
    buffer = io.BytesIO()
    _Pickler(buffer, storages).dump(obj)
    folder = _folder(f)
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as archive:
        _padded(archive, f"{folder}/data.pkl", buffer.getvalue())
        _padded(archive, f"{folder}/.format_version", b"1")
        _padded(archive, f"{folder}/.storage_alignment", str(_ALIGNMENT).encode())
        _padded(archive, f"{folder}/byteorder", b"little")
        for key, array in storages.arrays.items():
            little = array.astype(array.dtype.newbyteorder("<"), copy=False)
            _padded(archive, f"{folder}/data/{key}", little.tobytes())
        _padded(archive, f"{folder}/version", b"3")


# ---- loading -------------------------------------------------------------------------------


def _rebuild_tensor(storage, offset, size, stride, requires_grad, hooks, *extra):
    """A tensor over its part of `storage`, which it keeps as its storage (its
    storage_offset() counts from the storage's first element, as PyTorch's)."""
    t = make(window(storage.view(StorageMemory), size, stride, offset))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, hooks, *extra):
    """An nn.Parameter, sharing the loaded tensor's storage (as torch.load gives it)."""
    return Parameter(data, requires_grad)


_ALLOWED = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch", "Size"): Size,
    ("collections", "OrderedDict"): collections.OrderedDict,
    **{("torch", name): ("storage", d) for name, d in _STORAGE_DTYPES.items()},
    **{("torch", d.name): d for d in _dtypes.ALL},
}


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, archive, folder, weights_only):
        super().__init__(file)
        self._archive, self._folder = archive, folder
        self._weights_only = weights_only
        self._loaded = {}

    def find_class(self, module, name):
        found = _ALLOWED.get((module, name))
        if found is not None:
            return found
        if self._weights_only or module.split(".")[0] == "torch":
            raise pickle.UnpicklingError(
                f"Weights only load failed: the file names {module}.{name}, which "
                f"weights_only loading does not allow (it allows tensors, dtypes, sizes, "
                f"dicts, lists and numbers). Load with weights_only=False only if you trust "
                f"the file's source.")
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, storage_type, key, location, numel = pid
        if kind != "storage" or not (isinstance(storage_type, tuple) and
                                     storage_type[0] == "storage"):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r} in the file")
        _device.check(location if isinstance(location, str) else None)
        if key not in self._loaded:
            raw = self._archive.read(f"{self._folder}/data/{key}")
            dtype = storage_type[1].numpy.newbyteorder("<")
            self._loaded[key] = np.frombuffer(raw, dtype).astype(dtype.newbyteorder("="))
        return self._loaded[key]


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Read what torch.save (PyTorch's or compat's) wrote to the path or file `f`. Only
    tensors, containers and numbers are loaded unless weights_only=False."""
    if map_location is not None:
        _device.check(map_location if not callable(map_location) else None)
    if not zipfile.is_zipfile(f):
        raise RuntimeError("compat.load reads PyTorch's zip format (torch.save since 1.6); "
                           "this file is not a zip archive")
    if hasattr(f, "seek"):
        f.seek(0)
    with zipfile.ZipFile(f) as archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl")]
        if len(pickles) != 1:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not "
                               "found")
        folder = pickles[0][:-len("/data.pkl")]
        with archive.open(pickles[0]) as data:
            return _Unpickler(io.BytesIO(data.read()), archive, folder, weights_only).load()


__all__ = ["save", "load"]
