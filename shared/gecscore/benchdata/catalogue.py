"""The catalogue of the public evaluation sets the library reads by name.

Each :class:`DataSet` (``conll14``, ``gjg15``, ``seeda``, ...) lists the files the code reads,
each at the path where the code reads it relative to the data folder (``conll14/systems/AMU.txt``),
with the SHA-256 and size of the file as written there. Every file comes from a public GitHub
repository at a pinned commit (:class:`Upstream`: ``raw.githubusercontent.com/<repo>/<commit>/<path>``)
and is one of:

- ``copy``: the upstream file byte for byte;
- ``strip-trailing-blanks``: the upstream file with trailing spaces and tabs removed from every
  line (the CoNLL-2014 system outputs: three raw submissions end some lines with blanks that
  change nothing but a checksum). The derived file is what is verified; the upstream file's own
  checksum is pinned too and named in the error when the derived file does not verify;
- ``embedded``: a small typed table shipped inside the package (GJG15's human scores, typed
  from the paper's Table 3; no repository publishes them as a file);
- ``seeda-systems``: SEEDA's system names, the stems of its ``outputs/all/*.txt`` files sorted by
  code point, one per line. SEEDA's human score files (``scores/human/*.txt``) list one score a
  line in this order (its ``utils/corr_system.py`` drops the base set's GPT-3.5, INPUT and REF-F
  as indices 4, 5 and 8 of it); the repository has no file naming them.

The checksums were pinned from copies verified against the upstream files at these commits
(``scripts/verify_benchdata.py`` checks a folder against them). UA-GEC is not here: the
``ua-gec`` package on PyPI ships that corpus (``pip install 'gecscore[uagec]'``).
"""
from __future__ import annotations

from dataclasses import dataclass

COPY = "copy"
STRIP_TRAILING_BLANKS = "strip-trailing-blanks"
EMBEDDED = "embedded"
SEEDA_SYSTEMS = "seeda-systems"
DERIVATIONS = (COPY, STRIP_TRAILING_BLANKS, EMBEDDED, SEEDA_SYSTEMS)


@dataclass(frozen=True)
class Repository:
    """A public GitHub repository at the commit the files were taken from."""

    name: str        # owner/name
    commit: str      # 40 hex digits
    licence: str     # the repository's licence for what we take from it, as it states it

    def __post_init__(self) -> None:
        if len(self.commit) != 40 or any(c not in "0123456789abcdef" for c in self.commit):
            raise ValueError(f"{self.name}: a commit is 40 lower-case hex digits, got {self.commit!r}")


@dataclass(frozen=True)
class DataFile:
    """One file of a set: ``path`` under the data folder, its ``sha256`` and ``size`` there, and
    how it is made (``derivation``) from ``source_path`` in ``repository`` (None for a file made
    from the package alone). ``upstream_sha256``/``upstream_size``: the upstream file's own
    checksum where the derivation changes it."""

    path: str
    size: int
    sha256: str
    derivation: str = COPY
    repository: Repository | None = None
    source_path: str | None = None
    upstream_size: int | None = None
    upstream_sha256: str | None = None
    content: str | None = None   # the text of an embedded file

    def __post_init__(self) -> None:
        if self.derivation not in DERIVATIONS:
            raise ValueError(f"{self.path}: unknown derivation {self.derivation!r}")
        if (self.repository is None) != (self.derivation in (EMBEDDED, SEEDA_SYSTEMS)):
            raise ValueError(f"{self.path}: a {self.derivation} file "
                             f"{'needs' if self.repository is None else 'has no'} upstream repository")

    @property
    def url_path(self) -> str | None:
        """``<owner>/<name>/<commit>/<path>``, the file's path on raw.githubusercontent.com."""
        if self.repository is None:
            return None
        return f"{self.repository.name}/{self.repository.commit}/{self.source_path}"

    @property
    def download_size(self) -> int:
        """Bytes to download: the upstream file's size (nothing for a file made locally)."""
        if self.repository is None:
            return 0
        return self.upstream_size if self.upstream_size is not None else self.size


@dataclass(frozen=True)
class DataSet:
    """A named set: ``gecscore data get NAME`` fetches its ``files``; ``folder`` (under the data
    folder) is what ``gecscore data path NAME`` prints."""

    name: str
    title: str
    description: str
    folder: str
    licence: str
    citation: str       # one line
    bibtex: str
    files: tuple[DataFile, ...]

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def repositories(self) -> tuple[Repository, ...]:
        seen: dict[str, Repository] = {}
        for f in self.files:
            if f.repository is not None:
                seen.setdefault(f.repository.name, f.repository)
        return tuple(seen.values())


def copied(path: str, repository: Repository, source_path: str, size: int, sha256: str) -> DataFile:
    return DataFile(path, size, sha256, COPY, repository, source_path)


def stripped(path: str, repository: Repository, source_path: str, size: int, sha256: str,
             upstream_size: int, upstream_sha256: str) -> DataFile:
    return DataFile(path, size, sha256, STRIP_TRAILING_BLANKS, repository, source_path, upstream_size,
                    upstream_sha256)


def embedded(path: str, content: str, size: int, sha256: str) -> DataFile:
    return DataFile(path, size, sha256, EMBEDDED, content=content)


def seeda_systems(path: str, size: int, sha256: str) -> DataFile:
    return DataFile(path, size, sha256, SEEDA_SYSTEMS)


# --- the repositories, at the commits the files were taken from --------------------------------
NO_LICENCE = "no licence file in the repository; published by the authors for research use"
GEC_LLM_EVAL = Repository("tolgahanturker/gec-llm-eval", "fc3be842af298b623bd4e6853b78cd83bc0323a0",
                          "no licence file in the repository (a copy of the NUS release)")
PT_M2 = Repository("pygongnlp/PT-M2", "67ef5755d7fbe5860f7988af58bc960c47846178", NO_LICENCE)
CLEME = Repository("THUKElab/CLEME", "e90abead75a9d766595b1b0ff4473647af0c86e9", "Apache-2.0")
GRAMMATICAL_EVALUATION = Repository("grammatical/evaluation", "08cdad84ffae07dfa167e3e45d77a96e0e01a160",
                                    NO_LICENCE)
GRAMMATICALITY_METRICS = Repository("cnap/grammaticality-metrics", "3c1cde1fb1b2b680c97eb2239ed35feab89d2a8a",
                                    NO_LICENCE)
REASSESS_GEC = Repository("keisks/reassess-gec", "054786a923b2635ce33240c580d18c908c9a49a9", NO_LICENCE)
SEEDA = Repository("tmu-nlp/SEEDA", "0c6c07f98dcfab016f1169b680997f1f29ea0705", NO_LICENCE)
DSGRAM = Repository("jxtse/GEC-Metrics-DSGram", "d2f91beb20761d455ebdffb0dd6e9fcbb6a1e3b5", NO_LICENCE)
JFLEG = Repository("keisks/jfleg", "ee06ff806a208aba815ac45313f4e750a48330a5", "CC BY-NC-SA 4.0")
MUCGEC = Repository("HillZhang1999/MuCGEC", "39221934ee4ccf07801879136a75dd7e11319977", "Apache-2.0")
ATTACK_GEC_METRICS = Repository("gotutiyan/attack-gec-metrics", "59cf0b132f24265c5953bb4005e5a94d87ec3308",
                                "MIT")
GMEG = Repository("grammarly/GMEG", "83be7cd0a94f6986028bd60ca7fa2c8ba036ad3b",
                  "no licence stated in the repository: not re-hosted; fetched from the upstream repository for "
                  "research use")
CWEB = Repository("SimonHFL/CWEB", "08d1da0ff2b78885b1f060b4fa11460a98eb9218", "CC BY-NC-SA 4.0")

