// The controls' copy of a scene's parameters, which every view with fields keeps (Params of a ParamScene).
// The fields edit it, so a value the scene refused stays in its field beside its message; it follows the
// scene when the scene changes from outside the controls (page API, preset, link, reset). A text field being
// typed into would then write its old text back over the new one at the next frame, so it lets go.
//
//   if (edit_.sync(scene_)) { … }        first in controls() and stage(): true when the scene's parameters
//                                        were copied in (an outside change: refresh what depends on them)
//   edit_.release_fields({"##text"})     once per controls(), before the text fields: after an outside
//                                        change, the one being typed into lets go
//   edit_.submit(st, scene_, "d_k")      the buffer to the scene, its answer reported under the key; what the
//                                        controls changed is already in the fields (no outside change)
//   edit_.submitted(scene_)              the same after the controls changed the scene another way
//   edit_.forget()                       the next sync copies the scene's parameters whatever happened
#pragma once
#include <initializer_list>

#include "app/state.h"

namespace ap {

// The text field with one of these ids (in the current ID stack) lets go if it is being typed into.
void release_active_field(std::initializer_list<const char*> text_field_ids);

template <class Params>
class EditBuffer {
 public:
  Params p;  // what the fields show

  template <class S>
  bool sync(const S& scene) {
    if (seen_ == scene.generation()) return false;
    seen_ = scene.generation();
    p = scene.params();
    outside_ = true;
    return true;
  }
  void release_fields(std::initializer_list<const char*> text_field_ids) {
    if (outside_) release_active_field(text_field_ids);
    outside_ = false;
  }
  template <class S>
  Status submit(PlaygroundState& st, S& scene, const char* key) {
    Status s = report_result(st, key, scene.apply(p));
    seen_ = scene.generation();
    return s;
  }
  template <class S>
  void submitted(const S& scene) { seen_ = scene.generation(); }
  void forget() { seen_ = -1; }

 private:
  int seen_ = -1;         // the scene's generation the buffer last followed
  bool outside_ = false;  // the scene changed outside the controls since they last drew
};

}  // namespace ap
