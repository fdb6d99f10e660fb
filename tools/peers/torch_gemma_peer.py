"""torch peer of wgk's Gemma decoder: greedy decoding of a Gemma ("Gemma 1", HF GemmaForCausalLM)
checkpoint in plain torch, timed eager and as CUDA-graph replays of one decode step.

  python3 tools/peers/torch_gemma_peer.py MODEL_DIR [--prompt-len 128] [--new 128] [--device cuda]
        [--dtype float16] [--tokens 2,5,7] [--repeat 3] [--logits FILE.npy] [--out FILE.json]
  python3 tools/peers/torch_gemma_peer.py /tmp/tiny --device cpu --tokens 2,5,7 --new 8   # a test

The model (the same one as tools/gemma/reference.py, written from the same description): weights
read by tools/gemma/safetensors_io.py, cast to --dtype (float16 on cuda, float32 on cpu by default);
q/k/v and gate/up projections concatenated into one matrix each at load; RMSNorm and softmax in
float32, the rest in --dtype; a static KV cache [layers, kv_heads, prompt+new, head_dim].
A forward of T tokens writes their keys and values at their positions (index_copy_) and attends
over the whole cache with the mask key_pos <= query_pos, so one decode step has static shapes.

Timed (median of --repeat runs after a warm-up run; torch.cuda.synchronize() around each):
  prefill    one forward of the prompt (all positions at once) and the argmax of its last row
  eager      new-1 decode steps, each: forward of the last token, argmax, token and position
             advanced on the device (no host sync per token; tokens are read at the end)
  cudagraph  the same step captured once (torch.cuda.CUDAGraph, static token / position / step
             tensors updated inside the graph), replayed new-1 times
ms_per_token = decode time / (new-1) (the first new token comes from the prefill). weight_GBps:
the weight bytes one step reads (all layers and the tied embedding as lm_head) / ms_per_token.
Both modes must give the same tokens ("tokens_match"). Prints one JSON object (also to --out).
--device cpu runs eager only (cudagraph fields null): a test that the tokens equal reference.py's.
"""
import argparse, json, math, os, statistics, sys, time
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gemma"))
import safetensors_io as st  # noqa: E402