#: GJG15's system ranking (Grundkiewicz, Junczys-Dowmunt and Gillian 2015, Table 3): Expected
#: Wins (EW) and TrueSkill (TS) of the 12 CoNLL-2014 systems and INPUT, typed from the paper.
GJG15_TABLE3 = """\
system\tEW\tTS
AMU\t0.628\t0.273
RAC\t0.566\t0.114
CAMB\t0.561\t0.182
CUUI\t0.550\t0.105
POST\t0.539\t0.080
UFC\t0.513\t-0.041
PKU\t0.506\t-0.001
UMC\t0.495\t-0.022
IITB\t0.485\t-0.055
SJTU\t0.463\t-0.074
INPUT\t0.456\t-0.062
NTHU\t0.437\t-0.142
IPN\t0.300\t-0.358
"""

# --- the files, by set (path, upstream path, size, SHA-256) ------------------------------------
_ATTACKS_FILES = (
    copied("attacks/conll14-impara.txt", ATTACK_GEC_METRICS, "experiments/attack_results/conll14-impara.txt",
           198505, "862e9787563b88c19d41117760a488301709a4e79b0ad0cb23d1178d4ed9b411"),
    copied("attacks/conll14-llmsent.txt", ATTACK_GEC_METRICS, "experiments/attack_results/conll14-llmsent.txt",
           122015, "ef7b4d9d83c1f929f3ddf804421f8b8303f612788c1aecfce08caa8d85cf6140"),
    copied("attacks/conll14-scribendi.txt", ATTACK_GEC_METRICS, "experiments/attack_results/conll14-scribendi.txt",
           161521, "e4689ed02c4b74d9462ac8bb8b63e00c29b818fa622bd2d3771c0e57c4944b61"),
    copied("attacks/conll14-some.txt", ATTACK_GEC_METRICS, "experiments/attack_results/conll14-some.txt",
           28863, "1507516af19d43cf6b2662e08777ed3d4709171e088119511e5d4a37f005171e"),
    copied("attacks/LICENSE", ATTACK_GEC_METRICS, "LICENSE",
           1066, "c9798fe436a90b53ae48c64e7398040ae7410bba5338cd7d9b34a441f7d53847"),
)

_CONLL14_FILES = (
    copied("conll14/official-2014.combined.m2", GEC_LLM_EVAL, "data/conll2014/noalt/official-2014.combined.m2",
           438492, "07771f4653844f2732e1d93a5711181995ff2ae0828016a276ad1e7335c96085"),
    copied("conll14/official-2014.combined-withalt.m2",
           GEC_LLM_EVAL, "data/conll2014/alt/official-2014.combined-withalt.m2",
           515159, "319a9d0212800d0492c50bf248da497c594b52cab315e6a704daec6ea32071ed"),
    copied("conll14/ref0.txt", PT_M2, "data/reference/ref0",
           160201, "2669a2d0d1f78c8034242f9295b186fdb4882bbcd6469f8f15b4afbdcbf74d3b"),
    copied("conll14/ref1.txt", PT_M2, "data/reference/ref1",
           160474, "a7286812c1adb3440bee3844056ada347e77e71f863b7c7a2360f7c5686bdb5a"),
    copied("conll14/refsets/NUCLE.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/NUCLE.m2.ieval.xml",
           723093, "56884faa6b57521c8162ebde8e0efa8dc989103e59c168476a6839cdfc09747a"),
    copied("conll14/source.txt", PT_M2, "data/source",
           161529, "4c12b583dbd297f160a8fd0671ade1adadfccf3129aac630fc8e821c8a676f77"),
    copied("conll14/README.release", GEC_LLM_EVAL, "data/conll2014/README",
           6065, "4d77dcd66b0fb32c68f265c1944eccf4283b4044457cfcf36031ba9090677ed5"),
)

_CONLL14_ERRANT_FILES = (
    copied("conll14/conll14.errant.m2", CLEME, "demo/examples/conll14.errant",
           482230, "92fd1a992f652a30dd18519283982ed7c20068d814eff000fc25ad0a5a50c27b"),
    copied("conll14/systems-errant/AMU.errant.m2", CLEME, "demo/examples/conll14-AMU.errant",
           257968, "5d516d14bedda4d046a5d6a7683adfc2b0d23d9ce2f13b82bb341f005d900500"),
    copied("conll14/systems-errant/CAMB.errant.m2", CLEME, "demo/examples/conll14-CAMB.errant",
           273826, "89e2b68e0956c42c357c542004f009549bdd8fbbe9f67a7b59479ddd85e7b4b4"),
    copied("conll14/systems-errant/CUUI.errant.m2", CLEME, "demo/examples/conll14-CUUI.errant",
           263383, "9bcf3ef2f520bf855674d5150503060154f2835928fadce92b864fe9f54504de"),
    copied("conll14/systems-errant/IITB.errant.m2", CLEME, "demo/examples/conll14-IITB.errant",
           229016, "23d2339e0ed8fb6b1813557eec7b34de85b9bebd7282d16da9c13034960c79c7"),
    copied("conll14/systems-errant/INPUT.errant.m2", CLEME, "demo/examples/conll14-INPUT.errant",
           228441, "15f5c697204e5274bd860935a9fc79ab66e370dd00a8491a53522619cce0b4a2"),
    copied("conll14/systems-errant/IPN.errant.m2", CLEME, "demo/examples/conll14-IPN.errant",
           234798, "22809a93f7f8a6e4435ee058676b693b4bb39984433c2a38f797535ca07c38de"),
    copied("conll14/systems-errant/NTHU.errant.m2", CLEME, "demo/examples/conll14-NTHU.errant",
           257886, "2d9d702939dfb156cb837a8da204c8e118baa5152e63d4a817d1ead2eb4523ee"),
    copied("conll14/systems-errant/PKU.errant.m2", CLEME, "demo/examples/conll14-PKU.errant",
           248944, "7e313b980e59ea12e94aaf9e7eccc7c3774b03156c9f24b6909add5d54b549a3"),
    copied("conll14/systems-errant/POST.errant.m2", CLEME, "demo/examples/conll14-POST.errant",
           266535, "0cbb5114cf948871073fcf13d98a8144237e549699e3eceabc8cd5ad0fbdf3e5"),
    copied("conll14/systems-errant/RAC.errant.m2", CLEME, "demo/examples/conll14-RAC.errant",
           257463, "8a601b33ec1c77b8f9e358a9dd2127f32995672553d5408ecaa382abec94d15b"),
    copied("conll14/systems-errant/SJTU.errant.m2", CLEME, "demo/examples/conll14-SJTU.errant",
           230807, "28148a490e4792738543b98e45a2df713f87609cdb6dc71be00175eadc82782f"),
    copied("conll14/systems-errant/UFC.errant.m2", CLEME, "demo/examples/conll14-UFC.errant",
           228653, "19fcd2f123198a2a8839499539b1434d02d8d9fb3fb68a0f7306f88b6e70f3fd"),
    copied("conll14/systems-errant/UMC.errant.m2", CLEME, "demo/examples/conll14-UMC.errant",
           246579, "a85dec1122bfb62a5c64865027c9575a578025e39bb4a74d0e3b47e523a59971"),
)

_BN10GEC_FILES = (
    copied("conll14/refsets/BN.m2", GRAMMATICALITY_METRICS, "references/BN.m2",
           1902780, "32418a11782ffcf9a122055ba151cbb57ca8388ac34d79a2b0d252edd2f1eac2"),
    copied("conll14/refsets/BN.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/BN.m2.ieval.xml",
           2508622, "fd9cf929c2c95277b6ebd9a075c965cf0a53fe62db25993f215acd4f7a7b593a"),
)

