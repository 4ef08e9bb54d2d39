// Compiling and linking a GLSL program from the bodies in shaders/ (the #version line is added here:
// "#version 300 es" with float precision on WebGL2, "#version 330 core" natively). Logs go to stderr.
#pragma once
#include "widgets/gl.h"

namespace ap {

// 0 when compiling or linking fails (the log names `what`).
GLuint gl_program(const char* vertex_body, const char* fragment_body, const char* what);

}  // namespace ap
