#include "widgets/gl_program.h"

#include <cstdio>
#include <string>

namespace ap {

namespace {
GLuint compile(GLenum type, const char* body) {
#ifdef __EMSCRIPTEN__
  const std::string src = std::string("#version 300 es\nprecision highp float;\nprecision highp int;\n") + body;
#else
  const std::string src = std::string("#version 330 core\n") + body;
#endif
  const char* p = src.c_str();
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  return s;
}

// Only after a failed link: which shader failed, and why (each query waits for the GPU process).
void report_shader(GLuint s, const char* what, const char* kind) {
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (ok) return;
  char log[1024] = {};
  glGetShaderInfoLog(s, sizeof log, nullptr, log);
  std::fprintf(stderr, "%s %s shader: %s\n", what, kind, log);
}
}  // namespace

// Compiles both shaders and links them, then asks once whether it worked: every glGet* is a synchronous
// round trip to the GPU process (tens of ms each at startup with software WebGL), so the compile
// statuses and logs are read only when the link failed.
GLuint gl_program(const char* vertex_body, const char* fragment_body, const char* what) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_body);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_body);
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    report_shader(vs, what, "vertex");
    report_shader(fs, what, "fragment");
    char log[1024] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s program failed to link: %s\n", what, log);
    glDeleteProgram(program);
    program = 0;
  }
  glDeleteShader(vs);
  glDeleteShader(fs);
  return program;
}

}  // namespace ap
