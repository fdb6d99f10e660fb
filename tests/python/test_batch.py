# Batches and graphs from Python (issue 25 item 6; the C++ rules in include/wgk/batch.h): many
# calls in one submission, outputs of one call feeding the next as device tensors, captured calls
# replayed with new data, every result bit-identical to single calls, outputs unreadable until
# their work has run, and the GIL released while recording, submitting and replaying.
import sys
import threading
import time

import numpy as np
import pytest

import wgk

F16 = np.float16


def bits(a):
    return np.asarray(a).tobytes()


@pytest.fixture
def data(rng):
    return dict(
        x=rng.uniform(-3, 3, (4, 64)).astype(F16),
        bias=rng.uniform(-1, 1, 64).astype(F16),
        scale=rng.uniform(0.5, 1.5, 64).astype(F16),
    )


def single(gelu, rms, x, bias, scale):
    """The chain as single calls: gelu, then rms on its output."""
    return rms(x=gelu(X=x, bias=bias)["Y"], scale=scale, epsilon=1e-6)["y"]


# ---- Batch -------------------------------------------------------------------------------------
def test_a_batch_is_bit_identical_to_single_calls(rt, gelu, rms, rope, data):
    with rt.batch() as b:
        h = b(gelu, X=data["x"], bias=data["bias"])["Y"]  # host inputs, uploaded when recorded
        assert isinstance(h, wgk.DeviceTensor) and h.shape == (4, 64) and h.dtype == F16
        y = b(rms, x=h, scale=data["scale"], epsilon=1e-6)["y"]  # the output feeds the next call
        xd = rt.upload(data["x"])
        y2 = b(rms, {"x": b(gelu, X=xd)["Y"]}, scale=rt.upload(data["scale"]), attrs={"epsilon": 1e-6})["y"]
        assert len(b) == 4
    assert len(b) == 0
    assert bits(y.numpy()) == bits(single(gelu, rms, **data))
    assert bits(y2) == bits(rms(x=gelu(X=data["x"])["Y"], scale=data["scale"], epsilon=1e-6)["y"])
    q = np.random.default_rng(5).uniform(-1, 1, (1, 2, 3, 8)).astype(F16)
    emb = np.random.default_rng(6).uniform(0, 9, (1, 3, 8)).astype(np.float32)
    args = dict(embT=emb, qT=q, qRotT=q, kT=q, kRotT=q)
    with rt.batch() as b:
        got = b(rope, **args)
    want = rope(**args)
    assert got.keys() == want.keys()
    for name in want:
        assert bits(got[name]) == bits(want[name]), name


def test_outputs_are_unreadable_until_the_batch_is_submitted(rt, gelu, data):
    b = rt.batch()
    y = b(gelu, X=data["x"])["Y"]
    assert "batch not submitted yet" in repr(y)
    for read in (y.numpy, lambda: np.asarray(y), lambda: gelu(X=y)):
        with pytest.raises(wgk.InvalidArgumentError, match="output of a batch that has not been submitted yet"):
            read()
    b.submit()
    assert bits(y.numpy()) == bits(gelu(X=data["x"])["Y"])
    assert bits(gelu(X=y)["Y"]) == bits(gelu(X=gelu(X=data["x"])["Y"])["Y"])
    # The batch records again after a submit; its new outputs wait for the next one.
    z = b(gelu, X=y)["Y"]
    with pytest.raises(wgk.InvalidArgumentError, match="not been submitted"):
        z.numpy()
    b.submit()
    assert bits(z.numpy()) == bits(gelu(X=gelu(X=data["x"])["Y"])["Y"])


def test_an_exception_in_the_with_block_discards_the_batch(rt, gelu, data):
    with pytest.raises(KeyError):
        with rt.batch() as b:
            y = b(gelu, X=data["x"])["Y"]
            raise KeyError("user code failed")
    with pytest.raises(wgk.InvalidArgumentError, match="batch that was discarded"):
        y.numpy()
    with rt.batch() as b2:
        with pytest.raises(wgk.InvalidArgumentError, match="batch that was discarded"):
            b2(gelu, X=y)
    # Dropped without a submit: discarded too.
    b3 = rt.batch()
    z = b3(gelu, X=data["x"])["Y"]
    del b3
    with pytest.raises(wgk.InvalidArgumentError, match="discarded"):
        z.numpy()


