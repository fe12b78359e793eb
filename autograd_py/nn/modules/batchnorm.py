"""``BatchNorm1d``, ``BatchNorm2d`` and ``BatchNorm3d``: ``F.batch_norm`` with learnable scale and
shift and running statistics kept in buffers."""
from ... import creation, dtypes
from .. import functional as F
from ._norm_affine import add_affine, reset_affine
from .module import Module


class _NormBase(Module):
    """What the batch norms share: parameters ``weight``/``bias`` (if ``affine``) and the buffers
    ``running_mean``, ``running_var``, ``num_batches_tracked`` (if ``track_running_stats``)."""

    _version = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        add_affine(self, num_features, affine, bias, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", creation.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=dtypes.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        reset_affine(self, self.affine)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        # momentum=None: the cumulative average, 1/k for the k-th batch
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        # batch statistics in training, and in eval when there are no running ones to use
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None, self.running_var if track else None,
                            self.weight, self.bias, use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization over a 2-D ``(N, C)`` or 3-D ``(N, C, L)`` input.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias`` per channel, with the batch's mean and
    biased variance in training (updating ``running_mean``/``running_var`` by ``momentum`` with
    the unbiased variance) and the running ones in eval mode.

    Args:
        num_features (int): the number of channels ``C``.
        eps (float, optional): added to the variance. Defaults to 1e-5.
        momentum (float or None, optional): weight of each new batch in the running statistics;
            ``None`` keeps their cumulative average. Defaults to 0.1.
        affine (bool, optional): learn ``weight`` (ones) and ``bias`` (zeros). Defaults to ``True``.
        track_running_stats (bool, optional): keep running statistics; without them eval mode
            normalizes by the batch's. Defaults to ``True``.

    Example::

        >>> bn = nn.BatchNorm1d(3)
        >>> bn(torch.tensor([[1., 2., 3.], [3., 6., 9.]]))
        tensor([[-1.0000, -1.0000, -1.0000],
                [ 1.0000,  1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
        >>> bn.running_mean
        tensor([0.2000, 0.4000, 0.6000])
    """

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over a 4-D ``(N, C, H, W)`` input, per channel (see :class:`BatchNorm1d`).

    Args:
        num_features (int): the number of channels ``C``.
        eps (float, optional): added to the variance. Defaults to 1e-5.
        momentum (float or None, optional): weight of each new batch in the running statistics.
            Defaults to 0.1.
        affine (bool, optional): learn ``weight`` and ``bias``. Defaults to ``True``.
        track_running_stats (bool, optional): keep running statistics. Defaults to ``True``.

    Example::

        >>> nn.BatchNorm2d(16)
        BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization over a 5-D ``(N, C, D, H, W)`` input, per channel (see :class:`BatchNorm1d`)."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
