"""ai.onnx.MatMul test cases of the fallback templates (see common.py and gen.py):
matmul.wgsl.jinja (scalar), matmul-batched.wgsl.jinja (batched_by_rank2, rank2_by_batched,
batched_broadcast, batched5_broadcast, batched3_by_batched4_padded_a,
batched4_by_batched3_padded_b), matmul-vector-product.wgsl.jinja (vector_matrix,
matrix_vector), matmul-batched-vector.wgsl.jinja (batched_by_vector, vector_by_batched),
matmul-dot.wgsl.jinja (dot), dot-splitk-partial.wgsl.jinja + reduce-axis0-splitk-combine
(dot_splitk).

Every dtype (float32, float16, int32 with negative values and with wrapping products, uint32
with values near 2^32 - 1 so products and sums wrap), ranks 1-5 with broadcasting, K = 1,
K = 0 (zeros), zero-size M, N and batch dims, odd sizes, and grid caps: shapes whose tile or
batch count passes 65535 so the folded grids and the grid-stride loops over capped axes run.
Several of these are not chosen on lavapipe (a faster variant wins); `variant` names the
template under test and `wgk test --variant` forces it.
"""
from common import mm_case

U32_TOP = (2 ** 32 - 4096, 2 ** 32 - 1)   # products and sums wrap modulo 2^32
I32_FULL = (-2 ** 31, 2 ** 31 - 1)        # products wrap too
I32_NEG = (-999, 999)                     # exact, signs mixed