def test_a_failed_call_names_it_and_keeps_the_calls_before(rt, gelu, rms, data):
    with rt.batch() as b:
        h = b(gelu, X=data["x"])["Y"]
        with pytest.raises(wgk.NoVariantError) as info:
            b(rms, x=h, scale=np.ones(7, F16))
        assert "while recording call 1 (ai.onnx.RMSNormalization) of the batch" in info.value.context
        assert len(b) == 1
    assert bits(h.numpy()) == bits(gelu(X=data["x"])["Y"])


def test_batch_argument_errors(rt, gelu, data):
    other = wgk.Runtime()
    with rt.batch() as b:
        with pytest.raises(wgk.InvalidArgumentError, match="another wgk.Runtime than the batch's"):
            b(other.load("webgpu-kernels/com.microsoft.FastGelu"), X=data["x"])
        with pytest.raises(wgk.InvalidArgumentError, match="input 'X' is a device tensor of another wgk.Runtime"):
            b(gelu, X=other.upload(data["x"]))
        with pytest.raises(wgk.InvalidArgumentError, match=r"takes its tensors by name \(X=\.\.\., bias=\.\.\.\)"):
            b(gelu, data["x"])
        with pytest.raises(wgk.InvalidArgumentError, match="input 'X' is float64"):
            b(gelu, X=data["x"].astype(np.float64))
        with pytest.raises(wgk.InvalidArgumentError, match="takes the wgk.Kernel to call first"):
            b(data["x"])
        with pytest.raises(wgk.InvalidArgumentError, match="a batch leaves outputs on the device"):
            b(gelu, X=data["x"], placement="host")
        with pytest.raises(wgk.InvalidArgumentError, match="timestamps are not available in a batch"):
            b(gelu, X=data["x"], timestamps=True)
        assert len(b) == 0


def test_caller_given_outputs_in_a_batch(rt, gelu, data):
    out = rt.allocate((4, 64), F16)
    with rt.batch() as b:
        r = b(gelu, X=data["x"], outputs={"Y": out})
    assert r["Y"] is out
    assert bits(out.numpy()) == bits(gelu(X=data["x"])["Y"])


# ---- Graph -------------------------------------------------------------------------------------
def test_a_graph_replays_bit_identical_to_single_calls(rt, gelu, rms, data, rng):
    xd, sd = rt.upload(data["x"]), rt.upload(data["scale"])

    def chain(b):
        return b(rms, x=b(gelu, X=xd, bias=data["bias"])["Y"], scale=sd, epsilon=1e-6)["y"]

    g = rt.capture(chain)
    assert isinstance(g, wgk.Graph) and g.calls == 2 and g.dispatches >= 2
    assert g.inputs == {"X": ("float16", (4, 64)), "bias": ("float16", (64,)), "scale": ("float16", (64,))}
    y = g.outputs
    with pytest.raises(wgk.InvalidArgumentError, match="captured graph that has not been replayed yet"):
        y.numpy()
    assert g.replay() is y  # the captured inputs' current contents
    assert bits(y.numpy()) == bits(single(gelu, rms, **data))
    for _ in range(3):  # new data each replay: numpy, torch-free device tensors, a dict
        x1 = rng.uniform(-3, 3, (4, 64)).astype(F16)
        assert bits(g.replay(X=x1).numpy()) == bits(single(gelu, rms, x1, data["bias"], data["scale"]))
        x2 = rng.uniform(-3, 3, (4, 64)).astype(F16)
        s2 = rng.uniform(0.5, 1.5, 64).astype(F16)
        g.replay({"X": rt.upload(x2)}, scale=s2)
        assert bits(y.numpy()) == bits(single(gelu, rms, x2, data["bias"], s2))
        g.replay(scale=data["scale"])


def test_a_graph_takes_torch_tensors(rt, gelu):
    torch = pytest.importorskip("torch")
    g = rt.capture(lambda b: {"y": b(gelu, X=torch.zeros(2, 8))["Y"]})
    t = torch.linspace(-2, 2, 16).reshape(2, 8)
    out = g.replay(X=t)
    assert set(out) == {"y"}
    assert bits(out["y"].numpy()) == bits(gelu(X=t.numpy())["Y"])


