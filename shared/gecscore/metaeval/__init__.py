"""Meta-evaluation statistics: functions over metric scores and human rankings (system-level
correlations, Williams' test, TrueSkill and Expected Wins, tie-aware sentence-level agreement,
window analysis, sensitivity, CLEME2.0 weight tuning, the PERM-BOTH permutation test between
metrics in :mod:`~gecscore.metaeval.perm_both`). Nothing here runs a metric or knows the
leaderboard (:mod:`gecscore.leaderboard` uses these)."""
from gecscore.metaeval.correlation import Correlation, correlate, pearson, spearman
from gecscore.metaeval.human import HumanScores, gjg15_scores, load_human, seeda_scores

__all__ = ["Correlation", "correlate", "pearson", "spearman", "HumanScores", "gjg15_scores", "load_human",
           "seeda_scores"]
