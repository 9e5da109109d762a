"""The I-measure XML gold format: reader, writer, and the converter from M2.

```
<scripts><script id="1"><sentence id="1" numann="2"><text>tokens ...</text>
  <error-list><error id="1" req="yes" type="SVA">
    <alt ann="0"><c end="1" start="0">These</c></alt> ...
```
Each ``error`` groups mutually exclusive corrections (one ``alt`` per annotator); ``c``
holds a source span and its replacement (empty = deletion). The reader gives
:class:`gecscore.types.Gold` sentences with the file's error groups; the writer produces the
byte layout of the reference converter (attributes in alphabetical order, one line).
"""
from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable

from gecscore.errors import GecInputError
from gecscore.io.user_files import read_bytes
from gecscore.types import Edit, Gold, GoldAlternative, GoldError


class IXmlFormatError(GecInputError):
    """A malformed I-measure XML gold; ``where`` names the file and the sentence."""


# ---------------------------------------------------------------- reading

def _int(value: str | None, what: str, where: str) -> int:
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise IXmlFormatError(f"{what} must be an integer, got {value!r}", where) from None


def _read_sentence(node: ET.Element, script: str, where: str, beyond: list[str]) -> Gold:
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
    return Gold.from_errors(source, errors, numann, id=sid, script=script)


def read_ixml(path: str | Path) -> list[Gold]:
    """Read an I-measure XML gold (every ``sentence`` of every ``script``, in file order; the
    file read by :func:`gecscore.io.user_files.read_bytes`)."""
    path = Path(path)
    data = read_bytes(path)   # a missing file, a FIFO, a folder ...: one line naming it
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        line, column = error.position
        raise IXmlFormatError(f"not well-formed XML: {error}", f"{path}:{line}:{column}") from None
    scripts = [root] if root.tag == "script" else root.findall("script")
    if root.tag not in ("scripts", "script"):
        raise IXmlFormatError(f"expected <scripts> as the root element, got <{root.tag}>", str(path))
    sentences: list[Gold] = []
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

# what XML 1.0 cannot hold: control characters but tab, newline and CR; lone surrogates;
# U+FFFE and U+FFFF. (The I-measure's own parser rejects a file holding any of them.)
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def non_xml_character(text: str) -> int | None:
    """The index of the first character of ``text`` that XML 1.0 cannot hold, or None."""
    match = _NOT_XML.search(text)
    return None if match is None else match.start()


def _refusal(character: str) -> str:
    return (f"character U+{ord(character):04X} cannot be written to XML 1.0 (control characters "
            f"other than tab/newline/CR, lone surrogates and U+FFFE/U+FFFF are not allowed)")


def check_xml_lines(lines: Iterable[str], path: str) -> None:
    """Refuse, naming ``path``, the line and the column, a line holding a character XML 1.0
    cannot hold: the converter fails on its input instead of writing a file the I-measure
    rejects. Whitespace-like control characters (which only separate tokens, and are not
    written) are let through."""
    for number, line in enumerate(lines, start=1):
        for column, character in enumerate(line, start=1):
            if _NOT_XML.match(character) and not character.isspace():
                raise IXmlFormatError(_refusal(character), f"{path}:{number}:{column}")


def _check_sentence(sentence: Gold) -> None:
    """Every text the writer puts in the file is XML 1.0 text (else a clear error naming the
    sentence; the converter checks its input lines first, naming the file and line)."""
    texts = [" ".join(sentence.source), sentence.id, sentence.script]
    for error in sentence.errors or ():
        texts += [error.id, error.type]
        texts += [" ".join(edit.correction) for alt in error.alternatives for edit in alt.edits]
    for text in texts:
        index = non_xml_character(text)
        if index is not None:
            where = f"sentence {sentence.id or '?'}" + (f" (line {sentence.line})" if sentence.line else "")
            raise IXmlFormatError(_refusal(text[index]), where)


def to_element(sentences: Iterable[Gold]) -> ET.Element:
    """The XML tree; every sentence needs its error groups (``Gold.errors``; for a gold read from
    M2 see :func:`gecscore.imeasure.gold.with_error_groups`)."""
    root = ET.Element("scripts")
    script_nodes: dict[str, ET.Element] = {}
    for sentence in sentences:
        _check_sentence(sentence)
        script = script_nodes.get(sentence.script)
        if script is None:
            script = script_nodes[sentence.script] = ET.SubElement(root, "script", id=sentence.script)
        node = ET.SubElement(script, "sentence", {"id": sentence.id, "numann": str(sentence.numann)})
        ET.SubElement(node, "text").text = " ".join(sentence.source)
        error_list = ET.SubElement(node, "error-list")
        if sentence.errors is None:
            raise ValueError(f"sentence {sentence.id or '?'} has no error groups; "
                             "use gecscore.imeasure.gold.with_error_groups first")
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


def format_ixml(sentences: Iterable[Gold]) -> str:
    """The XML text (declaration line, then the whole document on one line)."""
    body = ET.tostring(to_element(sentences), encoding="unicode")
    return "<?xml version='1.0' encoding='UTF-8'?>\n" + body


def write_ixml(sentences: Iterable[Gold], path: str | Path) -> None:
    """Write the XML gold to ``path`` (the whole text is built first: a refused character
    leaves no partial file; a bad path is a clear error)."""
    from gecscore.outputs import write_output_text

    write_output_text(path, format_ixml(sentences), "I-measure XML gold")
