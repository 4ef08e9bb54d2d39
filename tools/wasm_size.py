#!/usr/bin/env python3
"""Where the first visit's bytes are: the app's wasm by part (code per library or layer, data), raw and gzipped.

  tools/wasm_size.py build/wasm/attention_playground.wasm [build/wasm/attention_playground.js.symbols]

The wasm's code section holds one body per function; the symbol map that the link writes
(--emit-symbol-map, CMakeLists.txt) names each function by its index, so every body is counted under the part
its (mangled) name belongs to. Data segments are the fonts (ui/fonts_data.h), string tables and other constants.
Each part's gzip figure compresses that part's bytes alone (-9): the parts do not add up to the whole file's
gzip exactly, but they say where the bytes are. Prints JSON (tools/bench.mjs puts it in build/bench.json).
"""
import gzip
import json
import re
import sys

# The part of a function, by its demangled name (the symbol map escapes it: \20 is a space): the first of
# these namespaces or prefixes named in it decides ("bool std::__2::operator!=<ap::Scene …>" is libc++).
LEADS = [
    ('ap::', 'ap'), ('ImGui', 'imgui'), ('ImFont', 'imgui'), ('ImDraw', 'imgui'), ('ImVector', 'imgui'),
    ('ImGuiTextBuffer', 'imgui'), ('stbtt', 'imgui'), ('stb_textedit', 'imgui'), ('stbrp', 'imgui'),
    ('Im', 'imgui'), ('nlohmann::', 'nlohmann_json'), ('SDL_', 'sdl2'), ('Emscripten_', 'sdl2'), ('Blit', 'sdl2'),
    ('stbi', 'stb_image_write'), ('std::', 'libcxx'), ('__cxa', 'libcxx'), ('__cxx', 'libcxx'), ('Eigen::', 'eigen'),
]


def part_of(raw):
    name = re.sub(r'\\([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)), raw)
    best = None
    for lead, part in LEADS:
        k = name.find(lead)
        if k >= 0 and (best is None or k < best[0]):
            best = (k, part)
    if best is None:
        return ('libc_and_glue' if name else 'unnamed'), name
    part = best[1]
    if part == 'ap':
        m = re.search(r'ap::(?:\(anonymous namespace\)::)?([A-Za-z_0-9]+)', name)
        cls = m.group(1) if m else ''
        part = 'ap_views' if cls.endswith('View') else 'ap_scenes' if cls.endswith('Scene') else 'ap'
    return part, name


def leb(b, i):
    result = shift = 0
    while True:
        byte = b[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, i


def sections(b):
    assert b[:4] == b'\0asm', 'not a wasm file'
    i = 8
    while i < len(b):
        sid = b[i]
        size, j = leb(b, i + 1)
        yield sid, b[j:j + size]
        i = j + size


def imported_functions(imp):
    count, i = leb(imp, 0)
    funcs = 0
    for _ in range(count):
        for _ in range(2):  # module, field
            n, i = leb(imp, i)
            i += n
        kind = imp[i]
        i += 1
        if kind == 0:
            _, i = leb(imp, i)
            funcs += 1
        elif kind == 1:  # table: reftype, limits
            i += 1
            flags = imp[i]
            i += 1
            _, i = leb(imp, i)
            if flags & 1:
                _, i = leb(imp, i)
        elif kind == 2:  # memory: limits
            flags = imp[i]
            i += 1
            _, i = leb(imp, i)
            if flags & 1:
                _, i = leb(imp, i)
        elif kind == 3:  # global: type, mutability
            i += 2
    return funcs


def main():
    wasm = open(sys.argv[1], 'rb').read()
    names = {}
    if len(sys.argv) > 2:
        for line in open(sys.argv[2], encoding='utf-8', errors='replace'):
            k, _, name = line.rstrip('\n').partition(':')
            if k.isdigit():
                names[int(k)] = name
    imports = 0
    parts = {}
    data = bytearray()
    other = 0
    biggest = []
    for sid, body in sections(wasm):
        if sid == 2:
            imports = imported_functions(body)
        elif sid == 10:
            count, i = leb(body, 0)
            for k in range(count):
                size, j = leb(body, i)
                fn = body[j:j + size]
                i = j + size
                part, name = part_of(names.get(imports + k, ''))
                parts.setdefault(part, bytearray()).extend(fn)
                if part.startswith('ap'):
                    biggest.append((size, name))
        elif sid == 11:
            data.extend(body)
        else:
            other += len(body)
    out = {'file_bytes': len(wasm), 'file_gzip': len(gzip.compress(wasm, 9)), 'parts': {}}
    for p, b in sorted(parts.items(), key=lambda kv: -len(kv[1])):
        out['parts']['code_' + p] = {'bytes': len(b), 'gzip': len(gzip.compress(bytes(b), 9))}
    out['parts']['data'] = {'bytes': len(data), 'gzip': len(gzip.compress(bytes(data), 9))}
    out['parts']['other_sections'] = {'bytes': other}
    biggest.sort(reverse=True)
    out['largest_ap_functions'] = [{'bytes': s, 'name': n[:120]} for s, n in biggest[:15]]
    print(json.dumps(out, indent=1))


if __name__ == '__main__':
    main()
