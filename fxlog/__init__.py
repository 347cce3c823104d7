"""fxlog: rule-governed tool calling over F-logic programs, solved by clingo.

>>> from fxlog import Client
>>> with Client() as c:
...     c.load("socrates:Human. Human::Mortal.")
...     c.query("?- socrates:Mortal.").truth
'true'
"""

from fxlog.client import Client
from fxlog.engine.answers import Answer, Binding
from fxlog.errors import Diagnostic, FxlogError, ProgramError, UsageError

__all__ = ["Answer", "Binding", "Client", "Diagnostic", "FxlogError", "ProgramError",
           "UsageError"]
__version__ = "0.1.0"
