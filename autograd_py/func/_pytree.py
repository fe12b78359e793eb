"""Nested Python containers of tensors ("pytrees"), flattened to a list of leaves and back.

``torch.func`` accepts and returns tuples, lists, dicts and named tuples of tensors; every
transform flattens them, works on the leaves and rebuilds the same structure. The spec prints as
``torch.utils._pytree.TreeSpec`` does, since PyTorch's error messages show it.
"""


class TreeSpec:
    """The structure of a pytree: a container type, its context (dict keys) and child specs."""

    __slots__ = ("type", "context", "children", "num_leaves")

    def __init__(self, type_, context, children):
        self.type = type_
        self.context = context
        self.children = children
        self.num_leaves = sum(c.num_leaves for c in children)

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and not isinstance(other, LeafSpec)
                and self.type is other.type and self.context == other.context
                and self.children == other.children)

    def __hash__(self):
        return hash((self.type, len(self.children)))

    def __repr__(self, indent=0):
        context = self.context
        if isinstance(context, type):  # a named tuple's context is its class
            context = f"<class '{context.__module__}.{context.__qualname__}'>"
        text = f"TreeSpec({self.type.__name__}, {context}, ["
        if self.children:
            indent += 2
            text += self.children[0].__repr__(indent)
            text += "," if len(self.children) > 1 else ""
            text += ",".join("\n" + " " * indent + c.__repr__(indent) for c in self.children[1:])
        return text + "])"


class LeafSpec(TreeSpec):
    __slots__ = ()

    def __init__(self):
        self.type, self.context, self.children, self.num_leaves = None, None, [], 1

    def __eq__(self, other):
        return isinstance(other, LeafSpec)

    def __hash__(self):
        return 1

    def __repr__(self, indent=0):
        return "*"


_LEAF = LeafSpec()


def _is_namedtuple(obj):
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


def _children(tree):
    """(type, context, children) of a container, or None for a leaf."""
    if _is_namedtuple(tree):
        return type(tree), type(tree), list(tree)
    if type(tree) in (tuple, list):
        return type(tree), None, list(tree)
    if type(tree).__name__ == "Size" and isinstance(tree, tuple):  # torch.Size is a tuple to pytrees
        return tuple, None, list(tree)
    if type(tree) is dict:
        return dict, list(tree.keys()), list(tree.values())
    return None  # a leaf: a tensor, a number, None...


def tree_flatten(tree):
    """Returns ``(leaves, spec)``: the leaves in order and the structure to rebuild it."""
    leaves = []
    spec = _flatten_into(tree, leaves)
    return leaves, spec


def _flatten_into(tree, leaves):
    kind = type(tree)
    if kind is tuple or kind is list:  # the common containers first, without _children's tests
        if not tree:
            return TreeSpec(kind, None, [])
        return TreeSpec(kind, None, [_flatten_into(c, leaves) for c in tree])
    if kind not in _CONTAINERS and not isinstance(tree, tuple):  # a leaf: a tensor, a number, None...
        leaves.append(tree)
        return _LEAF
    parts = _children(tree)
    if parts is None:
        leaves.append(tree)
        return _LEAF
    kind, context, children = parts
    return TreeSpec(kind, context, [_flatten_into(c, leaves) for c in children])


_CONTAINERS = (tuple, list, dict)


def tree_unflatten(leaves, spec):
    """Rebuilds the structure ``spec`` around ``leaves``."""
    if type(leaves) is not list and type(leaves) is not tuple:
        leaves = list(leaves)
    if len(leaves) != spec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec "
                         f"refers to a pytree that holds {spec.num_leaves} items ({spec}).")
    if spec.type is tuple and all(c.type is None for c in spec.children):  # a flat tuple of leaves
        return tuple(leaves)
    return _build(iter(leaves), spec)


def _build(it, spec):
    if spec.type is None:  # a leaf
        return next(it)
    children = [_build(it, c) for c in spec.children]
    if spec.type is dict:
        return dict(zip(spec.context, children))
    if spec.type is list:
        return children
    if spec.type is tuple:
        return tuple(children)
    return spec.type(*children)  # a named tuple


def tree_leaves(tree):
    return tree_flatten(tree)[0]


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


class _Asterisk(str):
    def __repr__(self):
        return "*"


def treespec_pprint(spec):
    """The structure with ``*`` for every leaf: ``(*, *)``, ``{'a': *}``."""
    return repr(tree_unflatten([_Asterisk("*")] * spec.num_leaves, spec))
