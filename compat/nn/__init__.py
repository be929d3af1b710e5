"""compat.nn: PyTorch's torch.nn (Module, Parameter, the classic layers and losses,
functional, init, utils), built from compat's differentiable operations."""
from . import functional, init, utils
from .adaptive import AdaptiveLogSoftmaxWithLoss
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,
                   ConvTranspose3d)
from .layers import (CELU, ELU, GELU, GLU, SELU, AlphaDropout, Bilinear, ChannelShuffle,
                     CosineSimilarity, Dropout, Dropout1d, Dropout2d, Dropout3d, Embedding,
                     EmbeddingBag, FeatureAlphaDropout, Flatten, Fold, Hardshrink, Hardsigmoid,
                     Hardswish, Hardtanh, Identity, LeakyReLU, Linear, LogSigmoid, LogSoftmax,
                     Mish, PairwiseDistance, PixelShuffle, PixelUnshuffle, PReLU, ReLU, ReLU6,
                     RReLU, SiLU, Sigmoid, Softmax, Softmax2d, Softmin, Softplus, Softshrink,
                     Softsign, Tanh, Tanhshrink, Threshold, Unflatten, Unfold, Upsample,
                     UpsamplingBilinear2d, UpsamplingNearest2d)
from .loss import (BCELoss, LinearCrossEntropyLoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, CTCLoss,
                   GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss,
                   MarginRankingLoss, MSELoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
                   MultiMarginLoss, NLLLoss, NLLLoss2d, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
                   TripletMarginLoss, TripletMarginWithDistanceLoss)
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d, LazyConv2d,
                   LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d,
                   LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d, LazyLinear)
from .module import Module
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, CrossMapLRN2d, GroupNorm,
                            InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm,
                            LocalResponseNorm, RMSNorm)
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d,
                      ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
                      ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d,
                      ZeroPad3d)
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,
                      AdaptiveMaxPool2d, AdaptiveMaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d,
                      FractionalMaxPool2d, FractionalMaxPool3d,
                      LPPool1d, LPPool2d, LPPool3d, MaxPool1d, MaxPool2d, MaxPool3d,
                      MaxUnpool1d, MaxUnpool2d, MaxUnpool3d)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (MultiheadAttention, Transformer, TransformerDecoder,
                          TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)

__all__ = [
    "functional", "init", "utils", "Module", "Parameter", "Identity", "Linear", "ReLU",
    "LeakyReLU", "ELU", "SiLU", "GELU", "Softplus", "Tanh", "Sigmoid", "Softmax",
    "LogSoftmax", "LogSigmoid", "Hardtanh", "ReLU6", "PReLU", "Mish", "SELU", "Softmin",
    "Hardswish", "Hardsigmoid", "Tanhshrink", "Softsign", "Flatten", "Dropout", "Embedding",
    "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "BatchNorm1d",
    "LayerNorm", "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell",
    "GRUCell", "Sequential", "ModuleList", "ModuleDict", "MSELoss", "L1Loss",
    "SmoothL1Loss", "HuberLoss", "NLLLoss", "CrossEntropyLoss", "KLDivLoss", "BCELoss",
    "BCEWithLogitsLoss",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
    "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
    "ConvTranspose1d", "ConvTranspose2d", "BatchNorm2d", "BatchNorm3d", "MaxPool1d",
    "AvgPool1d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "Dropout1d",
    "Dropout2d", "GroupNorm", "Unflatten", "Upsample", "ParameterList", "ParameterDict",
    "CELU", "Threshold", "GLU", "Hardshrink", "Softshrink", "Softmax2d", "CosineSimilarity",
    "PairwiseDistance", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
    "MultiLabelSoftMarginLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "MultiMarginLoss",
    "PoissonNLLLoss", "GaussianNLLLoss", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "RMSNorm", "LocalResponseNorm", "Bilinear", "PixelShuffle", "PixelUnshuffle", "Unfold",
    "Fold",
    "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
    "TransformerDecoderLayer", "TransformerDecoder", "Transformer",
    "Conv3d", "ConvTranspose3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool3d", "Dropout3d",
    "LPPool1d", "LPPool2d", "LPPool3d", "ChannelShuffle", "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
    "TripletMarginWithDistanceLoss",
    "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
    "EmbeddingBag",
    "MultiLabelMarginLoss",
    "AlphaDropout", "FeatureAlphaDropout",
    "CTCLoss", "RReLU", "AdaptiveLogSoftmaxWithLoss",
    "FractionalMaxPool2d", "FractionalMaxPool3d", "CrossMapLRN2d",
    "Buffer", "UninitializedParameter", "UninitializedBuffer", "NLLLoss2d",
    "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
    "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
    "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d",
    "LinearCrossEntropyLoss",
]
