"""Batch, layer, group and RMS normalization against PyTorch: the scenarios of
``tests/normalization/norm_cases.py`` agree with ``values.json`` (recorded from torch 2.13.0 by
``tests/normalization/record.py``) bit for bit (a few to float tolerance), plus gradient checks,
modules' reprs, buffers and error messages. (``norm_cases``, not ``cases``: test_random imports a
``cases`` module of its own.)"""
import json
import pathlib
import sys

import numpy as np
import pytest

import autograd_py as T
from autograd_py.autograd import gradcheck, gradgradcheck

HERE = pathlib.Path(__file__).resolve().parent / "normalization"
sys.path.insert(0, str(HERE))
import norm_cases as cases  # noqa: E402

F = T.nn.functional
EXPECTED = json.loads((HERE / "values.json").read_text())


def _expected(entry):
    return np.array(entry["values"], dtype=entry["dtype"]).reshape(entry["shape"])


@pytest.mark.parametrize("case", cases.EXACT, ids=lambda f: f.__name__)
def test_bit_for_bit_with_torch(case):
    got = case(T)
    want = EXPECTED[case.__name__]
    assert sorted(got) == sorted(want)
    for key, entry in want.items():
        value = got[key]._data
        assert value.dtype == np.dtype(entry["dtype"]) and list(value.shape) == entry["shape"], key
        np.testing.assert_array_equal(value, _expected(entry), err_msg=key)


@pytest.mark.parametrize("case", cases.CLOSE, ids=lambda f: f.__name__)
def test_close_to_torch(case):
    got = case(T)
    for key, entry in EXPECTED[case.__name__].items():
        np.testing.assert_allclose(got[key]._data, _expected(entry), rtol=1e-12, atol=1e-12, err_msg=key)


@pytest.mark.parametrize("case", cases.NEAR, ids=lambda f: f.__name__)
def test_near_torch(case):
    got = case(T)
    for key, entry in EXPECTED[case.__name__].items():
        np.testing.assert_allclose(got[key]._data, _expected(entry), rtol=1e-5, atol=1e-6, err_msg=key)


def _double(*shape, seed=0):
    return T.tensor(np.random.default_rng(seed).uniform(-1, 1, shape), dtype=T.float64, requires_grad=True)


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 2, 3, 3)])
@pytest.mark.parametrize("training", [True, False])
def test_gradcheck_and_gradgradcheck(shape, training):
    x, w, b = _double(*shape), _double(shape[1], seed=1), _double(shape[1], seed=2)
    rm = T.tensor(np.linspace(-0.5, 0.5, shape[1]))
    rv = T.tensor(np.linspace(0.5, 2.0, shape[1]))

    def fn(x, w, b):
        return F.batch_norm(x, rm.clone(), rv.clone(), w, b, training, 0.1, 1e-5)
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))


def test_grad_fn_edges_and_saved_values():
    x = T.ones(4, 3, requires_grad=True) * T.arange(12.).reshape(4, 3)
    bn = T.nn.BatchNorm1d(3)
    fn = bn(x).grad_fn
    assert type(fn).__name__ == "NativeBatchNormBackward0"
    assert [type(f).__name__ for f, _ in fn.next_functions] == ["MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    assert fn._saved_eps == 1e-5 and fn._saved_training is True
    np.testing.assert_array_equal(fn._saved_result1._data, [4.5, 5.5, 6.5])
    bn.eval()
    fn = bn(x).grad_fn
    assert fn._saved_training is False and fn._saved_result1.shape == (0,)
    plain = T.nn.BatchNorm1d(3, affine=False)
    assert [f for f, _ in plain(x).grad_fn.next_functions][1:] == [None, None]


def test_modules_repr_buffers_and_state_dict():
    assert repr(T.nn.BatchNorm2d(16)) == \
        "BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    assert repr(T.nn.BatchNorm1d(4, momentum=None, affine=False, track_running_stats=False)) == \
        "BatchNorm1d(4, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=False)"
    bn = T.nn.BatchNorm1d(3)
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert [name for name, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    assert bn.num_batches_tracked.dtype == T.int64
    bn(T.randn(5, 3))
    bn(T.randn(5, 3))
    assert bn.num_batches_tracked.item() == 2
    bn.reset_running_stats()
    assert bn.num_batches_tracked.item() == 0 and bn.running_var.tolist() == [1.0, 1.0, 1.0]


def test_eval_without_running_stats_uses_the_batch():
    x = T.tensor([[1., 2.], [3., 6.]])
    bn = T.nn.BatchNorm1d(2, track_running_stats=False).eval()
    assert bn.running_mean is None
    np.testing.assert_allclose(bn(x)._data, [[-1, -1], [1, 1]], atol=1e-4)


def test_error_messages():
    bn = T.nn.BatchNorm1d(3)
    with pytest.raises(ValueError, match=r"^Expected more than 1 value per channel when training, got input size "
                                         r"torch\.Size\(\[1, 3\]\)$"):
        bn(T.ones(1, 3))
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        bn(T.ones(2, 3, 2, 2))
    with pytest.raises(ValueError, match=r"^expected 4D input \(got 2D input\)$"):
        T.nn.BatchNorm2d(3)(T.ones(2, 3))
    with pytest.raises(RuntimeError, match="^running_mean should contain 3 elements not 5$"):
        F.batch_norm(T.ones(2, 3), T.zeros(5), T.ones(3))
    with pytest.raises(RuntimeError, match="^running_mean must be defined in evaluation mode$"):
        F.batch_norm(T.ones(2, 3), None, None)
    with pytest.raises(ValueError, match="^batch_norm eps must be positive during training, but got 0.0$"):
        F.batch_norm(T.ones(2, 3), None, None, training=True, eps=0.0)
    bn.eval()
    assert bn(T.ones(1, 3)).shape == (1, 3)  # eval mode takes a single row


@pytest.mark.parametrize("shape, normalized", [((3, 4), (4,)), ((2, 3, 5), (3, 5)), ((2, 2, 3), (3,))])
def test_layer_norm_gradcheck_and_gradgradcheck(shape, normalized):
    x, w, b = _double(*shape), _double(*normalized, seed=1), _double(*normalized, seed=2)

    def fn(x, w, b):
        return F.layer_norm(x, normalized, w, b)
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))
    assert gradcheck(lambda x: F.layer_norm(x, normalized), (x,), check_forward_ad=True)


