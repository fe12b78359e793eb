"""``torch.inference_mode``: inference tensors and PyTorch's errors for using them outside it."""
import pytest

import autograd_py as torch

SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
         "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
         "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
           "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")


def make_inference(*shape):
    with torch.inference_mode():
        return torch.ones(*shape)


def test_context_manager_turns_grad_off_and_marks_new_tensors():
    x = torch.ones(2, requires_grad=True)
    assert not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        y = x * 2
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert y.is_inference() and not y.requires_grad and y.grad_fn is None
    assert not x.is_inference()


def test_mode_false_enables_grad_and_makes_normal_tensors():
    with torch.no_grad():
        with torch.inference_mode(mode=False):
            assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert not torch.ones(1).is_inference()
        assert torch.is_inference_mode_enabled()


def test_decorator_with_and_without_parentheses():
    @torch.inference_mode()
    def double(t):
        return t * 2

    @torch.inference_mode
    def triple(t):
        return t * 3

    x = torch.ones(1, requires_grad=True)
    assert double(x).is_inference() and triple(x).is_inference()
    assert double.__name__ == "double" and torch.is_grad_enabled()


def test_views_and_detached_copies_stay_inference_tensors_clones_do_not():
    y = make_inference(2, 2)
    assert y.detach().is_inference() and y.view(4).is_inference() and y[0].is_inference()
    assert not y.clone().is_inference()
    normal = torch.ones(2)
    with torch.inference_mode():
        view = normal[0:1]
        normal.add_(1)  # in-place on a normal tensor inside inference mode is allowed
    assert not view.is_inference() and normal._version == 1


def test_version_counter_is_not_tracked():
    with pytest.raises(RuntimeError) as info:
        make_inference(2)._version
    assert str(info.value) == "Inference tensors do not track version counter."


def test_saving_for_backward_is_refused():
    y = make_inference(2)
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x * y
    assert str(info.value) == SAVED
    assert (x + y).grad_fn is not None  # add saves nothing, as in PyTorch
    (x * y.clone()).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_inplace_update_outside_inference_mode_is_refused():
    y = make_inference(2)
    with pytest.raises(RuntimeError) as info:
        y.add_(1)
    assert str(info.value) == INPLACE
    assert y.tolist() == [2.0, 2.0]  # PyTorch writes, then fails to bump the version
    with torch.inference_mode():
        y.add_(1)
    assert y.tolist() == [3.0, 3.0]


def test_requires_grad_cannot_be_set_outside_inference_mode():
    y = make_inference(2)
    with pytest.raises(RuntimeError) as info:
        y.requires_grad_()
    assert str(info.value) == "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
    with pytest.raises(RuntimeError):
        y.requires_grad = True
    y.requires_grad_(False)  # turning it off is fine
    with pytest.raises(RuntimeError):
        torch.nn.Parameter(y)


def test_numpy_of_an_inference_tensor():
    assert make_inference(2).numpy().tolist() == [1.0, 1.0]


def test_numpy_under_no_grad_for_a_tensor_that_requires_grad():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.numpy()
    assert str(info.value) == "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    with torch.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
    assert x.numpy(force=True).tolist() == [1.0, 1.0]
