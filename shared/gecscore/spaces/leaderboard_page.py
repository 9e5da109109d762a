"""The leaderboard Space: choose a benchmark, upload (or paste) one system output, name it, press
Score, and see it among the published systems under every configuration.

The scoring is the library's (:mod:`gecscore.leaderboard.upload`); this module is the page and
what a Space process keeps:

- :class:`Boards`: each benchmark's published board, prepared once per process on first use
  (the default one in the background at start-up) from the data catalogue by name, its cells
  and pair p-values read from the persistent cache (or scored and kept there);
- per browser session, a :class:`Session` in ``gr.State``: that user's last result and a
  folder for their downloads, removed when the session ends (the state's delete callback)
  or after :data:`SESSION_TTL_S` without a visit. An upload's file lives in a folder of its
  request, removed when the request ends; the upload is scored with the persistent store off.
  Nothing of one user's upload is in a place another user's request reads: the published
  boards are never changed by an upload (the upload's board is a new object per request).
- Score runs one at a time (``concurrency_limit=1``, the others wait in Gradio's queue and see
  their place): scoring is CPU-bound (a free Space has 2 vCPUs, so two at once would each take
  twice as long) and switches the persistent store off process-wide while it runs
  (:data:`gecscore.leaderboard.upload.SCORING`).

Set by the environment: ``GECSCORE_LEADERBOARD_BENCHMARKS`` (the benchmarks offered, comma-
separated; default all), ``GECSCORE_LEADERBOARD_CONFIGS`` (only these of the model-free
presets, space-separated), ``GECSCORE_LEADERBOARD_MODEL`` (a BERTScore model: PT-M2, PT-ERRANT
and CLEME2.0-sim are scored too), ``GEC_DATA`` (the data folder; default the per-user one).
"""
from __future__ import annotations

import atexit
import csv
import io
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from gecscore.extras import require

gr = require("gradio", "the metric Spaces")

from gecscore.errors import GecInputError
from gecscore.leaderboard.benchmarks import BENCHMARKS, Benchmark, benchmark, load_benchmark, sizes
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.upload import (PublishedBoard, UploadOptions, UploadResult, add_statistics,
                                         prepare_board, score_upload)
from gecscore.leaderboard.upload_input import OutputLimits, read_output, tokenised
from gecscore.outputs import json_text
from gecscore.spaces import leaderboard_view as view
from gecscore.spaces.inputs import RequestLimits, upload_path
from gecscore.spaces.render import note_html, placeholder_html

#: a session's downloads are removed this long after its last visit (Gradio's state time-to-live)
SESSION_TTL_S = 2 * 3600
BENCHMARKS_ENV = "GECSCORE_LEADERBOARD_BENCHMARKS"
CONFIGS_ENV = "GECSCORE_LEADERBOARD_CONFIGS"
MODEL_ENV = "GECSCORE_LEADERBOARD_MODEL"


