"""A stand-in for the little of PyTorch that docs/recipes/*.py use (tests/recipes/run_recipes.py): tensors
of nested lists (indexing the first axis, .shape, .detach, .numpy, .tolist), torch.no_grad, manual_seed,
randn, and nn.MultiheadAttention with forward hooks, whose weights are a real softmax(QKᵀ/√d) per head over
seeded projections, so that what a hook records has the shape and the row sums of the real thing."""
import contextlib
import math
import random
import types

import numpy

_rng = random.Random(0)


def manual_seed(s):
    _rng.seed(s)


class Tensor:
    def __init__(self, nested):
        self._v = nested

    @property
    def shape(self):
        s, v = [], self._v
        while isinstance(v, list):
            s.append(len(v))
            v = v[0] if v else None
        return tuple(s)

    def __getitem__(self, i):
        return Tensor(self._v[i])

    def detach(self):
        return self

    def tolist(self):
        return self._v

    def numpy(self):
        return numpy.array(self._v)


def tensor(nested):
    return Tensor(nested)


def randn(*shape):
    def make(s):
        return [make(s[1:]) for _ in range(s[0])] if len(s) > 1 else [_rng.gauss(0, 1) for _ in range(s[0])]
    return Tensor(make(list(shape)))


@contextlib.contextmanager
def no_grad():
    yield


def _softmax(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = sum(e)
    return [v / s for v in e]


class _Handle:
    def __init__(self, hooks, h):
        self._hooks, self._h = hooks, h

    def remove(self):
        self._hooks.remove(self._h)


class MultiheadAttention:
    def __init__(self, embed_dim, num_heads, batch_first=False):
        assert batch_first and embed_dim % num_heads == 0
        self.d, self.h = embed_dim, num_heads
        self.wq = [[_rng.gauss(0, 1 / math.sqrt(embed_dim)) for _ in range(embed_dim)] for _ in range(embed_dim)]
        self.wk = [[_rng.gauss(0, 1 / math.sqrt(embed_dim)) for _ in range(embed_dim)] for _ in range(embed_dim)]
        self._hooks = []

    def register_forward_hook(self, hook):
        self._hooks.append(hook)
        return _Handle(self._hooks, hook)

    def __call__(self, query, key, value, need_weights=True, average_attn_weights=True):
        proj = lambda x, w: [[sum(x[i][c] * w[c][o] for c in range(self.d)) for o in range(self.d)] for i in range(len(x))]
        dk = self.d // self.h
        batches = []
        for b in range(len(query._v)):
            q, k = proj(query._v[b], self.wq), proj(key._v[b], self.wk)
            heads = []
            for h in range(self.h):
                cols = range(h * dk, (h + 1) * dk)
                heads.append([_softmax([sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(dk) for j in range(len(k))])
                              for i in range(len(q))])
            if average_attn_weights:
                heads = [[[sum(heads[h][i][j] for h in range(self.h)) / self.h for j in range(len(k))]
                          for i in range(len(q))]]
                heads = heads[0]
            batches.append(heads)
        output = (value, Tensor(batches) if need_weights else None)
        for hook in list(self._hooks):
            hook(self, (query, key, value), output)
        return output


nn = types.SimpleNamespace(MultiheadAttention=MultiheadAttention)
