"""The recurrent layers: RNN (tanh or relu), LSTM and GRU over whole sequences, and their
one-step cells RNNCell, LSTMCell and GRUCell, with PyTorch's parameters (names, shapes, gate
order, draws), checks and error texts.

Each time step is composed of compat's differentiable operations, so no derivative is
written here. As PyTorch's CPU kernels do, a layer multiplies the inputs of all time steps
by its input-to-hidden weights in one product before the loop; each step then adds the
hidden-to-hidden product and applies the gates. A cell's state is a tuple: (h,) for RNN and
GRU, (h, c) for LSTM.

A layer given a PackedSequence runs each time step on the sequences that have reached it
(the packed batch shrinks as sequences end), and keeps each sequence's state from its own
last step, as PyTorch's packed kernels do.
"""
import math
import numbers
import warnings
import weakref

from .. import _dtypes, _ops
from .._factories import empty, zeros
from .._record import engine, wrap
from . import functional as F
from . import init
from .layers import _floating
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

# ---- one time step ---------------------------------------------------------------------------


def _hidden_product(h, weights):
    """W_hh h + b_hh, from W_hh transposed (once for all the steps); a state of another
    dtype gets the error of PyTorch's product (torch.nn.functional.linear's)."""
    w_hh_t, b_hh, _ = weights
    if h.dtype is not w_hh_t.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{h.dtype.scalar_name} and {w_hh_t.dtype.scalar_name}")
    product = h.matmul(w_hh_t)
    return product if b_hh is None else product + b_hh


def _tanh_step(input_gates, state, weights):
    """h' = tanh(W_hh h + b_hh + input_gates), input_gates = W_ih x + b_ih."""
    return ((_hidden_product(state[0], weights) + input_gates).tanh(),)


def _relu_step(input_gates, state, weights):
    return ((_hidden_product(state[0], weights) + input_gates).relu(),)


# The gated steps apply one sigmoid to all the gates and take the parts they need: the same
# values as one sigmoid a gate, in fewer operations (each costs microseconds, whatever its
# size).


def _lstm_step(input_gates, state, weights):
    """The gates i, f, g, o (in this order in the weights' rows): c' = f * c + i * g and
    h' = o * tanh(c'), projected by W_hr when the layer has projections."""
    h, c = state
    size = c.shape[1]
    gates = _hidden_product(h, weights) + input_gates
    i, f, _, o = gates.sigmoid().chunk(4, 1)
    c = f * c + i * gates.narrow(1, 2 * size, size).tanh()
    h = o * c.tanh()
    w_hr_t = weights[2]
    return (h if w_hr_t is None else h.matmul(w_hr_t)), c


def _gru_step(input_gates, state, weights):
    """The gates r, z, n (in this order in the weights' rows): r and z from the sums of
    both products, n = tanh(W_in x + b_in + r * (W_hn h + b_hn)), h' = (1 - z) * n + z * h
    (computed as PyTorch computes it, (h - n) * z + n)."""
    (h,) = state
    size = h.shape[1]
    hidden_gates = _hidden_product(h, weights)
    r, z, _ = (hidden_gates + input_gates).sigmoid().chunk(3, 1)
    n = (input_gates.narrow(1, 2 * size, size) + hidden_gates.narrow(1, 2 * size, size) * r)
    n = n.tanh()
    return ((h - n) * z + n,)


_STEPS = {"RNN_TANH": _tanh_step, "RNN_RELU": _relu_step, "LSTM": _lstm_step,
          "GRU": _gru_step}
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# ---- whole sequences -------------------------------------------------------------------------


def _named_as_torch(t, label, inputs):
    """`t` recorded as the output of PyTorch's kernel `label` on `inputs` (its grad_fn's
    name and next_functions), where PyTorch computes in one kernel what compat composes."""
    return wrap(engine(t), label, inputs)


def _step_weights(w_hh, b_hh, w_hr):
    """What a step computes with: W_hh and W_hr transposed (once for all the steps)."""
    return w_hh.t(), b_hh, None if w_hr is None else w_hr.t()


def _run_direction(step, input_gates, state, weights, reverse):
    """`step` over the time steps' input gates (last to first if `reverse`): the outputs
    stacked in time order (L, N, H_out) and the final state."""
    outputs = []
    for gates in (reversed(input_gates) if reverse else input_gates):
        state = step(gates, state, weights)
        outputs.append(state[0])
    if reverse:
        outputs.reverse()
    return _ops.stack(outputs), state


