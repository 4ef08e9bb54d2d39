"""A stand-in for the little of Hugging Face transformers that docs/recipes/huggingface_attentions.py uses
(tests/recipes/run_recipes.py): a tokenizer that lower-cases words and wraps them in [CLS] … [SEP], and a
model whose forward returns `attentions` as the real one does: a tuple of one [batch, heads, n, n] tensor per
layer, each row a softmax (here of seeded scores). Two layers of three heads."""
import math
import random
import re

import torch


class _Tokenizer:
    def __init__(self):
        self.vocab = {}

    def __call__(self, text, return_tensors=None):
        assert return_tensors == "pt"
        words = ["[CLS]"] + re.findall(r"\w+|[^\w\s]", text.lower()) + ["[SEP]"]
        ids = [self.vocab.setdefault(w, len(self.vocab)) for w in words]
        return {"input_ids": torch.tensor([ids]), "attention_mask": torch.tensor([[1] * len(ids)])}

    def convert_ids_to_tokens(self, ids):
        back = {i: w for w, i in self.vocab.items()}
        return [back[i] for i in ids]


class _Outputs:
    def __init__(self, attentions):
        self.attentions = attentions


class _Model:
    layers, heads = 2, 3

    def __call__(self, input_ids=None, attention_mask=None, output_attentions=False):
        rng = random.Random(1)
        n = len(input_ids.tolist()[0])

        def softmax(row):
            m = max(row)
            e = [math.exp(v - m) for v in row]
            return [v / sum(e) for v in e]
        maps = tuple(torch.tensor([[[softmax([rng.gauss(0, 2) for _ in range(n)]) for _ in range(n)]
                                    for _ in range(self.heads)]]) for _ in range(self.layers))
        return _Outputs(maps if output_attentions else None)


class AutoTokenizer:
    @staticmethod
    def from_pretrained(name):
        return _Tokenizer()


class AutoModel:
    @staticmethod
    def from_pretrained(name):
        return _Model()