class Gemma:
    def __init__(self, torch, model_dir, device, dtype, max_len):
        self.t, self.dev, self.dt = torch, device, dtype
        c = json.load(open(os.path.join(model_dir, "config.json")))
        self.cfg = c
        self.d, self.L, self.V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
        self.H, self.KV = c["num_attention_heads"], c["num_key_value_heads"]
        self.hd = c.get("head_dim", self.d // self.H)
        self.G = self.H // self.KV
        self.eps = float(c["rms_norm_eps"])
        ck = st.Checkpoint(model_dir)

        def w(name, dt=dtype):
            return torch.from_numpy(np.array(ck.get(name))).to(device=device, dtype=dt)

        def norm(name):  # (1 + w) in float32
            return 1.0 + torch.from_numpy(np.array(ck.get(name), dtype=np.float32)).to(device)

        self.embed = w("model.embed_tokens.weight")
        model_dt = {"float16": torch.float16, "bfloat16": torch.bfloat16}.get(c.get("torch_dtype"), torch.float32)
        # sqrt(hidden) rounded to the model's dtype first, then applied in the run's dtype
        self.normalizer = float(torch.tensor(math.sqrt(self.d), dtype=model_dt))
        self.layers = []
        for i in range(self.L):
            p = f"model.layers.{i}."
            self.layers.append({
                "in": norm(p + "input_layernorm.weight"), "post": norm(p + "post_attention_layernorm.weight"),
                "qkv": torch.cat([w(p + f"self_attn.{n}_proj.weight") for n in "qkv"], 0),
                "o": w(p + "self_attn.o_proj.weight"),
                "gu": torch.cat([w(p + "mlp.gate_proj.weight"), w(p + "mlp.up_proj.weight")], 0),
                "down": w(p + "mlp.down_proj.weight")})
        self.norm = norm("model.norm.weight")
        self.ffn = c["intermediate_size"]
        e = torch.arange(0, self.hd, 2, dtype=torch.int64).float() / self.hd
        self.inv_freq = (1.0 / (float(c.get("rope_theta", 10000.0)) ** e)).to(device)  # float32
        self.max_len = max_len
        self.kc = torch.zeros(self.L, self.KV, max_len, self.hd, dtype=dtype, device=device)
        self.vc = torch.zeros_like(self.kc)
        self.keys = torch.arange(max_len, device=device)
        self.weight_bytes = sum(x.numel() * x.element_size() for l in self.layers for x in l.values()) \
            + (self.embed.numel() * self.embed.element_size()) + self.norm.numel() * 4

    def rms(self, x, w1p):
        xf = x.float()
        return (xf * self.t.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps) * w1p).to(self.dt)

    def rope(self, x, cos, sin):
        h = self.hd // 2
        return x * cos + self.t.cat([-x[..., h:], x[..., :h]], -1) * sin

    def forward(self, ids, pos):
        """ids, pos: long [T] on the device -> float32 logits of the last position [V]."""
        t, T = self.t, ids.shape[0]
        H, KV, hd, G, M = self.H, self.KV, self.hd, self.G, self.max_len
        h = self.embed[ids] * self.normalizer
        ang = pos.float()[:, None] * self.inv_freq[None, :]
        emb = t.cat([ang, ang], -1)
        cos, sin = emb.cos().to(self.dt)[:, None, :], emb.sin().to(self.dt)[:, None, :]
        masked = (self.keys[None, :] > pos[:, None])                       # [T, M]
        scale = 1.0 / math.sqrt(hd)
        for i, l in enumerate(self.layers):
            a = self.rms(h, l["in"])
            qkv = a @ l["qkv"].T
            q = qkv[:, :H * hd].view(T, H, hd)
            k = qkv[:, H * hd:(H + KV) * hd].view(T, KV, hd)
            v = qkv[:, (H + KV) * hd:].view(T, KV, hd)
            q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
            self.kc[i].index_copy_(1, pos, k.transpose(0, 1))
            self.vc[i].index_copy_(1, pos, v.transpose(0, 1))
            qg = q.view(T, KV, G, hd).permute(1, 2, 0, 3).reshape(KV, G * T, hd)   # head = kv * G + g
            s = (qg @ self.kc[i].transpose(1, 2)).float() * scale                 # [KV, G*T, M]
            s = s.view(KV, G, T, M).masked_fill(masked, float("-inf"))
            prob = t.softmax(s, -1).to(self.dt).view(KV, G * T, M)
            o = (prob @ self.vc[i]).view(KV, G, T, hd).permute(2, 0, 1, 3).reshape(T, H * hd)
            h = h + o @ l["o"].T
            m = self.rms(h, l["post"])
            gu = m @ l["gu"].T
            h = h + (t.nn.functional.gelu(gu[:, :self.ffn], approximate="tanh") * gu[:, self.ffn:]) @ l["down"].T
        hn = self.rms(h[-1:], self.norm)
        return (hn @ self.embed.T)[0].float()


