"""Self-test of tools/gemma (CPU, a few seconds): python3 tools/gemma/test_gemma.py [-v]

- safetensors_io: round trip of every dtype (BF16 included), metadata, chunked streaming, a wrong
  element count refused, sharded layout (files, index weight_map and total_size) reading back equal;
- make_gemma: the tiny model is the same for any --threads and --shards, in the HF layout;
- reference: prefill-then-decode equals a full causal forward recomputed at every step; feed=
  its own tokens changes nothing;
- check_generate: passes the reference's own output, the f16 emulation, a fake `wgk generate`;
  fails a perturbed row, a decided token changed, a token not the argmax of its own row; allows a
  swap at a small-margin step and stops there (--follow then compares the rest);
- tools/peers/torch_gemma_peer.py --device cpu (when torch imports): tokens equal reference.py's.
"""
import json, os, subprocess, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import safetensors_io as st  # noqa: E402
import make_gemma, reference, check_generate  # noqa: E402

PY = sys.executable
VERBOSE = "-v" in sys.argv
FAILED = []


def ok(cond, what):
    if VERBOSE or not cond:
        print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILED.append(what)


def test_safetensors(tmp):
    rng = np.random.default_rng(0)
    t = {"a.f32": rng.standard_normal((3, 5)).astype(np.float32), "b.f16": rng.standard_normal(7).astype(np.float16),
         "c.f64": rng.standard_normal((2, 2, 2)), "d.i64": np.arange(6, dtype=np.int64).reshape(2, 3),
         "e.i8": np.array([-1, 2], np.int8), "f.u8": np.array([255], np.uint8), "g.bool": np.array([True, False]),
         "h.scalar": np.array(1.5, np.float32), "i.empty": np.zeros((0, 4), np.float16)}
    bf = np.array([1.0, -2.5, 3.14159, 1e-3, 65504.0, np.inf], np.float32)
    p = os.path.join(tmp, "rt.safetensors")
    st.write_file(p, dict(t, **{"j.bf16": (bf, "BF16")}), {"format": "pt", "k": "v"})
    raw = open(p, "rb").read()
    hlen = int.from_bytes(raw[:8], "little")
    ok((8 + hlen) % 8 == 0 and raw[8 + hlen - 1:8 + hlen] in (b" ", b"}"), "header padded to 8 bytes")
    back, meta = st.read_file(p)
    ok(meta == {"format": "pt", "k": "v"}, "metadata round trip")
    ok(all(back[k].dtype == v.dtype and back[k].shape == v.shape and np.array_equal(back[k], v) for k, v in t.items()),
       "every dtype round trips bit for bit")
    exp = st.bf16_bits_to_f32(st.f32_to_bf16_bits(bf))
    ok(np.array_equal(back["j.bf16"], exp) and back["j.bf16"][0] == 1.0 and abs(back["j.bf16"][2] - 3.140625) < 1e-7,
       "BF16 written rounded to nearest even, read as float32")
    # streamed in chunks == written whole
    big = rng.standard_normal((1000, 33)).astype(np.float16)
    p2 = os.path.join(tmp, "chunks.safetensors")
    st.write_streamed(p2, [st.TensorSpec("x", "F16", big.shape, lambda: (big[i:i + 64] for i in range(0, 1000, 64)))])
    ok(np.array_equal(st.SafeFile(p2).get("x"), big), "chunked streaming write")
    try:
        st.write_streamed(p2 + "b", [("x", "F16", (10, 3), lambda: np.zeros((9, 3)))])
        ok(False, "short tensor refused")
    except ValueError:
        ok(not os.path.exists(p2 + "b") and not os.path.exists(p2 + "b.tmp"), "short tensor refused, no file left")
    # sharded
    specs = [st.TensorSpec(f"w{i}", "F32", (i + 1, 8), (lambda i=i: np.full((i + 1, 8), i, np.float32))) for i in range(7)]
    d = os.path.join(tmp, "sharded")
    files = st.write_sharded(d, specs, 3, {"format": "pt"})
    idx = json.load(open(os.path.join(d, st.INDEX_NAME)))
    ok(files[:3] == [f"model-0000{i}-of-00003.safetensors" for i in (1, 2, 3)], "shard names model-0000i-of-00003")
    ok(idx["metadata"]["total_size"] == sum(32 * (i + 1) for i in range(7)) and len(idx["weight_map"]) == 7,
       "index total_size and weight_map")
    ck = st.Checkpoint(d)
    ok(all(np.all(ck.get(f"w{i}") == i) for i in range(7)) and len(set(ck.where.values())) == 3, "sharded read back")


