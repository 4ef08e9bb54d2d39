// The scenes, in the order of the lecture notes' path (学习路线), one line each: the registry of the program.
// AP_SCENE_LIST(X) calls X(Name) for every scene, where src/app/scenes/<name>_scene.h declares NameScene and
// src/views/<name>_view.h declares NameView (a scene without its view does not compile, naming the view).
// app/scene_registry.cpp makes the scenes from it, views/view_registry.cpp their views; the build includes
// every scene's and view's header for them (CMakeLists.txt: ap_umbrella_header), so adding a scene touches its
// own files and one line here.
//
// The page opens at Sdpa (app/state.h kDefaultScene); Import is not on the notes' path.
#pragma once

#define AP_SCENE_LIST(X)                                                                    \
  X(Bottleneck) /* the Seq2Seq bottleneck: one fixed vector for the whole sentence */       \
  X(Bahdanau)   /* additive attention over a bidirectional encoder, scored with s_t-1 */     \
  X(Luong)      /* dot, general and concat scores with s_t over a unidirectional encoder */  \
  X(Self)       /* self-attention: Q, K, V from one sentence */                              \
  X(Sdpa)       /* scaled dot-product attention, stage by stage */                           \
  X(Scaling)    /* why divide by √d_k */                                                      \
  X(Multihead)  /* multi-head attention */                                                   \
  X(Masks)      /* padding and causal masks, and their bugs */                               \
  X(Train)      /* watch a two-layer model learn "it" → its referent */                      \
  X(Cost)       /* the cost of it all: attention against an RNN, measured */                 \
  X(Import)     /* your own model's attention, from a file */
