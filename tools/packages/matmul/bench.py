"""ai.onnx.MatMul bench cases (bench.json), written by gen.py.

Every case declares `flops` (2 * batch * M * N * K: one multiply and one add per term), so
`wgk bench` reports TFLOPS and the share of the device's FMA / matrix peak for the compute-bound
ones, beside GB/s and the share of the copy roofline for the memory-bound ones (docs/benchmarks.md).

  decode    1xK @ KxN f16 GEMV for every K, N in {2048, 4096, 11008, 14336, 16384} (a weight read
            once per token: memory-bound; "large" when the weight is 32 MiB or more), a few f32
            GEMVs, and one token's attention products (scores and values, 32 heads of 128)
  prefill   MxK @ KxN f16 with M in {128, 512, 2048}, K = N = 4096 (a prompt through one
            projection), 4096^3 in f16 and f32 (also "compute"), and a 512-token prompt's attention
  smoke     three cases small enough for lavapipe (CI runs `wgk bench --smoke`)

Inputs are uniform in [-1, 1] with a seed per input. The report matches torch peers by case name
(tools/peers/torch_matmul_peers.py writes bench.json's names), else by op and bytes: a K x N GEMV
and its N x K twin move the same bytes, so the names keep them apart.
"""
from common import matmul_shape, numel

SIZES = [2048, 4096, 11008, 14336, 16384]
DTYPE_BYTES = {"float16": 2, "float32": 4}
SHORT = {"float16": "f16", "float32": "f32"}
MIB = 1 << 20

# Where the GEMV shapes come from (hidden x projection of well-known models).
MODELS = {
    (4096, 4096): "Llama 3.1 8B attention q / o projection",
    (4096, 11008): "Llama 2 7B FFN gate / up",
    (11008, 4096): "Llama 2 7B FFN down",
    (4096, 14336): "Llama 3.1 8B FFN gate / up",
    (14336, 4096): "Llama 3.1 8B FFN down",
    (2048, 16384): "Gemma 2B FFN gate / up",
    (16384, 2048): "Gemma 2B FFN down",
    (2048, 2048): "Llama 3.2 1B attention q / o projection",
}


def flops(a_shape, b_shape):
    """2 * (every output element) * K: numpy.matmul's multiply-adds, twice."""
    return 2 * numel(matmul_shape(a_shape, b_shape)) * a_shape[-1]


class Cases:
    def __init__(self):
        self.cases = []
        self.seed = 0

    def data(self):
        self.seed += 1
        return {"kind": "random", "seed": self.seed, "min": -1, "max": 1}

    def add(self, name, dtype, a_shape, b_shape, tags, description):
        self.cases.append({
            "name": name,
            "description": description,
            "tags": tags,
            "flops": flops(a_shape, b_shape),
            "inputs": {
                "a": {"dtype": dtype, "shape": list(a_shape), "data": self.data()},
                "b": {"dtype": dtype, "shape": list(b_shape), "data": self.data()},
            },
        })


def bytes_moved(case):
    """What `wgk bench` counts: every input and the output (package::bytesMoved)."""
    a, b = case["inputs"]["a"], case["inputs"]["b"]
    size = DTYPE_BYTES[a["dtype"]]
    return size * (numel(a["shape"]) + numel(b["shape"]) + numel(matmul_shape(a["shape"], b["shape"])))


def gemv(c, k, n, dtype):
    weight = k * n * DTYPE_BYTES[dtype]
    tags = ["decode"] + (["large"] if weight >= 32 * MIB else [])
    what = MODELS.get((k, n), f"a {k} x {n} weight")
    c.add(f"decode_gemv_{k}x{n}_{SHORT[dtype]}", dtype, [1, k], [k, n], tags,
          f"One token through a {k} x {n} weight ({weight / MIB:.0f} MiB {SHORT[dtype]}): {what}")


def bench_file():
    c = Cases()
    # Smoke: tails in every dimension, a batch; microseconds on lavapipe.
    c.add("smoke_gemv_1x96x80_f16", "float16", [1, 96], [96, 80], ["smoke"],
          "A small GEMV (CI on lavapipe)")
    c.add("smoke_mm_33x40x24_f32", "float32", [33, 40], [40, 24], ["smoke"],
          "A small matrix product with odd M")
    c.add("smoke_batched_2x16x32x24_f16", "float16", [2, 16, 32], [2, 32, 24], ["smoke"],
          "Two batched products")

    for k in SIZES:
        for n in SIZES:
            gemv(c, k, n, "float16")
    for k, n in [(4096, 4096), (4096, 14336), (14336, 4096)]:
        gemv(c, k, n, "float32")
    c.add("decode_attn_scores_1x32x1x128_4096_f16", "float16", [1, 32, 1, 128], [1, 32, 128, 4096], ["decode"],
          "One token's attention scores: 32 heads of 128 against 4096 cached keys (Llama 3.1 8B)")
    c.add("decode_attn_values_1x32x1x4096_128_f16", "float16", [1, 32, 1, 4096], [1, 32, 4096, 128], ["decode"],
          "One token's attention output: 32 heads, weights over 4096 cached values of 128")

    for m in (128, 512, 2048):
        c.add(f"prefill_mm_{m}x4096x4096_f16", "float16", [m, 4096], [4096, 4096], ["prefill"],
              f"A {m}-token prompt through a 4096 x 4096 projection")
    c.add("prefill_mm_4096x4096x4096_f16", "float16", [4096, 4096], [4096, 4096], ["prefill", "compute"],
          "4096^3 in f16: the compute-bound square")
    c.add("prefill_mm_4096x4096x4096_f32", "float32", [4096, 4096], [4096, 4096], ["prefill", "compute"],
          "4096^3 in f32 (no tensor cores: against the f32 FMA peak)")
    c.add("prefill_attn_scores_1x32x512x128_512_f16", "float16", [1, 32, 512, 128], [1, 32, 128, 512],
          ["prefill"], "A 512-token prompt's attention scores: 32 heads of 128")
    c.add("prefill_attn_values_1x32x512x512_128_f16", "float16", [1, 32, 512, 512], [1, 32, 512, 128],
          ["prefill"], "A 512-token prompt's attention output: 32 heads, 512 x 512 weights times 512 x 128")

    names = [x["name"] for x in c.cases]
    assert len(set(names)) == len(names), "duplicate bench case names"
    return {"cases": c.cases, "report": {"warmup": 5, "iterations": 50}}


if __name__ == "__main__":
    for case in bench_file()["cases"]:
        print(f'{case["name"]:48} {bytes_moved(case) / MIB:10.2f} MiB {case["flops"] / 1e9:10.3f} GFLOP '
              f'{case["flops"] / bytes_moved(case):8.1f} FLOP/B {",".join(case["tags"])}')
