"""The options of PT-M2 / M2 / PT-ERRANT, each declared once with the papers' default: the
config of the metric seam. The scoring functions take their defaults from this class."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from gecscore.errors import GecOptionError
from gecscore.options import (DEFAULT_PRECISION, LEVELS, LayerOptions, ModelOptions, PerTypeOptions, TextOptions, When,
                              check_precision_device, option, validate)

BASES = ("m2", "errant")
SCORERS = ("none", "bertscore", "bartscore")
# The M2 scorer's default: unchanged tokens allowed inside one edit (Dahlmeier and Ng 2012).
MAX_UNCHANGED_WORDS = 2
# Which of several equally good MaxMatch edit sequences is returned (see gecscore.m2.maxmatch and
# gecscore.m2.reference):
# "reference" that of the reference code (m2scorer 3.2's edit graph, which the PT-M2 reference
# code embeds), "minimal" the smallest edits. The default is "reference" for every scorer: on
# CoNLL-2014's 13 systems both give the same M2 counts, but on fluent rewrites (SEEDA's REF-F,
# REF-M) only "reference" gives m2scorer 3.2's counts (tests/test_oracles.py compares every
# SEEDA system, the attacks and a stress set with m2scorer and PT-M2 run by us). "minimal" is an
# option, named in the signature (no longer faster: m2scorer's edit graph runs compiled, in about
# the same time on every output, attacks included; benchmarks/bench_m2_outputs.py).
SEGMENTATIONS = ("reference", "minimal")
DEFAULT_SEGMENTATION = "reference"
# The MaxMatch lattice of one sentence grows with (source + 1) x (hypothesis + 1) nodes and its
# search faster still: 4,000 x 4,000 tokens take about 5 s here, 12,800 x 12,800 a minute.
MAX_LATTICE_CELLS = 16_000_000
MODEL_SCORERS = ("bertscore", "bartscore")


@dataclass(frozen=True)
class PtM2Config(TextOptions, ModelOptions, LayerOptions, PerTypeOptions):
    """PT-M2 (Gong et al. 2022); ``scorer="none"`` is M2 (Dahlmeier and Ng 2012) / SentM2.

    MaxMatch's options apply with ``base="m2"`` only, the model's with a model scorer, the
    BERTScore layer and precision with ``scorer="bertscore"`` only (BARTScore runs in fp32:
    another precision is refused at load).
    """

    conditions: ClassVar[Mapping[str, When]] = {
        "max_unchanged_words": When("base", ("m2",)), "max_cells": When("base", ("m2",)),
        "segmentation": When("base", ("m2",)),
        "model": When("scorer", MODEL_SCORERS), "batch_size": When("scorer", MODEL_SCORERS),
        "device": When("scorer", MODEL_SCORERS),
        "num_layers": When("scorer", ("bertscore",)), "precision": When("scorer", ("bertscore",)),
    }

    base: str = option("m2", "system edits by MaxMatch (m2) or ERRANT (errant: PT-ERRANT)", choices=BASES)
    scorer: str = option("bertscore", "edit weights: bertscore, bartscore or none (plain M2 / SentM2)",
                         choices=SCORERS)
    level: str = option("corpus", "corpus: F over pooled counts; sentence: mean sentence F (SentPT-M2, the "
                                  "paper's recommended setting)", choices=LEVELS)
    beta: float = option(0.5, "F beta", exclusive_minimum=0)
    max_unchanged_words: int = option(MAX_UNCHANGED_WORDS, "MaxMatch: unchanged tokens allowed inside one edit",
                                      minimum=0)
    max_cells: int = option(MAX_LATTICE_CELLS, "MaxMatch: the largest (source + 1) x (hypothesis + 1) lattice of "
                                               "one sentence; a longer line is a clear error (raise this to "
                                               "score it)", minimum=1, signature=None,
                            space=False)   # a guard of the server's memory: not a visitor's to raise
    segmentation: str = option(
        DEFAULT_SEGMENTATION, "MaxMatch ties between equally good edit sequences: reference (m2scorer 3.2's and "
                              "the PT-M2 reference code's: the official M2 counts) or minimal (the smallest edits; "
                              "other counts than m2scorer on fluent rewrites)",
        choices=SEGMENTATIONS, signature_rank=2)

    def __post_init__(self) -> None:
        validate(self)
        if self.scorer == "bartscore" and self.precision != DEFAULT_PRECISION:
            raise GecOptionError("precision", f"{self.precision} needs scorer=bertscore; BARTScore runs in "
                                              f"{DEFAULT_PRECISION} only")
        check_precision_device(self)


