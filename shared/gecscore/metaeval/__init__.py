"""Meta-evaluation: human rankings, system-level correlations, bootstrap CIs, leaderboards."""
from gecscore.metaeval.correlation import Correlation, correlate, pearson, spearman
from gecscore.metaeval.human import HumanScores, gjg15_scores, load_human, seeda_scores
from gecscore.metaeval.refsets import PAPER_REFSETS, REFSETS, RefSet, load_refset

__all__ = ["Correlation", "correlate", "pearson", "spearman", "HumanScores", "gjg15_scores", "load_human",
           "seeda_scores", "PAPER_REFSETS", "REFSETS", "RefSet", "load_refset"]
