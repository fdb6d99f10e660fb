"""Float64 numpy reference of a Gemma ("Gemma 1", HF GemmaForCausalLM) checkpoint: greedy decoding
with a KV cache, written from the architecture description (tools/gemma/README.md), not from any
other implementation.

  generate(model_dir, prompt_ids, max_new) -> (new_ids, logits)
      logits: float64 [max_new, vocab]. Row 0: the logits after the prompt (they predict new_ids[0]);
      row i: after feeding new_ids[i-1]. new_ids[i] = argmax of row i (first index on ties). The
      prompt is one causal forward pass; each new token one step over the cache.
      feed=[t0, t1, ...] feeds those tokens instead of the argmaxes (teacher forcing: row i then
      follows feed[i-1]); new_ids are still the rows' argmaxes.

  reference.py MODEL_DIR --tokens 2,5,7 --max-new 4 [--logits out.npy] [--json]

Weights are read from the files as stored (f16 and bf16 widen exactly to float64) and every
operation runs in float64, except what the model defines in lower precision: the embedding scale
sqrt(hidden) is rounded to the model's dtype (config torch_dtype) first, and the rotary inverse
frequencies are float32 values (1 / theta^(2i/hd), computed in float32); the angles pos * inv_freq
and their cos/sin are float64.

--emulate float16 rounds the weights and every activation to float16 where a plain float16 implementation stores
one (embedding, norms, projections, rotary, probabilities, attention and MLP outputs, residual sums,
logits; products accumulate in float64): a model of f16 rounding error, used to choose the
tolerances of check_generate.py. It is not the reference.
"""
import argparse, json, math, os, sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import safetensors_io as st  # noqa: E402

_DT = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _mem_available():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def round_to(x, dtype):
    """x (float64) rounded to dtype ("float16", "float32", "bfloat16") and widened back."""
    if dtype == "bfloat16":
        return st.bf16_bits_to_f32(st.f32_to_bf16_bits(np.asarray(x, np.float32))).astype(np.float64)
    return np.asarray(x).astype(_DT[dtype]).astype(np.float64)


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


def inv_freq_f32(head_dim, theta):
    """1 / theta^(2i/hd), i < hd/2, each step in float32 (the exponent 2i/hd, the power, the quotient)."""
    e = np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / np.float32(head_dim)
    return (np.float32(1.0) / np.power(np.float32(theta), e)).astype(np.float32)


