# Attention weights of a Hugging Face model, for the playground's scene "Your model's attention".
# Needs: pip install torch transformers numpy. Writes attention.npy [layers, heads, n, n] and tokens.json
# beside it: open both at once (or drop both on the page).
import json

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

name = "bert-base-uncased"  # any model whose forward takes output_attentions
text = "The animal didn't cross the street because it was too tired"

tokenizer = AutoTokenizer.from_pretrained(name)
model = AutoModel.from_pretrained(name)
inputs = tokenizer(text, return_tensors="pt")
with torch.no_grad():
    outputs = model(**inputs, output_attentions=True)

# outputs.attentions: one tensor [batch, heads, n, n] per layer; keep the batch's sentence 0
weights = np.stack([a[0].numpy() for a in outputs.attentions]).astype(np.float32)
np.save("attention.npy", weights)
tokens = tokenizer.convert_ids_to_tokens(inputs["input_ids"][0].tolist())
with open("tokens.json", "w", encoding="utf-8") as f:
    json.dump({"tokens": tokens}, f, ensure_ascii=False)
print("attention.npy", weights.shape, "tokens.json", len(tokens))