def test_make(tmp):
    a, b = os.path.join(tmp, "m1"), os.path.join(tmp, "m2")
    cfg = make_gemma.make_config("tiny", "float16")
    make_gemma.write_model(a, cfg, seed=3, shards=1, threads=1)
    make_gemma.write_model(b, cfg, seed=3, shards=3, threads=4)
    A, B = st.Checkpoint(a), st.Checkpoint(b)
    ok(sorted(A.keys()) == sorted(B.keys()) and all(np.array_equal(A.get(k), B.get(k)) for k in A.keys()),
       "same weights for any --threads / --shards")
    ok(len(B.files) == 3 and os.path.exists(os.path.join(b, st.INDEX_NAME)), "sharded model layout")
    c = json.load(open(os.path.join(a, "config.json")))
    ok(c["architectures"] == ["GemmaForCausalLM"] and c["model_type"] == "gemma" and c["tie_word_embeddings"]
       and c["torch_dtype"] == "float16" and c["head_dim"] == 16, "config.json fields")
    ok(A.info("model.layers.1.self_attn.k_proj.weight") == ("F16", [16, 64]) and "lm_head.weight" not in A,
       "tensor names, shapes, tied lm_head")


def test_reference(model):
    m = reference.Model(model)
    prompt = [2, 17, 300, 5]
    new, logits = reference.generate(model, prompt, 6, model=m)
    seq = prompt + new
    full = []
    for i in range(6):  # recompute from scratch: one causal pass over the whole sequence so far
        c = m.new_cache(len(prompt) + i)
        full.append(m.forward(seq[:len(prompt) + i], c)[-1])
    ok(np.abs(np.array(full) - logits).max() < 1e-10, "KV-cache decoding == full causal recomputation")
    new2, logits2 = reference.generate(model, prompt, 6, feed=new, model=m)
    ok(new2 == new and np.array_equal(logits2, logits), "feed= its own tokens changes nothing")
    ok(logits.dtype == np.float64 and logits.shape == (6, 512), "logits float64 [max_new, vocab]")
    return prompt, new, logits