def _run_packed(step, input_gates, state, weights):
    """`step` over packed sequences, first time step to last: `input_gates` holds each
    step's gates of the sequences still running (the longest first), so a sequence that
    ends leaves its final state behind. The packed outputs and the final states (in the
    packed order)."""
    outputs, finals = [], []
    running = input_gates[0].size(0)
    for gates in input_gates:
        if gates.size(0) < running:  # the last sequences ended at the previous step
            finals.append(tuple(s[gates.size(0):running] for s in state))
            state = tuple(s[:gates.size(0)] for s in state)
        running = gates.size(0)
        state = step(gates, state, weights)
        outputs.append(state[0])
    finals.append(state)
    finals.reverse()
    return _ops.cat(outputs), tuple(_ops.cat(parts) for parts in zip(*finals))


def _run_packed_reversed(step, input_gates, initial, weights):
    """`step` over packed sequences, last time step to first: each sequence joins at its
    last element, from its initial state."""
    outputs = []
    running = input_gates[-1].size(0)
    state = tuple(s[:running] for s in initial)
    for gates in reversed(input_gates):
        if gates.size(0) > running:
            state = tuple(_ops.cat([s, start[running:gates.size(0)]])
                          for s, start in zip(state, initial))
        running = gates.size(0)
        state = step(gates, state, weights)
        outputs.append(state[0])
    outputs.reverse()
    return _ops.cat(outputs), state


