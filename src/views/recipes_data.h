// The recipes of docs/recipes/ (Python that saves a model's attention for the import scene), embedded at
// build time by tools/embed_text.py; the README quotes the same files (tests/recipes/run_recipes.py checks).
#pragma once
namespace ap::recipes {
extern const char* const huggingface_attentions_py;  // Hugging Face transformers, output_attentions=True
extern const char* const pytorch_hook_py;            // a forward hook on nn.MultiheadAttention
}  // namespace ap::recipes
