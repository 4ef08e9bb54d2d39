#include "widgets/gl_program.h"

#include <cstdio>
#include <string>

namespace ap {

namespace {
GLuint compile(GLenum type, const char* body, const char* what) {
#ifdef __EMSCRIPTEN__
  const std::string src = std::string("#version 300 es\nprecision highp float;\nprecision highp int;\n") + body;
#else
  const std::string src = std::string("#version 330 core\n") + body;
#endif
  const char* p = src.c_str();
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s shader: %s\n", what, log);
    glDeleteShader(s);
    return 0;
  }
  return s;
}
}  // namespace

GLuint gl_program(const char* vertex_body, const char* fragment_body, const char* what) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_body, what);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_body, what);
  if (!vs || !fs) {
    if (vs) glDeleteShader(vs);
    if (fs) glDeleteShader(fs);
    return 0;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s program failed to link: %s\n", what, log);
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

}  // namespace ap
