"""compat.nn.utils.rnn (packed and padded sequences) and the recurrent layers over packed
sequences, against torch 2.13: after the same seed, the same packed data, batch sizes and
indices, padded tensors and lengths, outputs, final states, gradients (inputs, initial
states, every parameter) and grad_fn names, over a grid of layer settings and length
patterns; PackedSequence's conversions and printed form; PyTorch's error texts; and a
classifier of variable-length sequences trained for a few steps."""
import warnings

import numpy as np
import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, graph_names,
                            seeded)

# float32 sums over the hidden size, repeated over time steps, differ from PyTorch's kernels
# in the last bits.
TOLERANCES = {"float32": {"rtol": 2e-4, "atol": 2e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _states(hidden):
    return list(hidden) if isinstance(hidden, tuple) else [hidden]


def _backward_through(torch, tensors):
    """Backward from the tensors, each weighted by a draw (so that each element counts)."""
    sum(((t * torch.randn(t.shape, dtype=t.dtype)).sum() for t in tensors)).backward()


def _padded_batch(torch, lengths, features, batch_first, dtype=None):
    """A random padded batch for sequences of `lengths`, requiring grad."""
    shape = (len(lengths), max(lengths)) if batch_first else (max(lengths), len(lengths))
    return torch.randn(shape + features, dtype=dtype, requires_grad=True)


# ---- packing and padding -------------------------------------------------------------------

# (lengths, enforce_sorted)
LENGTHS = [([4, 2, 1], True), ([2, 4, 1, 4], False), ([3, 3, 3], True), ([3, 3, 3], False),
           ([1], True), ([2, 1, 1], True), ([1, 3, 1], False)]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths, enforce_sorted", LENGTHS)
def test_packing_and_padding_back_as_torch(lengths, enforce_sorted, batch_first):
    def case(torch):
        rnn_utils = torch.nn.utils.rnn
        x = _padded_batch(torch, lengths, (2,), batch_first)
        packed = rnn_utils.pack_padded_sequence(x, lengths, batch_first, enforce_sorted)
        padded, padded_lengths = rnn_utils.pad_packed_sequence(packed, batch_first)
        longer, _ = rnn_utils.pad_packed_sequence(packed, batch_first, padding_value=-1.5,
                                                  total_length=max(lengths) + 2)
        _backward_through(torch, [packed.data, padded, longer])
        return (type(packed).__name__, packed, padded, padded_lengths, longer, x.grad,
                graph_names(packed.data))
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("features", [(), (2, 3)])
def test_packing_any_trailing_shape_and_dtype(features):
    def case(torch):
        rnn_utils = torch.nn.utils.rnn
        x = (torch.randn((3, 2) + features) * 5).long()
        packed = rnn_utils.pack_padded_sequence(x, torch.tensor([3.0, 1.0]))  # cast to int64
        return (packed, rnn_utils.pad_packed_sequence(packed, padding_value=2.7),
                rnn_utils.pad_packed_sequence(packed, total_length=4,
                                              padding_value=torch.tensor(-3)))
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pad_sequence_as_torch(batch_first, padding_side):
    def case(torch):
        sequences = [torch.randn(shape, requires_grad=True) for shape in ((2, 3), (4, 3), (1, 3))]
        padded = torch.nn.utils.rnn.pad_sequence(sequences, batch_first, 0.5, padding_side)
        _backward_through(torch, [padded])
        return padded, [s.grad for s in sequences]
    check(seeded(case), rtol=0, atol=0)


def test_pad_sequence_takes_the_first_sequences_dtype_and_trailing_shape():
    def case(torch):
        pad_sequence = torch.nn.utils.rnn.pad_sequence
        return (pad_sequence([torch.ones(2, dtype=torch.long), torch.ones(1)], padding_value=0.7),
                pad_sequence([torch.ones(2, dtype=torch.bool), torch.zeros(3, dtype=torch.bool)],
                             padding_value=0.7),
                pad_sequence([torch.ones(2, 3), torch.arange(2.0).view(2, 1), torch.ones(3)]),
                pad_sequence(torch.arange(6.0).view(2, 3)),  # a tensor: its rows
                pad_sequence([torch.ones(0, 2), torch.ones(1, 2)], padding_value=np.float32(2)))
    check(case, rtol=0, atol=0)


@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_sequence_and_unpacking_as_torch(enforce_sorted):
    def case(torch):
        rnn_utils = torch.nn.utils.rnn
        lengths = [3, 2, 2] if enforce_sorted else [2, 3, 1]
        sequences = [torch.randn(n, 2, requires_grad=True) for n in lengths]
        packed = rnn_utils.pack_sequence(sequences, enforce_sorted)
        unpacked = rnn_utils.unpack_sequence(packed)
        _backward_through(torch, unpacked)
        return packed, unpacked, [s.grad for s in sequences], [graph_names(s) for s in unpacked]
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_as_torch(batch_first):
    def case(torch):
        rnn_utils = torch.nn.utils.rnn
        sequences = [torch.randn(n, 2) for n in (2, 4, 1)]
        padded = rnn_utils.pad_sequence(sequences, batch_first).requires_grad_()
        # (a padded tensor that is not batch_first: PyTorch transposes it in place)
        unpadded = rnn_utils.unpad_sequence(padded * 1, torch.tensor([2, 4, 1]), batch_first)
        _backward_through(torch, unpadded)
        return unpadded, padded.grad, [type(s.grad_fn).__name__ for s in unpadded]
    check(seeded(case), rtol=0, atol=0)


def test_invert_permutation():
    def case(torch):
        invert = torch.nn.utils.rnn.invert_permutation
        return invert(torch.tensor([2, 0, 3, 1])), invert(None)
    check(case)


# ---- PackedSequence -------------------------------------------------------------------------


def _packed(torch, enforce_sorted=False):
    x = torch.tensor([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0], [4.0, 5.0, 6.0]], requires_grad=True)
    return torch.nn.utils.rnn.pack_padded_sequence(x, [2, 1, 3], batch_first=True,
                                                   enforce_sorted=enforce_sorted)


def test_packed_sequence_prints_as_torchs():
    def case(torch):
        print(_packed(torch))
        print(repr(_packed(torch).double()))
        print(torch.nn.utils.rnn.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]),
                                                torch.tensor([6])]))
    check_printed(case)


