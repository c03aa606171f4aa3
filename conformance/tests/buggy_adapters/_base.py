"""Loads the example Python adapter as a module, so that each buggy adapter
here is the correct one with a single function replaced."""

import importlib.util
import os

_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python", "adapter.py"
)
_spec = importlib.util.spec_from_file_location("adapter", _PATH)
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)
