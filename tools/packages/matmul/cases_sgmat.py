"""ai.onnx.MatMul test cases of the subgroup-matrix GEMMs: the Hub's 8 x 8 x 8 variants
(matmul-subgroup-matrix-ext.wgsl.jinja, planned on apple-m3.json) and the tensor-core variants
(matmul-subgroup-matrix-tiled.wgsl.jinja, 16 x 16 x 16 f16 -> f32, run on the H200); both share
matmul-sgmat-common.wgsl.jinja. See common.py and gen.py.

Neither family runs on lavapipe (no subgroup matrices): there these cases run on the other
variants, so each stays under 20 MFLOP. Every case is ragged somewhere: rows past the tile,
columns past the tile (N % 64 or N % 128 != 0), or k past the K slice (K % 32 != 0, which the
Hub's variants exclude and the tensor-core ones zero-fill); the Hub's split-K cases sum 32 and
4 slices of K. `variant` names the variant the case reaches on its profile (Hub: apple-m3,
tensor core: h200); the Hub shapes reach a tensor-core variant on the H200 too.
"""
from common import mm_case

CASES = [
    # Hub variants (apple-m3), reaching the tensor-core ones on the H200 as noted.
    # 5 row tiles of 32 (the last 2 rows), 3 column tiles; H200: tensor_core_f16, 3 x 3 tiles of 64.
    mm_case("sgmat_hub_rank2_f16", "float16", [130, 64], [64, 192], variant="subgroup_matrix"),
    # f32 in and out: the f32 x f32 -> f32 config (H200: no tensor-core variant, f16 only).
    mm_case("sgmat_hub_rank2_f32", "float32", [96, 96], [96, 128], variant="subgroup_matrix"),
    # N = 100: a guarded last column tile (eligible, demoted by sgmatNPaddingHigh on apple-m3).
    mm_case("sgmat_hub_rank2_ntail_f16", "float16", [70, 32], [32, 100], variant="subgroup_matrix"),
    # K 2048 split 32 ways (kPerSplit 64) on apple-m3; H200: tensor_core_f16_splitk, 8 splits.
    mm_case("sgmat_hub_splitk_f16", "float16", [64, 2048], [2048, 64], variant="subgroup_matrix_splitk"),
    # [1, M, K] folded to 130 rows.
    mm_case("sgmat_hub_folded_f16", "float16", [1, 130, 64], [64, 192], variant="folded_rows_subgroup_matrix"),
    mm_case("sgmat_hub_folded_splitk_f16", "float16", [1, 64, 1024], [1024, 64],
            variant="folded_rows_subgroup_matrix_splitk"),
    # [2, 65, K] @ [K, N]: 130 contiguous rows against one b.
    mm_case("sgmat_hub_batched3_f16", "float16", [2, 65, 64], [64, 128], variant="batched3_by_rank2_subgroup_matrix"),
    # Rank 4, same batch dims: 6 batches of 40 x 128 (H200: tensor_core_f16_batched).
    mm_case("sgmat_hub_batched4_f16", "float16", [2, 3, 40, 64], [2, 3, 64, 128], variant="batched_subgroup_matrix"),

    # Tensor-core variants (h200).
    # 3 x 4 tiles of 64 x 64, ragged in M (130), N (196) and K (200 = 6 slices of 32 + 8).
    mm_case("tc_rank2_ragged_f16", "float16", [130, 200], [200, 196], variant="tensor_core_f16"),
    # K = 16: less than one slice.
    mm_case("tc_rank2_k16_f16", "float16", [64, 16], [16, 64], variant="tensor_core_f16"),
    # [2, 2, 33, K] @ [K, N]: rank 4 folded into 132 rows.
    mm_case("tc_folded4_f16", "float16", [2, 2, 33, 64], [64, 68], variant="tensor_core_f16"),
    # Long K (1100: 8 slices of 128 + 76), ragged rows (40) and columns (132).
    mm_case("tc_longk_ragged_f16", "float16", [40, 1100], [1100, 132], variant="tensor_core_f16"),
    # Rank 3, 3 batches of 50 x 68 with K 72.
    mm_case("tc_batched3_ragged_f16", "float16", [3, 50, 72], [3, 72, 68], variant="tensor_core_f16_batched"),
]