def test_layer_norm_module_and_node():
    assert repr(T.nn.LayerNorm(5)) == "LayerNorm((5,), eps=1e-05, elementwise_affine=True, bias=True)"
    assert repr(T.nn.LayerNorm([3, 4], elementwise_affine=False)) == \
        "LayerNorm((3, 4), eps=1e-05, elementwise_affine=False, bias=False)"
    assert repr(T.nn.LayerNorm(4, eps=1e-6, bias=False)) == \
        "LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)"
    ln = T.nn.LayerNorm((2, 3))
    assert list(ln.state_dict()) == ["weight", "bias"] and ln.weight.shape == (2, 3)
    fn = ln(T.ones(4, 2, 3, requires_grad=True) * T.arange(6.).reshape(2, 3)).grad_fn
    assert type(fn).__name__ == "NativeLayerNormBackward0"
    assert [type(f).__name__ for f, _ in fn.next_functions] == ["MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    assert fn._saved_normalized_shape == (2, 3) and fn._saved_result1.shape == (4, 1, 1)
    np.testing.assert_allclose(fn._saved_result1._data.ravel(), [2.5] * 4)


def test_layer_norm_error_messages():
    with pytest.raises(RuntimeError, match=r"^Given normalized_shape=\[3\], expected input with shape \[\*, 3\], "
                                           r"but got input of size\[4, 2\]$"):
        F.layer_norm(T.ones(4, 2), (3,))
    with pytest.raises(RuntimeError, match=r"^Expected weight to be of same shape as normalized_shape, but got "
                                           r"weight of shape \[3\] and normalized_shape = \[2\]$"):
        F.layer_norm(T.ones(4, 2), (2,), weight=T.ones(3))
    with pytest.raises(RuntimeError, match=r"^Expected normalized_shape to be at least 1-dimensional"):
        F.layer_norm(T.ones(4, 2), ())


@pytest.mark.parametrize("shape, groups", [((2, 4, 3), 2), ((3, 6), 3), ((1, 4, 2, 2), 1)])
def test_group_norm_gradcheck_and_gradgradcheck(shape, groups):
    x, w, b = _double(*shape), _double(shape[1], seed=1), _double(shape[1], seed=2)

    def fn(x, w, b):
        return F.group_norm(x, groups, w, b)
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))
    assert gradcheck(lambda x: F.group_norm(x, groups), (x,), check_forward_ad=True)


def test_group_norm_module_and_errors():
    assert repr(T.nn.GroupNorm(2, 4)) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    assert repr(T.nn.GroupNorm(1, 3, affine=False)) == "GroupNorm(1, 3, eps=1e-05, affine=False, bias=False)"
    fn = T.nn.GroupNorm(2, 4)(T.ones(2, 4, 3, requires_grad=True) * T.arange(3.)).grad_fn
    assert type(fn).__name__ == "NativeGroupNormBackward0"
    assert (fn._saved_N, fn._saved_C, fn._saved_HxW, fn._saved_group) == (2, 4, 3, 2)
    with pytest.raises(ValueError, match=r"^num_channels \(4\) must be divisible by num_groups \(3\)$"):
        T.nn.GroupNorm(3, 4)
    with pytest.raises(RuntimeError, match=r"^Expected number of channels in input to be divisible by num_groups, "
                                           r"but got input of shape \[2, 4, 3\] and num_groups=3$"):
        F.group_norm(T.ones(2, 4, 3), 3)
    with pytest.raises(ValueError, match=r"^Expected more than 1 value per channel when training, got input size "
                                         r"\[1, 2, 1\]$"):
        F.group_norm(T.ones(1, 2, 1), 2)


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 2, 3, 3)])
def test_instance_norm_gradcheck_and_gradgradcheck(shape):
    x, w, b = _double(*shape), _double(shape[1], seed=1), _double(shape[1], seed=2)

    def fn(x, w, b):
        return F.instance_norm(x, weight=w, bias=b)
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))


def test_instance_norm_warns_on_a_channel_mismatch_without_affine():
    with pytest.warns(UserWarning, match=r"^input's size at dim=1 does not match num_features\. "):
        T.nn.InstanceNorm1d(4)(T.randn(2, 3, 5))
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        T.nn.InstanceNorm1d(3)(T.randn(2, 3, 5, 5))