class Boards:
    """The published board of each offered benchmark, prepared once (on first use; the first
    offered one in the background at start-up) and kept for the process."""

    def __init__(self, names: Sequence[str], *, run: RunWide | None = None, only: Sequence[str] | None = None,
                 options: UploadOptions = UploadOptions(), data_dir: str | None = None):
        self.names = [benchmark(n).name for n in names]
        if not self.names:
            raise GecInputError("no benchmark to offer")
        self.run = run or RunWide()
        self.only = list(only) if only else None
        self.options = options
        self.data_dir = data_dir
        self.work = Path(tempfile.mkdtemp(prefix="gecscore-leaderboard-"))   # the parallel gold files
        atexit.register(shutil.rmtree, self.work, True)
        self._boards: dict[str, PublishedBoard] = {}
        self._locks = {n: threading.Lock() for n in self.names}
        self._status: dict[str, tuple[float, str]] = {}   # how far each board's preparation has come
        self.errors: dict[str, str] = {}

    @classmethod
    def from_env(cls, environ=None) -> "Boards":
        environ = os.environ if environ is None else environ
        names = [n.strip() for n in environ.get(BENCHMARKS_ENV, ",".join(BENCHMARKS)).split(",") if n.strip()]
        only = environ.get(CONFIGS_ENV, "").split() or None
        model = environ.get(MODEL_ENV, "").strip()
        run = RunWide(similarity={"model": model}) if model else RunWide()
        return cls(names, run=run, only=only, data_dir=environ.get("GEC_DATA") or None)

    @property
    def default(self) -> str:
        return self.names[0]

    def benchmark(self, name: str) -> Benchmark:
        if name not in self.names:
            raise GecInputError(f"unknown benchmark {name!r}; this Space offers {', '.join(self.names)}")
        return BENCHMARKS[name]

    def ready(self, name: str) -> bool:
        return name in self._boards

    def get(self, name: str, progress=None) -> PublishedBoard:
        """The prepared board of ``name``, prepared now if it is not yet (minutes on a cold
        cache). While another request (or the start-up) prepares it, ``progress`` is told how
        far that one has come, every second."""
        bench = self.benchmark(name)
        say = progress or (lambda fraction, message: None)
        lock = self._locks[name]
        while not lock.acquire(timeout=1.0):
            say(*self._status.get(name, (0.0, f"preparing {bench.label}")))
        try:
            if name not in self._boards:
                def both(fraction: float, message: str) -> None:
                    self._status[name] = (fraction, f"{bench.label}, once for every visitor: {message}")
                    say(*self._status[name])

                both(0.0, "reading the data (fetched from the catalogue on first use)")
                data = load_benchmark(bench, self.work, self.data_dir)
                started = time.perf_counter()
                self._boards[name] = prepare_board(data, run=self.run, only=self.only, options=self.options,
                                                   progress=both)
                print(f"gecscore leaderboard Space: {bench.label} ready in {time.perf_counter() - started:.1f} s "
                      f"({self._boards[name].seconds})", file=sys.stderr, flush=True)
            return self._boards[name]
        finally:
            lock.release()

    def prepare_in_background(self, names: Sequence[str] | None = None) -> threading.Thread:
        """Prepare ``names`` (default: the first offered benchmark) in a thread, so the first
        user does not wait for it; a failure is kept and shown when the board is asked for."""
        def work() -> None:
            for name in names or [self.default]:
                try:
                    self.get(name, lambda fraction, message: None)
                except Exception as error:  # noqa: BLE001 - shown on the page when asked for again
                    self.errors[name] = str(error)
                    print(f"gecscore leaderboard Space: {name}: {error}", file=sys.stderr, flush=True)

        thread = threading.Thread(target=work, name="gecscore-prepare-boards", daemon=True)
        thread.start()
        return thread

    def other_sizes(self, name: str) -> dict[str, int]:
        return {label: n for label, n in sizes(name).items()}


@dataclass
class Session:
    """One browser session's result and the folder of its downloads (removed by :meth:`close`,
    which Gradio calls when the session ends)."""

    result: UploadResult | None = None
    folder: Path | None = None
    files: list[str] = field(default_factory=list)

    def downloads_folder(self) -> Path:
        if self.folder is None or not self.folder.is_dir():
            self.folder = Path(tempfile.mkdtemp(prefix="gecscore-leaderboard-session-"))
        return self.folder

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        self.folder, self.result, self.files = None, None, []


def close_session(session: Session | None) -> None:
    """Gradio's delete callback of a session's state."""
    if isinstance(session, Session):
        session.close()


INTRO = """\
# Where does my system stand?
Choose a benchmark, upload your system's output (one sentence per line, in the benchmark's order, tokenised
like its source) or paste it, give it a name and press **Score**. It is scored with every model-free
configuration of `gecscore leaderboard` beside the published systems, whose scores are computed once and kept:
your row is the row `gecscore leaderboard` gives for the same file. Then: your rank and significance cluster
under each configuration, which columns to believe (how each configuration agrees with the benchmark's human
ranking), your per-type table beside the best published system, and plots.

Your upload is used for your request only: it is not stored, not cached, and never shown to anyone else; your
result and its downloads are removed when you leave (download them to keep them).
"""


def build_demo(boards: Boards, limits: OutputLimits | None = None) -> gr.Blocks:
    """The page (see the module docstring)."""
    limits = limits or output_limits()
    with gr.Blocks(title="GEC leaderboard: where does my system stand?", delete_cache=(1800, 3600)) as demo:
        gr.HTML(view.style_html(), padding=False)
        gr.Markdown(INTRO, elem_id="gec-intro")
        bench, about, upload, pasted, name, tokenize, run, status = _input_panel(boards, limits)
        board, trust, plot_config, intervals, ranks, per_type, downloads, left_out = _result_panel()
        session = gr.State(Session(), time_to_live=SESSION_TTL_S, delete_callback=close_session)
        shown = [status, board, trust, plot_config, intervals, ranks, per_type, downloads, left_out, session]
        show_benchmark, score, redraw = _handlers(boards, limits, len(shown))
        bench.change(lambda n: _about(boards, n), inputs=bench, outputs=about, queue=False)
        bench.change(show_benchmark, inputs=[bench, session], outputs=shown, concurrency_limit=1,
                     concurrency_id="score", show_progress="full")
        demo.load(show_benchmark, inputs=[bench, session], outputs=shown, concurrency_limit=1,
                  concurrency_id="score", show_progress="full")
        run.click(score, inputs=[bench, upload, pasted, name, tokenize, session], outputs=shown,
                  concurrency_limit=1, concurrency_id="score", show_progress="full")
        plot_config.change(redraw, inputs=[plot_config, session, bench], outputs=intervals, concurrency_limit=4,
                           show_progress="hidden")
    demo.queue(default_concurrency_limit=1)
    return demo