def test_packed_sequence_is_a_namedtuple_with_torchs_conversions():
    def case(torch):
        PackedSequence = torch.nn.utils.rnn.PackedSequence
        packed = _packed(torch)
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        return (packed._fields, isinstance(packed, tuple), packed.is_cuda,
                packed.to(torch.float32) is packed, packed.float() is packed,
                packed.cpu() is packed, packed.to(dtype=torch.float64),
                [getattr(packed, name)().data.dtype for name in
                 ("double", "half", "long", "int", "short", "char", "byte")],
                packed.long().sorted_indices is packed.sorted_indices,
                PackedSequence(data, batch_sizes, sorted_indices),  # its inverse computed
                PackedSequence((data, batch_sizes)), PackedSequence(data, batch_sizes),
                type(packed.double()).__name__)
    check(case, rtol=0, atol=0)


# ---- the layers over packed sequences ---------------------------------------------------------

# (layer, options, whether an initial state is given)
LAYERS = [
    ("RNN", {}, False),
    ("RNN", {"nonlinearity": "relu", "num_layers": 2, "bidirectional": True}, True),
    ("RNN", {"batch_first": True, "bias": False}, True),
    ("LSTM", {}, False),
    ("LSTM", {}, True),
    ("LSTM", {"num_layers": 2, "bidirectional": True}, True),
    ("LSTM", {"proj_size": 2, "num_layers": 2, "bidirectional": True}, True),
    ("LSTM", {"proj_size": 3, "batch_first": True}, False),
    ("GRU", {}, True),
    ("GRU", {"num_layers": 2, "bidirectional": True, "bias": False}, False),
    ("GRU", {"num_layers": 3, "batch_first": True}, True),
]


