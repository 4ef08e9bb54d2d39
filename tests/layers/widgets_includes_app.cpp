// Must not compile: widgets draw; they know nothing of the app layer (scenes, state, page API).
#include "app/state.h"