class Model:
    """A checkpoint folder (config.json + safetensors). cache_weights: keep the float64 copies of
    the weights (None: when they take at most half the available memory)."""

    def __init__(self, model_dir, cache_weights=None, emulate=None):
        self.dir = model_dir
        self.cfg = json.load(open(os.path.join(model_dir, "config.json")))
        c = self.cfg
        if c.get("model_type", "gemma") != "gemma":
            raise ValueError(f"{model_dir}: model_type {c.get('model_type')!r}, not gemma")
        self.d, self.L, self.V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
        self.H, self.KV = c["num_attention_heads"], c["num_key_value_heads"]
        self.hd = c.get("head_dim", self.d // self.H)
        self.eps, self.theta = float(c["rms_norm_eps"]), float(c.get("rope_theta", 10000.0))
        self.dtype = c.get("torch_dtype", "float32")
        act = c.get("hidden_activation") or c.get("hidden_act") or "gelu_pytorch_tanh"
        if act not in ("gelu_pytorch_tanh", "gelu"):  # HF runs Gemma 1's "gelu" as the tanh form too
            raise ValueError(f"{model_dir}: hidden activation {act!r} is not gelu_pytorch_tanh")
        if self.H % self.KV:
            raise ValueError(f"{model_dir}: {self.H} heads are no multiple of {self.KV} KV heads")
        self.ck = st.Checkpoint(model_dir)
        total = sum(int(np.prod(self.ck.info(k)[1])) for k in self.ck.keys()) * 8
        self.cache = (total * 2 <= _mem_available()) if cache_weights is None else cache_weights
        self._w = {}
        self.emulate = emulate
        self.normalizer = float(round_to(math.sqrt(self.d), self.dtype if self.dtype in ("float16", "bfloat16", "float32") else "float64"))
        self.inv_freq = inv_freq_f32(self.hd, self.theta).astype(np.float64)
        self._check_shapes()

    def _check_shapes(self):
        d, f, V, H, KV, hd = self.d, self.cfg["intermediate_size"], self.V, self.H, self.KV, self.hd
        want = {"model.embed_tokens.weight": [V, d], "model.norm.weight": [d]}
        for i in range(self.L):
            p = f"model.layers.{i}."
            want.update({p + "input_layernorm.weight": [d], p + "post_attention_layernorm.weight": [d],
                         p + "self_attn.q_proj.weight": [H * hd, d], p + "self_attn.k_proj.weight": [KV * hd, d],
                         p + "self_attn.v_proj.weight": [KV * hd, d], p + "self_attn.o_proj.weight": [d, H * hd],
                         p + "mlp.gate_proj.weight": [f, d], p + "mlp.up_proj.weight": [f, d],
                         p + "mlp.down_proj.weight": [d, f]})
        for k, s in want.items():
            if k not in self.ck:
                raise ValueError(f"{self.dir}: tensor {k} is missing")
            if self.ck.info(k)[1] != s:
                raise ValueError(f"{self.dir}: {k} has shape {self.ck.info(k)[1]}, the config says {s}")

    def w(self, name):
        if name in self._w:
            return self._w[name]
        a = np.asarray(self.ck.get(name), dtype=np.float64)
        if self.emulate:  # weights stored wider than the emulated dtype run at its precision too
            a = round_to(a, self.emulate)
        if self.cache:
            self._w[name] = a
        return a

    def r(self, x):
        return round_to(x, self.emulate) if self.emulate else x

    def rmsnorm(self, x, name):
        y = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + self.eps)
        return self.r(y * (1.0 + self.w(name)))

    def rope(self, x, pos):
        """x [heads, T, hd], pos [T] -> rotated (rotate_half convention)."""
        ang = pos.astype(np.float64)[:, None] * self.inv_freq[None, :]
        emb = np.concatenate([ang, ang], axis=-1)
        cos, sin = np.cos(emb), np.sin(emb)
        if self.emulate:
            cos, sin = self.r(cos), self.r(sin)
        h = self.hd // 2
        rot = np.concatenate([-x[..., h:], x[..., :h]], axis=-1)
        return self.r(x * cos + rot * sin)

    def new_cache(self, max_len):
        return {"k": np.zeros((self.L, self.KV, max_len, self.hd)), "v": np.zeros((self.L, self.KV, max_len, self.hd)),
                "len": 0}

    def forward(self, ids, cache):
        """Feeds ids (a block of T tokens at positions cache['len'] ...) -> logits [T, vocab]."""
        ids = np.asarray(ids, dtype=np.int64)
        T, p0 = len(ids), cache["len"]
        if p0 + T > cache["k"].shape[2]:
            raise ValueError(f"KV cache of {cache['k'].shape[2]} positions is full")
        if ids.min() < 0 or ids.max() >= self.V:
            raise ValueError(f"token id outside [0, {self.V})")
        pos = np.arange(p0, p0 + T)
        H, KV, hd, G = self.H, self.KV, self.hd, self.H // self.KV
        h = self.r(self.w("model.embed_tokens.weight")[ids] * self.normalizer)
        n = p0 + T
        # causal mask over the keys 0..n-1 for the queries at pos
        mask = np.arange(n)[None, :] > pos[:, None]
        for i in range(self.L):
            p = f"model.layers.{i}."
            a = self.rmsnorm(h, p + "input_layernorm.weight")
            q = self.r(a @ self.w(p + "self_attn.q_proj.weight").T).reshape(T, H, hd).transpose(1, 0, 2)
            k = self.r(a @ self.w(p + "self_attn.k_proj.weight").T).reshape(T, KV, hd).transpose(1, 0, 2)
            v = self.r(a @ self.w(p + "self_attn.v_proj.weight").T).reshape(T, KV, hd).transpose(1, 0, 2)
            q, k = self.rope(q, pos), self.rope(k, pos)
            cache["k"][i, :, p0:n], cache["v"][i, :, p0:n] = k, v
            K, Vv = cache["k"][i, :, :n], cache["v"][i, :, :n]               # [KV, n, hd]
            qg = q.reshape(KV, G, T, hd)                                     # head h -> kv head h // G
            s = np.einsum("kgtd,knd->kgtn", qg, K) / math.sqrt(hd)
            s = np.where(mask[None, None], -np.inf, s)
            s = s - s.max(axis=-1, keepdims=True)
            e = np.exp(s)
            prob = self.r(e / e.sum(axis=-1, keepdims=True))
            o = self.r(np.einsum("kgtn,knd->kgtd", prob, Vv)).reshape(H, T, hd).transpose(1, 0, 2).reshape(T, H * hd)
            h = self.r(h + self.r(o @ self.w(p + "self_attn.o_proj.weight").T))
            m = self.rmsnorm(h, p + "post_attention_layernorm.weight")
            g = self.r(gelu_tanh(self.r(m @ self.w(p + "mlp.gate_proj.weight").T)))
            u = self.r(m @ self.w(p + "mlp.up_proj.weight").T)
            h = self.r(h + self.r(self.r(g * u) @ self.w(p + "mlp.down_proj.weight").T))
        cache["len"] = n
        hn = self.rmsnorm(h, "model.norm.weight")
        return self.r(hn @ self.w("model.embed_tokens.weight").T)