def _initial_state(torch, layer, batch, dtype):
    """A random initial state of the layer's shape for `batch` sequences, requiring grad."""
    layers = (2 if layer.bidirectional else 1) * layer.num_layers
    h = torch.randn((layers, batch, layer.proj_size or layer.hidden_size), dtype=dtype,
                    requires_grad=True)
    if layer.mode != "LSTM":
        return h
    return h, torch.randn((layers, batch, layer.hidden_size), dtype=dtype, requires_grad=True)


def _packed_layer_case(name, options, with_state, lengths, enforce_sorted, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        layer = getattr(torch.nn, name)(4, 5, dtype=dtype_, **options)
        x = _padded_batch(torch, lengths, (4,), layer.batch_first, dtype_)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, layer.batch_first,
                                                         enforce_sorted)
        hx = _initial_state(torch, layer, len(lengths), dtype_) if with_state else None
        output, hidden = layer(packed, hx)
        padded, _ = torch.nn.utils.rnn.pad_packed_sequence(output, layer.batch_first)
        states = _states(hidden)
        _backward_through(torch, [padded] + states)
        return (type(output).__name__, output, padded, states, x.grad,
                [h.grad for h in _states(hx)] if hx else None, gradients(layer),
                graph_names(output.data), [graph_names(h) for h in states])
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lengths, enforce_sorted", [([4, 2, 1], True), ([2, 4, 1, 4], False),
                                                     ([3, 3, 3], True), ([2, 2], False),
                                                     ([1, 3, 1], False), ([1], True)])
@pytest.mark.parametrize("name, options, with_state", LAYERS)
def test_layers_over_packed_sequences_compute_what_torch_computes(
        name, options, with_state, lengths, enforce_sorted, dtype):
    check(_packed_layer_case(name, options, with_state, lengths, enforce_sorted, dtype),
          **TOLERANCES[dtype])


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_packed_final_states_are_each_sequences_last_step(name):
    """The final state of each sequence is the output at its own last step (forward
    direction) and at its first step (reverse direction): the padded run's states there."""
    def case(torch):
        layer = getattr(torch.nn, name)(3, 4, bidirectional=True, dtype=torch.float64)
        lengths = [2, 5, 3]
        x = _padded_batch(torch, lengths, (3,), False, torch.float64)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        output, hidden = layer(packed)
        padded, _ = torch.nn.utils.rnn.pad_packed_sequence(output)
        h = _states(hidden)[0]
        last = torch.stack([padded[n - 1, i, :4] for i, n in enumerate(lengths)])
        return h[0], last, h[1], padded[0, :, 4:]
    ours = check(seeded(case), **TOLERANCES["float64"])
    np.testing.assert_allclose(ours[0].detach().numpy(), ours[1].detach().numpy())
    np.testing.assert_allclose(ours[2].detach().numpy(), ours[3].detach().numpy())


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_dropout_between_layers_over_packed_sequences_draws_torchs_masks(name):
    def case(torch):
        layer = getattr(torch.nn, name)(4, 6, num_layers=3, dropout=0.4, bidirectional=True)
        x = _padded_batch(torch, [3, 5, 2], (4,), True)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, [3, 5, 2], batch_first=True,
                                                         enforce_sorted=False)
        trained, hidden = layer(packed)
        _backward_through(torch, [trained.data] + _states(hidden))
        layer.eval()
        evaluated, _ = layer(packed)
        return trained, x.grad, gradients(layer), evaluated, torch.rand(2)
    check(seeded(case), **TOLERANCES["float32"])


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
def test_second_derivatives_through_packing(name):
    def case(torch):
        rnn_utils = torch.nn.utils.rnn
        layer = getattr(torch.nn, name)(3, 4, num_layers=2, dtype=torch.float64)
        x = _padded_batch(torch, [2, 4, 3], (3,), True, torch.float64)
        packed = rnn_utils.pack_padded_sequence(x, [2, 4, 3], batch_first=True,
                                                enforce_sorted=False)
        padded, _ = rnn_utils.pad_packed_sequence(layer(packed)[0], batch_first=True)
        (slope,) = torch.autograd.grad(padded.pow(2).sum(), x, create_graph=True)
        slope.sum().backward()
        return slope, x.grad, gradients(layer)
    # PyTorch names the nodes of a double backward after its own backward kernels.
    check(seeded(case), grad_fn_names=False, **TOLERANCES["float64"])


