"""``vmap``: vectorized maps, with batching rules that run each op once per batch."""
from .batched import BatchedTensor
from .vmap import vmap

__all__ = ["BatchedTensor", "vmap"]
