"""jit: trace a function once per signature, then replay its program as generated Python.

    fast_grad = fg.jit(fg.grad(loss))
    fast_grad(w, x)       # traces loss and its gradient
    fast_grad(w2, x2)     # same shapes and dtypes: replays the program
    print(fast_grad.lower(w, x).as_text())   # the optimized program, as Python

A signature is the arguments' pytree structure, each leaf's type, shape and dtype (Python
numbers are weakly typed: any float is one signature), and the static arguments' values.
The first call of a signature runs the function under a `StagingTrace`, on the real
values, so every rule runs as it does eagerly. Replays run in two tiers (`_Staged`):
first the recorded `Graph` as traced, by an `Interpreter`; once that has taken as long
as compiling is estimated to, the graph goes through the `passes` and becomes a compiled
`Program`. Where the function turned a staged value into a Python
value, the program holds a guard; a run whose guard fails re-traces, and keeps up to
`cache_size` programs per signature, after which the function runs eagerly with one
warning naming the line whose value keeps changing (DESIGN.md, decision 14).

Called on values another transform traces (``grad(jit(f))``, jit inside jit), or when
the function reads a value an enclosing transform traces, jit runs the function inline:
the enclosing transform records it as it would without jit.
"""
import functools
import inspect
import operator
import time
import warnings

import numpy as np

from ..core import Box, has_memory, is_array, instruments, new_trace
from ..tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten
from ._ownership import Owners
from .codegen import Program
from .graph import Graph, GraphBox, Var, argument_names, positional_parameters
from .interpret import Interpreter
from .passes import allocates, optimize
from .staging import CapturedValue, GuardFailed, StagingTrace, guard_p

__all__ = ["JitRecompileWarning", "Lowered", "jit"]


class JitRecompileWarning(UserWarning):
    """A jitted function re-traced `cache_size` times for one signature."""


_SCALAR_TYPES = (bool, int, float, complex)
_shape_and_dtype = operator.attrgetter("shape", "dtype")


def _array_signature(args):
    """The types, shapes and dtypes of `args` (arrays), made without a Python loop: what
    the fast path compares (see `Jitted.__call__`). AttributeError for a number."""
    return tuple(map(type, args)), tuple(map(_shape_and_dtype, args))


def _leaf_key(leaf):
    """What a signature records of an argument: type, shape and dtype (just the type for a
    Python number, which is weakly typed)."""
    try:
        return type(leaf), leaf.shape, leaf.dtype
    except AttributeError:
        return type(leaf)


class Lowered:
    """The program jit runs for one set of arguments: ``as_text()`` is its Python source,
    `graph` the optimized Graph it was generated from (``str(graph)`` prints it)."""

    def __init__(self, program):
        self.program = program
        self.graph = program.graph

    def as_text(self):
        return self.program.text

    def __str__(self):
        return self.program.text


# Optimizing, generating and compiling a program costs about this much per equation
# (thread time on the benchmarks' machine, docs/jit.md "Tiers"): 14 µs for the 6,000
# equations of benchmarks.jit's chain, 32 µs for the 16 of the seed network's step (whose
# interpreted run, 0.3-0.4 ms, pays for that in one call).
COMPILE_SECONDS_PER_EQUATION = 15e-6


