# One runtime from several Python threads, and the GIL released while wgk works and waits.
import sys
import threading
import time

import numpy as np

import wgk


def test_one_runtime_from_several_threads(rt, gelu, rms, rope):
    rng = np.random.default_rng(7)
    jobs = []
    for i in range(24):
        if i % 3 == 0:
            x = rng.uniform(-3, 3, (2 + i % 5, 40)).astype(np.float16 if i % 2 else np.float32)
            jobs.append((gelu, dict(X=x)))
        elif i % 3 == 1:
            x = rng.uniform(-3, 3, (3, 64)).astype(np.float32)
            jobs.append((rms, dict(x=x, scale=np.ones(64, np.float32), epsilon=1e-6)))
        else:
            q = rng.uniform(-1, 1, (1, 2, 3, 8)).astype(np.float16)
            jobs.append((rope, dict(embT=rng.uniform(0, 9, (1, 3, 8)).astype(np.float32), qT=q, qRotT=q, kT=q, kRotT=q)))
    want = [k(**a) for k, a in jobs]  # one thread
    got = [None] * len(jobs)
    errors = []

    def worker(first):
        try:
            for i in range(first, len(jobs), 4):
                kernel, args = jobs[i]
                args = dict(args)
                if i % 2:  # half of the calls on device tensors
                    args = {k: rt.upload(v) if isinstance(v, np.ndarray) and v.ndim > 1 else v for k, v in args.items()}
                got[i] = {k: np.asarray(v) for k, v in kernel(**args).items()}
                with_error = i % 5 == 0
                if with_error:
                    try:
                        kernel(**dict(args, nope=np.ones(2, np.float32)))
                    except wgk.ContractError:
                        pass
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for w, g in zip(want, got):
        assert w.keys() == g.keys()
        for name in w:
            np.testing.assert_array_equal(g[name], w[name])


def test_the_gil_is_released_during_a_call(rt, gelu):
    # While a thread is inside one long call, the main thread keeps running Python: it records
    # ticks. With the GIL held through the call, no tick could fall in its middle (one call, so
    # there is no Python code of the other thread in between).
    x = np.random.default_rng(3).uniform(-3, 3, (4096, 2048)).astype(np.float32)
    xd = rt.upload(x)
    gelu(X=xd, placement="host")  # compile and warm up
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        span = {}
        started = threading.Event()

        def one_call():
            started.set()
            span["start"] = time.perf_counter()
            gelu(X=xd, placement="host")
            span["end"] = time.perf_counter()

        t = threading.Thread(target=one_call)
        ticks = []
        t.start()
        started.wait()
        while t.is_alive():
            ticks.append(time.perf_counter())
        t.join()
    finally:
        sys.setswitchinterval(old)
    start, end = span["start"], span["end"]
    middle = [s for s in ticks if start + 0.25 * (end - start) < s < start + 0.75 * (end - start)]
    assert middle, f"the main thread did not run during the {end - start:.3f} s call"
