// Must not compile: the app layer (scenes' logic, page API) has no ImGui, so the native tests need none.
#include "widgets/matrix_view.h"
