"""Pretrained-model pair scoring (BERTScore, BARTScore): serves PT-M2 and CLEME2.0-sim.

Model-backed numbers and processes: a forward pass in float32 is deterministic for a given
batch shape and thread count, but a matrix product of another shape (a batch with other
sentences in it, another number of threads, a math library that takes fewer threads on a loaded
machine) may round the last bits of a sentence's hidden states differently (measured: up to
1.8e-6 on MiniLM's hidden states when the batch size changes). BERTScore encodes sentences in
batches of one token length (no padding), and its F1 on CoNLL-2014 was bit-identical across 1
and 2 threads and three batchings; but a worker process whose caches hold other sentences
batches differently, so two processes are promised agreement within :data:`SCORE_TOLERANCE`
only (absolute, on scores in [0, 1]; the signature says nothing of threads or batches). The
model-free metrics are bit-identical in every process.
"""

SCORE_TOLERANCE = 1e-6