_SN8GEC_FILES = (
    copied("conll14/refsets/EXPFLUENCY.m2", GRAMMATICALITY_METRICS, "references/EXPFLUENCY.m2",
           611278, "f238930ed2efc5da5f7e16394576345d8ff5b39c7aeb306eee306cab453acf94"),
    copied("conll14/refsets/EXPFLUENCY.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/EXPFLUENCY.m2.ieval.xml",
           1044999, "e3064cda62954368f798e1f60a03d0835832c5d1c264ef14b5f977a3f6c88167"),
    copied("conll14/refsets/EXPMIN.m2", GRAMMATICALITY_METRICS, "references/EXPMIN.m2",
           387599, "c0313ebea69931d18b3d2acceef545f5337a2111a2ca564c56e6db2000793677"),
    copied("conll14/refsets/EXPMIN.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/EXPMIN.m2.ieval.xml",
           647279, "5e7e65640e4efcd318df222d581acb8328276f87942559112d415c495142fb80"),
    copied("conll14/refsets/TURKFLUENCY.m2", GRAMMATICALITY_METRICS, "references/TURKFLUENCY.m2",
           785720, "726fbe0a67384dd70f75f7c246f2f842d86bb9798a063989ca36795ab165ce03"),
    copied("conll14/refsets/TURKFLUENCY.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/TURKFLUENCY.m2.ieval.xml",
           1348083, "70c8b3a63ce423140863d1f44954b71b27d4466f0787cb9785b256bbed10e6bd"),
    copied("conll14/refsets/TURKMIN.m2", GRAMMATICALITY_METRICS, "references/TURKMIN.m2",
           409957, "96f89a6d2d9efd7a3e739fad2830f0bc1a1a6b3b3a7ceb702a29f890bca7bfcd"),
    copied("conll14/refsets/TURKMIN.m2.ieval.xml", GRAMMATICALITY_METRICS, "references/TURKMIN.m2.ieval.xml",
           708200, "2c73dd2f54b726cd6d2de2f96e48c3d46bd9eacb86aa700b9206369de1083e86"),
    copied("conll14/refsets/sn8gec-merged_ids", REASSESS_GEC, "annotations/merged_ids",
           135, "0faa0688f8bf0ca8701e84bddb9075d1b69a6fc7c0ac38ea1fb3231ddecd2562"),
)

_CONLL14_SYSTEMS_FILES = (
    stripped("conll14/systems/AMU.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/AMU",
             161809, "aacf96d2a858e01d83177b4afd79dce7d037f0b99b699ac820847145e70643f6",
             161809, "aacf96d2a858e01d83177b4afd79dce7d037f0b99b699ac820847145e70643f6"),
    stripped("conll14/systems/CAMB.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/CAMB",
             159899, "5f0f53b1fe80ddbc13a881b845583200a4aa00f6407ff4377684697da4f28648",
             159899, "5f0f53b1fe80ddbc13a881b845583200a4aa00f6407ff4377684697da4f28648"),
    stripped("conll14/systems/CUUI.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/CUUI",
             160842, "8fd509ddf73e97d2c44c17b3d0b5a3d108e88d5a8b079afe644c552197cf8e21",
             160842, "8fd509ddf73e97d2c44c17b3d0b5a3d108e88d5a8b079afe644c552197cf8e21"),
    stripped("conll14/systems/IITB.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/IITB",
             164077, "9d95c7f88cfae9f5172c98006219ed71117396da098c4676c362120a0756e6e0",
             164077, "9d95c7f88cfae9f5172c98006219ed71117396da098c4676c362120a0756e6e0"),
    stripped("conll14/systems/INPUT.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/INPUT",
             161529, "4c12b583dbd297f160a8fd0671ade1adadfccf3129aac630fc8e821c8a676f77",
             164153, "cd5fae28b1ca60525ee4f3c3d040b309c03faabcc7aabd20caa2515540c6e4eb"),
    stripped("conll14/systems/IPN.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/IPN",
             161727, "45bbae42c3d300d30435d4c882fbe573619324b81bd2c802a34ab82608195b6b",
             161727, "45bbae42c3d300d30435d4c882fbe573619324b81bd2c802a34ab82608195b6b"),
    stripped("conll14/systems/NTHU.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/NTHU",
             161088, "dc77fba0720323b9354d7300cea15bef4b4c4c407b314feaa24e965cfc602e7a",
             161088, "dc77fba0720323b9354d7300cea15bef4b4c4c407b314feaa24e965cfc602e7a"),
    stripped("conll14/systems/PKU.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/PKU",
             162850, "8fa635e05cdf3e7569cd40475eb1e0d7a236d84fecbe25007adee935828fc6d7",
             162850, "8fa635e05cdf3e7569cd40475eb1e0d7a236d84fecbe25007adee935828fc6d7"),
    stripped("conll14/systems/POST.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/POST",
             159950, "f6e68c3de5f7f83b66739392b99d3c6251b2a7601ac753fed5e567f4d24ba865",
             159950, "f6e68c3de5f7f83b66739392b99d3c6251b2a7601ac753fed5e567f4d24ba865"),
    stripped("conll14/systems/RAC.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/RAC",
             161616, "5a1295db676d67fe127d5bc3c82e5598aa79cf46fd6602bfef6b45e68f8a75f5",
             161617, "3782c17cee55cf0b38e6e77cc7a8ce3cc4bc8df685ad5ede1f0d03fb4da670d5"),
    stripped("conll14/systems/SJTU.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/SJTU",
             160461, "0d086ad62a551a4cfd494eaa6989e69aba95451f753ba8076ba822b408173bc7",
             161773, "05777cac9b8ee32b6257c21d9ffedd7a8d5a64a0b275c9f990de84928af17a0b"),
    stripped("conll14/systems/UFC.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/UFC",
             161488, "ff8b728c990f00927ab2219620caa0121535a32c4797b864cf9bea9023be513c",
             161488, "ff8b728c990f00927ab2219620caa0121535a32c4797b864cf9bea9023be513c"),
    stripped("conll14/systems/UMC.txt", GRAMMATICAL_EVALUATION, "data/original/official_submissions/UMC",
             160085, "04c12f7b4b1167acf98cfc04b2f8c78eda92355eb754a05a266b1f7ea2c04cfe",
             160085, "04c12f7b4b1167acf98cfc04b2f8c78eda92355eb754a05a266b1f7ea2c04cfe"),
)

_DSGRAM_EVAL_FILES = (
    copied("dsgram-eval/gec_human_eval_test_1.json", DSGRAM, "Dataset/DSGram-Eval/gec_human_eval_test_1.json",
           131664, "d5cc7475c6253e55af832a55a28d9c9fcd96d440e2efa1c26fd719887cc10c7b"),
    copied("dsgram-eval/gec_human_eval_test_2.json", DSGRAM, "Dataset/DSGram-Eval/gec_human_eval_test_2.json",
           34740, "7213dae342287b766b626f93af6ba1ce5fea4c37aa6282f94f04a94ecac0df47"),
    copied("dsgram-eval/gec_human_eval_test_3.json", DSGRAM, "Dataset/DSGram-Eval/gec_human_eval_test_3.json",
           34866, "99363eb3cae99d1d02fab039e7c804d43e6637f61a38acaaa2e73f749fa0f725"),
    copied("dsgram-eval/results/fine-tuned-llama2-13b.json", DSGRAM, "Dataset/results/fine-tuned-llama2-13b.json",
           30186, "32fdc07d3f4327c40b5fd47b52d2f35a5dd8c9fa95d1cd1d0419b535175f5813"),
    copied("dsgram-eval/results/fine-tuned-llama3-8b.json", DSGRAM, "Dataset/results/fine-tuned-llama3-8b.json",
           29480, "862b5ccaaf8e66811daebcefc5322adce9217f6ad2daa6d7938932ac648e5380"),
    copied("dsgram-eval/results/gec_eval_llama3.json", DSGRAM, "Dataset/results/gec_eval_llama3.json",
           132565, "6a737b871b5605a349c2cf8aaa45eb37ee77c62906cdc5bde075f6dac1ad8639"),
    copied("dsgram-eval/results/gec_gpt4_eval_test.json", DSGRAM, "Dataset/results/gec_gpt4_eval_test.json",
           128491, "5fe291fb1f9465896d4e79e31bf85ceb0ac0a97a6451a73b0f88a704c7819cee"),
)

_GJG15_FILES = (
    embedded("gjg15/human_scores.tsv", GJG15_TABLE3,
             237, "b11bcaaebe2377eb07726673185ee6c93a993caa95b33aba2e98c4dde2bca325"),
    copied("gjg15/judgments.xml", GRAMMATICAL_EVALUATION, "data/judgments.xml",
           802577, "d0ea9fe14cf6a8e117fcd988e2724ae9b2530e88f5bb2de9bb73dc61e35c62de"),
)

