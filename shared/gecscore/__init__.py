"""gecscore: grammatical error correction metrics (CLEME2.0, PT-M2, I-measure, DSGram)."""
__version__ = "0.1.0"
