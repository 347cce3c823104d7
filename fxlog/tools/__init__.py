"""Tool execution: the episode host, receipts, the built-in tools and adapters.

``python -m fxlog.tools PROGRAM`` is the same command as ``fxlog run PROGRAM``.
"""

from fxlog.tools.execute import ToolError, execute
from fxlog.tools.host import EpisodeResult, Hooks, replay, run_episode
from fxlog.tools.registry import ToolRegistry

__all__ = ["EpisodeResult", "Hooks", "ToolError", "ToolRegistry", "execute", "replay",
           "run_episode"]
