"""The lexical resources ChERRANT's character-level alignment reads, and pinyin.

ChERRANT's substitution cost (``modules/alignment.py``, ``get_sub_cost`` in char mode) reads:

* **Cilin** (``data/cilin.txt``, GBK): lines ``CODE w1 w2 ...``; a word maps to the code of the
  *last* line that lists it (ChERRANT fills a dict line by line). Only single characters (and
  the token ``[缺失成分]``, which Cilin does not list) are looked up in char mode.
* **the confusion set** (``data/confusion_dict.txt``, UTF-8): lines ``c x1 x2 ...``; the last
  line of a key wins. ``a`` and ``b`` are confusable when ``a`` is listed under ``b`` or ``b``
  under ``a``.
* **pinyin**: ``pypinyin.pinyin(token, style=NORMAL, heteronym=True)[0]``, all readings of the
  token's first character group, as ChERRANT's tokenizer stores them.

Both files ship unmodified (gzip-compressed) from HillZhang1999/MuCGEC at commit 3922193
(Apache-2.0, see NOTICE); :data:`FILE_SHA256` are the digests of the uncompressed files, checked
on load and recorded in the signature facts. Char metadata (``char_meta.txt``) is only used by
the word-level classifier and is not shipped.
"""
from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from importlib.resources import files


DATA = "gecscore.lang.zh"
CILIN = "data/cilin.txt.gz"
CONFUSION = "data/confusion_dict.txt.gz"
SOURCE_COMMIT = "39221934ee4ccf07801879136a75dd7e11319977"
FILE_SHA256 = {
    CILIN: "d4c707f5d895e00f2223547582f1c2cd8f5888a7cc0d0f687fc28a510b77a6bb",
    CONFUSION: "aafa202dc451fb79a0a2cfc77b965009daa39d0cedd03e25074c1a35b7ac67b2",
}


def _read(name: str) -> bytes:
    raw = gzip.decompress(files(DATA).joinpath(name).read_bytes())
    digest = hashlib.sha256(raw).hexdigest()
    if digest != FILE_SHA256[name]:
        raise RuntimeError(f"{name}: unexpected content (sha256 {digest}); reinstall gecscore")
    return raw


@lru_cache(maxsize=1)
def cilin() -> dict[str, str]:
    """word -> Cilin code, the last line listing a word winning (as ChERRANT's ``read_cilin``)."""
    semantic: dict[str, str] = {}
    for line in _read(CILIN).decode("gbk").strip().split("\n"):
        code, *words = line.split(" ")
        for word in words:
            semantic[word] = code
    return semantic


@lru_cache(maxsize=1)
def confusion() -> dict[str, frozenset[str]]:
    """char -> its confusable characters, the last line of a key winning (``read_confusion``)."""
    table: dict[str, frozenset[str]] = {}
    for line in _read(CONFUSION).decode("utf-8").split("\n"):
        if not line:
            continue  # the final newline; ChERRANT iterates lines, which yields no empty one
        key, *rest = line.split(" ")
        table[key] = frozenset(rest)
    return table


def _pypinyin():
    from gecscore.extras import require

    return require("pypinyin", "Chinese char-level alignment costs (pinyin readings)")


@lru_cache(maxsize=200_000)
def readings(token: str) -> frozenset[str]:
    """All pinyin readings ChERRANT stores for a token (``heteronym=True``, first group)."""
    pypinyin = _pypinyin()
    return frozenset(pypinyin.pinyin(token, style=pypinyin.Style.NORMAL, heteronym=True)[0])


def versions() -> tuple[tuple[str, str], ...]:
    """Signature facts: the resources' origin and digests, pypinyin's and OpenCC's versions."""
    from importlib.metadata import PackageNotFoundError, version

    def ver(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "none"

    return (("cherrant", f"MuCGEC@{SOURCE_COMMIT[:7]}"),
            ("cilin", FILE_SHA256[CILIN][:12]), ("confusion", FILE_SHA256[CONFUSION][:12]),
            ("pypinyin", ver("pypinyin")), ("opencc", ver("OpenCC")))