def test_packed_lstm_with_projections_gives_no_warning():
    def case(torch):
        layer = torch.nn.LSTM(3, 4, proj_size=2)
        packed = torch.nn.utils.rnn.pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            output, _ = layer(packed)
        return output, [str(w.message) for w in caught]
    check(seeded(case), **TOLERANCES["float32"])


def test_no_grad_over_packed_sequences():
    def case(torch):
        layer = torch.nn.GRU(3, 4)
        packed = torch.nn.utils.rnn.pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])
        with torch.no_grad():
            return layer(packed)
    check(seeded(case), **TOLERANCES["float32"])


# ---- misuse: PyTorch's error texts ------------------------------------------------------------

_X = "torch.randn(4, 3, 2)"
_P = f"torch.nn.utils.rnn.pack_padded_sequence({_X}, [4, 2, 1])"
_UNSORTED = f"torch.nn.utils.rnn.pack_padded_sequence({_X}, [2, 4, 1], enforce_sorted=False)"
MISUSES = {
    "lengths not sorted": f"pack_padded_sequence({_X}, [2, 4, 1])",
    "a zero length last": f"pack_padded_sequence({_X}, [2, 4, 0])",
    "a zero length, unsorted": f"pack_padded_sequence({_X}, [0, 2, 4], enforce_sorted=False)",
    "a negative length": f"pack_padded_sequence({_X}, [4, 2, -1])",
    "too few lengths": f"pack_padded_sequence({_X}, [4, 2])",
    "too many lengths": f"pack_padded_sequence({_X}, [4, 3, 2, 1])",
    "lengths of two dimensions": f"pack_padded_sequence({_X}, torch.tensor([[4, 2, 1]]))",
    "lengths nested in a list": f"pack_padded_sequence({_X}, [[4, 2, 1]])",
    "lengths a number": f"pack_padded_sequence({_X}, 4)",
    "lengths of strings": f"pack_padded_sequence({_X}, 'abc')",
    "an empty input": "pack_padded_sequence(torch.randn(0, 3), torch.tensor([[1]]))",
    "an input of one dimension": "pack_padded_sequence(torch.randn(4), [4])",
    "an input not a tensor": "pack_padded_sequence([[1.0, 2.0]], [1])",
    "batch_first an int": f"pack_padded_sequence({_X}, [4, 2, 1], batch_first=1)",
    "total_length too small": f"pad_packed_sequence({_P}, total_length=3)",
    "total_length a float": f"pad_packed_sequence({_P}, total_length=5.0)",
    "padding_value a string": f"pad_packed_sequence({_P}, padding_value='a')",
    "padding a tensor": f"pad_packed_sequence({_X})",
    "pad_sequence of nothing": "pad_sequence([])",
    "pad_sequence of a number": "pad_sequence(3)",
    "pad_sequence of lists": "pad_sequence([[1.0, 2.0]])",
    "pad_sequence on the top": "pad_sequence([torch.ones(2)], padding_side='top')",
    "pad_sequence padding_side None": "pad_sequence([torch.ones(2)], padding_side=None)",
    "pad_sequence padding_value None": "pad_sequence([torch.ones(2)], padding_value=None)",
    "pad_sequence batch_first a numpy bool": "pad_sequence([torch.ones(2)], np.bool_(True))",
    "pad_sequence of other trailing sizes": "pad_sequence([torch.ones(2, 3), torch.ones(2, 4)])",
    "pad_sequence of more dimensions": "pad_sequence([torch.ones(2, 3), torch.ones(2, 3, 4)])",
    "pad_sequence of scalars": "pad_sequence([torch.tensor(1.0), torch.tensor(2.0)])",
    "pad_sequence's padding overflows": ("pad_sequence([torch.ones(2, dtype=torch.uint8)], "
                                         "padding_value=300)"),
    "pack_sequence of nothing": "pack_sequence([])",
    "pack_sequence unsorted": "pack_sequence([torch.ones(1), torch.ones(2)])",
    "pack_sequence with an empty sequence": "pack_sequence([torch.ones(2), torch.ones(0)])",
    "unpad_sequence with too few lengths": "unpad_sequence(torch.ones(3, 2), torch.tensor([3]))",
    "unpad_sequence with a list of lengths": "unpad_sequence(torch.ones(3, 2), [3, 2])",
    "unpack_sequence of a tensor": f"unpack_sequence({_X})",
    "PackedSequence of one tensor": "PackedSequence(torch.ones(3))",
    # the layers
    "RNN input of the wrong size": f"torch.nn.RNN(3, 4)({_P})",
    "GRU double input": f"torch.nn.GRU(2, 4)({_P}.double())",
    "GRU integer input": f"torch.nn.GRU(2, 4)({_P}.long())",
    "GRU packed data of 3 dimensions": ("torch.nn.GRU(2, 4)(pack_padded_sequence("
                                        "torch.randn(4, 3, 2, 2), [4, 2, 1]))"),
    "RNN h0 of the wrong batch": f"torch.nn.RNN(2, 4)({_P}, torch.zeros(1, 2, 4))",
    "RNN h0 of 2 dimensions": f"torch.nn.RNN(2, 4)({_P}, torch.zeros(3, 4))",
    "GRU h0 of 2 dimensions, unsorted": f"torch.nn.GRU(2, 4)({_UNSORTED}, torch.zeros(3, 4))",
    "GRU h0 of the wrong size": f"torch.nn.GRU(2, 4)({_P}, torch.zeros(1, 3, 5))",
    "GRU h0 of too many layers": f"torch.nn.GRU(2, 4)({_P}, torch.zeros(2, 3, 4))",
    "GRU double h0": f"torch.nn.GRU(2, 4)({_P}, torch.zeros(1, 3, 4).double())",
    "LSTM input of the wrong size": f"torch.nn.LSTM(3, 4)({_P})",
    "LSTM double input": f"torch.nn.LSTM(2, 4)({_P}.double())",
    "LSTM packed data of 3 dimensions": ("torch.nn.LSTM(2, 4)(pack_padded_sequence("
                                         "torch.randn(4, 3, 2, 2), [4, 2, 1]))"),
    "LSTM h0 of the wrong batch": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 2, 4), "
                                   f"torch.zeros(1, 2, 4)))"),
    "LSTM c0 of the wrong batch": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 3, 4), "
                                   f"torch.zeros(1, 2, 4)))"),
    "LSTM h0 of the wrong size": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 3, 5), "
                                  f"torch.zeros(1, 3, 4)))"),
    "LSTM h0 and c0 of the wrong size": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 3, 5), "
                                         f"torch.zeros(1, 3, 5)))"),
    "LSTM h0 without projection": (f"torch.nn.LSTM(2, 4, proj_size=2)({_P}, "
                                   f"(torch.zeros(1, 3, 4), torch.zeros(1, 3, 4)))"),
    "LSTM c0 of the projected size": (f"torch.nn.LSTM(2, 4, proj_size=2)({_P}, "
                                      f"(torch.zeros(1, 3, 2), torch.zeros(1, 3, 3)))"),
    "LSTM h0 of too many layers": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(2, 3, 4), "
                                   f"torch.zeros(2, 3, 4)))"),
    "LSTM h0 for one direction": (f"torch.nn.LSTM(2, 4, bidirectional=True)({_P}, "
                                  f"(torch.zeros(1, 3, 4), torch.zeros(1, 3, 4)))"),
    "LSTM h0 of 2 dimensions": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(3, 4), "
                                f"torch.zeros(3, 4)))"),
    "LSTM three states": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 3, 4), "
                          f"torch.zeros(1, 3, 4), torch.zeros(1, 3, 4)))"),
    "LSTM double h0": (f"torch.nn.LSTM(2, 4)({_P}, (torch.zeros(1, 3, 4).double(), "
                       f"torch.zeros(1, 3, 4)))"),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    def case(torch):
        names = {name: getattr(torch.nn.utils.rnn, name)
                 for name in torch.nn.utils.rnn.__all__}
        return eval(MISUSES[misuse], {"torch": torch, "np": np, **names})
    assert_same_error(case)


