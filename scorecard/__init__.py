"""scorecard: provably optimal integer scoring systems, exported anywhere a decision is made.

Heavy parts load lazily, so ``import scorecard.runtime`` stays standard-library only.
"""
from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "SLIMClassifier": "scorecard.trainer.estimator",
    "MofNClassifier": "scorecard.trainer.estimator",
    "TrainConfig": "scorecard.trainer.options.config",
    "train": "scorecard.trainer.train",
    "load": "scorecard.runtime",
    "Model": "scorecard.runtime",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'scorecard' has no attribute {name!r}")


__all__ = sorted(_LAZY)
