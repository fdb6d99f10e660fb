"""ai.onnx.MatMul test cases of the no-transpose vec4 register-tiled GEMM
(matmul-notrans-vec4-tiled-reg.wgsl.jinja): see common.py and gen.py.

The variants' conditions force a minimum size: 32 to 64 output blocks of 128 x 64 (or 64 x 64),
so these cases are a few MFLOP to 34 MFLOP (split-K needs 32 workgroups of 128 x 64 x 128) and
K is kept at the smallest value that still covers the path. Every case is ragged in M (rows
past rowCount are clamped on load and skipped on store) and in N (vec4 columns past N / 4),
and the ones marked so walk several K tiles (register prefetch, one or two workgroup buffers).
On lavapipe (subgroups 8/8) the rank-2 and batched variants are demoted but eligible;
folded_rows_notrans_f32_vec4_tiled_reg needs a subgroup width of 32 and is only planned
(h200.json, no-subgroups.json).
"""
from common import mm_case

CASES = [
    # 2 x 32 blocks of 128 x 64 (>= NOTRANS_VEC4_MIN_BLOCKS), one K tile of 32.
    mm_case("notrans_f32_rank2_ragged", "float32", [130, 32], [32, 2044],
            variant="rank2_notrans_f32_vec4_tiled_reg"),
    # 2 x 16 blocks of 64 x 64 (16 of 128 x 64 < 64); two K tiles, double-buffered where
    # 2 x (64 + 64) x 32 x 4 bytes fit (lavapipe's 32 KiB, the H200's 48 KiB).
    mm_case("notrans_f32_rank2_m64_ragged", "float32", [96, 64], [64, 1020],
            variant="rank2_notrans_f32_vec4_tiled_reg_m64"),
    # 2 x 4 tiles x splitK 4 (K 512: kPerSplit 128 = 4 K tiles, one workgroup buffer on lavapipe).
    mm_case("notrans_f32_rank2_splitk_ragged", "float32", [130, 512], [512, 252],
            variant="rank2_notrans_f32_vec4_tiled_reg_splitk"),
    # [1, 130, K] folded to 130 rows: 2 x 16 blocks; planned only (subgroup width 32).
    mm_case("notrans_f32_folded_rows_ragged", "float32", [1, 130, 32], [32, 1020],
            variant="folded_rows_notrans_f32_vec4_tiled_reg"),
    # Batch 2 x (2 x 16) blocks of 64 x 64 (2 x 1 x 16 blocks of 128 < 64), two K tiles.
    mm_case("notrans_f32_batched3_ragged", "float32", [2, 80, 64], [2, 64, 1020],
            variant="batched_notrans_f32_vec4_tiled_reg"),
    # [2, 65, 64] folded to 130 rows: 2 x 32 blocks of 128 x 64, two kTile-32 tiles (on the
    # H200 the 48 KiB double-buffered path of the large f16 GEMMs).
    mm_case("notrans_f16_folded_rows_ragged", "float16", [2, 65, 64], [64, 2044],
            variant="folded_rows_notrans_f16_vec4_tiled_reg"),
    # 64 blocks of 128 x 64 (< NOTRANS_VEC4_F16_SMALL_TILE_MAX_BLOCKS): the 8 x 8 variant and
    # the 16 x 16 one are both eligible; K 48 = three kTile-16 tiles.
    mm_case("notrans_f16_rank2_ragged", "float16", [130, 48], [48, 2044],
            variant="rank2_notrans_f16_vec4_tiled_reg_wg8"),
    # 2 x 16 blocks of 64 x 64; K 48 = three kTile-16 tiles.
    mm_case("notrans_f16_rank2_m64_ragged", "float16", [96, 48], [48, 1020],
            variant="rank2_notrans_f16_vec4_tiled_reg_m64"),
    # Rank 4, batch 2 x 2, 65 rows: 64 blocks of 128 x 64, the 8 x 8 and 16 x 16 variants.
    mm_case("notrans_f16_batched4_ragged", "float16", [2, 2, 65, 16], [2, 2, 16, 1020],
            variant="batched_notrans_f16_vec4_tiled_reg_wg8"),
    # The same two shapes aimed at the 16 x 16 variants (both are eligible; these cases make the
    # render test plan them by name, and `--all-variants` runs each once more).
    mm_case("notrans_f16_rank2_ragged_wg16", "float16", [130, 48], [48, 2044],
            variant="rank2_notrans_f16_vec4_tiled_reg"),
    mm_case("notrans_f16_batched4_ragged_wg16", "float16", [2, 2, 65, 16], [2, 2, 16, 1020],
            variant="batched_notrans_f16_vec4_tiled_reg"),
]
