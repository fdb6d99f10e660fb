"""wgk.Gemma on a tiny random Gemma (tools/gemma/make_gemma.py): logits within the tolerance of the
float64 reference (tools/gemma/check_generate.py states the rule), greedy tokens, and clear errors."""
import os
import subprocess
import sys

import numpy as np
import pytest

import wgk

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "gemma")
sys.path.insert(0, TOOLS)
import check_generate  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("gemma") / "tiny"
    subprocess.run([sys.executable, os.path.join(TOOLS, "make_gemma.py"), str(d), "--preset", "tiny",
                    "--dtype", "float16", "--seed", "5"], check=True, stdout=subprocess.DEVNULL)
    return d


def test_generate_matches_the_float64_reference(tiny):
    model = wgk.Gemma.load(tiny)
    assert model.config["num_hidden_layers"] == 2 and model.max_length == 64
    prompt = [2, 40, 7, 300, 11]
    out = model.generate(prompt, max_new=6, return_logits=True)
    assert isinstance(out.logits, np.ndarray) and out.logits.shape == (6, 512) and out.logits.dtype == np.float32
    assert len(out.tokens) == 6 and len(out.token_ms) == 5
    assert [int(np.argmax(r)) for r in out.logits] == out.tokens
    report = check_generate.check(str(tiny), prompt, out.logits, out.tokens)
    assert report.ok, report
    # A second call starts from an empty cache: the same tokens, whatever the readback grouping.
    assert model.generate(prompt, max_new=6).tokens == out.tokens
    assert model.generate(prompt, max_new=6, readback_every=4).tokens == out.tokens
    # A stop token inside a group of 4 ends the output there.
    k = out.tokens.index(out.tokens[2])
    assert model.generate(prompt, max_new=6, readback_every=4, stop=[out.tokens[2]]).tokens == out.tokens[: k + 1]


def test_errors_name_what_is_wrong(tiny, tmp_path):
    model = wgk.Gemma.load(tiny)
    with pytest.raises(wgk.InvalidArgumentError, match="outside the vocabulary"):
        model.generate([2, 512], max_new=2)
    with pytest.raises(wgk.InvalidArgumentError, match="cache positions"):
        model.generate([2, 3], max_new=100)
    with pytest.raises(wgk.InvalidArgumentError, match="readbackEvery is 0"):
        model.generate([2, 3], max_new=2, readback_every=0)
    with pytest.raises(wgk.NotFoundError, match="no config.json"):
        wgk.Gemma.load(tmp_path)
