"""gecscore's metrics and GEC tasks for LightEval (``pip install "gecscore[lighteval]"``).

- :mod:`.tasks`: the task family (``--custom-tasks gecscore.integrations.lighteval.tasks``):
  ``gec:conll14``, ``gec:jfleg``, ``gec:jfleg_dev``, ``gec:files``, and :func:`.tasks.gec_task`
  for other corpora;
- :mod:`.metrics`: :func:`.metrics.gec_metric`, a LightEval metric per gecscore metric, scored
  once per task through ``gecscore.load``;
- :mod:`.replay`: a LightEval model that answers with the lines of a file (to score an
  existing system's outputs);
- ``python -m gecscore.integrations.lighteval``: the ``lighteval`` command line, able to
  run offline (:mod:`.offline`).

Importing this package does not import LightEval; its submodules do.
"""
TESTED_LIGHTEVAL = "0.13.0"
