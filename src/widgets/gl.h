// OpenGL entry points for our own drawing (heatmaps). WebGL2 = GLES 3.0 on the web; GL 3.3 core natively,
// where glvnd's libGL exports every core function, so prototypes are enough (no loader).
#pragma once
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif
