"""``F.instance_norm``: batch normalization of the input viewed as one sample with ``N * C``
channels, as ATen's ``instance_norm`` computes it (so the graph shows ``ViewBackward0`` over
``NativeBatchNormBackward0``, and the values are batch norm's to the last bit)."""
from .. import grad_mode
from ._norm_ops import native_batch_norm


def _verify_spatial_size(size):
    prod = 1
    for n in size[2:]:
        prod *= n
    if prod == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalizes each channel of each sample by its own mean and biased variance (over the
    spatial dims), then scales by ``weight`` and shifts by ``bias`` per channel.

    Args:
        input (Tensor): ``(N, C, *)``.
        running_mean (Tensor, optional): shape ``(C)``, updated with the samples' average statistics.
        running_var (Tensor, optional): shape ``(C)``.
        weight (Tensor, optional): per-channel scale. bias (Tensor, optional): per-channel shift.
        use_input_stats (bool, optional): normalize by each sample's statistics. Defaults to ``True``.
        momentum (float, optional): weight of the new statistics. Defaults to 0.1.
        eps (float, optional): added to the variance. Defaults to 1e-5.

    Returns:
        Tensor: the input's shape, ``grad_fn=<ViewBackward0>``.

    Example::

        >>> F.instance_norm(torch.tensor([[[1., 3.], [2., 6.]]]))
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    if use_input_stats:
        _verify_spatial_size(input.size())
    b, c = input.shape[0], input.shape[1]
    repeat = [None if t is None else t.repeat(b) for t in (weight, bias, running_mean, running_var)]
    shape = (1, b * c) + tuple(input.shape[2:])
    out = native_batch_norm(input.contiguous().view(shape), repeat[0], repeat[1], repeat[2], repeat[3],
                            use_input_stats, momentum, eps)[0]
    with grad_mode.no_grad():
        # the running statistics are the samples' average, written back into the caller's buffers
        if running_mean is not None:
            running_mean.copy_(repeat[2].view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(repeat[3].view(b, c).mean(0))
    return out.view(input.shape)