_JFLEG_FILES = (
    copied("jfleg/dev.ref0", JFLEG, "dev/dev.ref0",
           73216, "adea6287c6e2240b7777e63cd56f8e228e742bbfb42c5152bc0bd2bc91f4e53e"),
    copied("jfleg/dev.ref1", JFLEG, "dev/dev.ref1",
           73129, "d40d56ec7468ddab03fdcca97065ab3f9d391d749dbc7097b7c777a19ce4242e"),
    copied("jfleg/dev.ref2", JFLEG, "dev/dev.ref2",
           73394, "b070691d633e0c4143d96ba21299ae71cb126086517d2970df47420842067793"),
    copied("jfleg/dev.ref3", JFLEG, "dev/dev.ref3",
           73164, "9187fd834693fa77d07957991282d32d61ff84a207c25cbfab318c871bacdbc4"),
    copied("jfleg/dev.src", JFLEG, "dev/dev.src",
           72726, "4a0e8b86d18a1058460ff0a592dac1ba68986d135256efbd27e997ac43f295f8"),
    copied("jfleg/test.ref0", JFLEG, "test/test.ref0",
           73090, "875953280a3ea1dea2827337b1778c0105f0c0aa79f2517a6e0e42db5e5e170c"),
    copied("jfleg/test.ref1", JFLEG, "test/test.ref1",
           73325, "190d3398f2765f54a39b5489d1e96c483412a656086c731f8712ad0591087d80"),
    copied("jfleg/test.ref2", JFLEG, "test/test.ref2",
           73018, "0e3c6abe934ccd16c9dffb2fd889d6f55afc3ad13a63c1e148c720bb4e99046b"),
    copied("jfleg/test.ref3", JFLEG, "test/test.ref3",
           73365, "19f49de6eff813b26505ecf756c20dc301aeb80696696b01ca950298f6e58441"),
    copied("jfleg/test.src", JFLEG, "test/test.src",
           72684, "893db119162487aa7f956b65978453576919e6797cd6c1955f93b7a8b9f4bbd8"),
)

_MUCGEC_FILES = (
    copied("mucgec/MuCGEC_dev.txt", MUCGEC, "data/MuCGEC/MuCGEC_dev.txt",
           488884, "edbe29627aa8c61b1196b0b8c85898560dd2218d5031857921e9b621e5241e18"),
    copied("mucgec/example_pred_dev.txt", MUCGEC, "data/MuCGEC/example_pred_dev.txt",
           305600, "c7283777f43e90203018d71b054cdee03de1de5e3a8de484e97e18c877495109"),
    copied("mucgec/nlpcc2018_official.ref.m2.char", MUCGEC, "scorers/ChERRANT/samples/nlpcc2018_official.ref.m2.char",
           721577, "8c7f4139c7a4c53b1bbf8790efc9ce3198e879c2324a69acab54f74c8c713b5b"),
)

_SEEDA_FILES = (
    copied("seeda/human/EW_edit.txt", SEEDA, "scores/human/EW_edit.txt",
           89, "198517ac13d01148d5499912eb80bac02413c8b60d543e5fea352a9ce781976d"),
    copied("seeda/human/EW_sent.txt", SEEDA, "scores/human/EW_sent.txt",
           89, "10ae33550940bf73c9d2ecd613c534ab4cb4242b701706e3178642051fca164a"),
    seeda_systems("seeda/human/SYSTEMS.txt", 124, "0f4a1cf37116000cc77b1553763272fec6691852ee0c1456ed1aca42aa5da1d2"),
    copied("seeda/human/TS_edit.txt", SEEDA, "scores/human/TS_edit.txt",
           97, "53fefa9a9cf51bad36e373a5ea7a977fc44025452f6f9b8607e97003c3feee25"),
    copied("seeda/human/TS_sent.txt", SEEDA, "scores/human/TS_sent.txt",
           98, "11bc1fb810d2d0c25b6708e7a507c5bf6afb68fa1c86c87059cec85a52c9d95e"),
    copied("seeda/judgments_edit.xml", SEEDA, "data/judgments_edit.xml",
           221627, "029748e7b05dffe298fe3c823943bbc05601c674830c77fde1885ac2f806f00d"),
    copied("seeda/judgments_sent.xml", SEEDA, "data/judgments_sent.xml",
           221627, "aebb11d4afc28b63ff153508a1612a32bef77188ffd6d81f0fb9d2a72ee0d498"),
    copied("seeda/outputs/all/BART.txt", SEEDA, "outputs/all/BART.txt",
           159932, "f74a63a96f754ce10d4037044059e76417622a0e4cd8956374315ae2a9c1e0e0"),
    copied("seeda/outputs/all/BERT-fuse.txt", SEEDA, "outputs/all/BERT-fuse.txt",
           160478, "752e7886df8fc5f38c5eadccd4dc2ee5de6048b0491c4a58f278214f5dc13e52"),
    copied("seeda/outputs/all/GECToR-BERT.txt", SEEDA, "outputs/all/GECToR-BERT.txt",
           161891, "274de39e255968597887b5b93b4f329775799c76650335ef2804d3e32c3f7672"),
    copied("seeda/outputs/all/GECToR-ens.txt", SEEDA, "outputs/all/GECToR-ens.txt",
           161718, "b7d84e3f5ef4d28f15d2cea24e9471a33736f9eb013e8c772d9e8931612b8ac4"),
    copied("seeda/outputs/all/GPT-3.5.txt", SEEDA, "outputs/all/GPT-3.5.txt",
           160939, "d3e31057abfa4f29b48de2e60fcce1a4ad39d685c53d3482c7936481d4b6528f"),
    copied("seeda/outputs/all/INPUT.txt", SEEDA, "outputs/all/INPUT.txt",
           161528, "4497a368db3653323c4feeebb30ddea84ffc379caa9db83e7b9ff593939be702"),
    copied("seeda/outputs/all/LM-Critic.txt", SEEDA, "outputs/all/LM-Critic.txt",
           162189, "19b9d9b92affeaf4c8a772b184f5cc01101aa76c4489037a9c20aa02444cfa7d"),
    copied("seeda/outputs/all/PIE.txt", SEEDA, "outputs/all/PIE.txt",
           161151, "bb7cdd3082d2e2d4a3391a131face786502da29eb035de5558dce604f82c4e76"),
    copied("seeda/outputs/all/REF-F.txt", SEEDA, "outputs/all/REF-F.txt",
           158937, "fbab8a63b28ead1d4136dc68d26fe23e91a1fc2b22a906739214f1c9c0b0da4c"),
    copied("seeda/outputs/all/REF-M.txt", SEEDA, "outputs/all/REF-M.txt",
           163175, "3c0b868e95feca23715b0e95a4268fe3e4918b037ce01a9594bbadc9979fa1b3"),
    copied("seeda/outputs/all/Riken-Tohoku.txt", SEEDA, "outputs/all/Riken-Tohoku.txt",
           160576, "fcc3232439b7fc8e7ebc8d8ab971c3fa4db6877a25d7cea0931151ae1f48fa8d"),
    copied("seeda/outputs/all/T5.txt", SEEDA, "outputs/all/T5.txt",
           161459, "8f93062fc1c16bbeed7424c65a43d6e6e1950348e49cef141b2f3b394997b381"),
    copied("seeda/outputs/all/TemplateGEC.txt", SEEDA, "outputs/all/TemplateGEC.txt",
           160946, "c86966e433e1d48c297e69746338910249db9308a2d1839c6d9538ee935306cc"),
    copied("seeda/outputs/all/TransGEC.txt", SEEDA, "outputs/all/TransGEC.txt",
           161364, "4d64653e6691bd24faa806a001df6a75003ca03e6176787df7eb2ca942219a8e"),
    copied("seeda/outputs/all/UEDIN-MS.txt", SEEDA, "outputs/all/UEDIN-MS.txt",
           161413, "a488300f91ba43e630fe0b7a91b8173d37db88c71efcd428d867a4181b830803"),
    copied("seeda/outputs/subset/BART.txt", SEEDA, "outputs/subset/BART.txt",
           45246, "ebac64f19407790047a1b56b73e84a3ca597da38c0031a337e13de1435ce8bf4"),
    copied("seeda/outputs/subset/BERT-fuse.txt", SEEDA, "outputs/subset/BERT-fuse.txt",
           45316, "177be06128764a513bb8095535ce1aead0d4ba0a463c189288249a753aefb9c3"),
    copied("seeda/outputs/subset/GECToR-BERT.txt", SEEDA, "outputs/subset/GECToR-BERT.txt",
           45361, "430c26068fb2f4648a12b94be6a4c472eeca0288ac5e2b3a14dbd96785400569"),
    copied("seeda/outputs/subset/GECToR-ens.txt", SEEDA, "outputs/subset/GECToR-ens.txt",
           45299, "a0e73719d2f66981d2d790c6d894fbae965b99b0ffa6d14c7b4af3fd266b589c"),
    copied("seeda/outputs/subset/GPT-3.5.txt", SEEDA, "outputs/subset/GPT-3.5.txt",
           45315, "18717c0cfafb723fc92109946af1cf3e5b863e2ddad1bc6afe8528d571f443d1"),
    copied("seeda/outputs/subset/INPUT.txt", SEEDA, "outputs/subset/INPUT.txt",
           45302, "14ee95ca8b9f6aef08cbe7644398356a7cc142ccc131fd4041643bd903c0136e"),
    copied("seeda/outputs/subset/LM-Critic.txt", SEEDA, "outputs/subset/LM-Critic.txt",
           45440, "96e8a21c8080d5878373d3680542b01aa40aa1d4a90297c616cca13c6a17d5c6"),
    copied("seeda/outputs/subset/PIE.txt", SEEDA, "outputs/subset/PIE.txt",
           45099, "cc771ae746d809a092376c271c11df0f1a2afeddfc52dd12f5ee8e939bde3307"),
    copied("seeda/outputs/subset/REF-F.txt", SEEDA, "outputs/subset/REF-F.txt",
           44762, "1c3aaa42b17a9c7dc21c55101de722242ce2cc338327f8fe7ebc581852ee8426"),
    copied("seeda/outputs/subset/REF-M.txt", SEEDA, "outputs/subset/REF-M.txt",
           45989, "f2eb81684bf2dfddfce9e3c939b11a36f370a1183823ca722f2a9181dd4d0bad"),
    copied("seeda/outputs/subset/Riken-Tohoku.txt", SEEDA, "outputs/subset/Riken-Tohoku.txt",
           45325, "0068af0ca90d860b8949df49797f05adeb539b1c4459ae6c60ddd53a663a7244"),
    copied("seeda/outputs/subset/T5.txt", SEEDA, "outputs/subset/T5.txt",
           45687, "4b02d99019a254a7bd531a24a76411a14b60bbded8a2e5c5f3b47e4a23875288"),
    copied("seeda/outputs/subset/TemplateGEC.txt", SEEDA, "outputs/subset/TemplateGEC.txt",
           45460, "071fda077d9986c8e756709c4fbb1a26afb41771a0dd7804b10bea4f5eb387ab"),
    copied("seeda/outputs/subset/TransGEC.txt", SEEDA, "outputs/subset/TransGEC.txt",
           45532, "6f19fb3a61798f5feec1f2b0780cf3cfdd2bbd14c1f19bad86a7ce2a3d9b55e8"),
    copied("seeda/outputs/subset/UEDIN-MS.txt", SEEDA, "outputs/subset/UEDIN-MS.txt",
           45495, "e092dc961ff529690c2a39bda0a393ff62f64cc6aa85a7d15459706bbb8e2b85"),
)


