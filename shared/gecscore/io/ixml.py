"""The I-measure XML gold format: reader, writer, and the converter from M2.

```
<scripts><script id="1"><sentence id="1" numann="2"><text>tokens ...</text>
  <error-list><error id="1" req="yes" type="SVA">
    <alt ann="0"><c end="1" start="0">These</c></alt> ...
```
Each ``error`` groups mutually exclusive corrections (one ``alt`` per annotator); ``c``
holds a source span and its replacement (empty = deletion). The writer produces the byte
layout of the reference converter (attributes in alphabetical order, one line).
"""
from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from gecscore.errors import GecInputError
from gecscore.io.m2 import M2Sentence
from gecscore.types import Edit, Tokens


class IXmlFormatError(GecInputError):
    """A malformed I-measure XML gold; ``where`` names the file and the sentence."""


@dataclass(frozen=True, slots=True)
class GoldAlternative:
    """One annotator's correction of an error: one or more edits (``c`` elements)."""

    annotator: int
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class GoldError:
    """An error: its mutually exclusive alternatives; ``required`` if every annotator fixed it."""

    id: str
    required: bool
    type: str
    alternatives: tuple[GoldAlternative, ...]


@dataclass(frozen=True, slots=True)
class GoldSentence:
    """A source sentence, its number of annotators and its errors."""

    id: str
    source: Tokens
    numann: int
    errors: tuple[GoldError, ...]
    script: str = "1"

    @property
    def annotators(self) -> list[int]:
        """Annotator ids that have at least one alternative, ascending."""
        return sorted({alt.annotator for error in self.errors for alt in error.alternatives})


# ---------------------------------------------------------------- reading

def _int(value: str | None, what: str, where: str) -> int:
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise IXmlFormatError(f"{what} must be an integer, got {value!r}", where) from None


def _read_sentence(node: ET.Element, script: str, where: str, beyond: list[str]) -> GoldSentence:
    sid = node.get("id")
    if sid is None:
        raise IXmlFormatError("a <sentence> has no id", where)
    where = f"{where} sentence {sid}"
    text = node.find("text")
    if text is None:
        raise IXmlFormatError("<sentence> has no <text>", where)
    source = tuple((text.text or "").split())
    numann = _int(node.get("numann", "0"), "numann", where)
    errors = []
    error_list = node.find("error-list")
    for number, error in enumerate(() if error_list is None else error_list.findall("error"), start=1):
        ewhere = f"{where} error {error.get('id', number)}"
        req = error.get("req", "yes")
        if req not in ("yes", "no"):
            raise IXmlFormatError(f"req must be 'yes' or 'no', got {req!r}", ewhere)
        alternatives = []
        for alt in error.findall("alt"):
            annotator = _int(alt.get("ann"), "ann", ewhere)
            edits = []
            for corr in alt.findall("c"):
                start = _int(corr.get("start"), "start", ewhere)
                end = _int(corr.get("end"), "end", ewhere)
                if not 0 <= start <= end:
                    raise IXmlFormatError(f"bad span [{start}, {end})", ewhere)
                if end > len(source):
                    beyond.append(f"{ewhere} [{start}, {end})")
                edits.append(Edit(start, end, tuple((corr.text or "").split()),
                                  error.get("type", ""), annotator=annotator))
            alternatives.append(GoldAlternative(annotator, tuple(edits)))
        errors.append(GoldError(error.get("id", str(number)), req == "yes", error.get("type", ""),
                                tuple(alternatives)))
    return GoldSentence(sid, source, numann, tuple(errors), script)


def read_ixml(path: str | Path) -> list[GoldSentence]:
    """Read an I-measure XML gold (every ``sentence`` of every ``script``, in file order)."""
    path = Path(path)
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise GecInputError("no such file", str(path)) from None
    except ET.ParseError as error:
        line, column = error.position
        raise IXmlFormatError(f"not well-formed XML: {error}", f"{path}:{line}:{column}") from None
    scripts = [root] if root.tag == "script" else root.findall("script")
    if root.tag not in ("scripts", "script"):
        raise IXmlFormatError(f"expected <scripts> as the root element, got <{root.tag}>", str(path))
    sentences: list[GoldSentence] = []
    beyond: list[str] = []
    for script in scripts:
        for node in script.findall("sentence"):
            sentences.append(_read_sentence(node, script.get("id", "1"), str(path), beyond))
    if beyond:
        warnings.warn(f"{path}: {len(beyond)} correction span(s) end beyond their sentence (kept; "
                      f"applied like a Python slice, i.e. at the sentence end, as the reference "
                      f"does): {'; '.join(beyond[:3])}{' ...' if len(beyond) > 3 else ''}", stacklevel=2)
    return sentences


# ---------------------------------------------------------------- writing