class RNNBase(Module):
    """The stack of `num_layers` recurrent layers (each in one or two directions) that RNN,
    LSTM and GRU share; `mode` names the step: RNN_TANH, RNN_RELU, LSTM or GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        _check_settings(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                        proj_size)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._flat_weights_names = []
        self._all_weights = []
        self._create_parameters(_GATES[mode] * hidden_size, _floating(dtype), device)
        self.reset_parameters()
        self._init_flat_weights()

    def _create_parameters(self, gate_size, dtype, device):
        """Each layer's and direction's weights, registered in PyTorch's order (which is
        the order reset_parameters draws them in)."""
        directions = 2 if self.bidirectional else 1
        hidden_size = self.proj_size or self.hidden_size  # what the layers output
        for layer in range(self.num_layers):
            layer_input_size = self.input_size if layer == 0 else hidden_size * directions
            for direction in range(directions):
                shapes = {"weight_ih": (gate_size, layer_input_size),
                          "weight_hh": (gate_size, hidden_size)}
                if self.bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if self.proj_size:
                    shapes["weight_hr"] = (self.proj_size, self.hidden_size)
                names = [name + _suffix(layer, direction) for name in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, Parameter(empty(shape, dtype=dtype, device=device)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def flatten_parameters(self):
        """A no-op: PyTorch packs the weights into one buffer for cuDNN only."""

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _weights(self, layer, direction):
        """(w_ih, w_hh, b_ih, b_hh, w_hr) of one layer and direction (None where it has
        none), as the forward's `_update_flat_weights` read them."""
        suffix = _suffix(layer, direction)
        weights = dict(zip(self._flat_weights_names, self._flat_weights))
        return tuple(weights.get(name + suffix) for name in
                     ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))

    # PyTorch's forward reads the weights (into _flat_weights) only when one of them is no
    # longer the tensor last read, and reads a weight by hasattr, then getattr: a
    # parametrized weight (a new tensor at each access) is computed four times a forward,
    # which a parametrization with state (spectral_norm's power iteration) counts.

    def _init_flat_weights(self):
        self._flat_weights = [getattr(self, name) if hasattr(self, name) else None
                              for name in self._flat_weights_names]
        self._flat_weight_refs = [None if weight is None else weakref.ref(weight)
                                  for weight in self._flat_weights]

    def _update_flat_weights(self):
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name) if hasattr(self, name) else None
            if weight is not None and ref is not None and ref() is not weight:
                self._init_flat_weights()
                return

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_flat_weight_refs"]  # (weak references cannot be pickled)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._init_flat_weights()

    # ---- forward ---------------------------------------------------------------------------

    def forward(self, input, hx=None):
        self._update_flat_weights()
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(self._rank_error(input.dim()))
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        states = self._initial_states(input, hx, batched)
        if self.batch_first:
            input = input.transpose(0, 1)
        output, finals = self._run_layers(input, states)
        if self.batch_first:
            output = self._batch_first(output)
        hidden = _stacked(finals)
        if not batched:
            output = output.squeeze(batch_dim)
            hidden = tuple(h.squeeze(1) for h in hidden)
        return output, (hidden if self.mode == "LSTM" else hidden[0])

    def _forward_packed(self, input, hx):
        """The layers over packed sequences: the packed output, and the final state of
        each sequence (from its own last step) in the sequences' original order."""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        batch = int(batch_sizes[0])
        if hx is None:
            hx = self._zero_state(batch, data.dtype)
        else:
            hx = tuple(hx) if self.mode == "LSTM" else (hx,)
            if sorted_indices is not None:  # given in the original order
                hx = _permuted(hx, sorted_indices)
        if self.mode == "LSTM":  # PyTorch leaves a packed LSTM's checks to its kernel
            self._check_packed_lstm_state(hx)
        else:
            self._check_input(data, dims=2)
            self._check_hidden(hx[0], self.hidden_size, batch,
                               "Expected hidden size {}, got {}")
        output, finals = self._run_packed_layers(data, _per_layer(hx), batch_sizes.tolist())
        hidden = _stacked(finals)
        if unsorted_indices is not None:
            hidden = _permuted(hidden, unsorted_indices)
        output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return output, (hidden if self.mode == "LSTM" else hidden[0])

    def _run_packed_layers(self, data, states, batch_sizes):
        """The layers over packed data. PyTorch's float32 LSTM without projections runs
        sequences all of one length as a padded batch (in oneDNN); so does compat, whose
        nodes then carry that kernel's names."""
        if len(set(batch_sizes)) > 1 or self.proj_size or not self._for_onednn(data):
            return self._run_layers(data, states, batch_sizes)
        padded = data.view(len(batch_sizes), batch_sizes[0], data.size(-1))
        output, finals = self._run_layers(padded, states)
        return output.view(-1, output.size(-1)), finals

    def _rank_error(self, dims):
        if self.mode in ("LSTM", "GRU"):
            return f"{self.mode}: Expected input to be 2D or 3D, got {dims}D instead"
        return f"RNN: Expected input to be 2D or 3D, got {dims}D tensor instead"

    def _initial_states(self, input, hx, batched):
        """The initial state of each layer and direction (zeros where hx is None), after
        PyTorch's checks of input and hx."""
        batch = self._batch_size(input)
        if hx is None:
            hx = self._zero_state(batch, input.dtype)
        else:
            hx = self._batched_hx(hx, batched)
            hx = hx if self.mode == "LSTM" else (hx,)
        self._check_input(input, dims=3)
        if self.mode == "LSTM":
            self._check_hidden(hx[0], self.proj_size or self.hidden_size, batch,
                               "Expected hidden[0] size {}, got {}")
            self._check_hidden(hx[1], self.hidden_size, batch,
                               "Expected hidden[1] size {}, got {}")
        else:
            self._check_hidden(hx[0], self.hidden_size, batch,
                               "Expected hidden size {}, got {}")
        return _per_layer(hx)

    def _batched_hx(self, hx, batched):
        dims = 3 if batched else 2
        what = "batched 3-D" if batched else "unbatched 2-D"
        if self.mode == "LSTM":
            if hx[0].dim() != dims or hx[1].dim() != dims:
                raise RuntimeError(f"For {what} input, hx and cx should also be {dims}-D but "
                                   f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            return hx if batched else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        if hx.dim() != dims:
            raise RuntimeError(f"For {what} input, hx should also be {dims}-D but got "
                               f"{hx.dim()}-D tensor")
        return hx if batched else hx.unsqueeze(1)

    def _zero_state(self, batch, dtype):
        """The initial state where none is given: (h,), or (h, c) for LSTM."""
        layers = self._directions() * self.num_layers
        h = zeros((layers, batch, self.proj_size or self.hidden_size), dtype=dtype)
        if self.mode != "LSTM":
            return (h,)
        return h, zeros((layers, batch, self.hidden_size), dtype=dtype)

    def _directions(self):
        return 2 if self.bidirectional else 1

    def _batch_size(self, input):
        return input.size(0) if self.batch_first else input.size(1)

    def _check_input(self, input, dims):
        """PyTorch's checks of the input (`dims`: 3 for a batch, 2 for packed data)."""
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype is not weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), or "
                             f"convert model: model.to({input.dtype})")
        if input.dim() != dims:
            raise RuntimeError(f"input must have {dims} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _check_hidden(self, hx, size, batch, message):
        expected = (self._directions() * self.num_layers, batch, size)
        if tuple(hx.size()) != expected:
            raise RuntimeError(message.format(expected, list(hx.size())))

    def _check_packed_lstm_state(self, hx):
        """The errors of PyTorch's packed LSTM kernel for an initial state it cannot use
        (the sizes it does not check fail in the steps, as in PyTorch). Like PyTorch, it
        takes h and c of different sizes to mean that the layer has projections."""
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        h, c = hx
        if (h.size(2) != c.size(2)) != bool(self.proj_size):
            raise RuntimeError("got an incorrect number of RNN parameters")
        count = self._directions() * self.num_layers
        if self.bidirectional and h.size(0) % 2:
            raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
        if h.size(0) != count:
            raise RuntimeError("Expected more hidden states in stacked_rnn")
        if c.size(0) != count:  # (which PyTorch does not check)
            raise RuntimeError(f"Expected hidden[1] size {(count,) + tuple(c.shape[1:])}, "
                               f"got {list(c.size())}")

    def _run_layers(self, input, states, batch_sizes=None):
        """The layers over a (L, N, H_in) input, or packed data (with its `batch_sizes`):
        the last layer's output (L, N, D * H_out) or packed data, and the final state of
        each layer and direction. Between layers, while training, dropout (drawn from the
        default generator as PyTorch draws it)."""
        if input.size(0) == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        step = _STEPS[self.mode]
        one_kernel = batch_sizes is None and self._for_onednn(input)
        if one_kernel and self.proj_size:  # PyTorch falls back on its composed kernels
            _warn_of_projections()
            one_kernel = False
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(self._directions()):
                state = states[layer * self._directions() + direction]
                output, final = self._run_layer(step, input, state, layer, direction,
                                                one_kernel, batch_sizes)
                outputs.append(output)
                finals.append(final)
            input = outputs[0] if len(outputs) == 1 else _ops.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout, True)
        return input, finals

    def _run_layer(self, step, input, state, layer, direction, one_kernel, batch_sizes):
        """One layer in one direction: its output and final state, recorded as the node of
        PyTorch's oneDNN kernel if `one_kernel`."""
        w_ih, w_hh, b_ih, b_hh, w_hr = weights = self._weights(layer, direction)
        input_gates = F.linear(input, w_ih, b_ih)
        step_weights = _step_weights(w_hh, b_hh, w_hr)
        if batch_sizes is None:
            output, final = _run_direction(step, input_gates.unbind(0), state, step_weights,
                                           direction == 1)
        else:
            run = _run_packed_reversed if direction else _run_packed
            output, final = run(step, input_gates.split(batch_sizes), state, step_weights)
        if one_kernel:
            inputs = (input,) + weights[:4] + state
            output = _named_as_torch(output, _ONEDNN_LAYER, inputs)
            final = tuple(_named_as_torch(t, _ONEDNN_LAYER, inputs) for t in final)
        return output, final

    def _for_onednn(self, input):
        """Whether PyTorch's CPU build gives this layer to oneDNN, which runs each layer
        and direction of a float32 LSTM as one kernel (one node)."""
        return self.mode == "LSTM" and input.dtype is _dtypes.float32 and input.numel() > 0

    def _batch_first(self, output):
        """The (L, N, H) output as (N, L, H): PyTorch's LSTM transposes it (a view), its
        RNN and GRU transpose it in place (TransposeBackward1)."""
        if self.mode == "LSTM":
            return output.transpose(0, 1)
        return _named_as_torch(output.transpose(0, 1), "TransposeBackward1", (output,))

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text


