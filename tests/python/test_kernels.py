# Every embedded kernel from Python against wgk's CPU references: each case of each embedded
# package's test.json (found through `python3 -m wgk list`, so packages added later are covered
# without edits), run through wgk.Kernel on numpy arrays and checked with the harness's tolerance.
import numpy as np
import pytest

from wgk import _reference

from conftest import embedded_packages

PACKAGES = embedded_packages()
CASES = [(p["repo"], p["folder"], c["name"], c["skip"]) for p in PACKAGES for c in _reference.cases(p["folder"])]


def test_every_embedded_package_has_cases():
    assert len(PACKAGES) >= 3
    for p in PACKAGES:
        assert _reference.cases(p["folder"]), f"{p['repo']} has no test.json cases"


@pytest.mark.parametrize(
    "repo,folder,case,skip", CASES, ids=[f"{r.split('.')[-1]}:{c}" for r, _, c, _ in CASES]
)
def test_case_matches_the_cpu_reference(rt, repo, folder, case, skip):
    if skip:
        pytest.skip(skip)
    kernel = rt.load(repo)
    c = _reference.prepare(folder, case)
    out = kernel(c["inputs"], attrs=c["attrs"])
    assert set(c["expected"]) <= set(out)
    for name, want in c["expected"].items():
        got = out[name]
        assert isinstance(got, np.ndarray)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), name
        r = _reference.compare(got, want, c["tolerance"][name])
        assert r["pass"], f"{name}: {r['summary']}"


def test_the_comparison_can_fail():
    want = np.array([1.0, 2.0], np.float32)
    assert _reference.compare(want, want, {"abs": 0.0})["pass"]
    assert not _reference.compare(want + 1, want, {"abs": 0.5})["pass"]