_GMEG_FILES = (
    copied("gmeg/dev/fce/corpus-scores.csv", GMEG, "data/dev/fce-corpus-scores.csv",
           206, "1fc0bf527e87f75367e5dd906d5844ca81565690b1ae21fc719c373dfdc97a1f"),
    copied("gmeg/dev/fce/ref0.txt", GMEG, "data/dev/fce/ref0",
           83297, "024a81802a656d7eb803c9822f0f604a736e6590759b87e20f976250432b9eb6"),
    copied("gmeg/dev/fce/ref1.txt", GMEG, "data/dev/fce/ref1",
           85313, "d0f5d85fc3a9cd9c8475e83011ed60f1f3e4df444434fcdcf9cf40dfe80418ed"),
    copied("gmeg/dev/fce/ref2.txt", GMEG, "data/dev/fce/ref2",
           85723, "7dc74d45c7b762b8b9d04c6aab5b1d84a7ecd9fbba514a6aba7748c2165f5738"),
    copied("gmeg/dev/fce/ref3.txt", GMEG, "data/dev/fce/ref3",
           84849, "ca01012cd7fa6bb2ce3e79c9c0cb711d5edd9b6e60c2ccb508828568c1655b26"),
    copied("gmeg/dev/fce/segment-scores.csv", GMEG, "data/dev/fce-segment-scores.csv",
           78664, "627f0c96e85892af813d302acf3c01fde113b7c3b139198ec4827db1c8e180ab"),
    copied("gmeg/dev/fce/source.txt", GMEG, "data/dev/fce/source",
           84636, "9688fb1c58bd44ac1c760cfbbdd1b2c0077294e6bc182401d1e01a23478a08d7"),
    copied("gmeg/dev/fce/systems/amu.txt", GMEG, "data/dev/fce/amu",
           84699, "958bdc4b7be22cf4bb4efdf0f9e952e9f0d2fe961284e982a6af726e19d73673"),
    copied("gmeg/dev/fce/systems/lstm.txt", GMEG, "data/dev/fce/lstm",
           85363, "e51a92113d13c11db61cffbdd462e8f60c5afcf609fb7ea2dcd520a49773beec"),
    copied("gmeg/dev/fce/systems/lstm-r.txt", GMEG, "data/dev/fce/lstm-r",
           85292, "cfe73478699be2e2006163e1d8f0d2ba059721efd83edd5b493a03772ebc791a"),
    copied("gmeg/dev/fce/systems/marian.txt", GMEG, "data/dev/fce/marian",
           84806, "f746956bf425c848d1578949642a522b54e517f78fb819d074a53c65adef7f46"),
    copied("gmeg/dev/fce/systems/nus.txt", GMEG, "data/dev/fce/nus",
           84764, "81ade94076f100ab78f215f72cf44e6783c7b0aac9eb28545dd83a24ecec015b"),
    copied("gmeg/dev/fce/systems/transformer.txt", GMEG, "data/dev/fce/transformer",
           84179, "c2e50d8684e87ca87dce26a3ecde568820ca3122270449c847c1f2b7ae697853"),
    copied("gmeg/dev/wiki/corpus-scores.csv", GMEG, "data/dev/wiki-corpus-scores.csv",
           205, "9f0077a82ceb542f04b9b6b3b66e2371e4afd416cb2e73a27c0137b65de420d0"),
    copied("gmeg/dev/wiki/ref0.txt", GMEG, "data/dev/wiki/ref0",
           145200, "ef012c86a1e1d396f42753a587765222446d83626260337602f30f8d7d611d34"),
    copied("gmeg/dev/wiki/ref1.txt", GMEG, "data/dev/wiki/ref1",
           145319, "082c48932186e51fe3ed3c2c40df661a09db9affdafbcd4ec9e3a068596c96d8"),
    copied("gmeg/dev/wiki/ref2.txt", GMEG, "data/dev/wiki/ref2",
           145337, "f588369840bc2cd8e7d05d0cfdfc60ab16207734122a99b37b295aaec80b18c7"),
    copied("gmeg/dev/wiki/ref3.txt", GMEG, "data/dev/wiki/ref3",
           145342, "659cf2fe9b299b458534bd00175cdcb4cea7a72b0f40c64aaf6c882ea7c4a3bb"),
    copied("gmeg/dev/wiki/segment-scores.csv", GMEG, "data/dev/wiki-segment-scores.csv",
           66880, "1ddf407296fb006bec4253187408897d74ca3d5efeab880329745b0894167f19"),
    copied("gmeg/dev/wiki/source.txt", GMEG, "data/dev/wiki/source",
           144831, "d20c6a62f2710155ef643db7dec55076b5720465aee0189c307044af91b4255a"),
    copied("gmeg/dev/wiki/systems/amu.txt", GMEG, "data/dev/wiki/amu",
           144845, "bc34194f1203d9236c04f3ca4bc8d49ea76c634e082135d2d6c3e8671b726338"),
    copied("gmeg/dev/wiki/systems/lstm.txt", GMEG, "data/dev/wiki/lstm",
           145247, "08af188f731038c58e4602b15be91792a84ae4e73ef1222072101769a31b3f32"),
    copied("gmeg/dev/wiki/systems/lstm-r.txt", GMEG, "data/dev/wiki/lstm-r",
           145359, "f1874bd29b607638694c62fe101ad935e2414c4fa7dc478139f95604ff110bf2"),
    copied("gmeg/dev/wiki/systems/marian.txt", GMEG, "data/dev/wiki/marian",
           148540, "f1eabcbfed8b3fd216748e0a42306c4e41730185ada89895c32af3190b0d8866"),
    copied("gmeg/dev/wiki/systems/nus.txt", GMEG, "data/dev/wiki/nus",
           143675, "7165e5f4d6fc69b1e0daeebe495062376a2ba5b674c013bec7362e4b78fe437d"),
    copied("gmeg/dev/wiki/systems/transformer.txt", GMEG, "data/dev/wiki/transformer",
           142840, "a4d3084394ca9abc59b1038a4d4823ecc56df65dad3f4a84ad8c314637e85cf9"),
    copied("gmeg/test/fce/corpus-scores.csv", GMEG, "data/test/fce-corpus-scores.csv",
           205, "44ca58a5d439c7a0a8788bbe137f8c39ca42eb0141aeae4dea883dfcfcad497e"),
    copied("gmeg/test/fce/ref0.txt", GMEG, "data/test/fce/ref0",
           84909, "91d09eeb6117f714863fee4f51a2769d09f7036dd369ea96be62fc2d5af2a82e"),
    copied("gmeg/test/fce/ref1.txt", GMEG, "data/test/fce/ref1",
           86254, "2b80e42825530e0840b6af756112d5966586d35728506556cdeb343ce57b654f"),
    copied("gmeg/test/fce/ref2.txt", GMEG, "data/test/fce/ref2",
           86785, "bff5320b531d1dad844e69eb67126349d302399e146a6d218342d598d4767c44"),
    copied("gmeg/test/fce/ref3.txt", GMEG, "data/test/fce/ref3",
           86490, "e79d9a093e8023e46e45a5b1dd31f12508852d8d389ba91744b8eb0cb5b6849d"),
    copied("gmeg/test/fce/segment-scores.csv", GMEG, "data/test/fce-segment-scores.csv",
           76198, "f709f261d94e0a694d8391d21cb7284c88202c6c3846ba0ad5f89119ff1690ca"),
    copied("gmeg/test/fce/source.txt", GMEG, "data/test/fce/source",
           85967, "0d766572d66c945a238add62159cfb1b8e2900a6521dff03f43288413b035bb4"),
    copied("gmeg/test/fce/systems/amu.txt", GMEG, "data/test/fce/amu",
           86120, "b6b03564e9863a5392a253d56eddbf9e2c4abf40901ca0d6db54159bb1a384cc"),
    copied("gmeg/test/fce/systems/lstm.txt", GMEG, "data/test/fce/lstm",
           86581, "a406cc26520c870f61b8a7166f69d341f9dab902eba2f46d2264e13758b3ef5d"),
    copied("gmeg/test/fce/systems/lstm-r.txt", GMEG, "data/test/fce/lstm-r",
           86520, "b5bd5d4f8b6c38d1ce07cd18ea99a3dd42811b6b711553f6600a2735e79feeae"),
    copied("gmeg/test/fce/systems/marian.txt", GMEG, "data/test/fce/marian",
           86007, "84d1723c1298bd46bdb71277aafa748baee394af52a056e28a8c656a50829674"),
    copied("gmeg/test/fce/systems/nus.txt", GMEG, "data/test/fce/nus",
           86029, "09cceb7db2fec7bbaaeee457e45b8a871742ae58dac3c97afdded71ac73a9463"),
    copied("gmeg/test/fce/systems/transformer.txt", GMEG, "data/test/fce/transformer",
           85783, "bb26b0fdaa5114bc8ba22e48508c04864125609c83c83aa4651c9f3db10885bb"),
    copied("gmeg/test/wiki/corpus-scores.csv", GMEG, "data/test/wiki-corpus-scores.csv",
           206, "2deb8c97fe23095a6a20ae462c622fd8387f1b0ea7c49b49030bd7fda94e76ca"),
    copied("gmeg/test/wiki/ref0.txt", GMEG, "data/test/wiki/ref0",
           145584, "bc077e4e7c9b8bc9a4870d7b2a2849b7dc1e829a92b4cffa7d8b9dcf7bec4bcb"),
    copied("gmeg/test/wiki/ref1.txt", GMEG, "data/test/wiki/ref1",
           145927, "db5c5db00ddef34d08b0ede573c2e9948df89faa773189b7bd6bd8353887654f"),
    copied("gmeg/test/wiki/ref2.txt", GMEG, "data/test/wiki/ref2",
           145711, "2aaaf374f14b2bf01a425415a6b931120f34134dc9d85e028295e841cc77cd72"),
    copied("gmeg/test/wiki/ref3.txt", GMEG, "data/test/wiki/ref3",
           145582, "d3c2ad11cc47a3ff42459c94d0d79218fbb1248bc5564a2445b1b6e8cc180120"),
    copied("gmeg/test/wiki/segment-scores.csv", GMEG, "data/test/wiki-segment-scores.csv",
           68330, "dcebd4f5afb670159a9dcef0da77de47931b02c04347b1e3a7530cdc2589dc0e"),
    copied("gmeg/test/wiki/source.txt", GMEG, "data/test/wiki/source",
           145006, "0857aa4dc488a60280e031dcafb06670067ebde3d1917b297e68b2c7083ad28d"),
    copied("gmeg/test/wiki/systems/amu.txt", GMEG, "data/test/wiki/amu",
           144986, "27a2b0b2f8a77427ac7c2a9fb15f7d9b4c6ab4030b775f22cb3369dcb80bd5dc"),
    copied("gmeg/test/wiki/systems/lstm.txt", GMEG, "data/test/wiki/lstm",
           145461, "525075753a0d5ae654cf030e53be1c17aff9ef9103a44e57b8687817371a7542"),
    copied("gmeg/test/wiki/systems/lstm-r.txt", GMEG, "data/test/wiki/lstm-r",
           145475, "21ea010f1e19668de77466deb6e92a7386328c426a56f938e68d628364881f12"),
    copied("gmeg/test/wiki/systems/marian.txt", GMEG, "data/test/wiki/marian",
           146062, "f29db704728c84c3673400c41de079ae42a64c51b224851196cc0493f7dd3109"),
    copied("gmeg/test/wiki/systems/nus.txt", GMEG, "data/test/wiki/nus",
           144433, "c7cefd64e967b63f4a02a6b6a80835412d67c632fbae9629089cec2181e906e1"),
    copied("gmeg/test/wiki/systems/transformer.txt", GMEG, "data/test/wiki/transformer",
           143127, "10c6f47333eeb96e0f2d8b5f0f0c0196eed8a8cba9dd948f0fed07a20d4e784c"),
)