class _Staged:
    """One traced program, run in two tiers. Its first replays run the graph as traced,
    through an `Interpreter`; once they have taken as long as optimizing and compiling it
    is estimated to take (COMPILE_SECONDS_PER_EQUATION per equation), the next replay
    runs the passes and compiles it, and it and later ones run the compiled function.
    That is the ski-rental rule: a program replayed a few times never pays for compiling,
    and one replayed often pays at most twice what compiling it at once would have cost.
    A signature traced once and never replayed pays neither."""

    __slots__ = ("graph", "name", "out_tree", "program", "run", "unowned", "constants",
                 "build", "donated", "numpy_only", "jitted", "interpreter",
                 "interpreted_seconds", "guarded", "no_shortcut")

    def __init__(self, graph, name, out_tree, donated=(), numpy_only=True, jitted=None):
        self.graph = graph
        self.numpy_only = numpy_only  # whether buffers may be reused (see _stage)
        self.donated = donated  # positions of the inputs donated (donate_argnums)
        self.name = name
        self.out_tree = out_tree
        self.build = out_tree.unflattener()  # the results' pytree from the flat outputs
        self.jitted = jitted  # whose compile_count counts this program's compilation
        self.program = self.interpreter = None
        self.interpreted_seconds = 0.0
        self.run = self._interpret
        # Outputs that are constants are copied for the caller.
        self.constants = [atom.value for atom in graph.outputs if not isinstance(atom, Var)]
        self.unowned = ()
        self.guarded = None  # whether the graph has guards: see has_guards
        self.no_shortcut = False  # found unfit for Jitted's fast path (_fast_path_fits)

    def lower(self):
        if self.program is None:
            # A program with guards may fail one after writing into a donated array, and
            # the function is then traced again on its arguments: no donation then.
            donated = () if self.has_guards() else {self.graph.inputs[i] for i in self.donated}
            self.program = Program(optimize(self.graph, donated, self.numpy_only), self.name)
            graph = self.program.graph
            self.unowned = _unowned(graph)
            # Only donated inputs the program writes into need checking on each run.
            overwritten = {eq.overwrites for eq in graph.equations}
            self.donated = tuple(i for i in self.donated if graph.inputs[i] in overwritten)
        return self.program

    def has_guards(self):
        """Whether the traced graph has guards (found once, when first asked: not while
        tracing, whose first call it would slow)."""
        if self.guarded is None:
            self.guarded = any(eq.primitive is guard_p for eq in self.graph.equations)
        return self.guarded

    def usable(self, leaves):
        """`leaves`, with a private copy of each donated array the program writes into
        that cannot be given up: read-only, or sharing memory with another argument
        (memory bounds that overlap: an exact test can take exponential time)."""
        leaves = list(leaves)
        for i in self.donated:
            leaf = leaves[i]
            if not leaf.flags.writeable or any(
                    np.may_share_memory(leaf, other) for j, other in enumerate(leaves)
                    if j != i and isinstance(other, np.ndarray)):
                leaves[i] = leaf.copy()
        return leaves

    def shares_memory(self, outs):
        """Whether an output of this run may share memory (an unowned one is an array:
        a reduction's NumPy scalar is not)."""
        for i in self.unowned:  # (a loop: no generator to make on every run)
            if has_memory(outs[i]):
                return True
        return False

    def _interpret(self, *inputs):
        if self.interpreted_seconds >= COMPILE_SECONDS_PER_EQUATION * len(self.graph.equations):
            return self._compile(*inputs)
        start = _clock()
        if self.interpreter is None:
            self.interpreter = Interpreter(self.graph)
            self.unowned = _unowned(self.graph)
        try:
            outs = self.interpreter(*inputs)
        except GuardFailed as failure:
            failure.graph = self.graph  # (its index is into the traced graph)
            raise
        self.interpreted_seconds += _clock() - start
        return outs

    def _compile(self, *inputs):
        self.run = self.lower().function()
        self.interpreter = None
        if self.jitted is not None:
            self.jitted.compile_count += 1
        return self.run(*inputs)

    def owners(self, leaves):
        """What the caller's results must not share memory with."""
        return Owners(leaves, self.constants)


def _unowned(graph):
    """The positions of the outputs that may share memory with an input, a constant or
    another output (a view, the input itself), checked on each run. An output made by an
    allocating equation is memory of this run's (buffer reuse writes into an output only
    a dead intermediate's memory, of which no view was taken)."""
    fresh = {eq.outputs[0] for eq in graph.equations if allocates(eq)}
    return tuple(i for i, atom in enumerate(graph.outputs)
                 if atom not in fresh or atom in graph.outputs[:i])


_clock = time.perf_counter  # what interpreted runs are timed by (tests replace it)


class _Entry:
    """The programs of one signature, tried in order, and whether it has gone eager."""

    __slots__ = ("programs", "eager")

    def __init__(self):
        self.programs = []
        self.eager = False