def _input_panel(boards: Boards, limits: OutputLimits) -> tuple:
    """The benchmark, the upload (or pasted lines), the name, the tokenise box, Score and the status line."""
    choices = [(BENCHMARKS[n].label, n) for n in boards.names]
    with gr.Row(equal_height=False):
        with gr.Column(scale=2):
            bench = gr.Dropdown(choices, value=boards.default, label="benchmark", elem_id="gec-lb-benchmark")
            about = gr.Markdown(_about(boards, boards.default), elem_id="gec-lb-about")
            with gr.Tabs():
                with gr.Tab("Upload a file", id="upload"):
                    upload = gr.File(label="system output (.txt)", file_types=[".txt"], elem_id="gec-lb-file")
                with gr.Tab("Paste lines", id="paste"):
                    pasted = gr.Textbox(label="system output, one sentence per line", lines=6, max_lines=12,
                                        elem_id="gec-lb-paste")
            gr.Markdown(limits.describe())
        with gr.Column(scale=1, min_width=280):
            name = gr.Textbox(label="name of your system", value="my-system", max_lines=1, elem_id="gec-lb-name")
            tokenize = gr.Checkbox(label="tokenise my output first (spaCy, as tokenize=True does)", value=False,
                                   elem_id="gec-lb-tokenize")
            run = gr.Button("Score", variant="primary", elem_id="gec-lb-run")
            status = gr.HTML(placeholder_html("Your result appears below after Score."), elem_id="gec-lb-status")
    return bench, about, upload, pasted, name, tokenize, run, status


def _result_panel() -> tuple:
    """The board, the metric ranking, the plots, the per-type table, the downloads and what was left out."""
    gr.Markdown("### The board")
    board = gr.HTML(placeholder_html("The published systems appear here."), elem_id="gec-lb-board")
    gr.Markdown("### Which columns to believe")
    trust = gr.HTML("", elem_id="gec-lb-trust-html")
    gr.Markdown("### Plots")
    with gr.Row(equal_height=False):
        with gr.Column():
            plot_config = gr.Dropdown([], label="configuration of the interval plot", elem_id="gec-lb-plot-config")
            intervals = gr.HTML("", elem_id="gec-lb-interval-plot")
        ranks = gr.HTML("", elem_id="gec-lb-rank-plot")
    gr.Markdown("### Your per-type table")
    per_type = gr.HTML(placeholder_html("After Score: your ERRANT per-type counts beside the best published "
                                        "system's."), elem_id="gec-lb-per-type-html")
    downloads = gr.File(label="Download: the whole result (JSON) and every cell (CSV)", file_count="multiple",
                        interactive=False, elem_id="gec-lb-downloads")
    left_out = gr.HTML("", elem_id="gec-lb-left-out")
    return board, trust, plot_config, intervals, ranks, per_type, downloads, left_out


def _handlers(boards: Boards, limits: OutputLimits, n_shown: int) -> tuple:
    """The page's three event handlers over ``boards``: a benchmark shown, an upload scored (the
    table first, then the clusters and intervals), the interval plot redrawn; each returns the
    ``n_shown`` outputs of :func:`build_demo` (or skips them)."""

    def show_benchmark(name_: str, session_: Session, progress=gr.Progress()):
        try:
            published = boards.get(name_, _progress(progress))
        except GecInputError as error:
            return (note_html(str(error), "error"), *[gr.skip()] * (n_shown - 1))
        session_.result = None
        return _published_outputs(published, session_)

    def score(name_: str, file: Any, text_: str, label: str, tokenize_: bool, session_: Session,
              progress=gr.Progress()):
        started = time.perf_counter()
        say = _progress(progress)
        try:
            published = boards.get(name_, say)
            say(0.0, "reading your output")
            output = read_output(upload_path(file), text_, published.data.refset.expected_lines(),
                                 limits=limits, other_sizes=boards.other_sizes(name_))
            lines = tokenised(output.lines) if tokenize_ else output.lines
            with tempfile.TemporaryDirectory(prefix="gecscore-leaderboard-upload-") as folder:
                result = score_upload(published, lines, label, Path(folder), progress=say)
        except GecInputError as error:
            yield (note_html(str(error), "error"), *[gr.skip()] * (n_shown - 1))
            return
        advice = ()
        if output.warnings and not tokenize_:
            advice = (*output.warnings, "Tick 'tokenise my output first' and press Score again to score it "
                                        "tokenised (what the command line's tokenize=True does).")
            result.warnings = [w for w in result.warnings if w not in output.warnings]
        session_.close()
        session_.result = result
        table_s = time.perf_counter() - started
        yield _result_outputs(result, session_, f"Table in {table_s:.1f} s; significance clusters and intervals "
                                                "are being computed...", advice)
        add_statistics(result, progress=lambda f, m: progress(f, desc=m))
        all_s = time.perf_counter() - started
        result.seconds["to table"], result.seconds["to full result"] = table_s, all_s
        yield _result_outputs(result, session_, f"Table in {table_s:.1f} s, full result in {all_s:.1f} s.",
                              advice, downloads=True)

    def redraw(config: str, session_: Session, name_: str):
        if session_.result is not None:
            data = view.BoardView.of_result(session_.result)
        elif boards.ready(name_):
            data = view.BoardView.of_published(boards.get(name_))
        else:
            return gr.skip()
        return view.interval_plot_svg(data, config) if config in data.configs else gr.skip()

    return show_benchmark, score, redraw


