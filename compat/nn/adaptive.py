"""AdaptiveLogSoftmaxWithLoss: the log-probabilities of many classes, the frequent ones
(the shortlist) from one head layer and the rest from clusters whose total probability the
head gives and whose members' share a smaller tail network gives (Grave et al., "Efficient
softmax approximation for GPUs")."""
import collections

from .. import _ops
from . import functional as F
from .containers import ModuleList, Sequential
from .layers import Linear
from .module import Module

_ASMoutput = collections.namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if not cutoffs:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        options = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **options)
        # Cluster i's tail: a projection to in_features / div_value ** (i + 1) features,
        # then to the cluster's classes.
        self.tail = ModuleList()
        for i, (start, stop) in enumerate(zip(self.cutoffs, self.cutoffs[1:])):
            hidden = int(in_features // (div_value ** (i + 1)))
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, **options),
                                        Linear(hidden, stop - start, bias=False, **options)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for projection, classifier in self.tail:
            projection.reset_parameters()
            classifier.reset_parameters()

    def forward(self, input, target):
        """Each sample's log-probability of its target class (`output`) and their mean
        negated (`loss`)."""
        if target.dim() == 1:
            if input.size(0) != target.size(0):
                raise RuntimeError("Input and target should have the same size in the batch "
                                   "dimension.")
            if input.dim() != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found "
                                   f"inputs with size {input.size()}")
        elif target.dim() == 0:
            if input.dim() != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found "
                                   f"inputs with size {input.size()}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target.dim() == 1
        if not batched:
            input, target = input.unsqueeze(0), target.unsqueeze(0)
        output = input.new_zeros(target.size(0))
        # The head's column for each sample: its class in the shortlist, else its cluster's.
        head_columns = target.clone()
        bounds = [0] + self.cutoffs
        found = 0
        for cluster, (start, stop) in enumerate(zip(bounds, bounds[1:])):
            inside = (target >= start) & (target < stop)
            rows = inside.nonzero().flatten()
            found += rows.numel()
            if cluster == 0 or not rows.numel():
                continue
            head_columns[rows] = self.shortlist_size + cluster - 1
            scores = self.tail[cluster - 1](input.index_select(0, rows))
            members = (target[inside] - start).unsqueeze(1)
            output.index_copy_(0, rows, F.log_softmax(scores, dim=1).gather(1, members).squeeze(1))
        if found != target.size(0):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{target.min().item()}, "
                               f"{target.max().item()}] were found. ")
        head = F.log_softmax(self.head(input), dim=1)
        output += head.gather(1, head_columns.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input, head_output):
        """Every class's log-probability: the shortlist's from the head, each cluster's
        members' from its tail plus the head's log-probability of the cluster."""
        out = input.new_empty((head_output.size(0), self.n_classes))
        head = F.log_softmax(head_output, dim=1)
        out[:, :self.shortlist_size] = head[:, :self.shortlist_size]
        for i, (start, stop) in enumerate(zip(self.cutoffs, self.cutoffs[1:])):
            members = F.log_softmax(self.tail[i](input), dim=1)
            out[:, start:stop] = members + head[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input):
        """The log-probabilities of all n_classes classes, (N, n_classes)."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most probable class of each sample: the head's choice where that is in the
        shortlist, else the best of the full distribution."""
        head_output = self.head(input)
        chosen = _ops.argmax(head_output, dim=1)
        outside = chosen >= self.shortlist_size
        if not outside.any():
            return chosen
        if outside.all():
            return _ops.argmax(self._full_log_prob(input, head_output), dim=1)
        chosen[outside] = _ops.argmax(
            self._full_log_prob(input[outside], head_output[outside]), dim=1)
        return chosen