def test_check(model, prompt, new, logits, tmp):
    a, r = check_generate.default_tolerance("float32", 2)
    rep = check_generate.compare(logits, new, logits.astype(np.float32), new, a, r)
    ok(rep.ok and rep.compared == 6, "check passes the reference's own output")
    emu = reference.Model(model, emulate="float16")
    en, el = reference.generate(model, prompt, 6, model=emu)
    rep = check_generate.check(model, prompt, el.astype(np.float32), en, follow=True)
    ok(rep.ok, "check passes the float16 emulation")
    bad = logits.copy()
    bad[3, 7] += 10 * (a + r * np.abs(logits[3]).max())
    rep = check_generate.compare(logits, new, bad, new, a, r)
    ok(not rep.ok and "step 3" in rep.failures[0], "a perturbed logit fails at its step")
    margins = reference.top2_margins(logits)
    tol = a + r * np.abs(logits).max(axis=1)
    i = int(np.argmax(margins / tol))
    second = int(np.argsort(logits[i])[-2])
    fake = logits.copy()
    fake[i, second] = logits[i].max() + 1e-3  # the engine "picks" the runner-up by far too much
    toks = list(new)
    toks[i] = second
    rep = check_generate.compare(logits, new, fake, toks, a, r)
    ok(not rep.ok and any("exceeds 2 tol" in f for f in rep.failures), "a decided token changed fails")
    toks = list(new)
    toks[0] = (toks[0] + 1) % 512
    rep = check_generate.compare(logits, new, logits, toks, a, r)
    ok(not rep.ok and any("not the argmax" in f for f in rep.failures), "a token not its row's argmax fails")
    # a swap allowed at a small margin: pretend step j's margin is tiny by swapping the top two
    j = int(np.argmin(margins))
    lj = logits.copy()
    o = np.argsort(lj[j])
    lj[j, o[-1]], lj[j, o[-2]] = lj[j, o[-2]], lj[j, o[-1]]
    if margins[j] <= 2 * tol[j]:
        toks = list(new[:j]) + [int(o[-2])]
        rest_new, rest_logits = reference.generate(model, prompt, 6, feed=toks + [0] * 6, model=reference.Model(model))
        got_tokens = toks + rest_new[j + 1:]
        got_logits = np.concatenate([lj[:j + 1], rest_logits[j + 1:]])
        rep = check_generate.compare(logits, new, got_logits, got_tokens, a, r)
        ok(rep.ok and rep.left == 5 - j, f"a swap at a small margin (step {j}) is allowed and ends the comparison")
        rep = check_generate.check(model, prompt, got_logits, got_tokens, follow=True)
        ok(rep.ok and rep.left == 0 and rep.compared == 6, "--follow compares the rest against the fed reference")
    else:
        print(f"note: no step of margin <= 2 tol in this sample; swap test skipped")
    # the CLI with a fake `wgk generate` (the f16 emulation)
    fake_wgk = os.path.join(tmp, "fake_wgk")
    with open(fake_wgk, "w") as f:
        f.write(f"""#!{PY}
import sys, json, numpy as np
sys.path.insert(0, {HERE!r})
import reference
a = sys.argv[1:]
assert a[0] == "generate"
model, toks, n, out = a[1], a[a.index("--tokens") + 1], int(a[a.index("--max-new") + 1]), a[a.index("--logits") + 1]
new, lg = reference.generate(model, reference.parse_ids(toks), n, model=reference.Model(model, emulate="float16"))
if "--break" in a:
    lg[-1] += 1.0
np.save(out, lg.astype(np.float32))
print(json.dumps({{"tokens": new, "prompt_tokens": len(toks.split(","))}}))
""")
    os.chmod(fake_wgk, 0o755)
    base = [PY, os.path.join(HERE, "check_generate.py"), "--wgk", fake_wgk, "--model", model,
            "--tokens", ",".join(map(str, prompt)), "--max-new", "6"]
    p = subprocess.run(base, capture_output=True, text=True)
    ok(p.returncode == 0 and "OK" in p.stdout, "check_generate --wgk (fake, f16 emulation) passes")
    p = subprocess.run(base + ["--wgk-arg=--break"], capture_output=True, text=True)
    ok(p.returncode == 1 and "MISMATCH" in p.stderr, "check_generate --wgk exits 1 on a mismatch")
    p = subprocess.run(base[:3] + ["/bin/false"] + base[4:], capture_output=True, text=True)
    ok(p.returncode == 2, "check_generate exits 2 when wgk fails")


def test_peer(model, prompt, new):
    try:
        import torch  # noqa: F401
    except ImportError:
        print("note: no torch, peer test skipped")
        return
    peer = os.path.join(HERE, "..", "peers", "torch_gemma_peer.py")
    for dt in ("float32", "float64"):
        p = subprocess.run([PY, peer, model, "--device", "cpu", "--dtype", dt, "--tokens", ",".join(map(str, prompt)),
                            "--new", str(len(new)), "--repeat", "1"], capture_output=True, text=True)
        doc = json.loads(p.stdout) if p.returncode == 0 else {}
        ok(doc.get("tokens") == new, f"torch peer ({dt}, cpu) tokens == reference's: {doc.get('tokens')} vs {new}")


def main():
    with tempfile.TemporaryDirectory(prefix="test_gemma_") as tmp:
        test_safetensors(tmp)
        test_make(tmp)
        model = os.path.join(tmp, "tiny")
        make_gemma.write_model(model, make_gemma.make_config("tiny"), seed=0)
        prompt, new, logits = test_reference(model)
        test_check(model, prompt, new, logits, tmp)
        test_peer(model, prompt, new)
    print(f"test_gemma: {len(FAILED)} failed" if FAILED else "test_gemma: all passed")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