class Jitted:
    """A jitted function (see `jit`)."""

    def __init__(self, fun, static_argnums, static_argnames, donate_argnums, cache_size):
        # First, so that attributes copied from `fun` (a wrapper's, say) are overwritten.
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.static_argnums, self.static_argnames = _static_arguments(
            fun, static_argnums, static_argnames)
        self._static_from_end = any(i < 0 for i in self.static_argnums)
        self.donate_argnums = _indices(donate_argnums, "donate_argnums", from_end=True)
        _check_argument_choices(self, static_argnames)
        _warn_negative_donations(self)
        self.cache_size = cache_size
        self.trace_count = 0  # how many times the function was traced
        self.compile_count = 0  # how many of its programs were compiled (tiers: see _Staged)
        self._cache = {}
        self._fast = None  # (an _array_signature, its program): see __call__ (one, at most)

    # ---- calling ---------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if instruments.pull is not None:  # NaN checks watch every value: run eagerly
            return self.fun(*args, **kwargs)
        fast = self._fast
        if fast is not None and not kwargs:
            # The first program replayed that fits (_fast_path_fits): arguments of its
            # types, shapes and dtypes have its signature (each a NumPy array, a leaf of
            # a flat tuple), so they run it without flattening or the cache's lookup.
            signature, staged = fast
            try:
                same = _array_signature(args) == signature
            except AttributeError:  # a number, a container: the general path
                same = False
            if same:
                outs = staged.run(*args)
                if staged.unowned and staged.shares_memory(outs):
                    outs = staged.owners(args).claim_all(outs)
                return staged.build(outs)
        if self.static_argnums or kwargs:
            dynamic, statics = self._split(args, kwargs)
        else:
            dynamic, statics = args, ()
        leaves, tree = tree_flatten(dynamic)
        try:  # the signature: (tree, statics, each leaf's key), one flat tuple
            try:  # arrays only (the common case): no call per leaf
                key = (tree, statics, *[(type(leaf), leaf.shape, leaf.dtype) for leaf in leaves])
            except AttributeError:  # Python numbers among them
                key = (tree, statics, *[_leaf_key(leaf) for leaf in leaves])
            entry = self._cache.get(key)
        except TypeError:
            raise self._unhashable(args, kwargs) from None
        if entry is None:
            if any(isinstance(leaf, Box) for leaf in leaves):
                return self.fun(*args, **kwargs)  # traced by an enclosing transform: inline
            entry = self._cache[key] = _Entry()
        elif entry.eager:
            return self.fun(*args, **kwargs)
        failed = None
        for staged in entry.programs:
            try:
                if staged.donated:
                    outs = staged.run(*staged.usable(leaves))
                else:
                    outs = staged.run(*leaves)
            except GuardFailed as failure:
                graph = staged.program.graph if failure.graph is None else failure.graph
                failed = graph.equations[failure.index]
                continue
            if staged.unowned and staged.shares_memory(outs):
                outs = staged.owners(leaves).claim_all(outs)
            if self._fast is None and not staged.no_shortcut:
                if _fast_path_fits(self, staged, args, kwargs, leaves):
                    self._fast = (_array_signature(args), staged)
                elif not staged.donated or staged.program is not None:
                    # Unfit for good (each reason is fixed with the signature), unless
                    # compiling may yet find the donations unused: no need to ask again.
                    staged.no_shortcut = True
            return staged.build(outs)
        if len(entry.programs) >= self.cache_size:
            entry.eager = True
            self._warn_recompiles(failed)
            return self.fun(*args, **kwargs)
        try:
            staged, out = self._stage(args, kwargs, leaves, tree)
        except BaseException as error:
            # No signature without a program stays cached: an error (or Ctrl-C) while
            # tracing leaves the cache as it was before the call.
            if not entry.programs:  # (another thread's failed trace may have removed it)
                self._cache.pop(key, None)
            if isinstance(error, CapturedValue):  # an enclosing transform's value: inline
                return self.fun(*args, **kwargs)
            raise
        entry.programs.append(staged)
        return out

    def __get__(self, instance, owner=None):
        """As a method, bound to its instance (the first argument), as functions are."""
        return self if instance is None else functools.partial(self, instance)

    def _static_positions(self, count):
        """The static positions of a call with ``count`` positional arguments: a negative
        static_argnum counts from the end of the call's, as in JAX."""
        if not self._static_from_end:
            return self.static_argnums
        beyond = sorted(i for i in self.static_argnums if i < -count)
        if beyond:  # as JAX: the argument it means was not passed positionally
            raise ValueError(f"funcgrad.jit({_name(self)}): static_argnums {beyond} count from "
                             f"the end of the positional arguments, but this call has {count}; "
                             f"pass that argument positionally.")
        return frozenset(i if i >= 0 else count + i for i in self.static_argnums)

    def _split(self, args, kwargs):
        """(the dynamic arguments as a pytree, the static values as a hashable tuple)."""
        static_nums = self._static_positions(len(args))
        static_names = self.static_argnames
        dynamic_args = tuple(arg for i, arg in enumerate(args) if i not in static_nums)
        dynamic_kwargs = {name: value for name, value in kwargs.items()
                          if name not in static_names}
        # Each value's type too, as in JAX: 2, 2.0 and True are equal but may trace apart.
        statics = (tuple((i, type(args[i]), args[i]) for i in static_nums if i < len(args)),
                   tuple(sorted((name, type(value), value) for name, value in kwargs.items()
                                if name in static_names)))
        return (dynamic_args, dynamic_kwargs) if kwargs else dynamic_args, statics

    def _merge(self, dynamic, args, kwargs):
        """The call's arguments with the dynamic ones replaced by `dynamic` (staged)."""
        if not (self.static_argnums or kwargs):
            return dynamic, {}
        dynamic_args, dynamic_kwargs = dynamic if kwargs else (dynamic, {})
        dynamic_args = iter(dynamic_args)
        static_nums = self._static_positions(len(args))
        merged_args = [arg if i in static_nums else next(dynamic_args)
                       for i, arg in enumerate(args)]
        merged_kwargs = {name: dynamic_kwargs.get(name, value) for name, value in kwargs.items()}
        return merged_args, merged_kwargs

    # ---- tracing ---------------------------------------------------------------------

    def _stage(self, args, kwargs, leaves, tree):
        """Trace the function on these arguments: (its _Staged program, its result)."""
        _check_leaves(leaves, tree)
        self.trace_count += 1
        dynamic = tree_unflatten(tree, leaves)
        if self.static_argnums or kwargs:
            names = ["args" + keystr(path) for path, _ in tree_flatten_with_path(dynamic)[0]]
        else:
            names = argument_names(self.fun, dynamic)
        # Arguments modified through another reference than the staged one (a global
        # that is also an argument) are found by comparing their bytes after tracing.
        before = [leaf.tobytes() if isinstance(leaf, np.ndarray) else None for leaf in leaves]
        # Traced and replayed under the caller's floating-point settings, as eager code
        # runs (a transform inside, such as grad, quiets its own equations: see staging).
        with new_trace(StagingTrace) as trace:
            inputs = [trace.new_var(leaf) for leaf in leaves]
            trace.input_names = {var.index: name for var, name in zip(inputs, names)}
            boxes = [trace.watch(leaf, var) for leaf, var in zip(leaves, inputs)]
            call_args, call_kwargs = self._merge(tree_unflatten(tree, boxes), args, kwargs)
            out = self.fun(*call_args, **call_kwargs)
        for name, leaf, bits in zip(names, leaves, before):
            if bits is not None and leaf.tobytes() != bits:
                raise _mutated_error(self, repr(name))
        with_paths, out_tree = tree_flatten_with_path(out)
        outputs, values = [], []
        for path, leaf in with_paths:
            if isinstance(leaf, GraphBox) and leaf._trace is trace:
                outputs.append(leaf.var)
                values.append(leaf.value)
            else:
                outputs.append(trace.constant(_checked_output(leaf, path, self), leaf))
                values.append(leaf)
        output_names = ["out" + keystr(path) for path, _ in with_paths]
        graph = Graph(inputs, names, trace.equations,
                      [const for _, const in trace.constants.values()], outputs,
                      output_names, tree, out_tree, None)
        # out= writes into NumPy buffers only: a program over another library's arrays
        # (inputs or captured constants) reuses none and takes no donations.
        numpy_only = not any(_other_library(value) for value in
                             [*leaves, *(const.value for const in graph.constants)])
        staged = _Staged(graph, getattr(self.fun, "__name__", "program"), out_tree,
                         self._donated_leaves(args) if numpy_only else (), numpy_only, self)
        values = staged.owners(leaves).claim_all(values)
        return staged, tree_unflatten(out_tree, values)

    def _donated_leaves(self, args):
        """The positions, among the flat dynamic leaves, of the donated arguments'."""
        donated, start = [], 0
        static_nums = self._static_positions(len(args))
        for i, arg in enumerate(args):
            if i in static_nums:
                continue
            count = len(tree_flatten(arg)[0])
            if i in self.donate_argnums:
                donated.extend(range(start, start + count))
            start += count
        return tuple(donated)

    def lower(self, *args, **kwargs):
        """The program these arguments would run (traced now, not cached): a `Lowered`,
        whose ``as_text()`` is the generated Python."""
        dynamic, _ = self._split(args, kwargs) if (self.static_argnums or kwargs) else (args, ())
        leaves, tree = tree_flatten(dynamic)
        staged, _ = self._stage(args, kwargs, leaves, tree)
        return Lowered(staged.lower())

    def clear_cache(self):
        """Forget every traced program."""
        self._fast = None
        self._cache.clear()

    # ---- errors ----------------------------------------------------------------------

    def _unhashable(self, args, kwargs):
        for i in self._static_positions(len(args)):
            if i < len(args):
                try:
                    hash(args[i])
                except TypeError:
                    return _unhashable_error(self, f"static argument {i}", args[i])
        for name, value in kwargs.items():
            if name in self.static_argnames:
                try:
                    hash(value)
                except TypeError:
                    return _unhashable_error(self, f"static argument {name!r}", value)
        return TypeError(f"funcgrad.jit({_name(self)}): an argument could not be hashed")

    def _warn_recompiles(self, failed):
        where = (f" each time because the value converted at\n{failed.origin}\nchanged"
                 if failed is not None and failed.origin is not None else "")
        warnings.warn(
            f"funcgrad.jit({_name(self)}): traced {self.cache_size} programs for one "
            f"signature,{where}; it now runs eagerly for these shapes. Make that value a "
            f"static argument (static_argnums), compute without converting it to Python, or "
            f"raise cache_size.", JitRecompileWarning, stacklevel=3)


