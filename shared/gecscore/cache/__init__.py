"""The persistent, content-addressed cache: work a known benchmark costs once (issue 34).

:mod:`gecscore.cache.keys` makes a key from everything a value depends on (the content's
digest, every option, the versions of the tools and the source of the code that computed it);
:mod:`gecscore.cache.store` keeps values on disk under those keys, bounded in size, safe under
concurrent processes, and never returns a damaged entry. What is cached (docs/cache.md): ERRANT's
hypothesis and reference edits of a whole corpus
(:meth:`gecscore.lang.en.extractor.ErrantExtractor.targets`), the I-measure's encoded reference
candidates (:func:`gecscore.imeasure.metric.reference_candidates`), BERTScore's reference-side
embeddings (``BertScoreF1.keep``) and leaderboard cells (:mod:`gecscore.leaderboard.cell_cache`).
"""
from gecscore.cache.store import CACHE_DIR_ENV, MAX_BYTES_ENV, NO_CACHE_ENV, DiskCache, default_store, remembered

__all__ = ["CACHE_DIR_ENV", "MAX_BYTES_ENV", "NO_CACHE_ENV", "DiskCache", "default_store", "remembered"]
