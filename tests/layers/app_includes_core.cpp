// Must compile: the control for the probes that must not (same flags, an include that goes the right way).
#include "app/scene.h"
#include "core/matrix.h"