def test_what_torch_reads_past_or_crashes_on_is_refused():
    """PyTorch packs a length past the padded input's end (reading memory beyond it), and
    its packed LSTM computes with a longer c_0's first layers (and crashes on a shorter
    one): compat refuses both."""
    import compat
    rnn_utils = compat.nn.utils.rnn
    with pytest.raises(RuntimeError, match=r"^compat: a sequence's length \(5\) exceeds the "
                                           r"padded length of the input \(4\)$"):
        rnn_utils.pack_padded_sequence(compat.randn(4, 3, 2), [5, 2, 1])
    packed = rnn_utils.pack_padded_sequence(compat.randn(4, 3, 2), [4, 2, 1])
    for layers in (2, 0):
        with pytest.raises(RuntimeError, match=rf"^Expected hidden\[1\] size \(1, 3, 4\), "
                                               rf"got \[{layers}, 3, 4\]$"):
            compat.nn.LSTM(2, 4)(packed, (compat.zeros(1, 3, 4), compat.zeros(layers, 3, 4)))


# ---- a classifier of variable-length sequences ------------------------------------------------


def _sequence_classifier(torch):
    """Sentences of different lengths classified as PyTorch's text tutorials do: Embedding,
    padded then packed (unsorted, batch first), a bidirectional two-layer LSTM, the last
    layer's final states of both directions to a Linear, CrossEntropyLoss and SGD; the
    padded outputs pooled over each sentence's own length for a second head."""
    nn, rnn_utils = torch.nn, torch.nn.utils.rnn

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(12, 6, padding_idx=0)
            self.lstm = nn.LSTM(6, 5, num_layers=2, bidirectional=True, batch_first=True)
            self.head = nn.Linear(10, 3)
            self.pooled_head = nn.Linear(10, 3)

        def forward(self, tokens, lengths):
            packed = rnn_utils.pack_padded_sequence(self.embedding(tokens), lengths,
                                                    batch_first=True, enforce_sorted=False)
            output, (h, _) = self.lstm(packed)
            padded, padded_lengths = rnn_utils.pad_packed_sequence(output, batch_first=True)
            pooled = padded.sum(1) / padded_lengths.unsqueeze(1)
            return self.head(torch.cat([h[-2], h[-1]], dim=1)), self.pooled_head(pooled)

    torch.manual_seed(3)
    sentences = [torch.randint(1, 12, (n,)) for n in (5, 2, 7, 3)]
    tokens = rnn_utils.pad_sequence(sentences, batch_first=True)
    lengths = torch.tensor([len(s) for s in sentences])
    labels = torch.tensor([0, 2, 1, 2])
    model = Classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.3)
    criterion = nn.CrossEntropyLoss()
    losses = []
    for _ in range(4):
        optimizer.zero_grad()
        scores, pooled_scores = model(tokens, lengths)
        loss = criterion(scores, labels) + criterion(pooled_scores, labels)
        loss.backward()
        optimizer.step()
        losses.append(loss)
    with torch.no_grad():
        predictions = model(tokens, lengths)[0].argmax(1)
    return losses, list(model.named_parameters()), predictions


def test_a_classifier_of_packed_sequences_trains_as_torchs():
    check(_sequence_classifier, **TOLERANCES["float32"])