_CWEB_FILES = (
    copied("cweb/README.md", CWEB, "README.md",
           1259, "6057fa3115ae2520e2061f4583efc15d9a11e5e551fb1519c4df5f3da5fde530"),
    copied("cweb/CWEB-G.dev.m2", CWEB, "data/m2/CWEB-G.dev.m2",
           860557, "76ca55795a76c32916d84bb13174d4701031d78fa1c88989bddf1d8aee8b6592"),
    copied("cweb/CWEB-G.dev.source.txt", CWEB, "data/tokenized/CWEB-G.dev.tok.source",
           418274, "86c2396804a82ddb6b96fe8c4f5618bda5399ffc7c5dc4a4c24b6a24e3bef1c6"),
    copied("cweb/CWEB-G.test.m2", CWEB, "data/m2/CWEB-G.test.m2",
           878762, "0469935194e2220d0f9cc4f7d629aa2e5568585e8ba7d45ca2fb90018ff0314e"),
    copied("cweb/CWEB-G.test.source.txt", CWEB, "data/tokenized/CWEB-G.test.tok.source",
           421136, "67724d001830b855538d2ab810eaf80da47a9e6ca4a6e1c117353938a96b3afd"),
    copied("cweb/CWEB-S.dev.m2", CWEB, "data/m2/CWEB-S.dev.m2",
           700877, "aaf1bdeeb0271675ae75804fcdd73058e4069de36c7870fd384f9b40aefcc50d"),
    copied("cweb/CWEB-S.dev.source.txt", CWEB, "data/tokenized/CWEB-S.dev.tok.source",
           390599, "8a61ca005ec7cb840674a034e3a72b7c084dedf45e65b16256dab659e85a6d0b"),
    copied("cweb/CWEB-S.test.m2", CWEB, "data/m2/CWEB-S.test.m2",
           699409, "9e63a88b946c400199ef14c80eeb127b39650570c864ea9ac481c69259f763a0"),
    copied("cweb/CWEB-S.test.source.txt", CWEB, "data/tokenized/CWEB-S.test.tok.source",
           386424, "f7698f7351e36e9c084aa03ff223bd51205a0ff3425c5237e85009ba046d5769"),
)