def test_graph_errors(rt, gelu, data):
    g = rt.capture(lambda b: b(gelu, X=data["x"])["Y"])
    with pytest.raises(wgk.InvalidArgumentError, match=r"the graph has no input 'nope' \(its inputs: X\)"):
        g.replay(nope=data["x"])
    with pytest.raises(wgk.InvalidArgumentError, match="dtypes and shapes are fixed at capture"):
        g.replay(X=np.ones((2, 8), F16))
    with pytest.raises(wgk.InvalidArgumentError, match="replay input 'X' is float64"):
        g.replay(X=np.ones((4, 64)))
    with pytest.raises(wgk.InvalidArgumentError, match=r"got a numpy.ndarray float16 \[4, 64\] as a positional argument"):
        g.replay(data["x"])
    # The capture function's exception comes out as it was; the batch it got is then unusable.
    kept = []

    def failing(b):
        kept.append(b)
        kept.append(b(gelu, X=data["x"])["Y"])
        raise RuntimeError("in the capture function")

    with pytest.raises(RuntimeError, match="in the capture function"):
        rt.capture(failing)
    with pytest.raises(wgk.InvalidArgumentError, match="belonged to a graph capture that has finished"):
        kept[0](gelu, X=data["x"])
    with pytest.raises(wgk.InvalidArgumentError, match="graph capture that was discarded"):
        kept[1].numpy()
    # A wgk error inside the capture keeps its context; submitting the capture's batch is refused.
    with pytest.raises(wgk.ContractError) as info:
        rt.capture(lambda b: b(gelu, X=np.ones((2, 8), np.int32)))
    assert "while recording call 0 (com.microsoft.FastGelu) of the graph capture" in info.value.context
    with pytest.raises(wgk.InvalidArgumentError, match="is not submitted"):
        rt.capture(lambda b: b.submit())
    with pytest.raises(wgk.InvalidArgumentError, match="capture takes a function that records calls"):
        rt.capture(data["x"])
    with pytest.raises(wgk.InvalidArgumentError, match="got 2 positional arguments"):
        g.replay(data["x"], data["x"])


# ---- the GIL ----------------------------------------------------------------------------------
def ticks_during(fn):
    """Runs fn in a thread while this one counts ticks; the ticks inside the middle half of fn."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        span, started = {}, threading.Event()

        def run():
            started.set()
            span["start"] = time.perf_counter()
            fn()
            span["end"] = time.perf_counter()

        t = threading.Thread(target=run)
        ticks = []
        t.start()
        started.wait()
        while t.is_alive():
            ticks.append(time.perf_counter())
        t.join()
    finally:
        sys.setswitchinterval(old)
    start, end = span["start"], span["end"]
    return [s for s in ticks if start + 0.25 * (end - start) < s < start + 0.75 * (end - start)], end - start


def test_the_gil_is_released_while_recording_and_replaying(rt, gelu):
    # Recording a call with a large host input uploads it; replaying with one copies it in.
    x = np.random.default_rng(3).uniform(-3, 3, (4096, 2048)).astype(np.float32)
    b = rt.batch()
    b(gelu, X=x)  # warm up
    b.submit()
    middle, took = ticks_during(lambda: [b(gelu, X=x) for _ in range(3)])
    assert middle, f"the main thread did not run during {took:.3f} s of recording"
    b.submit()
    g = rt.capture(lambda c: c(gelu, X=x)["Y"])
    middle, took = ticks_during(lambda: [g.replay(X=x) for _ in range(3)] and rt.wait_idle())
    assert middle, f"the main thread did not run during {took:.3f} s of replays"


def test_one_batch_from_two_threads_is_refused_not_raced(rt, gelu):
    # While a thread records (the GIL released for the upload), the batch is busy: another thread's
    # submit is refused with a message instead of racing on the C++ batch.
    x = np.random.default_rng(4).uniform(-3, 3, (4096, 2048)).astype(np.float32)
    b = rt.batch()
    refusals, done = [], threading.Event()

    def record():
        try:
            for _ in range(10):
                try:
                    b(gelu, X=x)
                except wgk.InvalidArgumentError as e:  # the other way round: refused as well
                    refusals.append(e.message)
                if refusals:
                    break
        finally:
            done.set()

    t = threading.Thread(target=record)
    t.start()
    while not done.is_set():
        try:
            b.submit()
        except wgk.InvalidArgumentError as e:
            refusals.append(e.message)
    t.join()
    b.submit()
    assert refusals, "no submit overlapped a recording call"
    assert "is in use by another thread: a batch or graph is used by one thread at a time" in refusals[0]
