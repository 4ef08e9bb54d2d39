// Compiling and linking a GLSL program from the bodies in shaders/ (the #version line is added here:
// "#version 300 es" with float precision on WebGL2, "#version 330 core" natively). Logs go to stderr.
#pragma once
#include "widgets/gl.h"

namespace ap {

// 0 when compiling or linking fails (the log names `what`).
GLuint gl_program(const char* vertex_body, const char* fragment_body, const char* what);

// The same in two halves. The GPU process compiles and links while the caller goes on; the first question
// about the program (its status, a uniform's location) waits until it is done. gl_program_start issues the
// work and returns the program at once; gl_program_finish asks, and returns it, or 0 (logged) when it failed.
// Started before other work (the font atlas), the compile no longer stalls the first frame.
GLuint gl_program_start(const char* vertex_body, const char* fragment_body);
GLuint gl_program_finish(GLuint program, const char* what);

}  // namespace ap
