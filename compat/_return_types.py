"""PyTorch's named results, ``torch.return_types.topk(values=..., indices=...)``: tuples
whose items also have names."""
import operator


class ReturnType(tuple):
    """A tuple of an operation's results, each also reachable by its field name."""

    __slots__ = ()
    _name = ""
    _fields = ()

    def __new__(cls, *items):
        return super().__new__(cls, items)

    def __repr__(self):
        items = ",\n".join(f"{field}={item!r}" for field, item in zip(self._fields, self))
        return f"torch.return_types.{self._name}(\n{items})"


def return_type(name, fields=("values", "indices")):
    """The result type of operation `name` with items named `fields`."""
    members = {"__slots__": (), "_name": name, "_fields": tuple(fields)}
    for i, field in enumerate(fields):
        members[field] = property(operator.itemgetter(i))
    return type(name, (ReturnType,), members)


__all__ = ["ReturnType", "return_type"]