CASES = [
    # ---- scalar: rank 2 ------------------------------------------------------------------
    mm_case("fb_scalar_f32_7x33x1023", "float32", [7, 33], [33, 1023], variant="scalar",
            description="odd M, K, N; 128 column tiles"),
    mm_case("fb_scalar_f32_odd_k", "float32", [29, 1023], [1023, 7], variant="scalar",
            description="many K slices with a tail slice"),
    mm_case("fb_scalar_f16_odd", "float16", [19, 45], [45, 37], variant="scalar"),
    mm_case("fb_scalar_i32_neg", "int32", [13, 29], [29, 17], variant="scalar", int_range=I32_NEG),
    mm_case("fb_scalar_i32_wrap", "int32", [9, 23], [23, 11], variant="scalar", int_range=I32_FULL),
    mm_case("fb_scalar_u32_wrap", "uint32", [11, 21], [21, 9], variant="scalar", int_range=U32_TOP),
    mm_case("fb_scalar_k1", "float32", [9, 1], [1, 10], variant="scalar"),
    mm_case("fb_scalar_k1_u32", "uint32", [17, 1], [1, 9], variant="scalar", int_range=U32_TOP),
    mm_case("fb_scalar_k0", "float32", [5, 0], [0, 7], variant="scalar", description="zeros"),
    mm_case("fb_scalar_k0_i32", "int32", [9, 0], [0, 3], variant="scalar", description="zeros"),
    mm_case("fb_scalar_m0", "float32", [0, 5], [5, 3], variant="scalar"),
    mm_case("fb_scalar_n0", "int32", [4, 5], [5, 0], variant="scalar"),
    mm_case("fb_scalar_wide_n", "float32", [2, 1], [1, 524301], variant="scalar",
            description="65538 column tiles: x is capped at 65535 and walked grid-stride"),
    mm_case("fb_scalar_tall_m", "float16", [524301, 1], [1, 2], variant="scalar",
            description="65538 row tiles folded into y and z"),

    # ---- batched_by_rank2: [B.., M, K] @ [K, N] ------------------------------------------
    mm_case("fb_bxr2_f32_r3", "float32", [3, 17, 9], [9, 13], variant="batched_by_rank2"),
    mm_case("fb_bxr2_i32_r4", "int32", [2, 3, 5, 7], [7, 6], variant="batched_by_rank2",
            int_range=I32_NEG),
    mm_case("fb_bxr2_f16_r4", "float16", [2, 2, 9, 11], [11, 10], variant="batched_by_rank2"),
    mm_case("fb_bxr2_k0", "float32", [2, 3, 0], [0, 4], variant="batched_by_rank2",
            description="zeros"),
    mm_case("fb_bxr2_batch_cap", "float32", [65540, 1, 2], [2, 3], variant="batched_by_rank2",
            description="65540 batches: z is capped at 65535 and walked grid-stride"),

    # ---- rank2_by_batched: [M, K] @ [B.., K, N] ------------------------------------------
    mm_case("fb_r2xb_f16_r3", "float16", [5, 7], [3, 7, 9], variant="rank2_by_batched"),
    mm_case("fb_r2xb_u32_r4", "uint32", [4, 6], [2, 3, 6, 5], variant="rank2_by_batched",
            int_range=U32_TOP),
    mm_case("fb_r2xb_f32_k1", "float32", [10, 1], [2, 1, 9], variant="rank2_by_batched"),

    # ---- batched_broadcast: rank 3 or 4 on both sides ------------------------------------
    mm_case("fb_bcast_f32_r3_a1", "float32", [1, 5, 7], [4, 7, 3], variant="batched_broadcast"),
    mm_case("fb_bcast_i32_r3_b1", "int32", [4, 5, 7], [1, 7, 3], variant="batched_broadcast",
            int_range=I32_FULL),
    mm_case("fb_bcast_f32_r4_cross", "float32", [2, 1, 3, 4], [1, 5, 4, 6],
            variant="batched_broadcast", description="a and b each broadcast one batch dim"),
    mm_case("fb_bcast_i32_r4", "int32", [3, 1, 9, 8], [3, 4, 8, 10], variant="batched_broadcast",
            int_range=I32_NEG),
    mm_case("fb_bcast_f16_r4_tiles", "float16", [2, 3, 19, 21], [1, 3, 21, 17],
            variant="batched_broadcast", description="3 x 3 tiles per batch, tails both ways"),
    mm_case("fb_bcast_u32_r3", "uint32", [3, 6, 5], [3, 5, 4], variant="batched_broadcast",
            int_range=U32_TOP),
    mm_case("fb_bcast_k1_r4", "float32", [2, 3, 5, 1], [2, 1, 1, 7], variant="batched_broadcast"),
    mm_case("fb_bcast_k0_r3", "float16", [2, 3, 0], [2, 0, 4], variant="batched_broadcast",
            description="zeros"),
    mm_case("fb_bcast_batch0_r3", "float32", [0, 3, 4], [1, 4, 5], variant="batched_broadcast",
            description="zero-size batch dim"),
    mm_case("fb_bcast_n0_r4", "int32", [2, 1, 3, 4], [1, 2, 4, 0], variant="batched_broadcast"),

    # ---- batched5_broadcast: rank 5 on both sides ----------------------------------------
    mm_case("fb_b5_f32", "float32", [2, 1, 3, 4, 5], [1, 2, 1, 5, 3], variant="batched5_broadcast",
            description="every batch dim broadcast on one side"),
    mm_case("fb_b5_u32_wrap", "uint32", [1, 2, 2, 3, 4], [2, 1, 2, 4, 3],
            variant="batched5_broadcast", int_range=U32_TOP),
    mm_case("fb_b5_i32", "int32", [2, 2, 1, 5, 3], [2, 2, 3, 3, 6], variant="batched5_broadcast",
            int_range=I32_NEG),
    mm_case("fb_b5_f16_tiles", "float16", [1, 2, 1, 17, 10], [3, 1, 2, 10, 9],
            variant="batched5_broadcast"),
    mm_case("fb_b5_m0", "float32", [2, 1, 3, 0, 5], [1, 2, 1, 5, 3], variant="batched5_broadcast"),
    mm_case("fb_b5_k0", "int32", [1, 2, 1, 3, 0], [2, 1, 2, 0, 4], variant="batched5_broadcast",
            description="zeros"),

    # ---- padded ranks: rank 3 against rank 4 ---------------------------------------------
    mm_case("fb_pad_a_f32", "float32", [3, 4, 5], [2, 3, 5, 6],
            variant="batched3_by_batched4_padded_a"),
    mm_case("fb_pad_a_f16_b1", "float16", [1, 11, 9], [2, 3, 9, 10],
            variant="batched3_by_batched4_padded_a"),
    mm_case("fb_pad_a_u32", "uint32", [3, 4, 5], [2, 1, 5, 3],
            variant="batched3_by_batched4_padded_a", int_range=U32_TOP),
    mm_case("fb_pad_b_i32", "int32", [2, 1, 3, 4], [5, 4, 6],
            variant="batched4_by_batched3_padded_b", int_range=I32_NEG),
    mm_case("fb_pad_b_f32", "float32", [2, 3, 10, 9], [3, 9, 11],
            variant="batched4_by_batched3_padded_b"),
    mm_case("fb_pad_b_f16_k1", "float16", [2, 3, 7, 1], [1, 1, 5],
            variant="batched4_by_batched3_padded_b"),

    # ---- vector_matrix: [K] @ [K, N] -----------------------------------------------------
    mm_case("fb_vm_f32", "float32", [33], [33, 1023], variant="vector_matrix"),
    mm_case("fb_vm_f16", "float16", [100], [100, 37], variant="vector_matrix"),
    mm_case("fb_vm_i32", "int32", [7], [7, 13], variant="vector_matrix", int_range=I32_FULL),
    mm_case("fb_vm_u32", "uint32", [19], [19, 21], variant="vector_matrix", int_range=U32_TOP),
    mm_case("fb_vm_k1", "float32", [1], [1, 9], variant="vector_matrix"),
    mm_case("fb_vm_k0", "float32", [0], [0, 5], variant="vector_matrix", description="zeros"),
    mm_case("fb_vm_n0", "float32", [4], [4, 0], variant="vector_matrix"),
    mm_case("fb_vm_wide", "float16", [1], [1, 524301], variant="vector_matrix",
            description="65538 output tiles folded into x and y"),

    # ---- matrix_vector: [M, K] @ [K] -----------------------------------------------------
    mm_case("fb_mv_f32", "float32", [37, 1021], [1021], variant="matrix_vector"),
    mm_case("fb_mv_f16", "float16", [23, 45], [45], variant="matrix_vector"),
    mm_case("fb_mv_i32", "int32", [13, 29], [29], variant="matrix_vector", int_range=I32_NEG),
    mm_case("fb_mv_u32", "uint32", [9, 31], [31], variant="matrix_vector", int_range=U32_TOP),
    mm_case("fb_mv_k1", "int32", [10, 1], [1], variant="matrix_vector", int_range=I32_FULL),
    mm_case("fb_mv_k0", "float16", [6, 0], [0], variant="matrix_vector", description="zeros"),
    mm_case("fb_mv_m0", "float32", [0, 4], [4], variant="matrix_vector"),
    mm_case("fb_mv_tall", "float32", [524301, 1], [1], variant="matrix_vector",
            description="65538 output tiles folded into x and y"),

    # ---- batched_by_vector: [B.., M, K] @ [K] --------------------------------------------
    mm_case("fb_bxv_f32_r3", "float32", [3, 17, 9], [9], variant="batched_by_vector"),
    mm_case("fb_bxv_i32_r4", "int32", [2, 3, 5, 7], [7], variant="batched_by_vector",
            int_range=I32_FULL),
    mm_case("fb_bxv_f16_r4", "float16", [2, 2, 11, 13], [13], variant="batched_by_vector"),
    mm_case("fb_bxv_u32_r3", "uint32", [4, 3, 10], [10], variant="batched_by_vector",
            int_range=U32_TOP),
    mm_case("fb_bxv_k0", "float32", [2, 3, 0], [0], variant="batched_by_vector",
            description="zeros"),
    mm_case("fb_bxv_batch0", "float32", [0, 3, 4], [4], variant="batched_by_vector"),
    mm_case("fb_bxv_batch_cap", "float32", [65540, 1, 3], [3], variant="batched_by_vector",
            description="65540 batches: z is capped at 65535 and walked grid-stride"),

    # ---- vector_by_batched: [K] @ [B.., K, N] --------------------------------------------
    mm_case("fb_vxb_f32_r3", "float32", [9], [3, 9, 17], variant="vector_by_batched"),
    mm_case("fb_vxb_u32_r4", "uint32", [7], [2, 3, 7, 5], variant="vector_by_batched",
            int_range=U32_TOP),
    mm_case("fb_vxb_f16_r3", "float16", [30], [2, 30, 19], variant="vector_by_batched"),
    mm_case("fb_vxb_i32_k1", "int32", [1], [2, 2, 1, 6], variant="vector_by_batched",
            int_range=I32_NEG),
    mm_case("fb_vxb_k0", "float16", [0], [2, 0, 3], variant="vector_by_batched",
            description="zeros"),

    # ---- dot: rank 1 . rank 1 ------------------------------------------------------------
    mm_case("fb_dot_f32", "float32", [1000], [1000], variant="dot"),
    mm_case("fb_dot_f16", "float16", [777], [777], variant="dot"),
    mm_case("fb_dot_i32", "int32", [513], [513], variant="dot", int_range=I32_NEG),
    mm_case("fb_dot_i32_wrap", "int32", [300], [300], variant="dot", int_range=I32_FULL),
    mm_case("fb_dot_u32_wrap", "uint32", [301], [301], variant="dot", int_range=U32_TOP),
    mm_case("fb_dot_k1", "float32", [1], [1], variant="dot"),
    mm_case("fb_dot_k0", "float32", [0], [0], variant="dot", description="zero"),
    mm_case("fb_dot_f32_odd_long", "float32", [8193], [8193], variant="dot",
            description="too long for one pass of the workgroup, not a multiple of 4"),

    # ---- dot_splitk: partial sums + combine ----------------------------------------------
    mm_case("fb_dotsk_f32", "float32", [8192], [8192], variant="dot_splitk"),
    mm_case("fb_dotsk_f32_tail", "float32", [20004], [20004], variant="dot_splitk",
            description="20 workgroups, the last one partly empty"),
    mm_case("fb_dotsk_f16", "float16", [12288], [12288], variant="dot_splitk"),
]
