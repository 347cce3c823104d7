"""The ``.fx`` front end: grammar, AST, parser and printer."""

from fxlog.syntax.parser import parse_program, parse_query_text

__all__ = ["parse_program", "parse_query_text"]