def to_element(sentences: Iterable[GoldSentence]) -> ET.Element:
    root = ET.Element("scripts")
    script_nodes: dict[str, ET.Element] = {}
    for sentence in sentences:
        script = script_nodes.get(sentence.script)
        if script is None:
            script = script_nodes[sentence.script] = ET.SubElement(root, "script", id=sentence.script)
        node = ET.SubElement(script, "sentence", {"id": sentence.id, "numann": str(sentence.numann)})
        ET.SubElement(node, "text").text = " ".join(sentence.source)
        error_list = ET.SubElement(node, "error-list")
        for error in sentence.errors:
            enode = ET.SubElement(error_list, "error", {"id": error.id, "req": "yes" if error.required else "no",
                                                        "type": error.type})
            for alt in error.alternatives:
                anode = ET.SubElement(enode, "alt", ann=str(alt.annotator))
                for edit in alt.edits:
                    cnode = ET.SubElement(anode, "c", {"end": str(edit.end), "start": str(edit.start)})
                    if edit.correction:
                        cnode.text = " ".join(edit.correction)
    return root


def format_ixml(sentences: Iterable[GoldSentence]) -> str:
    """The XML text (declaration line, then the whole document on one line)."""
    body = ET.tostring(to_element(sentences), encoding="unicode")
    return "<?xml version='1.0' encoding='UTF-8'?>\n" + body


def write_ixml(sentences: Iterable[GoldSentence], path: str | Path) -> None:
    Path(path).write_text(format_ixml(sentences), encoding="utf-8")


# ---------------------------------------------------------------- M2 -> XML

_MASK64 = (1 << 64) - 1


def _py2_str_hash(text: str) -> int:
    """Python 2's (64-bit, unrandomised) hash of a byte string."""
    data = text.encode("utf-8")
    if not data:
        return 0
    x = (data[0] << 7) & _MASK64
    for byte in data:
        x = ((1000003 * x) & _MASK64) ^ byte
    x = (x ^ len(data)) & _MASK64
    if x >= 1 << 63:
        x -= 1 << 64
    return -2 if x == -1 else x


def py2_set_order(items: Iterable[str]) -> list[str]:
    """The distinct ``items`` in the iteration order of a Python 2 ``set`` built from them.

    The reference converter writes an error's type as ``'/'.join(set(types))``; this
    reproduces that order (open addressing with perturbation, as in CPython 2.7's
    setobject.c) so that converted files are byte-identical.
    """
    mask, used, table = 7, 0, [None] * 8

    def insert(slots: list, slot_mask: int, key: str, key_hash: int) -> bool:
        i, perturb = key_hash & slot_mask, key_hash & _MASK64
        while slots[i & slot_mask] is not None:
            if slots[i & slot_mask][0] == key:
                return False
            i = (i << 2) + i + perturb + 1
            perturb >>= 5
        slots[i & slot_mask] = (key, key_hash)
        return True

    for item in items:
        if insert(table, mask, item, _py2_str_hash(item)):
            used += 1
            if used * 3 >= (mask + 1) * 2:
                size, wanted = 8, used * 4 if used <= 50000 else used * 2
                while size <= wanted:
                    size <<= 1
                old, table, mask = table, [None] * size, size - 1
                for entry in old:
                    if entry is not None:
                        insert(table, mask, entry[0], entry[1])
    return [entry[0] for entry in table if entry is not None]


def _overlaps(a: Edit, b: Edit) -> bool:
    """The converter's overlap: same span; an insertion strictly inside the other span;
    otherwise ordinary interval overlap."""
    if (a.start, a.end) == (b.start, b.end):
        return True
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def cluster_edits(edits: Sequence[Edit]) -> list[list[Edit]]:
    """Group edits into errors: longest span first (stable), each into the first cluster it
    overlaps; clusters ordered by their first edit's (start, end)."""
    clusters: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: e.end - e.start, reverse=True):
        for cluster in clusters:
            if any(_overlaps(edit, member) for member in cluster):
                cluster.append(edit)
                break
        else:
            clusters.append([edit])
    clusters.sort(key=lambda cluster: (cluster[0].start, cluster[0].end))
    return clusters


def gold_from_m2(sentence: M2Sentence, sentence_id: str, script: str = "1") -> GoldSentence:
    """One I-measure gold sentence from an M2 block (first correction of each A line)."""
    edits = [Edit(e.start, e.end, e.correction, e.type, annotator=ann)
             for ann, ann_edits in sentence.annotations.items() for e in ann_edits]
    annotators = set(sentence.annotations)
    errors = []
    for number, cluster in enumerate(cluster_edits(edits), start=1):
        by_annotator: dict[int, list[Edit]] = {}
        for edit in cluster:
            by_annotator.setdefault(edit.annotator, []).append(edit)
        alternatives = tuple(GoldAlternative(ann, tuple(by_annotator[ann])) for ann in sorted(by_annotator))
        types = "/".join(py2_set_order(edit.type for alt in alternatives for edit in alt.edits))
        errors.append(GoldError(str(number), set(by_annotator) >= annotators, types, alternatives))
    return GoldSentence(sentence_id, sentence.source, len(annotators), tuple(errors), script)


def m2_to_ixml(sentences: Sequence[M2Sentence]) -> list[GoldSentence]:
    """Convert a whole M2 file (sentence ids 1..N in one script)."""
    return [gold_from_m2(sentence, str(number)) for number, sentence in enumerate(sentences, start=1)]
