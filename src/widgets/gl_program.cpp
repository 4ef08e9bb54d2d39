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

// Compiles both shaders and links them; gl_program_finish then asks once whether it worked: every glGet* is a
// synchronous round trip to the GPU process (tens of ms each at startup with software WebGL), so the compile
// statuses and logs are read only when the link failed.
GLuint gl_program_start(const char* vertex_body, const char* fragment_body) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_body);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_body);
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);  // flagged: freed with the program, still there for the log below
  glDeleteShader(fs);
  return program;
}

GLuint gl_program_finish(GLuint program, const char* what) {
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLuint shaders[2] = {0, 0};
    GLsizei n = 0;
    glGetAttachedShaders(program, 2, &n, shaders);
    for (GLsizei i = 0; i < n; ++i) {
      GLint type = 0;
      glGetShaderiv(shaders[i], GL_SHADER_TYPE, &type);
      report_shader(shaders[i], what, type == GL_VERTEX_SHADER ? "vertex" : "fragment");
    }
    char log[1024] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s program failed to link: %s\n", what, log);
    glDeleteProgram(program);
    program = 0;
  }
  return program;
}

GLuint gl_program(const char* vertex_body, const char* fragment_body, const char* what) {
  return gl_program_finish(gl_program_start(vertex_body, fragment_body), what);
}

}  // namespace ap
