"""compat.nn's recurrent layers (RNN, LSTM, GRU and their cells) against torch 2.13: after
the same seed, the same parameters (names, shapes, values bit for bit); on the same inputs,
the same outputs, final states, gradients (inputs, initial states, every parameter) and
grad_fn names, over a grid of settings; dropout between layers; printed reprs, state dicts
and error texts; and PyTorch's sequence tutorials: the opening and the tagger of "Sequence
Models and Long Short-Term Memory Networks", the character-level name classifier and the
attention translator, trained for a few steps."""
import warnings

import numpy as np
import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, run_both,
                            seeded)

# float32 sums over the hidden size, repeated over time steps, differ from PyTorch's kernels
# (oneDNN's LSTM included) in the last bits.
TOLERANCES = {"float32": {"rtol": 2e-4, "atol": 2e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _names(t):
    """t's grad_fn name and those of its next_functions. Not their output indices: PyTorch's
    oneDNN LSTM kernel gives its final states as its node's outputs 1 and 2, compat's node
    (named as that kernel) has one output."""
    if t.grad_fn is None:
        return None
    return type(t.grad_fn).__name__, [None if f is None else type(f).__name__
                                      for f, _ in t.grad_fn.next_functions]


def _states(hidden):
    return list(hidden) if isinstance(hidden, tuple) else [hidden]


def _backward_through(torch, tensors):
    """Backward from the tensors, each weighted by a draw (so that each element counts)."""
    sum(((t * torch.randn(t.shape, dtype=t.dtype)).sum() for t in tensors)).backward()


# ---- the layers over sequences -----------------------------------------------------------

# (layer, options, input shape, whether an initial state is given)
LAYERS = [
    ("RNN", {}, (5, 3, 4), False),
    ("RNN", {"nonlinearity": "relu", "num_layers": 2, "bidirectional": True}, (4, 2, 4), True),
    ("RNN", {"batch_first": True, "bias": False}, (2, 5, 4), True),
    ("RNN", {"batch_first": True}, (5, 4), True),  # unbatched
    ("LSTM", {}, (5, 3, 4), False),
    ("LSTM", {"num_layers": 2, "bidirectional": True}, (4, 2, 4), True),
    ("LSTM", {"batch_first": True, "bias": False}, (2, 5, 4), True),
    ("LSTM", {"num_layers": 2, "batch_first": True}, (3, 4, 4), False),
    ("LSTM", {"proj_size": 2, "num_layers": 2, "bidirectional": True}, (4, 2, 4), True),
    ("LSTM", {"proj_size": 3, "batch_first": True}, (2, 5, 4), False),
    ("LSTM", {}, (5, 4), True),  # unbatched
    ("LSTM", {"bidirectional": True, "batch_first": True}, (5, 4), False),
    ("GRU", {}, (5, 3, 4), True),
    ("GRU", {"num_layers": 2, "bidirectional": True, "batch_first": True, "bias": False},
     (2, 4, 4), False),
    ("GRU", {"num_layers": 2}, (4, 2, 4), True),
    ("GRU", {"bidirectional": True}, (5, 4), True),  # unbatched
]


def _initial_state(torch, layer, input_shape, dtype):
    """A random initial state of the layer's shape for an input of `input_shape`,
    requiring grad."""
    batch = ()
    if len(input_shape) == 3:
        batch = input_shape[:1] if layer.batch_first else input_shape[1:2]
    layers = (2 if layer.bidirectional else 1) * layer.num_layers
    h = torch.randn((layers, *batch, layer.proj_size or layer.hidden_size), dtype=dtype,
                    requires_grad=True)
    if layer.mode != "LSTM":
        return h
    return h, torch.randn((layers, *batch, layer.hidden_size), dtype=dtype, requires_grad=True)


def _layer_case(name, options, shape, with_state, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        layer = getattr(torch.nn, name)(4, 5, dtype=dtype_, **options)
        x = torch.randn(shape, dtype=dtype_, requires_grad=True)
        hx = _initial_state(torch, layer, shape, dtype_) if with_state else None
        with warnings.catch_warnings():  # (tested in test_projections_warn_as_torch)
            warnings.filterwarnings("ignore", "LSTM with projections is not supported")
            output, hidden = layer(x, hx)
        states = _states(hidden)
        _backward_through(torch, [output] + states)
        return (output, states, x.grad, [h.grad for h in _states(hx)] if hx else None,
                gradients(layer), _names(output), [_names(h) for h in states])
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, options, shape, with_state", LAYERS)
def test_layers_compute_what_torch_computes(name, options, shape, with_state, dtype):
    check(_layer_case(name, options, shape, with_state, dtype), **TOLERANCES[dtype])


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_weights_loaded_from_torch(name):
    """Weights copied from a torch layer through load_state_dict give torch's results."""
    import torch

    import compat
    torch.manual_seed(5)
    theirs = getattr(torch.nn, name)(3, 4, num_layers=2, bidirectional=True)
    ours = getattr(compat.nn, name)(3, 4, num_layers=2, bidirectional=True)
    ours.load_state_dict({key: compat.tensor(value.numpy())
                          for key, value in theirs.state_dict().items()})
    x = torch.randn(6, 2, 3)
    expected, _ = theirs(x)
    got, _ = ours(compat.tensor(x.numpy()))
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(),
                               **TOLERANCES["float32"])


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_dropout_between_layers_draws_torchs_masks(name):
    def case(torch):
        layer = getattr(torch.nn, name)(4, 6, num_layers=3, dropout=0.4, bidirectional=True)
        x = torch.randn(5, 2, 4, requires_grad=True)
        trained, hidden = layer(x)
        _backward_through(torch, [trained] + _states(hidden))
        layer.eval()
        evaluated, _ = layer(x)
        return trained, x.grad, gradients(layer), evaluated, torch.rand(2)
    check(seeded(case), **TOLERANCES["float32"])


def test_dropout_is_left_out_of_one_layer_with_torchs_warning():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = torch.nn.GRU(3, 4, dropout=0.5)
        return layer(torch.randn(2, 1, 3))[0], torch.rand(1), [str(w.message) for w in caught]
    check(seeded(case), **TOLERANCES["float32"])


def test_projections_warn_as_torch():
    def case(torch):
        layer = torch.nn.LSTM(3, 4, proj_size=2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            output, _ = layer(torch.randn(2, 1, 3))
            layer.double()(torch.randn(2, 1, 3, dtype=torch.float64))  # no warning
        # (less the C++ source line PyTorch's warnings name)
        return output, [str(w.message).split(" (Triggered internally")[0] for w in caught]
    # PyTorch's TORCH_WARN_ONCE: each library gives it on its first such call.
    ours, theirs = run_both(seeded(case))
    assert ours[-1] in ([], theirs[-1]) and theirs[-1] in ([], ours[-1])
    check(lambda torch: seeded(case)(torch)[:-1], **TOLERANCES["float32"])


@pytest.mark.parametrize("name, dtype", [("LSTM", "float32"), ("GRU", "float64"),
                                         ("RNN", "float64")])
def test_second_derivatives(name, dtype):
    def case(torch):
        layer = getattr(torch.nn, name)(3, 4, num_layers=2, dtype=getattr(torch, dtype))
        x = torch.randn(5, 2, 3, dtype=getattr(torch, dtype), requires_grad=True)
        output, _ = layer(x)
        (slope,) = torch.autograd.grad(output.pow(2).sum(), x, create_graph=True)
        slope.sum().backward()
        return slope, x.grad, gradients(layer)
    # PyTorch names the nodes of a double backward after its own backward kernels.
    check(seeded(case), grad_fn_names=False, **TOLERANCES[dtype])


def test_no_grad_and_frozen_parameters():
    def case(torch):
        layer = torch.nn.LSTM(3, 4)
        x = torch.randn(4, 2, 3)
        with torch.no_grad():
            quiet = layer(x)
        layer.requires_grad_(False)
        return quiet, layer(x), layer(x.requires_grad_())[0]
    check(seeded(case), **TOLERANCES["float32"])


# ---- cells -------------------------------------------------------------------------------

# (cell, options, input shape, whether a state is given)
CELLS = [
    ("RNNCell", {}, (3, 4), False),
    ("RNNCell", {"nonlinearity": "relu", "bias": False}, (3, 4), True),
    ("RNNCell", {}, (4,), True),  # unbatched
    ("LSTMCell", {}, (3, 4), True),
    ("LSTMCell", {"bias": False}, (3, 4), False),
    ("LSTMCell", {}, (4,), True),
    ("GRUCell", {}, (3, 4), True),
    ("GRUCell", {"bias": False}, (4,), False),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, options, shape, with_state", CELLS)
def test_cells_compute_what_torch_computes(name, options, shape, with_state, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        cell = getattr(torch.nn, name)(4, 5, dtype=dtype_, **options)
        x = torch.randn(shape, dtype=dtype_, requires_grad=True)
        hx = None
        if with_state:
            states = [torch.randn(shape[:-1] + (5,), dtype=dtype_, requires_grad=True)
                      for _ in range(2 if name == "LSTMCell" else 1)]
            hx = tuple(states) if name == "LSTMCell" else states[0]
        hidden = cell(x, cell(x, hx))  # two steps, the second from the first's state
        states_out = _states(hidden)
        _backward_through(torch, states_out)
        return states_out, x.grad, [h.grad for h in _states(hx)] if hx else None, gradients(cell)
    check(seeded(case), **TOLERANCES[dtype])


# ---- parameters and printing --------------------------------------------------------------

CONSTRUCTIONS = [
    "RNN(3, 4)", "RNN(3, 4, 2, 'relu', False, True, 0.0, True)",
    "LSTM(3, 5, num_layers=2, bidirectional=True)", "LSTM(2, 6, proj_size=3, num_layers=2)",
    "LSTM(3, 4, bias=False, dtype=torch.float64)", "GRU(4, 3, 3, batch_first=True)",
    "RNNCell(3, 4, nonlinearity='relu')", "LSTMCell(3, 4)", "GRUCell(3, 4, bias=False)",
]


@pytest.mark.parametrize("construction", CONSTRUCTIONS)
def test_parameters_are_torchs_after_the_same_seed(construction):
    def case(torch):
        layer = eval(f"torch.nn.{construction}")
        return (list(layer.named_parameters()), list(layer.state_dict()), repr(layer),
                torch.rand(2))  # the stream goes on alike
    check(seeded(case, 11), rtol=0, atol=0)


def test_all_weights_flatten_parameters_and_settings():
    def case(torch):
        layer = torch.nn.LSTM(3, 4, num_layers=2, proj_size=2, bidirectional=True,
                              dropout=0.25)
        layer.flatten_parameters()
        return ([[tuple(w.shape) for w in weights] for weights in layer.all_weights],
                layer._flat_weights_names, layer.mode, layer.dropout, layer.proj_size,
                torch.nn.RNN(3, 4, nonlinearity="relu").nonlinearity)
    check(seeded(case))


def test_reprs_print_as_torchs():
    def case(torch):
        print(torch.nn.LSTM(10, 20, num_layers=2, batch_first=True, dropout=0.5))
        print(torch.nn.GRU(3, 4, bias=False, bidirectional=True))
        print(torch.nn.RNN(3, 4, nonlinearity="relu"))
        print(torch.nn.RNNCell(3, 4, bias=False, nonlinearity="relu"), torch.nn.LSTMCell(2, 3))

        class Tagger(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = torch.nn.LSTM(6, 6, proj_size=2)
        print(Tagger())
    check_printed(case)


# ---- misuse: PyTorch's error texts ----------------------------------------------------------

MISUSES = {
    "input of rank 4": "torch.nn.LSTM(3, 4)(torch.randn(2, 2, 2, 3))",
    "input a list": "torch.nn.LSTM(3, 4)([[1.0, 2.0, 3.0]])",
    "RNN input of rank 1": "torch.nn.RNN(3, 4)(torch.randn(3))",
    "GRU input of rank 1": "torch.nn.GRU(3, 4)(torch.randn(3))",
    "wrong input size": "torch.nn.GRU(3, 4)(torch.randn(5, 2, 2))",
    "wrong input size, unbatched": "torch.nn.RNN(3, 4)(torch.randn(5, 2))",
    "wrong h0 shape": "torch.nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(1, 3, 4))",
    "wrong hidden size": "torch.nn.RNN(3, 4, 2)(torch.randn(5, 2, 3), torch.zeros(2, 2, 5))",
    "h0 for one direction": ("torch.nn.GRU(3, 4, bidirectional=True)(torch.randn(5, 2, 3), "
                             "torch.zeros(1, 2, 4))"),
    "wrong h0 rank": "torch.nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(2, 4))",
    "wrong h0 rank, unbatched": "torch.nn.RNN(3, 4)(torch.randn(5, 3), torch.zeros(1, 1, 4))",
    "wrong c0 shape": ("torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4), "
                       "torch.zeros(1, 2, 3)))"),
    "h0 without projection": ("torch.nn.LSTM(3, 4, proj_size=2)(torch.randn(5, 2, 3), "
                              "(torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)))"),
    "wrong cx rank": ("torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4), "
                      "torch.zeros(2, 4)))"),
    "wrong cx rank, unbatched": ("torch.nn.LSTM(3, 4)(torch.randn(5, 3), (torch.zeros(1, 4), "
                                 "torch.zeros(1, 1, 4)))"),
    "LSTM state a tensor": "torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3), torch.zeros(1, 2, 4))",
    "LSTM state not a pair": "torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4),))",
    "double input": "torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3).double())",
    "integer input": "torch.nn.GRU(3, 4)(torch.ones(5, 2, 3, dtype=torch.long))",
    "double h0": "torch.nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(1, 2, 4).double())",
    "float32 h0 of a float64 layer": ("torch.nn.LSTM(3, 4).double()(torch.randn(5, 2, 3)"
                                      ".double(), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)))"),
    "empty sequence": "torch.nn.GRU(3, 4)(torch.randn(0, 2, 3))",
    "unknown nonlinearity": "torch.nn.RNN(3, 4, nonlinearity='sigmoid')",
    "GRU projections": "torch.nn.GRU(3, 4, proj_size=2)",
    "projection too large": "torch.nn.LSTM(3, 4, proj_size=4)",
    "negative projection": "torch.nn.LSTM(3, 4, proj_size=-1)",
    "dropout out of range": "torch.nn.LSTM(3, 4, dropout=1.5)",
    "dropout a bool": "torch.nn.GRU(3, 4, dropout=True)",
    "bias not a bool": "torch.nn.LSTM(3, 4, bias=1)",
    "batch_first not a bool": "torch.nn.RNN(3, 4, batch_first=1)",
    "float input_size": "torch.nn.LSTM(3.0, 4)",
    "zero input_size": "torch.nn.LSTM(0, 4)",
    "zero hidden_size": "torch.nn.GRU(3, 0)",
    "zero layers": "torch.nn.LSTM(3, 4, num_layers=0)",
    "cell input of rank 3": "torch.nn.GRUCell(3, 4)(torch.randn(1, 2, 3))",
    "cell hidden of rank 3": "torch.nn.RNNCell(3, 4)(torch.randn(2, 3), torch.zeros(1, 2, 4))",
    "cell wrong input size": "torch.nn.GRUCell(4, 4)(torch.randn(2, 3))",
    "cell batch sizes differ": "torch.nn.GRUCell(3, 4)(torch.randn(2, 3), torch.zeros(3, 4))",
    "cell wrong hidden size": "torch.nn.RNNCell(3, 4)(torch.randn(2, 3), torch.zeros(2, 5))",
    "cell unbatched hidden": "torch.nn.GRUCell(3, 4)(torch.randn(2, 3), torch.zeros(4))",
    "LSTMCell wrong c size": ("torch.nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.zeros(2, 4), "
                              "torch.zeros(2, 5)))"),
    "LSTMCell c batch": ("torch.nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.zeros(2, 4), "
                         "torch.zeros(3, 4)))"),
    "LSTMCell c of rank 3": ("torch.nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.zeros(2, 4), "
                             "torch.zeros(2, 4, 1)))"),
    "LSTMCell state a tensor": "torch.nn.LSTMCell(3, 4)(torch.randn(2, 3), torch.zeros(2, 4))",
    "cell double hidden": "torch.nn.GRUCell(3, 4)(torch.randn(2, 3), torch.zeros(2, 4).double())",
    "cell double input": "torch.nn.GRUCell(3, 4)(torch.randn(2, 3).double())",
    "cell nonlinearity changed": "_with(torch.nn.RNNCell(3, 4), nonlinearity='sigmoid')("
                                 "torch.randn(2, 3))",
}


def _with(module, **attributes):
    for name, value in attributes.items():
        setattr(module, name, value)
    return module


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(MISUSES[misuse]))


# ---- the tutorials -------------------------------------------------------------------------


def test_the_lstm_tutorials_first_steps_print_what_torch_prints():
    """The opening of "Sequence Models and Long Short-Term Memory Networks": an LSTM run a
    step at a time, then over the whole sequence."""
    def case(torch):
        torch.manual_seed(1)
        lstm = torch.nn.LSTM(3, 3)
        inputs = [torch.randn(1, 3) for _ in range(5)]
        hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
        for i in inputs:
            out, hidden = lstm(i.view(1, 1, -1), hidden)
        inputs = torch.cat(inputs).view(len(inputs), 1, -1)
        hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
        out, hidden = lstm(inputs, hidden)
        print(out)
        print(hidden)
    check_printed(case, rtol=1e-3)


def _tagger_training(torch):
    """The tutorial's part-of-speech tagger: Embedding, LSTM, Linear, log_softmax, NLLLoss
    and SGD, a few epochs over its two sentences."""
    nn, F = torch.nn, torch.nn.functional
    training_data = [("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
                     ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])]
    word_to_ix = {}
    for sentence, _ in training_data:
        for word in sentence:
            word_to_ix.setdefault(word, len(word_to_ix))
    tag_to_ix = {"DET": 0, "NN": 1, "V": 2}

    class LSTMTagger(nn.Module):
        def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
            super().__init__()
            self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
            self.lstm = nn.LSTM(embedding_dim, hidden_dim)
            self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

        def forward(self, sentence):
            embeds = self.word_embeddings(sentence)
            lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
            tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
            return F.log_softmax(tag_space, dim=1)

    def indices(seq, to_ix):
        return torch.tensor([to_ix[w] for w in seq], dtype=torch.long)

    torch.manual_seed(1)
    model = LSTMTagger(6, 6, len(word_to_ix), len(tag_to_ix))
    loss_function = nn.NLLLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(5):
        for sentence, tags in training_data:
            model.zero_grad()
            loss = loss_function(model(indices(sentence, word_to_ix)), indices(tags, tag_to_ix))
            loss.backward()
            optimizer.step()
            losses.append(loss)
    with torch.no_grad():
        scores = model(indices(training_data[0][0], word_to_ix))
    return losses, list(model.named_parameters()), scores


def test_the_lstm_tutorials_tagger_trains_as_torchs():
    check(_tagger_training, **TOLERANCES["float32"])


def _name_classifier(torch):
    """The character-level RNN of "NLP From Scratch: Classifying Names with a
    Character-Level RNN": nn.RNN over one-hot letters, Linear and LogSoftmax on the last
    hidden state, NLLLoss summed over a batch of names, clip_grad_norm_ and SGD."""
    nn = torch.nn
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = [("adam", 0), ("ahmed", 1), ("yusuf", 1), ("eve", 0), ("omar", 1), ("noah", 0)]

    def line_to_tensor(line):
        tensor = torch.zeros(len(line), 1, len(letters))
        for index, letter in enumerate(line):
            tensor[index][0][letters.find(letter)] = 1
        return tensor

    class CharRNN(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super().__init__()
            self.rnn = nn.RNN(input_size, hidden_size)
            self.h2o = nn.Linear(hidden_size, output_size)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, line_tensor):
            rnn_out, hidden = self.rnn(line_tensor)
            return self.softmax(self.h2o(hidden[0]))

    torch.manual_seed(2)
    rnn = CharRNN(len(letters), 16, 2)
    optimizer = torch.optim.SGD(rnn.parameters(), lr=0.2)
    criterion = nn.NLLLoss()
    losses = []
    for _ in range(4):
        for batch in (names[:3], names[3:]):
            batch_loss = 0
            for name, label in batch:
                output = rnn(line_to_tensor(name))
                batch_loss += criterion(output, torch.tensor([label], dtype=torch.long))
            batch_loss.backward()
            nn.utils.clip_grad_norm_(rnn.parameters(), 3)
            optimizer.step()
            optimizer.zero_grad()
            losses.append(batch_loss)
    rnn.eval()
    with torch.no_grad():
        guesses = [rnn(line_to_tensor(name)).topk(1)[1] for name, _ in names]
    return repr(rnn), losses, list(rnn.named_parameters()), guesses


def test_the_name_classifier_tutorial_trains_as_torchs():
    check(_name_classifier, **TOLERANCES["float32"])


def _translator(torch):
    """The encoder and attention decoder of "NLP From Scratch: Translation with a Sequence
    to Sequence Network and Attention" (GRUs with batch_first, Bahdanau attention, teacher
    forcing, then greedy decoding), trained for a few steps on random sentences. SGD rather
    than the tutorial's Adam: the attention's Va.bias has a zero gradient (softmax ignores
    a shift of all scores), whose rounding noise Adam's normalisation turns into steps of
    the full learning rate."""
    nn, F = torch.nn, torch.nn.functional
    sos, max_length, hidden_size, words_in, words_out = 0, 5, 8, 11, 9

    class EncoderRNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(words_in, hidden_size)
            self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
            self.dropout = nn.Dropout(0.1)

        def forward(self, input):
            return self.gru(self.dropout(self.embedding(input)))

    class BahdanauAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.Wa = nn.Linear(hidden_size, hidden_size)
            self.Ua = nn.Linear(hidden_size, hidden_size)
            self.Va = nn.Linear(hidden_size, 1)

        def forward(self, query, keys):
            scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
            weights = F.softmax(scores.squeeze(2).unsqueeze(1), dim=-1)
            return torch.bmm(weights, keys), weights

    class AttnDecoderRNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(words_out, hidden_size)
            self.attention = BahdanauAttention()
            self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
            self.out = nn.Linear(hidden_size, words_out)
            self.dropout = nn.Dropout(0.1)

        def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
            decoder_input = torch.empty(encoder_outputs.size(0), 1, dtype=torch.long).fill_(sos)
            decoder_hidden = encoder_hidden
            decoder_outputs, attentions = [], []
            for i in range(max_length):
                decoder_output, decoder_hidden, attn_weights = self.forward_step(
                    decoder_input, decoder_hidden, encoder_outputs)
                decoder_outputs.append(decoder_output)
                attentions.append(attn_weights)
                if target_tensor is not None:
                    decoder_input = target_tensor[:, i].unsqueeze(1)  # teacher forcing
                else:
                    _, topi = decoder_output.topk(1)
                    decoder_input = topi.squeeze(-1).detach()
            decoder_outputs = F.log_softmax(torch.cat(decoder_outputs, dim=1), dim=-1)
            return decoder_outputs, decoder_hidden, torch.cat(attentions, dim=1)

        def forward_step(self, input, hidden, encoder_outputs):
            embedded = self.dropout(self.embedding(input))
            context, attn_weights = self.attention(hidden.permute(1, 0, 2), encoder_outputs)
            output, hidden = self.gru(torch.cat((embedded, context), dim=2), hidden)
            return self.out(output), hidden, attn_weights

    torch.manual_seed(0)
    encoder, decoder = EncoderRNN(), AttnDecoderRNN()
    optimizer = torch.optim.SGD([*encoder.parameters(), *decoder.parameters()], lr=0.5)
    criterion = nn.NLLLoss()
    inputs = torch.randint(1, words_in, (4, max_length))
    targets = torch.randint(1, words_out, (4, max_length))
    losses = []
    for _ in range(3):
        optimizer.zero_grad()
        encoder_outputs, encoder_hidden = encoder(inputs)
        decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, targets)
        loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), targets.view(-1))
        loss.backward()
        optimizer.step()
        losses.append(loss)
    encoder.eval()
    decoder.eval()
    with torch.no_grad():
        decoder_outputs, decoder_hidden, attentions = decoder(*encoder(inputs[:1]))
    return (losses, list(encoder.named_parameters()), list(decoder.named_parameters()),
            decoder_outputs.topk(1)[1], attentions)


def test_the_translation_tutorial_trains_and_decodes_as_torchs():
    check(_translator, **TOLERANCES["float32"])
