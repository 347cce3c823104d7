"""fxlog: rule-governed tool calling over F-logic programs, solved by clingo.

>>> from fxlog import Client
>>> with Client() as c:
...     c.load("socrates:Human. Human::Mortal.")
...     c.query("?- socrates:Mortal.").truth
'true'
"""

import sys

# Passes over the syntax tree recurse once per nesting level, and the parser
# admits statements up to 1,000 levels deep (fxlog.syntax.parser.MAX_TREE_DEPTH),
# which needs more than Python's default of 1,000 frames.
if sys.getrecursionlimit() < 20_000:
    sys.setrecursionlimit(20_000)

from fxlog.client import Client  # noqa: E402
from fxlog.engine.answers import Answer, Binding  # noqa: E402
from fxlog.errors import Diagnostic, FxlogError, ProgramError, UsageError  # noqa: E402

__all__ = ["Answer", "Binding", "Client", "Diagnostic", "FxlogError", "ProgramError",
           "UsageError"]
__version__ = "0.1.0"
