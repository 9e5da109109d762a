"""gecscore: grammatical error correction metrics (CLEME2.0, PT-M2, I-measure, DSGram).

    >>> import gecscore
    >>> cleme2 = gecscore.load("cleme2")
    >>> result = cleme2.compute(["He go home ."], ["He goes home ."], [["He goes home ."]])
    >>> result["hit"]
    1.0
"""
from gecscore.version import __version__


def load(name: str, **options):
    """The metric ``name`` (cleme, cleme2, pt_m2, imeasure, dsgram) configured with ``options``.

    See :mod:`gecscore.metric`: ``prepare_text``/``prepare`` the reference side once, then
    ``score`` any number of systems; ``compute`` does both, reusing the reference side of the
    same text across calls.
    """
    from gecscore.metric import load as load_metric

    return load_metric(name, **options)


__all__ = ["load", "__version__"]
