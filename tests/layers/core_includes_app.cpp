// Must not compile: the core is the numeric heart and knows nothing above it.
#include "app/scene.h"
