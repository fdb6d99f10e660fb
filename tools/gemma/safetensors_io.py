"""safetensors files with numpy alone: read (memory-mapped, zero copy), write (streamed tensor by
tensor), sharded checkpoints (model-0000i-of-0000N.safetensors + model.safetensors.index.json).

The format: 8 bytes, the header's length as a little-endian u64; the header, JSON
  {"NAME": {"dtype": "F16", "shape": [..], "data_offsets": [begin, end]}, ..., "__metadata__": {str: str}}
padded with spaces so that the data starts on an 8-byte boundary; then the data, each tensor's
bytes little-endian and row-major at [begin, end) counted from the data's start. Offsets here are
laid out in the order the tensors are given, without gaps.

numpy has no bfloat16: a BF16 tensor reads as float32 (exact: bf16 is the top half of an f32), and
an array written as "BF16" is rounded from float32 to nearest-even.

  write_file(path, {name: array}, metadata)        small files
  write_streamed(path, specs, metadata)            specs: [TensorSpec(name, dtype, shape, make)],
                                                   make() -> an array or an iterable of row chunks;
                                                   only one tensor (or chunk) is in memory at a time
  write_sharded(out_dir, specs, shards, metadata)  shards == 1 writes model.safetensors
  SafeFile(path)                                   .keys(), .info(name), .get(name) (a read-only
                                                   memory map; .get(name, copy=True) for a copy)
  Checkpoint(dir)                                  a folder: model.safetensors or an index.json's shards
  read_file(path) -> ({name: array}, metadata)     copies

CLI: safetensors_io.py FILE_OR_DIR  lists the tensors (name, dtype, shape, file).
"""
import json, os, struct, sys
from collections import namedtuple
import numpy as np

# safetensors dtype -> numpy dtype as stored (BF16 is stored as uint16 words)
_NP = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2", "I64": "<i8", "I32": "<i4",
       "I16": "<i2", "I8": "i1", "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?"}
_FROM_NP = {np.dtype("float64"): "F64", np.dtype("float32"): "F32", np.dtype("float16"): "F16",
            np.dtype("int64"): "I64", np.dtype("int32"): "I32", np.dtype("int16"): "I16",
            np.dtype("int8"): "I8", np.dtype("uint64"): "U64", np.dtype("uint32"): "U32",
            np.dtype("uint16"): "U16", np.dtype("uint8"): "U8", np.dtype("bool"): "BOOL"}
# names a user may give: "float16", "F16", numpy dtypes
_ALIASES = {"float64": "F64", "float32": "F32", "float16": "F16", "bfloat16": "BF16", "half": "F16",
            "float": "F32", "double": "F64"}

INDEX_NAME = "model.safetensors.index.json"
SINGLE_NAME = "model.safetensors"

TensorSpec = namedtuple("TensorSpec", "name dtype shape make")


def st_dtype(d):
    """The safetensors name ("F16", ...) of a dtype given as a safetensors name, an alias or numpy."""
    if isinstance(d, str):
        if d.upper() in _NP:
            return d.upper()
        if d.lower() in _ALIASES:
            return _ALIASES[d.lower()]
    nd = np.dtype(d)
    if nd not in _FROM_NP:
        raise ValueError(f"no safetensors dtype for {d!r}")
    return _FROM_NP[nd]


def itemsize(dtype):
    return np.dtype(_NP[st_dtype(dtype)]).itemsize


def nbytes(dtype, shape):
    n = itemsize(dtype)
    for s in shape:
        n *= int(s)
    return n


def f32_to_bf16_bits(a):
    """float32 -> bf16 words (uint16), round to nearest even; NaN stays a (quiet) NaN."""
    u = np.ascontiguousarray(a, dtype="<f4").view("<u4")
    r = ((u + (np.uint32(0x7FFF) + ((u >> 16) & np.uint32(1)))) >> 16).astype("<u2")
    nan = np.isnan(a)
    if nan.any():
        r[nan] = ((u[nan] >> 16) | np.uint32(0x40)).astype("<u2")
    return r


def bf16_bits_to_f32(w):
    return (np.asarray(w, dtype="<u2").astype("<u4") << 16).view("<f4")


def _encode(arr, dtype):
    """The bytes-ready contiguous array of `arr` as safetensors `dtype` stores it."""
    if dtype == "BF16":
        a = np.asarray(arr)
        return a.astype("<u2") if a.dtype == np.uint16 else f32_to_bf16_bits(a.astype(np.float32))
    return np.ascontiguousarray(arr, dtype=_NP[dtype])


