"""ERRANT's English classifier, run over a UD parse (what MultiGEC-2025's ERRANT did).

ERRANT 3.0.2's classifier (``errant/en/classifier.py``) reads, per token: ``tag_`` (through its
Penn Treebank -> UPOS map ``pos_map``, and directly for ``POS``, ``VBD``, ``VBG``, ``VBN``,
``VBZ``, ``NNS``), ``pos`` / ``pos_``, ``lemma``, ``dep_`` (ClearNLP labels: ``aux``,
``auxpass``, ``acomp``, ``amod``, ``prep``, ``prt``, ...), ``lower_`` and ``text``; and
English resources: the Hunspell en_GB word list (``spell``), the Lancaster stemmer,
contractions. A non-English spaCy pipeline gives UD ``pos_`` and UD v2 ``dep_`` labels, and
its ``tag_`` is either UPOS (the ``*_core_news_*`` pipelines) or a language's own tagset, none
of which the Penn map knows (ERRANT raises ``KeyError``).

:func:`ud_classifier` therefore loads ERRANT's classifier module a second time, as a private
module object (ERRANT's own ``errant.en.classifier``, used by the English profile, is left
untouched), and replaces in that copy only ``get_edit_info``, the function that turns tokens
into POS and dep lists:

* POS: the token's UPOS (``pos_``) renamed as ERRANT's map renames it (``ADP`` -> ``PREP``,
  ``PROPN`` -> ``NOUN``, ``CCONJ`` -> ``CONJ``; ``SCONJ`` -> ``CONJ``, ERRANT's closest
  category), instead of ``pos_map[tag_]``;
* dep: the UD label without its subtype (``aux:tense`` -> ``aux``, ``obl:arg`` -> ``obl``), so
  ERRANT's ``aux``/``det``/``advmod``/``amod``/``punct`` rules can fire.

What then behaves differently from English ERRANT (documented in docs/lang_multigec.md):
the Penn-tag rules (possessive ``POS``, ``VBD``/``VBG``/``VBN``/``VBZ`` verb forms, ``NNS``)
never fire, so verb-form errors are ``VERB``/``VERB:INFL``/``MORPH``/``SPELL``-style rather
than ``VERB:FORM``/``VERB:TENSE``/``VERB:SVA``; ``spell`` is the English word list, so almost
every non-English word counts as "not a known word" (same-POS, similar-string substitutions
become ``SPELL`` as for an English non-word); the Lancaster stemmer and the contraction lists
are English.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from types import ModuleType

UD_TO_ERRANT = {"ADP": "PREP", "PROPN": "NOUN", "CCONJ": "CONJ", "SCONJ": "CONJ"}


def edit_info(toks) -> tuple[list[str], list[str]]:
    """(POS names, dep labels) of tokens as ERRANT's classifier reads them, from a UD parse."""
    pos = [UD_TO_ERRANT.get(tok.pos_, tok.pos_ or "X") for tok in toks]
    dep = [tok.dep_.split(":")[0] for tok in toks]
    return pos, dep


@lru_cache(maxsize=None)
def _classifier_module() -> ModuleType:
    import errant.en.classifier as english

    spec = importlib.util.spec_from_file_location("gecscore_multigec_errant_classifier", english.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.get_edit_info = edit_info
    return module


def ud_classifier(nlp) -> ModuleType:
    """ERRANT's classifier (a private copy of the module) reading UD parses of ``nlp``.

    One copy per process, shared by every language: ERRANT 3.0.2's classifier keeps a
    module-level ``nlp`` (set here, as ``errant.load`` sets it) but reads no other state from
    the pipeline, so the copy is the same for all of them."""
    module = _classifier_module()
    module.nlp = nlp
    return module