def _fast_path_fits(jitted, staged, args, kwargs, leaves):
    """Whether `staged`, just replayed for these arguments, can be the fast path's: one
    signature's only program (no guards), that writes into no donated argument, of
    positional NumPy arrays (the leaves of a flat tuple) and no static arguments."""
    return not (kwargs or jitted.static_argnums or staged.donated or staged.has_guards()) and \
        len(leaves) == len(args) and all(type(arg) is np.ndarray for arg in args)


def _name(jitted):
    return getattr(jitted.fun, "__name__", repr(jitted.fun))


def _unhashable_error(jitted, what, value):
    return TypeError(
        f"funcgrad.jit({_name(jitted)}): {what} is a {type(value).__name__}, which is not "
        f"hashable; static arguments are part of the cache key. Pass a hashable value (a "
        f"tuple instead of a list, say), or make the argument dynamic (not static) if it is "
        f"an array.")


def _mutated_error(jitted, what):
    return TypeError(
        f"funcgrad.jit({_name(jitted)}): the function modified its argument {what} in place. "
        f"A jitted function must not modify its arguments: its recorded program is replayed "
        f"on later calls without running that Python code again. Return the new value "
        f"instead (x = x.at[index].set(value)).")


def _is_array_or_number(leaf):
    return (isinstance(leaf, (np.ndarray, np.generic)) or type(leaf) in _SCALAR_TYPES
            or is_array(leaf))