# --- citations ---------------------------------------------------------------------------------
NG_2014 = """\
@inproceedings{ng-etal-2014-conll,
  title = {The {CoNLL}-2014 Shared Task on Grammatical Error Correction},
  author = {Ng, Hwee Tou and Wu, Siew Mei and Briscoe, Ted and Hadiwinoto, Christian and Susanto, Raymond Hendy
            and Bryant, Christopher},
  booktitle = {Proceedings of the Eighteenth Conference on Computational Natural Language Learning: Shared Task},
  year = {2014},
  address = {Baltimore, Maryland},
  publisher = {Association for Computational Linguistics},
  url = {https://aclanthology.org/W14-1701},
}"""
YE_2023 = """\
@inproceedings{ye-etal-2023-cleme,
  title = {{CLEME}: Debiasing Multi-reference Evaluation for Grammatical Error Correction},
  author = {Ye, Jingheng and Li, Yinghui and Zhou, Qingyu and Li, Yangning and Ma, Shirong and Zheng, Hai-Tao
            and Shen, Ying},
  booktitle = {Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing},
  year = {2023},
  address = {Singapore},
  publisher = {Association for Computational Linguistics},
  url = {https://aclanthology.org/2023.emnlp-main.378/},
  pages = {6174--6189},
}"""
BRYANT_NG_2015 = """\
@inproceedings{bryant-ng-2015-far,
  title = {How Far are We from Fully Automatic High Quality Grammatical Error Correction?},
  author = {Bryant, Christopher and Ng, Hwee Tou},
  booktitle = {Proceedings of the 53rd Annual Meeting of the Association for Computational Linguistics and the 7th
               International Joint Conference on Natural Language Processing (Volume 1: Long Papers)},
  year = {2015},
  address = {Beijing, China},
  publisher = {Association for Computational Linguistics},
}"""
SAKAGUCHI_2016 = """\
@article{sakaguchi-etal-2016-reassessing,
  title = {Reassessing the Goals of Grammatical Error Correction: Fluency Instead of Grammaticality},
  author = {Sakaguchi, Keisuke and Napoles, Courtney and Post, Matt and Tetreault, Joel},
  journal = {Transactions of the Association for Computational Linguistics},
  volume = {4},
  year = {2016},
}"""
GRUNDKIEWICZ_2015 = """\
@inproceedings{grundkiewicz-junczysdowmunt-gillian:2015:EMNLP,
  author = {Grundkiewicz, Roman and Junczys-Dowmunt, Marcin and Gillian, Edward},
  title = {Human Evaluation of Grammatical Error Correction Systems},
  booktitle = {Proceedings of the 2015 Conference on Empirical Methods in Natural Language Processing},
  year = {2015},
  address = {Lisbon, Portugal},
  publisher = {Association for Computational Linguistics},
  pages = {461--470},
  url = {http://aclweb.org/anthology/D15-1052},
}"""
KOBAYASHI_2024 = """\
@article{kobayashi-etal-2024-revisiting,
  title = {Revisiting Meta-evaluation for Grammatical Error Correction},
  author = {Kobayashi, Masamune and Mita, Masato and Komachi, Mamoru},
  journal = {Transactions of the Association for Computational Linguistics},
  volume = {12},
  year = {2024},
  url = {https://aclanthology.org/2024.tacl-1.47/},
}"""
NAPOLES_2017 = """\
@inproceedings{napoles-sakaguchi-tetreault:2017:EACLshort,
  author = {Napoles, Courtney and Sakaguchi, Keisuke and Tetreault, Joel},
  title = {JFLEG: A Fluency Corpus and Benchmark for Grammatical Error Correction},
  booktitle = {Proceedings of the 15th Conference of the European Chapter of the Association for Computational
               Linguistics: Volume 2, Short Papers},
  year = {2017},
  address = {Valencia, Spain},
  publisher = {Association for Computational Linguistics},
  pages = {229--234},
  url = {http://www.aclweb.org/anthology/E17-2037},
}"""
ZHANG_2022 = """\
@inproceedings{zhang-etal-2022-mucgec,
  title = {{MuCGEC}: a Multi-Reference Multi-Source Evaluation Dataset for {C}hinese Grammatical Error Correction},
  author = {Zhang, Yue and Li, Zhenghua and Bao, Zuyi and Li, Jiacheng and Zhang, Bo and Li, Chen and Huang, Fei
            and Zhang, Min},
  booktitle = {Proceedings of the 2022 Conference of the North American Chapter of the Association for Computational
               Linguistics: Human Language Technologies},
  year = {2022},
  address = {Seattle, United States},
  publisher = {Association for Computational Linguistics},
  url = {https://aclanthology.org/2022.naacl-main.227},
  pages = {3118--3130},
}"""
GOTO_2025 = """\
@misc{goto2025reliabilitycrisisreferencefreemetrics,
  title = {Reliability Crisis of Reference-free Metrics for Grammatical Error Correction},
  author = {Takumi Goto and Yusuke Sakai and Taro Watanabe},
  year = {2025},
  eprint = {2509.25961},
  archivePrefix = {arXiv},
  url = {https://arxiv.org/abs/2509.25961},
}"""
XIE_2024 = """\
@misc{xie2024dsgramdynamicweightingsubmetrics,
  title = {DSGram: Dynamic Weighting Sub-Metrics for Grammatical Error Correction in the Era of Large Language
           Models},
  author = {Jinxiang Xie and Yilin Li and Xunjian Yin and Xiaojun Wan},
  year = {2024},
  eprint = {2412.12832},
  archivePrefix = {arXiv},
  url = {https://arxiv.org/abs/2412.12832},
}"""

