"""The per-edit colour view of the CLEME2.0 and PT-M2 Spaces: each hypothesis edit of a sentence
coloured by its attribution (:mod:`gecscore.attribution`), green when it raises the sentence's
score, red when it lowers it, the stronger the colour the larger its share.

The attribution is computed only when the Space's *edit attribution* control asks for it (exact
Shapley costs ``2^n`` sentence scores per sentence of ``n`` edits); :func:`attach` puts each
sentence's edit records into its per-sentence record (``"attribution"``), which the view then
draws without scoring again. The colour scale is shared by every sentence shown (the largest
magnitude is full colour), so two sentences' edits compare at a glance.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from gecscore.spaces.render import note_html, number, text

#: the choices of the Space control (``none``: no attribution, the fast default)
METHOD_CHOICES = ("none", "shapley", "sampled-shapley", "add-one", "remove-one")
#: the view's colour choices: the Space's own labels, or the attribution
COLOUR_CHOICES = ("labels", "attribution")
SAMPLES = 32
POSITIVE, NEGATIVE = (46, 139, 87), (192, 57, 43)
EMPTY = "∅"


def with_attribution(metric, corpus, records: Sequence[dict], method: str, seed: int = 0) -> list[dict]:
    """The request's per-sentence ``records`` with each sentence's edit attributions attached
    (:func:`attach`), ``metric`` taken at sentence level (its other options kept: an edit's
    share is of its own sentence's score); ``records`` as they are for ``method == "none"``."""
    if method == "none":
        return list(records)
    import dataclasses

    from gecscore.attribution.corpus import attribute_corpus
    from gecscore.spaces.inputs import prepare_request

    sentence = type(metric)(dataclasses.replace(metric.config, level="sentence"))
    prepared = prepare_request(sentence, corpus)
    targets = sentence.hypothesis_edits(prepared, sentence.checked_predictions(prepared, corpus.hypotheses), {})
    edits = attribute_corpus(sentence, prepared.gold, targets, method, SAMPLES, seed)
    return attach(records, edits, [gold.source for gold in prepared.gold.sentences])


def method_radio():
    """The Space control (not a metric option): which attribution to compute, if any."""
    import gradio as gr

    return gr.Radio(list(METHOD_CHOICES), value="none", label="edit attribution", elem_id="gec-attribution",
                    info="share of each hypothesis edit in its sentence's score (shapley: exact up to 14 edits; "
                         f"sampled: {SAMPLES} permutations); shown with 'colour edits by: attribution'")


def colour_radio():
    """The view control: colour the edits by the Space's labels or by their attribution."""
    import gradio as gr

    return gr.Radio(list(COLOUR_CHOICES), value="labels", label="colour edits by", elem_id="gec-colour")


def attach(records: Sequence[dict], edits: Sequence[Mapping], sources: Sequence[Sequence[str]]) -> list[dict]:
    """The per-sentence ``records`` with ``"attribution"`` (that sentence's edit records, maybe
    []) and ``"tokens"`` (its source tokens) added: what :func:`sentences_html` draws."""
    by_sentence: dict[int, list[dict]] = {}
    for edit in edits:
        by_sentence.setdefault(edit["sentence"], []).append(dict(edit))
    return [{**record, "attribution": by_sentence.get(i, []), "tokens": list(sources[i])}
            for i, record in enumerate(records)]


def colour(value: float, scale: float) -> str:
    """``rgba`` green (positive) or red (negative), its opacity the magnitude's share of
    ``scale`` (at least 0.12, so a tiny share still shows its sign); a zero is transparent."""
    if not value or not scale:
        return "transparent"
    red, green, blue = POSITIVE if value > 0 else NEGATIVE
    alpha = 0.12 + 0.88 * min(1.0, abs(value) / scale)
    return f"rgba({red},{green},{blue},{alpha:.3f})"


def _edit_span(edit: Mapping, scale: float) -> str:
    value = float(edit["attribution"])
    sign = "positive" if value > 0 else "negative" if value < 0 else "zero"
    before = text(edit["source"]) if edit["source"] else EMPTY
    after = text(edit["correction"]) if edit["correction"] else EMPTY
    tip = f"{edit['type']}: {value:+.4f} ({edit['method']})"
    return (f'<span class="gec-attr" data-sign="{sign}" data-attribution="{value!r}" title="{text(tip)}" '
            f'style="background:{colour(value, scale)};border:1px solid #999;border-radius:4px;padding:1px 4px;'
            f'margin:0 2px"><del>{before}</del>→<ins>{after}</ins>'
            f'<sub class="gec-attr-value">{value:+.3f}</sub></span>')


def sentence_html(record: Mapping, scale: float) -> str:
    """One sentence: the source tokens, each hypothesis edit in place as ``source→correction``
    coloured by its attribution, and the sentence score without / with all the edits."""
    tokens, edits = record["tokens"], sorted(record["attribution"], key=lambda e: (e["start"], e["end"]))
    parts, at = [], 0
    for edit in edits:
        parts += [text(t) for t in tokens[at:max(at, edit["start"])]]
        parts.append(_edit_span(edit, scale))
        at = max(at, edit["end"])
    parts += [text(t) for t in tokens[at:]]
    ends = (f'<div class="gec-src">sentence score {number(edits[0]["empty"], 3)} without the edits, '
            f'{number(edits[0]["full"], 3)} with them</div>' if edits else
            '<div class="gec-src">no hypothesis edit</div>')
    return (f'<div class="gec-sentence gec-attr-sentence" data-index="{record.get("index", "")}">'
            f'<div style="line-height:2">{" ".join(parts)}</div>{ends}</div>')


def sentences_html(records: Sequence[Mapping], limit: int = 50) -> str:
    """Up to ``limit`` sentences coloured by attribution (a note when none was computed)."""
    if not records:
        return note_html("No sentences yet: paste or upload some text and press Evaluate.")
    if "attribution" not in records[0]:
        return note_html("No edit attribution was computed: choose a method under 'edit attribution' "
                         "and press Evaluate.")
    shown = records[:limit]
    scale = max((abs(float(e["attribution"])) for r in shown for e in r["attribution"]), default=0.0)
    more = (f'<div class="gec-more">Showing the first {limit} of {len(records)} sentences.</div>'
            if len(records) > limit else "")
    return legend() + "".join(sentence_html(r, scale) for r in shown) + more


def legend() -> str:
    """What the colours mean."""
    return ('<div class="gec-legend gec-attr-legend"><div class="gec-legend-title">Edit attribution</div>'
            f'<span class="gec-chip" style="background:{colour(1, 1)}">raises the score</span> '
            f'<span class="gec-chip" style="background:{colour(-1, 1)}">lowers it</span> '
            '<span class="gec-legend-text">the stronger the colour, the larger the share (the largest shown '
            'is full colour); the number is the edit\'s attribution of the sentence-level score.</span></div>')