_ONEDNN_LAYER = "MkldnnRnnLayerBackward0"
_warned_of_projections = False


def _warn_of_projections():
    """PyTorch's warning (TORCH_WARN_ONCE: once per process) that oneDNN has no LSTM with
    projections."""
    global _warned_of_projections
    if not _warned_of_projections:
        _warned_of_projections = True
        warnings.warn("LSTM with projections is not supported with oneDNN. Using default "
                      "implementation.", UserWarning, stacklevel=3)


def _per_layer(hx):
    """The initial state (h,) or (h, c) of each layer and direction, from the stacked
    states."""
    return list(zip(*(h.unbind(0) for h in hx)))


def _stacked(finals):
    """The final states of the layers and directions stacked: (h,) or (h, c)."""
    return tuple(_ops.stack(parts) for parts in zip(*finals))


def _permuted(hx, permutation):
    """Each state's batch in the order of `permutation`."""
    return tuple(h.index_select(1, permutation) for h in hx)


def _suffix(layer, direction):
    """What ends the names of a layer's and direction's parameters (weight_ih_l1_reverse)."""
    return f"_l{layer}" + ("_reverse" if direction else "")


def _check_settings(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                    proj_size):
    """PyTorch's refusals (and warning) of a recurrent layer's settings, in its order."""
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or \
            not 0 <= dropout <= 1:
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn(f"dropout option adds dropout after all but last recurrent layer, so "
                      f"non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", UserWarning,
                      stacklevel=3)
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                            f"{type(value).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable "
                         "projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh), or relu with nonlinearity='relu'.
    PyTorch's positional order: (input_size, hidden_size, num_layers, nonlinearity, bias,
    batch_first, dropout, bidirectional)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if self.nonlinearity not in modes:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             f"or 'relu'.")
        super().__init__(modes[self.nonlinearity], *args, **kwargs)


