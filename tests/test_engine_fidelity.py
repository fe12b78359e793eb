"""The backward engine takes sequence numbers as PyTorch's does (values recorded from torch 2.13)."""
import autograd_py as T


def _gap_after_backward(make_loss):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = make_loss(x)
    before = loss.grad_fn._sequence_nr()
    loss.backward()
    return (x * 3.0).grad_fn._sequence_nr() - before


def test_a_backward_pass_takes_no_sequence_number_with_one_root_and_no_graph_to_record():
    # torch 2.13 makes no GraphRoot for one root, and its index/select backward makes no node for
    # index_put_/the select's own backward when nothing is recorded: the next op's node is next.
    assert _gap_after_backward(lambda x: x.sum() * 2.0) == 1
    assert _gap_after_backward(lambda x: (x * 2.0)[T.tensor([0, 2, 2])].sum()) == 1
    assert _gap_after_backward(lambda x: x[1] * 2.0) == 1
    assert _gap_after_backward(lambda x: T.index_select(x * 2.0, 0, T.tensor([1, 1])).sum()) == 1


def test_two_roots_take_one_for_their_graph_root():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a, b = (x * 2.0).sum(), (x * 3.0).sum()
    before = b.grad_fn._sequence_nr()
    T.autograd.backward([a, b])
    assert (x * 4.0).grad_fn._sequence_nr() - before == 2
