"""ai.onnx.MatMul test cases of the gemv templates (see common.py and gen.py):
matmul-vector-matrix-vec4.wgsl.jinja (vector_matrix_vec4), matmul-vector-matrix-tail.wgsl.jinja
(rank2_m1_vector_matrix_tail4, rank2_m1_vector_matrix_tail1_f16),
matmul-matrix-vector-subgroup.wgsl.jinja (matrix_vector_subgroup / _nosg,
matrix_vector_tail_subgroup / _tail_nosg), matmul-band-vec4.wgsl.jinja (rank2_band_vec4,
folded_by_rank2_band_vec4, batched_band_vec4, rank2_band_vec4_splitk, and the appended
gemv_splitk_vec4 with M = 1), the last four through
matmul-gemv-common.wgsl.jinja.

What they cover: several workgroups with a partly live last one (N not a multiple of 128),
gemvSlices 8, 16 and 32 (on lavapipe), K long enough (1000-3000) that every slice gets chunks,
K not a multiple of the unroll nor of slices x unroll (the guarded last chunk),
rank-1 a, folded [1, 1, K] and [1, 1, 1, K] a, rank-1 b, N % 4 != 0 tails, K % 4 != 0
matrix-vector rows, M = 2..16 bands, split-K with four splits whose ranges do not divide K, and
f16 and f32 throughout. The nosg variants run on lavapipe too under --all-variants (they need no
feature); no-subgroups.json makes them the planner's choice.
"""
from common import mm_case

CASES = [
    # ---- vector_matrix_vec4 ------------------------------------------------------------------
    mm_case("gv_vm_f16_rank1_a", "float16", [1500], [1500, 520], variant="vector_matrix_vec4",
            description="rank-1 a; 5 workgroups (last: 2 live lanes), 32 slices, guarded chunk"),
    mm_case("gv_vm_f32_1x1999", "float32", [1, 1999], [1999, 388], variant="vector_matrix_vec4",
            description="[1, K] a, odd K, 4 workgroups, 32 slices"),
    mm_case("gv_vm_f16_folded3", "float16", [1, 1, 1001], [1001, 1028], variant="vector_matrix_vec4",
            description="folded [1, 1, K] a, 9 workgroups: 32 slices"),
    mm_case("gv_vm_f32_folded4", "float32", [1, 1, 1, 301], [301, 4100], variant="vector_matrix_vec4",
            description="folded [1, 1, 1, K] a, 33 workgroups: 16 slices"),
    mm_case("gv_vm_f16_wide", "float16", [1, 203], [203, 8200], variant="vector_matrix_vec4",
            description="65 workgroups: 8 slices, unroll 16, one partial chunk"),
    # ---- gemv_splitk_vec4 (K >= GEMV_SPLITK_MIN_K = 2048) -------------------------------------
    mm_case("gv_splitk_f16_rank1_a", "float16", [2500], [2500, 520], variant="gemv_splitk_vec4",
            description="rank-1 a; 5 column groups x 8 splits of 313 rows (the last 309), last group 2 live lanes"),
    mm_case("gv_splitk_f32_1x4099", "float32", [1, 4099], [4099, 132], variant="gemv_splitk_vec4",
            description="[1, K] a; 2 column groups x 16 splits of 257 rows (the last 244)"),
    mm_case("gv_splitk_f16_folded3", "float16", [1, 1, 2048], [2048, 4100], variant="gemv_splitk_vec4",
            description="folded [1, 1, K] a; 33 column groups x 8 splits of 256 rows"),
    # ---- N % 4 != 0 tails ----------------------------------------------------------------
    mm_case("gv_tail4_f32", "float32", [1, 999], [999, 1001], variant="rank2_m1_vector_matrix_tail4",
            description="4 workgroups of 64 x 4 columns, last partial; K % 8 != 0"),
    mm_case("gv_tail4_f32_small", "float32", [1, 3], [3, 6], variant="rank2_m1_vector_matrix_tail4",
            description="K = 3 (unroll 2 and a remainder), one partial quad"),
    mm_case("gv_tail1_f16", "float16", [1, 1001], [1001, 1001], variant="rank2_m1_vector_matrix_tail1_f16",
            description="16 workgroups, tailUnroll 4 with a remainder"),
    mm_case("gv_tail1_f16_k3", "float16", [1, 3], [3, 130], variant="rank2_m1_vector_matrix_tail1_f16",
            description="K = 3: tailUnroll 2 with a remainder"),
    # ---- matrix x vector -------------------------------------------------------------------
    mm_case("gv_mv_f16", "float16", [300, 1000], [1000], variant="matrix_vector_subgroup",
            description="vec4 words, 250 per row: unroll 8 then the one-at-a-time rest"),
    mm_case("gv_mv_f32", "float32", [67, 2048], [2048], variant="matrix_vector_nosg",
            description="vec4 words, 512 per row (full unrolled blocks only)"),
    mm_case("gv_mv_tail_f32", "float32", [257, 1001], [1001], variant="matrix_vector_tail_subgroup",
            description="K % 4 != 0: scalar words"),
    mm_case("gv_mv_tail_f16", "float16", [129, 2999], [2999], variant="matrix_vector_tail_nosg",
            description="K % 4 != 0, f16 scalar words"),
    # ---- band ------------------------------------------------------------------------------
    mm_case("gv_band_f16_3rows", "float16", [3, 300], [300, 1000], variant="rank2_band_vec4",
            description="M = 3, K < 512 (no split), 8 workgroups"),
    mm_case("gv_band_f32_16rows", "float32", [16, 100], [100, 516], variant="rank2_band_vec4",
            description="M = 16 (two reduction rounds on lavapipe), 5 workgroups"),
    mm_case("gv_band_f32_2rows_wide", "float32", [2, 700], [700, 3204], variant="rank2_band_vec4",
            description="M = 2, 26 column groups (past the split-K limit of 24)"),
    mm_case("gv_band_splitk_f16", "float16", [4, 1500], [1500, 264], variant="rank2_band_vec4_splitk",
            description="4 splits of 375 rows, 3 column groups, 8 slices"),
    mm_case("gv_band_splitk_f32", "float32", [7, 1025], [1025, 132], variant="rank2_band_vec4_splitk",
            description="4 splits of 257 rows (the last 254), 2 column groups"),
    mm_case("gv_band_folded_f32", "float32", [2, 3, 200], [200, 260], variant="folded_by_rank2_band_vec4",
            description="a [2, 3, K] folds to M = 6"),
    mm_case("gv_band_folded4_f16", "float16", [2, 1, 2, 333], [333, 644], variant="folded_by_rank2_band_vec4",
            description="a [2, 1, 2, K] folds to M = 4"),
    mm_case("gv_band_batched3_f16", "float16", [16, 2, 64], [16, 64, 516], variant="batched_band_vec4",
            description="16 batches x 5 column groups = 80 workgroups"),
    mm_case("gv_band_batched4_f32", "float32", [2, 8, 3, 50], [2, 8, 50, 516], variant="batched_band_vec4",
            description="rank 4, 16 batches, M = 3"),
]