NAPOLES_2019 = """\
@article{napoles-etal-2019-enabling,
  title = {Enabling Robust Grammatical Error Correction in New Domains: Data Sets, Metrics, and Analyses},
  author = {Napoles, Courtney and Nădejde, Maria and Tetreault, Joel},
  journal = {Transactions of the Association for Computational Linguistics},
  volume = {7},
  year = {2019},
  pages = {551--566},
  doi = {10.1162/tacl_a_00282},
  url = {https://aclanthology.org/Q19-1032},
}"""
FLACHS_2020 = """\
@inproceedings{flachs-etal-2020-grammatical,
  title = {Grammatical Error Correction in Low Error Density Domains: A New Benchmark and Analyses},
  author = {Flachs, Simon and Lacroix, Ophélie and Yannakoudakis, Helen and Rei, Marek and Søgaard, Anders},
  booktitle = {Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing (EMNLP)},
  year = {2020},
  address = {Online},
  publisher = {Association for Computational Linguistics},
  url = {https://aclanthology.org/2020.emnlp-main.680},
  pages = {8467--8478},
}"""

CONLL14_LICENCE = ("distributed freely by the CoNLL-2014 organisers (NUS) under the copyright notice of "
                   "conll14/README.release; the GitHub copies add no licence of their own")

CATALOGUE: dict[str, DataSet] = {s.name: s for s in (
    DataSet("conll14", "CoNLL-2014 test gold",
            "the official CoNLL-2014 test gold (1,312 sentences; NUCLE annotators 0 and 1) as M2, with and "
            "without the participants' alternatives, its release README, plain-text source and the two "
            "annotators' corrected sentences, and the same gold as I-measure XML",
            "conll14", CONLL14_LICENCE,
            "Ng, Wu, Briscoe, Hadiwinoto, Susanto, Bryant. The CoNLL-2014 Shared Task on Grammatical Error "
            "Correction. CoNLL 2014.", NG_2014, _CONLL14_FILES),
    DataSet("conll14-systems", "CoNLL-2014 system outputs",
            "the outputs of the 12 systems of the CoNLL-2014 shared task and INPUT (the uncorrected source), "
            "one conll14/systems/<NAME>.txt each; trailing spaces and tabs stripped from every line",
            "conll14/systems", CONLL14_LICENCE + "; copies from grammatical/evaluation",
            "Ng et al. The CoNLL-2014 Shared Task on Grammatical Error Correction. CoNLL 2014 (outputs as "
            "published with Grundkiewicz et al., EMNLP 2015).", NG_2014 + "\n" + GRUNDKIEWICZ_2015,
            _CONLL14_SYSTEMS_FILES),
    DataSet("conll14-errant", "CoNLL-2014 gold and systems, ERRANT-typed",
            "the CoNLL-2014 gold re-typed by ERRANT and the 13 system outputs as ERRANT M2 (hypothesis edits "
            "pre-extracted), as used by the CLEME papers",
            "conll14", "Apache-2.0 (THUKElab/CLEME)",
            "Ye et al. CLEME: Debiasing Multi-reference Evaluation for Grammatical Error Correction. EMNLP 2023.",
            YE_2023, _CONLL14_ERRANT_FILES),
    DataSet("bn10gec", "BN-10GEC",
            "ten annotators' corrections of the 1,312 CoNLL-2014 test sentences (M2 and I-measure XML)",
            "conll14/refsets", GRAMMATICALITY_METRICS.licence,
            "Bryant and Ng. How Far are We from Fully Automatic High Quality Grammatical Error Correction? "
            "ACL 2015.", BRYANT_NG_2015, _BN10GEC_FILES),
    DataSet("sn8gec", "SN-8GEC",
            "expert and non-expert, fluency and minimal corrections of the CoNLL-2014 test sentences (4 sets of "
            "2 annotators, M2 and I-measure XML) and the ids of the sentences their authors merged",
            "conll14/refsets", NO_LICENCE,
            "Sakaguchi, Napoles, Post, Tetreault. Reassessing the Goals of Grammatical Error Correction: "
            "Fluency Instead of Grammaticality. TACL 2016.", SAKAGUCHI_2016, _SN8GEC_FILES),
    DataSet("gjg15", "GJG15 human ranking",
            "human judgments of the 13 CoNLL-2014 systems (Appraise XML) and their Expected Wins and "
            "TrueSkill scores (the paper's Table 3, shipped with gecscore)",
            "gjg15", NO_LICENCE + " (the scores are numbers from the paper)",
            "Grundkiewicz, Junczys-Dowmunt, Gillian. Human Evaluation of Grammatical Error Correction Systems. "
            "EMNLP 2015.", GRUNDKIEWICZ_2015, _GJG15_FILES),
    DataSet("seeda", "SEEDA",
            "15 systems' outputs on CoNLL-2014 (all 1,312 sentences and the 391-sentence subset), human system "
            "scores (EW/TS, sentence and edit level) and the raw judgments",
            "seeda", NO_LICENCE,
            "Kobayashi, Mita, Komachi. Revisiting Meta-evaluation for Grammatical Error Correction. TACL 2024.",
            KOBAYASHI_2024, _SEEDA_FILES),
    DataSet("jfleg", "JFLEG",
            "fluency corpus: dev (754) and test (747) sentences with 4 references each",
            "jfleg", JFLEG.licence,
            "Napoles, Sakaguchi, Tetreault. JFLEG: A Fluency Corpus and Benchmark for Grammatical Error "
            "Correction. EACL 2017.", NAPOLES_2017, _JFLEG_FILES),
    DataSet("mucgec", "MuCGEC dev and NLPCC-2018 gold (Chinese)",
            "MuCGEC dev (1,137 sentences, 1-7 references), its example system output, and the NLPCC-2018 "
            "test gold in ChERRANT's char-level M2",
            "mucgec", MUCGEC.licence,
            "Zhang et al. MuCGEC: a Multi-Reference Multi-Source Evaluation Dataset for Chinese Grammatical "
            "Error Correction. NAACL 2022.", ZHANG_2022, _MUCGEC_FILES),
    DataSet("attacks", "Published attacks on reference-free metrics",
            "the adversarial CoNLL-2014 outputs built against SOME, Scribendi, IMPARA and LLM-S, and their "
            "licence",
            "attacks", ATTACK_GEC_METRICS.licence,
            "Goto, Sakai, Watanabe. Reliability Crisis of Reference-free Metrics for Grammatical Error "
            "Correction. arXiv:2509.25961, 2025.", GOTO_2025, _ATTACKS_FILES),
    DataSet("dsgram-eval", "DSGram-Eval",
            "human sub-metric scores (three annotators) and the judges' published answers",
            "dsgram-eval", NO_LICENCE,
            "Xie, Li, Yin, Wan. DSGram: Dynamic Weighting Sub-Metrics for Grammatical Error Correction in the Era "
            "of Large Language Models. arXiv:2412.12832, 2024.", XIE_2024, _DSGRAM_EVAL_FILES),
    DataSet("gmeg", "GMEG-Data (FCE and Wiki)",
            "GMEG-Data's FCE (968 sentences) and Wiki (992) domains, dev and test: the source, the outputs of six "
            "systems (amu, lstm, lstm-r, marian, nus, transformer), four references, and the mean human rating "
            "(0-100, 8 raters) of every system, the source and a reference on every sentence "
            "(segment-scores.csv) and over the corpus (corpus-scores.csv); the Yahoo domain's text is not public",
            "gmeg", GMEG.licence,
            "Napoles, Nadejde, Tetreault. Enabling Robust Grammatical Error Correction in New Domains: Data Sets, "
            "Metrics, and Analyses. TACL 2019.", NAPOLES_2019, _GMEG_FILES),
    DataSet("cweb", "CWEB",
            "web text by English writers of varying proficiency, generic (CWEB-G) and sponsored (CWEB-S) websites, "
            "dev and test: the two annotators' corrections as ERRANT M2 (annotators 0 and 1), the tokenised "
            "source, and the README with the licence",
            "cweb", CWEB.licence,
            "Flachs, Lacroix, Yannakoudakis, Rei, Sogaard. Grammatical Error Correction in Low Error Density "
            "Domains: A New Benchmark and Analyses. EMNLP 2020.", FLACHS_2020, _CWEB_FILES),
)}


def owner_of(path: str) -> DataSet:
    """The set a data-folder path (``conll14/systems/AMU.txt``) belongs to."""
    for dataset in CATALOGUE.values():
        if any(f.path == path for f in dataset.files):
            return dataset
    raise KeyError(path)
