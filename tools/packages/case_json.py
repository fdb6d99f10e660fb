"""Shared by the packages' case generators (softmax_cases.py, matmul/gen.py): the fillFloat32
data spec and the JSON layout of test.json / bench.json."""
import json


def fill(sin_step, cos_step, scale=None):
    """A fillFloat32 data spec: element i = scale * (sin(i * sin_step) + cos(i * cos_step))."""
    d = {"kind": "fillFloat32", "sinStep": sin_step, "cosStep": cos_step}
    if scale is not None:
        d["scale"] = scale
    return d


def dump(obj, path):
    """indent=1 JSON with each `values` list on one line (cases may hold thousands)."""
    lists = []

    def strip(o):
        if isinstance(o, dict):
            if o.get("kind") == "values":
                lists.append(json.dumps(o["values"]))
                return {**o, "values": f"@@{len(lists) - 1}@@"}
            return {k: strip(v) for k, v in o.items()}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o

    text = json.dumps(strip(obj), indent=1)
    for i, l in enumerate(lists):
        text = text.replace(f'"@@{i}@@"', l)
    with open(path, "w") as f:
        f.write(text + "\n")