def output_limits() -> OutputLimits:
    """The Spaces' request limits (``GECSCORE_SPACE_MAX_UPLOAD_BYTES`` ...) for one output."""
    limits = RequestLimits.from_env()
    return OutputLimits(limits.max_upload_bytes, limits.max_line_tokens, limits.max_line_chars)


def _about(boards: Boards, name: str) -> str:
    bench = BENCHMARKS.get(name)
    if bench is None:
        return ""
    run = boards.run
    model = run.similarity.get("model")
    models = (f"PT-M2, PT-ERRANT and CLEME2.0-sim are scored with `{model}`." if model else
              "Model-backed configurations (PT-M2, PT-ERRANT, CLEME2.0-sim) are not scored: this Space has no model "
              f"configured (`{MODEL_ENV}`).")
    return f"{bench.about} {models} Same board on the command line: `{bench.command()}`."


def _progress(progress):
    def say(fraction: float, message: str) -> None:
        progress(max(0.0, min(1.0, fraction)), desc=message)
    return say


def _published_outputs(published: PublishedBoard, session: Session) -> tuple:
    data = view.BoardView.of_published(published)
    first = data.ordered_configs()[0]
    return (placeholder_html(f"{len(published.systems)} published systems of {published.data.benchmark.label}, "
                             f"{len(published.configs)} configurations. Upload your output and press Score."),
            view.board_html(data), view.trust_html(published),
            gr.Dropdown(choices=data.ordered_configs(), value=first), view.interval_plot_svg(data, first), "",
            placeholder_html("After Score: your ERRANT per-type counts beside the best published system's."),
            None, view.left_out_html(published), session)


def _result_outputs(result: UploadResult, session: Session, timing: str, advice: Sequence[str] = (),
                    downloads: bool = False) -> tuple:
    data = view.BoardView.of_result(result)
    first = data.ordered_configs()[0]
    files = write_downloads(result, session.downloads_folder()) if downloads else None
    session.files = files or []
    status = view.summary_html(result, advice) + note_html(timing, "info")
    return (status, view.board_html(data), view.trust_html(result.published),
            gr.Dropdown(choices=data.ordered_configs(), value=first), view.interval_plot_svg(data, first),
            view.rank_plot_svg(data), view.per_type_html(result), files, view.left_out_html(result.published), session)


def safe_file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "upload"


def write_downloads(result: UploadResult, folder: Path) -> list[str]:
    """The whole result as JSON (:meth:`UploadResult.as_dict`) and every cell as CSV
    (:meth:`UploadResult.rows`), in ``folder``."""
    stem = f"{result.published.data.benchmark.name}_{safe_file_name(result.upload)}"
    json_path = folder / f"{stem}_leaderboard.json"
    json_path.write_text(json_text(result.as_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    csv_path = folder / f"{stem}_cells.csv"
    csv_path.write_text(cells_csv(result), encoding="utf-8")
    return [str(json_path), str(csv_path)]


def cells_csv(result: UploadResult) -> str:
    """Every (system, configuration) cell: score, rank, cluster, interval (empty where none)."""
    rows = result.rows()
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, list(rows[0]) if rows else ["system"], lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else repr(v) if isinstance(v, float) else v) for k, v in row.items()})
    return buffer.getvalue()


def launch(demo: gr.Blocks, **kwargs: Any):
    """Launch as every Space does (:func:`gecscore.spaces.framework.launch`: the shared theme and
    CSS), Gradio refusing an upload ten times the page's limit before it is stored (the page's
    own message covers the sizes between)."""
    from gecscore.spaces.framework import launch as framework_launch

    kwargs.setdefault("max_file_size", 10 * output_limits().max_bytes)
    return framework_launch(demo, **kwargs)


__all__ = ["Boards", "Session", "build_demo", "cells_csv", "launch", "output_limits", "write_downloads"]