def _other_library(value):
    """Whether `value` is another library's array (Dask's, CuPy's): no buffer reuse then."""
    return type(value) is not np.ndarray and is_array(value)


def _check_leaves(leaves, tree):
    """Dynamic arguments are arrays or numbers; name the first that is not."""
    for path, leaf in tree_flatten_with_path(tree_unflatten(tree, leaves))[0]:
        if not (_is_array_or_number(leaf)):
            raise TypeError(
                f"funcgrad.jit: the argument args{keystr(path)} is a {type(leaf).__name__}, "
                f"but jit traces arrays and numbers only. Mark it static (static_argnums= "
                f"or static_argnames=) if it configures the function.")


def _checked_output(leaf, path, jitted):
    if isinstance(leaf, Box):
        raise TypeError(
            f"funcgrad.jit({_name(jitted)}): the output out{keystr(path)} is a value traced "
            f"by another transform that leaked into the function; return it from that "
            f"transform instead.")
    if not _is_array_or_number(leaf):
        raise TypeError(
            f"funcgrad.jit({_name(jitted)}): the output out{keystr(path)} is a "
            f"{type(leaf).__name__}, but a jitted function must return arrays or numbers "
            f"(in tuples, lists, dicts or other pytrees).")
    return leaf


def _indices(numbers, what, from_end=False):
    """Argument positions as a frozenset; negative ones (counting from the end) only if
    ``from_end``."""
    numbers = (numbers,) if isinstance(numbers, int) else tuple(numbers)
    for number in numbers:
        if type(number) is not int or (number < 0 and not from_end):
            raise TypeError(f"funcgrad.jit: {what} must hold {'' if from_end else 'non-negative '}"
                            f"ints, got {number!r}")
    return frozenset(numbers)


