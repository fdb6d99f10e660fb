"""ai.onnx.MatMul test cases of the workgroup-tiled general GEMMs (see common.py and gen.py):
matmul-tiled-general.wgsl.jinja (tiled, batched_tiled, folded_by_rank2_tiled; 32 x 32 tiles)
and matmul-tiled-general-reg.wgsl.jinja (tiled_reg, batched_tiled_reg, batched_by_rank2_tiled_reg,
batched4_broadcast_tiled_reg, folded_by_rank2_tiled_reg; 64 x 64 tiles).

Every case has M, N and K off the tile sizes (tails in all three; K slices are 16) and several
workgroups along x and, where the variant's thresholds allow it cheaply, y. The -reg variants
must meet the TILED_REG_* tunables (rank 2 and folded: >= 64 output tiles, N >= 512, K >= 64;
batched_tiled_reg: M >= 128, N >= 128, K >= 64, >= 64 tiles; the by_rank2 / rank-4 broadcast
ones: M >= 64, N >= 64, K >= 32, >= 32 tiles): the rank-2 ones reach their tile count with a wide
N and few rows (one row tile), the batched ones cover several row tiles. batched_tiled_reg's
thresholds make its two cases the largest (~17 MFLOP). Integer cases draw values over the whole
32-bit range, so products and sums wrap modulo 2^32 (the reference wraps the same way).
"""
from common import mm_case

I32_WRAP = (-2 ** 31, 2 ** 31 - 1)
U32_WRAP = (0, 2 ** 32 - 1)