def _header_bytes(entries, metadata):
    """entries: [(name, dtype, shape, nbytes)] in data order -> (header bytes padded to 8, total data)."""
    head, off = {}, 0
    if metadata:
        head["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, dtype, shape, n in entries:
        if name in head or name == "__metadata__":
            raise ValueError(f"duplicate tensor name {name!r}")
        head[name] = {"dtype": dtype, "shape": [int(s) for s in shape], "data_offsets": [off, off + n]}
        off += n
    js = json.dumps(head, separators=(",", ":")).encode("utf-8")
    js += b" " * (-(8 + len(js)) % 8)
    return struct.pack("<Q", len(js)) + js, off


def _chunks(made):
    if isinstance(made, np.ndarray) or np.isscalar(made):
        yield np.asarray(made)
    else:
        for c in made:
            yield np.asarray(c)


def write_streamed(path, specs, metadata=None):
    """Writes specs (TensorSpec, or (name, dtype, shape, make) tuples) to `path`: the header from
    the declared dtypes and shapes first, then each tensor's data as make() yields it. make() may
    return one array of the declared shape or an iterable of chunks (e.g. blocks of rows) whose
    element counts add up to it. Writes to PATH.tmp and renames at the end. Returns the byte size."""
    specs = [TensorSpec(*s) for s in specs]
    entries = [(s.name, st_dtype(s.dtype), tuple(s.shape), nbytes(s.dtype, s.shape)) for s in specs]
    header, total = _header_bytes(entries, metadata)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        for s, (name, dtype, shape, n) in zip(specs, entries):
            want = n // itemsize(dtype)
            got = 0
            for c in _chunks(s.make()):
                enc = _encode(c, dtype)
                got += enc.size
                if got > want:
                    break
                f.write(memoryview(enc.reshape(-1)).cast("B"))
            if got != want:
                f.close()
                os.unlink(tmp)
                raise ValueError(f"{name}: make() gave {got} elements, shape {list(shape)} needs {want}")
    os.replace(tmp, path)
    return len(header) + total


def write_file(path, tensors, metadata=None):
    """tensors: {name: array} (dtype from the array; a (array, "BF16") pair for bf16)."""
    specs = []
    for name, a in tensors.items():
        dt = None
        if isinstance(a, tuple):
            a, dt = a
        a = np.asarray(a)
        specs.append(TensorSpec(name, st_dtype(dt or a.dtype), a.shape, (lambda a=a: a)))
    return write_streamed(path, specs, metadata)


def shard_plan(specs, shards):
    """Splits specs (in order) into `shards` contiguous groups of about equal bytes."""
    sizes = [nbytes(s.dtype, s.shape) for s in specs]
    total = sum(sizes)
    shards = max(1, min(int(shards), len(specs)))
    groups, cur, acc = [], [], 0
    for i, (s, n) in enumerate(zip(specs, sizes)):
        left_specs, left_groups = len(specs) - i, shards - len(groups)
        # close the current group when it reached its share, or when each remaining group needs a tensor
        if cur and left_groups > 1 and (acc + n / 2 > total * (len(groups) + 1) / shards or left_specs < left_groups):
            groups.append(cur)
            cur = []
        cur.append(s)
        acc += n
    groups.append(cur)
    return groups


def write_sharded(out_dir, specs, shards=1, metadata=None):
    """shards == 1: OUT/model.safetensors. shards > 1: OUT/model-0000i-of-0000N.safetensors and
    OUT/model.safetensors.index.json {"metadata": {"total_size": data bytes}, "weight_map": {name: file}}.
    Returns the list of files written."""
    specs = [TensorSpec(*s) for s in specs]
    os.makedirs(out_dir, exist_ok=True)
    if shards <= 1:
        write_streamed(os.path.join(out_dir, SINGLE_NAME), specs, metadata)
        return [SINGLE_NAME]
    groups = shard_plan(specs, shards)
    n = len(groups)
    files, weight_map = [], {}
    for i, g in enumerate(groups):
        fn = f"model-{i + 1:05d}-of-{n:05d}.safetensors"
        write_streamed(os.path.join(out_dir, fn), g, metadata)
        files.append(fn)
        for s in g:
            weight_map[s.name] = fn
    index = {"metadata": {"total_size": sum(nbytes(s.dtype, s.shape) for s in specs)}, "weight_map": weight_map}
    with open(os.path.join(out_dir, INDEX_NAME), "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    return files + [INDEX_NAME]


class SafeFile:
    """One .safetensors file, memory-mapped. get(name) is a read-only view (BF16: a float32 copy)."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            raw = f.read(8)
            if len(raw) != 8:
                raise ValueError(f"{path}: too short for a safetensors file")
            (hlen,) = struct.unpack("<Q", raw)
            size = os.fstat(f.fileno()).st_size
            if hlen > size - 8 or hlen > 100 << 20:
                raise ValueError(f"{path}: header length {hlen} does not fit the file ({size} bytes)")
            head = json.loads(f.read(hlen).decode("utf-8"))
        self.metadata = head.pop("__metadata__", None) or {}
        self.data_start = 8 + hlen
        self.header = head
        end = 0
        for name, e in head.items():
            b, t = e["data_offsets"]
            if e["dtype"] not in _NP:
                raise ValueError(f"{path}: {name}: unknown dtype {e['dtype']}")
            if t - b != nbytes(e["dtype"], e["shape"]) or b < 0 or self.data_start + t > size:
                raise ValueError(f"{path}: {name}: data_offsets {e['data_offsets']} do not match "
                                 f"{e['dtype']} {e['shape']} in a file of {size} bytes")
            end = max(end, t)
        self._mm = np.memmap(path, dtype=np.uint8, mode="r") if size > self.data_start else np.zeros(0, np.uint8)

    def keys(self):
        return list(self.header.keys())

    def __contains__(self, name):
        return name in self.header

    def info(self, name):
        """(dtype, shape) as the header says ("F16", [a, b])."""
        e = self.header[name]
        return e["dtype"], list(e["shape"])

    def get(self, name, copy=False):
        e = self.header[name]
        b, t = e["data_offsets"]
        raw = self._mm[self.data_start + b:self.data_start + t]
        a = raw.view(_NP[e["dtype"]]).reshape(e["shape"])
        if e["dtype"] == "BF16":
            return bf16_bits_to_f32(a)
        return np.array(a) if copy else a


class Checkpoint:
    """A model folder: model.safetensors, or model.safetensors.index.json and its shards (or, failing
    both, every *.safetensors in it). Same get/info/keys as SafeFile, over all files."""

    def __init__(self, path):
        if os.path.isfile(path):
            self.dir, files, wmap = os.path.dirname(path), [os.path.basename(path)], None
        else:
            self.dir = path
            idx = os.path.join(path, INDEX_NAME)
            if os.path.exists(idx):
                wmap = json.load(open(idx))["weight_map"]
                files = sorted(set(wmap.values()))
            elif os.path.exists(os.path.join(path, SINGLE_NAME)):
                files, wmap = [SINGLE_NAME], None
            else:
                files, wmap = sorted(f for f in os.listdir(path) if f.endswith(".safetensors")), None
                if not files:
                    raise FileNotFoundError(f"{path}: no {SINGLE_NAME}, {INDEX_NAME} or *.safetensors")
        self.files = {f: SafeFile(os.path.join(self.dir, f)) for f in files}
        self.where = {}
        for f, sf in self.files.items():
            for k in sf.keys():
                self.where[k] = f
        if wmap is not None:
            for k, f in wmap.items():
                if self.where.get(k) != f:
                    raise ValueError(f"{INDEX_NAME}: {k} -> {f}, but that file does not hold it")
            extra = set(self.where) - set(wmap)
            if extra:
                raise ValueError(f"{INDEX_NAME}: the shards hold tensors the weight_map lacks: {sorted(extra)[:5]}")
        self.metadata = {}
        for sf in self.files.values():
            self.metadata.update(sf.metadata)

    def keys(self):
        return list(self.where)

    def __contains__(self, name):
        return name in self.where

    def info(self, name):
        return self.files[self.where[name]].info(name)

    def get(self, name, copy=False):
        if name not in self.where:
            raise KeyError(f"{self.dir}: no tensor {name!r}")
        return self.files[self.where[name]].get(name, copy)


def read_file(path):
    sf = SafeFile(path)
    return {k: sf.get(k, copy=True) for k in sf.keys()}, dict(sf.metadata)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: safetensors_io.py FILE_OR_DIR")
    ck = Checkpoint(argv[0])
    for k in ck.keys():
        d, s = ck.info(k)
        print(f"{k}\t{d}\t{s}\t{ck.where[k]}")
    if ck.metadata:
        print("metadata:", json.dumps(ck.metadata))


if __name__ == "__main__":
    main()