def generate(model_dir, prompt_ids, max_new, feed=None, model=None, emulate=None):
    """(new_ids, logits float64 [max_new, vocab]); see the module's docstring."""
    prompt_ids = [int(t) for t in prompt_ids]
    if not prompt_ids:
        raise ValueError("the prompt needs at least one token")
    if max_new < 1:
        raise ValueError("max_new must be >= 1")
    m = model or Model(model_dir, emulate=emulate)
    cache = m.new_cache(len(prompt_ids) + max_new)
    logits = np.zeros((max_new, m.V))
    new = []
    row = m.forward(prompt_ids, cache)[-1]
    for i in range(max_new):
        logits[i] = row
        new.append(int(np.argmax(row)))
        if i + 1 < max_new:
            nxt = new[-1] if feed is None else int(feed[i])
            row = m.forward([nxt], cache)[-1]
    return new, logits


def top2_margins(logits):
    """Per row: largest minus second largest logit."""
    s = np.sort(np.asarray(logits, dtype=np.float64), axis=-1)
    return s[:, -1] - s[:, -2]


def parse_ids(s):
    return [int(t) for t in str(s).replace(" ", "").split(",") if t != ""]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("--tokens", required=True, help="prompt token ids, comma separated")
    ap.add_argument("--max-new", type=int, default=4)
    ap.add_argument("--logits", help="write the logits (float64 [max_new, vocab]) to this .npy")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("--feed", help="teacher forcing: feed these ids instead of the greedy ones")
    ap.add_argument("--emulate", choices=("float16", "bfloat16", "float32"),
                    help="round activations to this dtype (an error model, not the reference)")
    ap.add_argument("--no-cache-weights", action="store_true", help="widen weights per use (less memory)")
    a = ap.parse_args(argv)
    prompt = parse_ids(a.tokens)
    m = Model(a.model_dir, cache_weights=False if a.no_cache_weights else None, emulate=a.emulate)
    new, logits = generate(a.model_dir, prompt, a.max_new, feed=parse_ids(a.feed) if a.feed else None, model=m)
    if a.logits:
        np.save(a.logits, logits)
    margins = top2_margins(logits)
    if a.json:
        print(json.dumps({"prompt": prompt, "tokens": new, "top2_margins": [round(float(x), 6) for x in margins],
                          "max_abs_logit": [round(float(x), 6) for x in np.abs(logits).max(axis=1)],
                          "emulate": a.emulate}))
    else:
        print("tokens:", ",".join(map(str, new)))
        for i, (t, mg) in enumerate(zip(new, margins)):
            print(f"  step {i}: token {t}  logit {logits[i, t]:.6f}  top-2 margin {mg:.6f}")


if __name__ == "__main__":
    main()
