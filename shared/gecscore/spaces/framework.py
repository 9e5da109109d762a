"""The page every metric Space shares: inputs, options, examples, run, result, view, download.

A Space's ``app.py`` describes itself as a :class:`MetricSpace` (its configs, how to compute and
chart, how to draw its view, its examples) and calls :func:`build_demo` and :func:`launch`.
What the metric declares is read, not repeated: the options shown are every option its configs
declare for a Space (:func:`gecscore.options.space_fields`), each widget generated from its
declaration (:mod:`gecscore.spaces.controls`), whose values reach ``compute`` by name, as the
``{option: value}`` dict ``gecscore.load`` takes; whether the page asks for references is the
metric class's ``needs_references``. No metric is named here.
"""
from __future__ import annotations

import os

# No network at start-up: no analytics, no update check (set before gradio is imported).
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("GRADIO_TELEMETRY_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from gecscore.outputs import json_text
from gecscore.extras import require

gr = require("gradio", "the metric Spaces")

from gecscore.errors import GecInputError, MissingModelError
from gecscore.metric import Metric, load
from gecscore.options import space_fields
from gecscore.registry import metric_class
from gecscore.spaces import controls as option_controls
from gecscore.spaces.examples import Example
from gecscore.spaces.inputs import CorpusInput, RequestLimits, corpus_input, prepare_request, request_sources
from gecscore.spaces.render import CSS, note_html, placeholder_html, result_table_html


@dataclass
class Outcome:
    """What a run produces: the contract dictionary, a corpus-level chart and per-sentence records."""

    result: dict
    chart_html: str
    records: list[dict]
    notes: list[str] = field(default_factory=list)


def limit_slider() -> list:
    """The usual per-sentence view control: how many sentences to draw."""
    return [gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")]


def sentence_table(columns: Sequence[str]) -> Callable[..., str]:
    """A ``render_view`` drawing one row per sentence with the records' ``columns`` (the
    first, the sentence's score, in bold), for :func:`limit_slider`'s control."""
    from gecscore.spaces.metric_views import sentence_scores_html

    def render_view(records, limit=50) -> str:
        return sentence_scores_html(records, tuple(columns), int(limit))

    return render_view


class Chart(Protocol):
    """Draws the corpus-level chart of a result (its contract dictionary) of ``metric``."""

    def __call__(self, result: Mapping[str, Any], metric: Metric) -> str: ...


class MetricMaker(Protocol):
    """The metric object for a name and options (``gecscore.load``'s, or one kept across runs)."""

    def __call__(self, name: str, options: dict[str, Any]) -> Metric: ...


def loaded(name: str, options: dict[str, Any]) -> Metric:
    """A new metric object per run (metrics without a model to keep)."""
    return load(name, **options)


@dataclass(frozen=True)
class ChartedScore:
    """The ``compute`` most Spaces share: score the request's hypotheses with ``metric`` under
    the options, chart the result, and give each sentence's record its source and hypothesis
    (:func:`gecscore.spaces.metric_views.with_texts`). A Space whose run differs (several
    systems, a typed-in judge key, an attribution view) writes its own."""

    metric: str
    chart: Chart
    make_metric: MetricMaker = loaded

    def __call__(self, corpus: CorpusInput, options: dict[str, Any]) -> Outcome:
        from gecscore.spaces.metric_views import with_texts

        metric = self.make_metric(self.metric, options)
        prepared = prepare_request(metric, corpus)
        result = metric.score(prepared, corpus.hypotheses)
        contract = result.as_dict()
        records = with_texts(result.records(), request_sources(corpus, prepared), corpus.hypotheses)
        return Outcome(contract, self.chart(contract, metric), records)


@dataclass
class MetricSpace:
    """Everything metric-specific about a Space.

    ``configs`` maps each metric the Space serves to its config (one for most Spaces; CLEME2.0's
    serves two); the options shown are every option they declare for a Space, in
    :func:`gecscore.options.space_fields`'s order, but those ``leave_out`` names (options this
    Space cannot serve though another could), each a widget generated from its declaration;
    ``choices`` gives the choices offered where the config checks
    a value by a rule, or the Space offers fewer; ``placeholders`` what an empty box means where
    the help text does not say. ``space_controls`` builds the hand-made controls
    that are not metric options (the metric picker, an API key box), by name, shown first;
    ``pick_metric(space_values)`` says which metric they select (default: the first).
    ``compute(corpus, options, **space_values)`` gets the options that apply to that metric
    as ``{name: value}`` and returns an :class:`Outcome` (most Spaces: a :class:`ChartedScore`);
    ``build_view()`` creates controls of
    the per-sentence view (may return []); ``render_view(records, *view_values)`` draws it.
    """

    name: str
    title: str
    intro: str
    legend_html: str
    result_groups: Sequence[tuple[str, Sequence[str]]]
    configs: Mapping[str, type]
    compute: Callable[..., Outcome]
    render_view: Callable[..., str]
    examples: Sequence[Example]
    choices: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    placeholders: Mapping[str, str] = field(default_factory=dict)
    space_controls: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    pick_metric: Callable[[Mapping[str, Any]], str] | None = None
    build_view: Callable[[], list] = lambda: []
    leave_out: Sequence[str] = ()
    reference_boxes: int = 3
    input_help: str = "One tokenised sentence per line (tokens separated by spaces)."

    @property
    def options(self) -> tuple[str, ...]:
        """The options shown, in order: the first config's Space options, each other config's
        own placed after the option it follows there, but ``leave_out``."""
        names: list[str] = []
        for config in self.configs.values():
            after = 0
            for f in space_fields(config):
                if f.name in names:
                    after = names.index(f.name) + 1
                else:
                    names.insert(after, f.name)
                    after += 1
        return tuple(name for name in names if name not in self.leave_out)

    @property
    def needs_references(self) -> bool:
        """Whether the page asks for references (as text, or a gold M2 file: every metric that
        reads references prepares them from any gold): a metric it serves reads them."""
        return any(metric_class(name).needs_references for name in self.configs)

    def controls(self) -> tuple[option_controls.Control, ...]:
        """The option controls, from the configs' declarations."""
        return option_controls.controls_for(self.options, self.configs, self.choices, self.placeholders)

    def by_name(self, controls: Sequence[option_controls.Control], widget_values: Sequence[Any]
                ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The widgets' values (the option widgets', in ``controls`` order, then the Space-only
        ones) as ``{option: value}``, converted per declaration, and ``{space control: value}``."""
        n = len(controls)
        if len(widget_values) != n + len(self.space_controls):
            raise ValueError(f"{len(widget_values)} values for {n} option and "
                             f"{len(self.space_controls)} Space-only widgets")
        return (option_controls.option_values(controls, widget_values[:n]),
                dict(zip(self.space_controls, widget_values[n:])))

    def metric_for(self, space_values: Mapping[str, Any]) -> str:
        """The metric the Space-only controls select."""
        return self.pick_metric(space_values) if self.pick_metric else next(iter(self.configs))

    def run_options(self, option_values: Mapping[str, Any], space_values: Mapping[str, Any]) -> dict[str, Any]:
        """What ``compute`` gets: the options that apply to the selected metric, by name."""
        return option_controls.options_for(self.configs[self.metric_for(space_values)], option_values)

    def visibility(self, option_values: Mapping[str, Any], space_values: Mapping[str, Any]) -> dict[str, bool]:
        """Which option widgets are shown: those that can change the selected metric's number."""
        config = self.configs[self.metric_for(space_values)]
        return option_controls.shown(config, option_values, self.options)


def _write_downloads(name: str, outcome: Outcome) -> list[str]:
    folder = tempfile.mkdtemp(prefix=f"gecscore-{name}-")
    result_path = os.path.join(folder, f"{name}_result.json")
    with open(result_path, "w", encoding="utf-8") as handle:
        handle.write(json_text(outcome.result, ensure_ascii=False, indent=2))
    records_path = os.path.join(folder, f"{name}_per_sentence.jsonl")
    with open(records_path, "w", encoding="utf-8") as handle:
        for record in outcome.records:
            handle.write(json_text(record, ensure_ascii=False) + "\n")
    return [result_path, records_path]


def build_demo(space: MetricSpace) -> gr.Blocks:
    """The Gradio page of ``space``: inputs and options side by side, then the result, the chart
    and the per-sentence view; Evaluate and each example button run the metric."""
    with gr.Blocks(title=space.title) as demo:
        gr.Markdown(f"# {space.title}\n{space.intro}", elem_id="gec-intro")
        gr.HTML(space.legend_html, elem_id="gec-legend")
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                inputs = _input_widgets(space)
            with gr.Column(scale=2, min_width=320):
                options = _option_widgets(space)
        outputs = _output_widgets(space)
        run = _runner(space, inputs, options)
        run_inputs = [*inputs.texts, *inputs.files, *options.widgets, *outputs.view_controls]
        options.run_button.click(run, inputs=run_inputs, outputs=outputs.run_outputs, show_progress="full")
        _wire_examples(space, inputs, options.example_buttons, run, run_inputs, outputs.run_outputs)
        _wire_view(space, outputs)
        _wire_visibility(space, options.controls, list(options.option_widgets), options.space_widgets)
    demo.queue(default_concurrency_limit=2)
    return demo


@dataclass(frozen=True)
class InputWidgets:
    """The page's input side: the tabs, the pasted text boxes and the upload fields present."""
    tabs: Any
    source: Any
    hypothesis: Any
    references: tuple = ()
    files: tuple = ()   # the upload fields present, in the order of UPLOAD_ROLES

    @property
    def texts(self) -> list:
        return [self.source, self.hypothesis, *self.references]


UPLOAD_ROLES = ("source_file", "hypothesis_file", "reference_files", "m2_file")


@dataclass(frozen=True)
class OptionWidgets:
    """The page's option side: example buttons, Evaluate, the options' and the Space's controls."""
    example_buttons: tuple
    run_button: Any
    controls: tuple
    option_widgets: tuple
    space_widgets: Mapping[str, Any]

    @property
    def widgets(self) -> list:
        """Every option widget, the metric's first, then the Space's own (the metric choice)."""
        return [*self.option_widgets, *self.space_widgets.values()]


@dataclass(frozen=True)
class OutputWidgets:
    """What a run fills: the score table, the chart, the view (and its controls), the downloads,
    and the records the view is redrawn from."""
    result_html: Any
    chart_html: Any
    view_controls: tuple
    view_html: Any
    downloads: Any
    records_state: Any

    @property
    def run_outputs(self) -> list:
        return [self.result_html, self.chart_html, self.view_html, self.downloads, self.records_state]


def _input_widgets(space: MetricSpace) -> InputWidgets:
    """Two tabs: pasted text (source, hypothesis, references when the metric needs them) and
    uploaded files (the same roles, or a gold M2)."""
    with gr.Tabs() as tabs:
        with gr.Tab("Paste text", id="paste"):
            gr.Markdown(f"{space.input_help} {RequestLimits.from_env().describe()}")
            source = gr.Textbox(label="Source", lines=3, max_lines=12, elem_id="gec-source",
                                placeholder="He go to school yesterday .")
            hypothesis = gr.Textbox(label="Hypothesis (system output)", lines=3, max_lines=12,
                                    elem_id="gec-hypothesis", placeholder="He goes to school yesterday .")
            references = []
            if space.needs_references:
                with gr.Row():
                    for k in range(space.reference_boxes):
                        references.append(gr.Textbox(label=f"Reference {k + 1}" + (" (optional)" if k else ""),
                                                     lines=3, max_lines=12, elem_id=f"gec-reference-{k + 1}"))
        with gr.Tab("Upload files", id="upload"):
            gr.Markdown("Plain UTF-8 text files, one sentence per line, lines parallel. "
                        "An uploaded file replaces the pasted box of the same role.")
            with gr.Row():
                files = [gr.File(label="Source .txt", file_types=[".txt"]),
                         gr.File(label="Hypothesis .txt", file_types=[".txt"])]
            if space.needs_references:
                with gr.Row():
                    files.append(gr.File(label="Reference .txt files (one per set)", file_count="multiple",
                                         file_types=[".txt"]))
                    files.append(gr.File(label="...or a gold .m2 file (replaces source and references)",
                                         file_types=[".m2", ".txt"]))
    return InputWidgets(tabs, source, hypothesis, tuple(references), tuple(files))


def _option_widgets(space: MetricSpace) -> OptionWidgets:
    """The example buttons, Evaluate, and the options accordion (each option's widget shown
    only when it can change the number under the first values: see :func:`_wire_visibility`)."""
    with gr.Row():
        example_buttons = tuple(gr.Button(f"Load example: {ex.name}" if len(space.examples) > 1 else "Load example",
                                          variant="secondary", elem_id=f"gec-example-{i}")
                                for i, ex in enumerate(space.examples))
    run_button = gr.Button("Evaluate", variant="primary", elem_id="gec-run")
    with gr.Accordion("Options", open=True, elem_id="gec-options"):
        space_widgets = {name: build() for name, build in space.space_controls.items()}
        controls = space.controls()
        first_shown = space.visibility({c.name: c.value_of(c.value) for c in controls},
                                       {name: getattr(w, "value", None) for name, w in space_widgets.items()})
        option_widgets = tuple(option_controls.build_widget(c, first_shown[c.name]) for c in controls)
    return OptionWidgets(example_buttons, run_button, tuple(controls), option_widgets, space_widgets)


def _output_widgets(space: MetricSpace) -> OutputWidgets:
    """The result and chart side by side, the per-sentence view with its controls, the downloads."""
    with gr.Row(equal_height=False):
        result_html = gr.HTML(placeholder_html("The scores appear here after Evaluate."), elem_id="gec-result")
        chart_html = gr.HTML("", elem_id="gec-chart")
    gr.Markdown("### Per-sentence view")
    with gr.Row():
        view_controls = space.build_view()
    view_html = gr.HTML(placeholder_html("Each sentence's analysis appears here."), elem_id="gec-view")
    downloads = gr.File(label="Download: result (JSON) and per-sentence records (JSON Lines)",
                        file_count="multiple", interactive=False, elem_id="gec-downloads")
    return OutputWidgets(result_html, chart_html, tuple(view_controls), view_html, downloads, gr.State([]))


def _runner(space: MetricSpace, inputs: InputWidgets, options: OptionWidgets) -> Callable:
    """The Evaluate handler: its values are the texts, the uploads, the option widgets and the
    view controls, in that order; it returns :attr:`OutputWidgets.run_outputs`' values. An input
    or model error is shown on the page (``gr.Error``)."""
    n_text, n_files, n_options = len(inputs.texts), len(inputs.files), len(options.widgets)

    def run(*values, progress=gr.Progress(track_tqdm=True)):
        texts, files = values[:n_text], values[n_text:n_text + n_files]
        widget_values = values[n_text + n_files:n_text + n_files + n_options]
        view_values = values[n_text + n_files + n_options:]
        uploads = dict(zip(UPLOAD_ROLES, files))
        progress(0, desc="Reading the input")
        try:
            option_values, space_values = space.by_name(options.controls, widget_values)
            corpus = corpus_input(texts[0], texts[1], texts[2:], needs_references=space.needs_references, **uploads)
            outcome = space.compute(corpus, space.run_options(option_values, space_values), **space_values)
        except (GecInputError, MissingModelError, ValueError) as error:
            raise gr.Error(str(error)) from None
        progress(1, desc="Drawing")
        notes = "".join(note_html(n, "warn") for n in outcome.notes)
        view = space.render_view(outcome.records, *view_values)
        return (notes + result_table_html(outcome.result, space.result_groups), outcome.chart_html,
                view, _write_downloads(space.name, outcome), outcome.records)

    return run


def _wire_examples(space: MetricSpace, inputs: InputWidgets, buttons: Sequence[Any], run: Callable,
                   run_inputs: list, run_outputs: list) -> None:
    """Each example button fills the paste tab (references padded with empty boxes, uploads
    cleared), switches to it and runs."""
    n_references, n_files = len(inputs.references), len(inputs.files)

    def filler(example: Example):
        refs = list(example.references[:n_references])
        refs += [""] * (n_references - len(refs))

        def fill():
            return (gr.Tabs(selected="paste"), example.sources, example.hypotheses, *refs, *([None] * n_files))
        return fill

    for button, example in zip(buttons, space.examples):
        button.click(filler(example), outputs=[inputs.tabs, *inputs.texts, *inputs.files]).then(
            run, inputs=run_inputs, outputs=run_outputs, show_progress="full")


def _wire_view(space: MetricSpace, outputs: OutputWidgets) -> None:
    """A view control's change redraws the view from the last run's records (none yet: no change)."""
    def redraw(records: list[dict], *view_values):
        return space.render_view(records, *view_values) if records else gr.skip()

    for control in outputs.view_controls:
        control.change(redraw, inputs=[outputs.records_state, *outputs.view_controls], outputs=outputs.view_html)


def _wire_visibility(space: MetricSpace, controls: Sequence[option_controls.Control], option_widgets: list,
                     space_widgets: Mapping[str, Any]) -> None:
    """Show only the options that can change the number under the current values: when an option
    another depends on (PT-M2's scorer, CLEME's weighting) or a Space-only control (the metric)
    changes, the dependent options' widgets are shown or hidden."""
    names = [c.name for c in controls]
    dependent = option_controls.conditional(space.configs, names)
    if not dependent:
        return
    widgets = dict(zip(names, option_widgets))
    trigger_widgets = [widgets[n] for n in option_controls.triggers(space.configs, names)] + list(space_widgets.values())
    inputs = [*option_widgets, *space_widgets.values()]
    outputs = [widgets[n] for n in dependent]

    def update(*values):
        try:
            option_values, space_values = space.by_name(controls, values)
        except GecInputError:  # a half-typed number: leave the page as it is
            updates = [gr.skip() for _ in outputs]
        else:
            visible = space.visibility(option_values, space_values)
            updates = [gr.update(visible=visible[n]) for n in dependent]
        # one output takes the update itself (Gradio would read a one-item list as the widget's value)
        return updates[0] if len(updates) == 1 else updates

    for trigger in trigger_widgets:
        trigger.change(update, inputs=inputs, outputs=outputs, show_progress="hidden")


THEME_FONTS = dict(font=["ui-sans-serif", "system-ui", "sans-serif"],
                   font_mono=["ui-monospace", "Consolas", "monospace"])


def launch(demo: gr.Blocks, **kwargs: Any):
    """Launch with the shared CSS and a theme that needs no web fonts.

    Host and port come from ``GRADIO_SERVER_NAME`` / ``GRADIO_SERVER_PORT`` when set.
    """
    theme = gr.themes.Soft(primary_hue="indigo", **THEME_FONTS)
    kwargs.setdefault("footer_links", ["api"])
    return demo.launch(css=CSS, theme=theme, **kwargs)
