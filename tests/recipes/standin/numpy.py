"""A stand-in for the little of NumPy that docs/recipes/*.py use (tests/recipes/run_recipes.py): arrays of
float32 in C order, np.stack, .astype, .shape, .tolist and np.save, which writes the real .npy format 1.0
(magic, header dict padded to 64 bytes, little-endian '<f4' data), so the playground's reader is tested on
what the recipes would write. Not NumPy: no broadcasting, no other dtype."""
import struct

float32 = "float32"


class ndarray:
    def __init__(self, shape, flat):
        self.shape = tuple(shape)
        self._flat = [float(v) for v in flat]
        size = 1
        for s in self.shape:
            size *= s
        assert size == len(self._flat), (self.shape, len(self._flat))

    def astype(self, dtype):
        assert dtype == float32
        return ndarray(self.shape, [struct.unpack("<f", struct.pack("<f", v))[0] for v in self._flat])

    def tolist(self):
        def nest(shape, flat):
            if len(shape) == 1:
                return list(flat)
            step = len(flat) // shape[0]
            return [nest(shape[1:], flat[i * step:(i + 1) * step]) for i in range(shape[0])]
        return nest(self.shape, self._flat) if self.shape else self._flat[0]


def array(nested):
    shape, flat = [], []
    level = nested
    while isinstance(level, (list, tuple)):
        shape.append(len(level))
        level = level[0] if level else None

    def walk(v):
        if isinstance(v, (list, tuple)):
            for e in v:
                walk(e)
        else:
            flat.append(v)
    walk(nested)
    return ndarray(shape, flat)


def stack(arrays):
    arrays = list(arrays)
    assert arrays and all(a.shape == arrays[0].shape for a in arrays)
    flat = []
    for a in arrays:
        flat.extend(a._flat)
    return ndarray((len(arrays),) + arrays[0].shape, flat)


def save(path, a):
    shape = "(" + ", ".join(str(s) for s in a.shape) + ("," if len(a.shape) == 1 else "") + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * (63 - (10 + len(header)) % 64) + "\n"  # NumPy pads magic + length + header to 64 bytes
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(a._flat), *a._flat))
