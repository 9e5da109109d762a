"""The model-free language profile (rules ``free-1``): tokenise, align, merge, classify with no
parser or model, for any script. See :mod:`.tokenize`, :mod:`.align`, :mod:`.merge`,
:mod:`.classify` and :class:`.profile.FreeProfile`."""
from gecscore.lang.free.profile import FreeProfile, FreeExtractor, RULES

__all__ = ["FreeProfile", "FreeExtractor", "RULES"]
