"""Let LightEval's task registry load without a network.

LightEval (0.13) imports every built-in task module whenever it builds its registry, even to
run one custom task, and stops at the first that fails. Three of them reach the network at
import: ``tiny_benchmarks`` downloads a pickle, ``mix_eval`` and ``mt_bench`` ask the Hub
whether their judge model exists (and with huggingface_hub >= 1 that call is a TypeError
anyway). Offline, no task can run at all. :func:`tolerate_broken_builtin_tasks` makes the
registry skip a built-in module that fails to import, with a warning naming it; the GEC tasks
never need those modules. ``python -m gecscore.integrations.lighteval`` applies it and runs the
``lighteval`` command line.
"""
from __future__ import annotations

import importlib
import logging
from pathlib import Path

logger = logging.getLogger(__name__)
_APPLIED = False


def _tolerant_load_from_files(files: list[Path], module_prefix: str) -> dict:
    from lighteval.tasks.registry import Registry

    configs: dict = {}
    for task_file in files:
        name = f"{module_prefix}.{task_file.stem}"
        try:
            module = importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - any failure of a module we do not need
            logger.warning("LightEval task module %s skipped (cannot be imported here: %s: %s)",
                           name, type(error).__name__, str(error)[:200])
            continue
        configs.update(Registry._extract_configs(module))
    return configs


def _tolerant_load_from_subdirs(subdirs: list[Path]) -> dict:
    from lighteval.tasks.registry import Registry

    configs: dict = {}
    for task_dir in subdirs:
        name = f"lighteval.tasks.tasks.{task_dir.name}.main"
        try:
            module = importlib.import_module(name)
        except Exception as error:  # noqa: BLE001
            logger.warning("LightEval task module %s skipped (cannot be imported here: %s: %s)",
                           name, type(error).__name__, str(error)[:200])
            continue
        configs.update(Registry._extract_configs(module))
    return configs


def tolerate_broken_builtin_tasks() -> None:
    """Patch LightEval's registry (once per process) to skip built-in task modules that fail
    to import. Custom task modules still fail loudly."""
    global _APPLIED
    if _APPLIED:
        return
    from lighteval.tasks.registry import Registry

    Registry._load_from_files = staticmethod(_tolerant_load_from_files)
    Registry._load_from_subdirs = staticmethod(_tolerant_load_from_subdirs)
    _APPLIED = True