CASES = [
    # --- matmul-tiled-general (32 x 32 tiles, 2 x 2 per invocation) ---
    mm_case("tiled_f32_65x33x130", "float32", [65, 33], [33, 130], variant="tiled",
            description="rank 2, 3 x 5 tiles with a 1-row, 2-column and 1-k tail"),
    mm_case("tiled_f16_50x40x70", "float16", [50, 40], [40, 70], variant="tiled",
            description="f16 in, f32 accumulate, one rounding; tails in M, N, K"),
    mm_case("tiled_i32_wrap_37x45x70", "int32", [37, 45], [45, 70], variant="tiled",
            int_range=I32_WRAP, description="int32 over the full range: wrapping products and sums"),
    mm_case("tiled_u32_wrap_33x50x34", "uint32", [33, 50], [50, 34], variant="tiled",
            int_range=U32_WRAP, description="uint32 over the full range: wrapping products and sums"),
    mm_case("tiled_f32_k0_40x0x50", "float32", [40, 0], [0, 50], variant="tiled",
            description="K = 0: y is all zeros"),
    mm_case("batched_tiled_f32_3x40x20x50", "float32", [3, 40, 20], [3, 20, 50], variant="batched_tiled",
            description="rank 3, equal batches, 4-k tail"),
    mm_case("batched_tiled_f16_2x2x33x17x40", "float16", [2, 2, 33, 17], [2, 2, 17, 40],
            variant="batched_tiled", description="rank 4, 4 batches, tails in M, N, K"),
    mm_case("batched_tiled_i32_wrap_3x34x19x33", "int32", [3, 34, 19], [3, 19, 33], variant="batched_tiled",
            int_range=I32_WRAP, description="rank 3 int32, wrapping"),
    mm_case("folded_by_rank2_tiled_f32_2x37x24x45", "float32", [2, 37, 24], [24, 45],
            variant="folded_by_rank2_tiled",
            description="rank 3 x rank 2: 74 folded rows, a row tile spans the batch boundary"),
    mm_case("folded_by_rank2_tiled_f16_2x3x11x18x35", "float16", [2, 3, 11, 18], [18, 35],
            variant="folded_by_rank2_tiled", description="rank 4 x rank 2: 66 folded rows"),
    mm_case("folded_by_rank2_tiled_u32_wrap_3x13x21x40", "uint32", [3, 13, 21], [21, 40],
            variant="folded_by_rank2_tiled", int_range=U32_WRAP, description="rank 3 x rank 2 uint32"),

    # --- matmul-tiled-general-reg (64 x 64 tiles, 4 x 4 per invocation) ---
    mm_case("tiled_reg_f32_9x65x4033", "float32", [9, 65], [65, 4033], variant="tiled_reg",
            description="rank 2, 64 column tiles (1-column tail), 9 rows, 1-k tail"),
    mm_case("tiled_reg_f16_7x66x4097", "float16", [7, 66], [66, 4097], variant="tiled_reg",
            description="f16, 65 column tiles, 2-k tail"),
    mm_case("tiled_reg_i32_wrap_5x64x4033", "int32", [5, 64], [64, 4033], variant="tiled_reg",
            int_range=I32_WRAP, description="int32 over the full range: wrapping"),
    mm_case("tiled_reg_u32_wrap_3x67x4100", "uint32", [3, 67], [67, 4100], variant="tiled_reg",
            int_range=U32_WRAP, description="uint32 over the full range: wrapping, 3-k tail"),
    mm_case("batched_tiled_reg_f32_bcast_a_1x129x65_8x65x129", "float32", [1, 129, 65], [8, 65, 129],
            variant="batched_tiled_reg",
            description="rank 3, a's batch of 1 against b's 8; 3 x 3 tiles with 1-row / 1-column tails"),
    mm_case("batched_tiled_reg_f16_bcast_b_8x129x64_1x64x129", "float16", [8, 129, 64], [1, 64, 129],
            variant="batched_tiled_reg", description="rank 3 f16, b's batch of 1 against a's 8"),
    mm_case("batched4_broadcast_tiled_reg_f32_2x1x65x33_1x3x33x130", "float32", [2, 1, 65, 33],
            [1, 3, 33, 130], variant="batched4_broadcast_tiled_reg",
            description="rank 4, broadcast in both leading dims (a 2x1, b 1x3 -> 2x3)"),
    mm_case("batched4_broadcast_tiled_reg_f32_1x1x65x33_1x3x33x385", "float32", [1, 1, 65, 33],
            [1, 3, 33, 385], variant="batched4_broadcast_tiled_reg",
            description="rank 4, a batch of 1 against b's batch of 3; 2 x 7 tiles per batch"),
    mm_case("batched4_broadcast_tiled_reg_f16_1x4x70x40_2x1x40x66", "float16", [1, 4, 70, 40],
            [2, 1, 40, 66], variant="batched4_broadcast_tiled_reg",
            description="rank 4 f16, a 1x4 against b 2x1 -> 2x4"),
    mm_case("batched_by_rank2_tiled_reg_f32_6x65x33_33x130", "float32", [6, 65, 33], [33, 130],
            variant="batched_by_rank2_tiled_reg",
            description="rank 3 x rank 2: 390 folded rows (7 row tiles, tiles span batches)"),
    mm_case("batched_by_rank2_tiled_reg_f16_2x3x65x33_33x130", "float16", [2, 3, 65, 33], [33, 130],
            variant="batched_by_rank2_tiled_reg", description="rank 4 x rank 2 f16"),
    mm_case("folded_by_rank2_tiled_reg_f32_2x5x65_65x4033", "float32", [2, 5, 65], [65, 4033],
            variant="folded_by_rank2_tiled_reg",
            description="rank 3 x rank 2: 10 folded rows, 64 column tiles, 1-k tail"),
    mm_case("folded_by_rank2_tiled_reg_f16_5x2x64_64x4100", "float16", [5, 2, 64], [64, 4100],
            variant="folded_by_rank2_tiled_reg", description="rank 3 x rank 2 f16, 65 column tiles"),
    mm_case("folded_by_rank2_tiled_reg_i32_wrap_3x3x64_64x4033", "int32", [3, 3, 64], [64, 4033],
            variant="folded_by_rank2_tiled_reg", int_range=I32_WRAP,
            description="rank 3 x rank 2 int32, wrapping"),
]
