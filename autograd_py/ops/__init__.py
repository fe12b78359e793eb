"""Differentiable primitives, one small backward per input, written in Tensor ops."""
