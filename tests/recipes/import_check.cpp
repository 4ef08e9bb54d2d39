// The import the page does, on files the recipes of docs/recipes/ wrote (tests/recipes/run_recipes.py runs
// them with stand-ins for NumPy, PyTorch and transformers): each file given goes through
// ImportScene::import_file in order, as the page hands over several files picked or dropped at once (.npy
// first). Prints what the scene then holds as one line of JSON; a refused file exits 1 with its message.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/scenes/import_scene.h"

int main(int argc, char** argv) {
  ap::ImportScene scene;
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "%s: cannot be read\n", argv[i]);
      return 1;
    }
    const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const ap::Status s = scene.import_file(argv[i], bytes);
    if (!s.ok) {
      std::fprintf(stderr, "%s: refused: %s\n", argv[i], s.message.c_str());
      return 1;
    }
  }
  const ap::ImportData& d = scene.data();
  const nlohmann::json out = {{"layers", d.w.layers}, {"heads", d.w.heads}, {"n", d.w.n}, {"tokens", d.w.tokens},
                              {"max_row_sum_dev", d.max_row_sum_dev}, {"example", scene.is_example()}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
