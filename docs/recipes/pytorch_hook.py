# The weights of a plain attention module, recorded by a forward hook, for "Your model's attention".
# Needs: pip install torch numpy. Writes attention.npy [heads, n, n] and tokens.json beside it.
import json

import numpy as np
import torch
from torch import nn

tokens = ["I", "love", "cats", "and", "dogs"]
d_model, heads = 16, 2
torch.manual_seed(0)
attention = nn.MultiheadAttention(d_model, heads, batch_first=True)  # your model's module goes here

recorded = []
def keep_weights(module, args, output):
    recorded.append(output[1][0].detach())  # output = (values, weights [batch, heads, n, n])
hook = attention.register_forward_hook(keep_weights)

# Your embeddings [batch, n, d_model]. A module called with need_weights=False (nn.TransformerEncoderLayer
# does) returns no weights: call it as here, per head (average_attn_weights=False).
x = torch.randn(1, len(tokens), d_model)
attention(x, x, x, need_weights=True, average_attn_weights=False)
hook.remove()

np.save("attention.npy", recorded[0].numpy().astype(np.float32))  # [heads, n, n]
with open("tokens.json", "w", encoding="utf-8") as f:
    json.dump({"tokens": tokens}, f, ensure_ascii=False)
print("attention.npy", tuple(recorded[0].shape), "tokens.json", len(tokens))