def _static_arguments(fun, static_argnums, static_argnames):
    """(static positions, static names), each completed from the other through `fun`'s
    signature, as in JAX."""
    nums = set(_indices(static_argnums, "static_argnums", from_end=True))
    names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
    positional = positional_parameters(fun)
    nums |= {positional.index(name) for name in names if name in positional}
    names |= {positional[i] for i in nums if 0 <= i < len(positional)}
    return frozenset(nums), frozenset(names)


def _check_argument_choices(jitted, static_argnames):
    """Refuse, as JAX does, static or donated positions and static names that the function
    has no parameter for (a typo would leave the argument silently traced, or not donated),
    and arguments both static and donated. Functions without a signature are not checked."""
    try:
        parameters = list(inspect.signature(jitted.fun).parameters.values())
    except (TypeError, ValueError):
        return
    kinds = {parameter.kind for parameter in parameters}
    name = _name(jitted)
    if inspect.Parameter.VAR_POSITIONAL not in kinds:
        count = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters)
        for what, numbers in (("static_argnums", jitted.static_argnums),
                              ("donate_argnums", jitted.donate_argnums)):
            beyond = sorted(i for i in numbers if not -count <= i < count)
            if beyond:
                raise ValueError(f"funcgrad.jit({name}): {what} includes {beyond}, but {name} "
                                 f"takes {count} positional argument{'s' * (count != 1)}.")
    if inspect.Parameter.VAR_KEYWORD not in kinds:
        known = {p.name for p in parameters if p.kind is not p.VAR_POSITIONAL}
        names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
        unknown = sorted(names - known)
        if unknown:
            raise ValueError(f"funcgrad.jit({name}): static_argnames names {unknown}, but "
                             f"{name} has no such parameter (it has {sorted(known)}).")
    both = sorted(jitted.static_argnums & jitted.donate_argnums)
    if both:
        raise ValueError(f"funcgrad.jit({name}): arguments {both} are both static and donated; "
                         f"only arrays traced by the program can be donated.")


def _warn_negative_donations(jitted):
    """JAX takes a negative donate_argnum (in range) and donates nothing for it: so does
    funcgrad, which says so, since donating would undo what JAX code can count on (the
    array still holds its values after the call)."""
    negative = sorted(i for i in jitted.donate_argnums if i < 0)
    if negative:
        warnings.warn(
            f"funcgrad.jit({_name(jitted)}): donate_argnums {negative} count from the end; as "
            f"in JAX, such a position donates nothing (the argument keeps its values). Give "
            f"the argument's position from the start to donate it.", stacklevel=3)


def jit(fun=None, static_argnums=(), static_argnames=(), donate_argnums=(), cache_size=8):
    """``jit(fun)``: `fun`, traced once per signature and replayed as compiled Python.

    Arguments and results are pytrees of arrays and numbers. `static_argnums` /
    `static_argnames` name arguments that are not traced: their values (which must be
    hashable) are part of the signature. `donate_argnums` names arguments whose arrays
    the caller gives up, as in JAX: the program may write its intermediates and results
    into them (a donated array's contents are undefined after the call); a negative one
    donates nothing, as in JAX (with a warning). `cache_size` is how many
    programs one signature may trace (guards failing) before the function runs eagerly.
    Usable as a decorator, with or without arguments.
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames,
                                 donate_argnums=donate_argnums, cache_size=cache_size)
    return Jitted(fun, static_argnums, static_argnames, donate_argnums, cache_size)