class LSTM(RNNBase):
    """The long short-term memory: state (h, c), gates i, f, g, o; with proj_size > 0, h
    is projected to proj_size by weight_hr."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """The gated recurrent unit: gates r, z, n, with n's hidden product reset by r."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


# ---- cells -----------------------------------------------------------------------------------


def _check_cell_sizes(input, states, input_size, hidden_size):
    """PyTorch's checks of a cell's input's and states' sizes."""
    if input.size(1) != input_size:
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} "
                           f"expected {input_size}")
    for index, h in enumerate(states):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match "
                               f"hidden{index} batch size {h.size(0)}")
        if h.size(1) != hidden_size:
            raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got "
                               f"{h.size(1)}, expected {hidden_size}")


def cell(mode, input, states, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of a cell of `mode` ('LSTM', 'GRU', 'RNN_TANH', 'RNN_RELU') on a batch
    (torch.lstm_cell, ...): the new states, checked as PyTorch checks them."""
    hidden_size = w_hh.size(1)
    for name, weight in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        gates = _GATES[mode]
        if weight.size(0) != gates * hidden_size:
            raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = "
                               f"{gates * hidden_size}, but got {weight.size(0)}")
    _check_cell_sizes(input, states, w_ih.size(1), hidden_size)
    return _STEPS[mode](F.linear(input, w_ih, b_ih), states, _step_weights(w_hh, b_hh, None))


class RNNCellBase(Module):
    """One time step of a recurrent layer on a (N, H_in) or (H_in,) input, with weights
    weight_ih (gates * H, H_in), weight_hh (gates * H, H) and biases bias_ih, bias_hh."""

    mode = None

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        dtype = _floating(dtype)
        gate_size = _GATES[self.mode] * hidden_size
        self.weight_ih = Parameter(empty((gate_size, input_size), dtype=dtype, device=device))
        self.weight_hh = Parameter(empty((gate_size, hidden_size), dtype=dtype,
                                         device=device))
        if bias:
            self.bias_ih = Parameter(empty(gate_size, dtype=dtype, device=device))
            self.bias_hh = Parameter(empty(gate_size, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters  # the same draws as the layers'

    def forward(self, input, hx=None):
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             f"instead")
        states = () if hx is None else tuple(hx) if self.mode == "LSTM" else (hx,)
        for index, h in enumerate(states):
            if h.dim() not in (1, 2):
                what = f"hx[{index}]" if self.mode == "LSTM" else "hidden"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D "
                                 f"instead")
        if self.mode == "LSTM" and hx is not None and not isinstance(hx, (tuple, list)):
            raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of "
                            f"Tensors, not {type(hx).__name__}")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
            states = tuple(h.unsqueeze(0) for h in states)
        if hx is None:
            count = 2 if self.mode == "LSTM" else 1
            states = (zeros((input.size(0), self.hidden_size), dtype=input.dtype),) * count
        _check_cell_sizes(input, states, self.input_size, self.hidden_size)
        state = self._step()(F.linear(input, self.weight_ih, self.bias_ih), states,
                             _step_weights(self.weight_hh, self.bias_hh, None))
        if not batched:
            state = tuple(h.squeeze(0) for h in state)
        return state if self.mode == "LSTM" else state[0]

    def _step(self):
        return _STEPS[self.mode]


    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text


class RNNCell(RNNCellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh), or relu with nonlinearity='relu'."""

    mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def _step(self):
        steps = {"tanh": _tanh_step, "relu": _relu_step}
        if self.nonlinearity not in steps:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return steps[self.nonlinearity]


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c')."""

    mode = "LSTM"


class GRUCell(RNNCellBase):
    """One GRU step: returns h'."""

    mode = "GRU"