def parse_ids(s):
    return [int(x) for x in s.replace(" ", "").split(",") if x]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("--prompt-len", type=int, default=128, help="random prompt of this length (bos first)")
    ap.add_argument("--tokens", help="the prompt's ids instead (comma separated)")
    ap.add_argument("--new", type=int, default=128, help="new tokens (the first from the prefill)")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--dtype", choices=("float16", "bfloat16", "float32", "float64"),
                    help="compute dtype (default float16 on cuda, float32 on cpu)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per mode (median)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random prompt")
    ap.add_argument("--logits", help="also record each step's logits (float32 [new, vocab] .npy, the rows "
                                     "of reference.py); adds one row copy per step to what is timed")
    ap.add_argument("--out", help="also write the JSON object to this file")
    a = ap.parse_args(argv)
    if a.new < 1 or a.repeat < 1:
        ap.error("--new and --repeat must be >= 1")
    import torch
    if a.device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_gemma_peer: no CUDA device (use --device cpu)")
    dtname = a.dtype or ("float16" if a.device == "cuda" else "float32")
    dtype = getattr(torch, dtname)
    cfg = json.load(open(os.path.join(a.model_dir, "config.json")))
    if a.tokens:
        prompt = parse_ids(a.tokens)
    else:
        rng = np.random.default_rng(a.seed)
        prompt = [cfg.get("bos_token_id", 2)] + [int(x) for x in rng.integers(3, cfg["vocab_size"], a.prompt_len - 1)]
    P, N = len(prompt), a.new
    if P < 1:
        ap.error("the prompt needs at least one token")
    if P + N > cfg.get("max_position_embeddings", P + N):
        print(f"torch_gemma_peer: prompt+new = {P + N} > max_position_embeddings "
              f"{cfg['max_position_embeddings']} (run anyway)", file=sys.stderr)
    dev = a.device
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    t_load = time.perf_counter()
    with torch.no_grad():
        g = Gemma(torch, a.model_dir, dev, dtype, P + N)
    sync()
    load_s = time.perf_counter() - t_load

    prompt_t = torch.tensor(prompt, dtype=torch.long, device=dev)
    prompt_pos = torch.arange(P, device=dev)
    tok = torch.zeros(1, dtype=torch.long, device=dev)       # the token to feed
    pos = torch.zeros(1, dtype=torch.long, device=dev)       # its position
    idx = torch.zeros(1, dtype=torch.long, device=dev)       # its index among the new tokens
    hist = torch.zeros(N, dtype=torch.long, device=dev)
    rows = torch.zeros(N, g.V, dtype=torch.float32, device=dev) if a.logits else None

    def prefill():
        row = g.forward(prompt_t, prompt_pos)
        first = torch.argmax(row).view(1)
        hist[0:1].copy_(first)
        if rows is not None:
            rows[0].copy_(row)
        return first

    def reset(first):
        tok.copy_(first)
        pos.fill_(P)
        idx.fill_(1)

    def step():
        row = g.forward(tok, pos)
        nxt = torch.argmax(row).view(1)
        hist.index_copy_(0, idx, nxt)
        if rows is not None:
            rows.index_copy_(0, idx, row.view(1, -1))
        tok.copy_(nxt)
        pos.add_(1)
        idx.add_(1)

    def timed(fn, repeat):
        fn()  # warm-up
        sync()
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            sync()
            ts.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(ts)

    steps = N - 1
    res = {"peer": "torch_gemma", "model": os.path.abspath(a.model_dir),
           "config": {k: cfg.get(k) for k in ("hidden_size", "num_hidden_layers", "num_attention_heads",
                                              "num_key_value_heads", "head_dim", "intermediate_size",
                                              "vocab_size", "torch_dtype")},
           "dtype": dtname, "device": torch.cuda.get_device_name() if dev == "cuda" else "cpu",
           "torch": torch.__version__, "prompt_len": P, "new": N, "decode_steps": steps, "repeat": a.repeat,
           "weight_bytes": g.weight_bytes, "load_s": round(load_s, 2), "sync_per_token": False}
    with torch.no_grad():
        res["prefill_ms"] = round(timed(prefill, a.repeat), 3)
        first = prefill()

        def decode():
            reset(first)
            for _ in range(steps):
                step()
        ms = timed(decode, a.repeat) if steps else 0.0
        eager_tokens = hist.tolist()
        eager_rows = rows.cpu().numpy() if rows is not None else None
        res["eager_ms_per_token"] = round(ms / steps, 4) if steps else None
        res["eager_tokens_per_s"] = round(steps / ms * 1e3, 2) if steps and ms > 0 else None
        res["eager_weight_GBps"] = round(g.weight_bytes / (ms / steps) / 1e6, 1) if steps and ms > 0 else None
        res["tokens"] = eager_tokens
        res["cudagraph_ms_per_token"] = res["cudagraph_tokens_per_s"] = res["cudagraph_weight_GBps"] = None
        res["tokens_match"] = None
        if dev == "cuda" and steps:
            try:
                side = torch.cuda.Stream()
                side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(side):  # warm-up off the capture stream, as torch asks
                    reset(first)
                    for _ in range(3):
                        step()
                torch.cuda.current_stream().wait_stream(side)
                graph = torch.cuda.CUDAGraph()
                reset(first)
                tc = time.perf_counter()
                with torch.cuda.graph(graph):
                    step()
                sync()
                res["graph_capture_ms"] = round((time.perf_counter() - tc) * 1e3, 2)

                def replay():
                    reset(first)
                    for _ in range(steps):
                        graph.replay()
                ms = timed(replay, a.repeat)
                res["cudagraph_ms_per_token"] = round(ms / steps, 4)
                res["cudagraph_tokens_per_s"] = round(steps / ms * 1e3, 2)
                res["cudagraph_weight_GBps"] = round(g.weight_bytes / (ms / steps) / 1e6, 1)
                res["cudagraph_tokens"] = hist.tolist()
                res["tokens_match"] = res["cudagraph_tokens"] == eager_tokens
                del graph
            except Exception as ex:  # a failed mode is a field with the error, never a lost run
                res["cudagraph_error"] = str(ex)[:300]
    if a.logits:
        np.save(a.logits, eager_rows)
    line = json.dumps(res)
    print(line, flush=True)
    if a.out:
        with open(a.out, "w") as f:
            f.write(line + "\n")
    if res["tokens_match"] is False:
        sys.exit("torch_gemma_peer: eager and CUDA-graph tokens differ")


if __name__ == "__main__":
    main()
