"""The ``fxlog`` command line: a thin layer over the library.

Exit codes: 0 answered, 1 the user's program (or receipts) has errors or a run
failed, 2 the command was used wrongly (missing file, bad option). Every
error fxlog raises on purpose is printed as ``file:line:col`` with a hint; a
Python traceback means a bug in fxlog.

>>> from typer.testing import CliRunner
>>> CliRunner().invoke(app, ["--help"]).exit_code
0
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from fxlog.engine.answers import Answer
from fxlog.errors import Diagnostic, FxlogError, ProgramError, render_all
from fxlog.reasoner import KnowledgeBase, Result
from fxlog.syntax.parser import parse_program, parse_query_text
from fxlog.tools.host import EpisodeResult

__all__ = ["app", "main"]

app = typer.Typer(
    name="fxlog",
    help="Rule-governed tool calling: F-logic programs solved by clingo.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


class Format(StrEnum):
    text = "text"
    json = "json"


class EngineName(StrEnum):
    clingo = "clingo"
    pydatalog = "pydatalog"


ProgramArg = Annotated[Path, typer.Argument(help="The .fx program.", show_default=False)]
ReceiptsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Receipts files (.fx facts) written by earlier runs.", show_default=False),
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=True)


def fail(error: FxlogError) -> NoReturn:
    """Print an error the user can act on and exit with its documented code."""
    console = _console(err=True)
    if isinstance(error, ProgramError):
        console.print(error.render(), markup=False)
    else:
        console.print(f"fxlog: {error.message}", markup=False)
    raise typer.Exit(error.exit_code)


def load_kb(program: Path, receipts: list[Path] | None) -> KnowledgeBase:
    """Read the program and its receipts files into a knowledge base."""
    from fxlog.client import read_source

    kb = KnowledgeBase()
    kb.add_program(parse_program(read_source(program), str(program)))
    for path in receipts or []:
        from fxlog.tools.receipt_log import load_receipts

        if not path.exists():
            from fxlog.errors import UsageError

            raise UsageError(f"{path}: no such receipts file")
        loaded = load_receipts(path)
        for warning in loaded.warnings:
            _console(err=True).print(render_all([warning], {}), markup=False)
        kb.add_receipts(loaded.program)
    return kb


def answers_json(result: Result) -> dict[str, object]:
    return {
        "answers": [a.as_json() for a in result.answers],
        "diagnostics": [d.as_json() for d in result.warnings],
    }


def print_answers(answers: list[Answer], console: Console) -> None:
    """A readable table per query: truth, then the bindings (certain ones first)."""
    for answer in answers:
        colour = {"true": "green", "false": "red", "unknown": "yellow"}[answer.truth]
        console.print(f"{escape(answer.query)}  [bold {colour}]{answer.truth}[/]")
        if answer.variables and answer.bindings:
            table = Table(show_edge=False, pad_edge=False, box=None)
            for name in answer.variables:
                table.add_column(escape("?" + name), no_wrap=False)
            table.add_column("truth")
            for binding in answer.bindings:
                table.add_row(*(escape(binding.text(n)) for n in answer.variables),
                              binding.truth)
            console.print(table)
        if answer.pending:
            console.print("  depends on pending requests: " + ", ".join(answer.pending),
                          markup=False)


def print_warnings(warnings: list[Diagnostic], kb: KnowledgeBase | None = None) -> None:
    if warnings:
        _console(err=True).print(render_all(warnings, kb.sources if kb else {}), markup=False)


@app.command()
def query(
    program: ProgramArg,
    receipts: ReceiptsArg = None,
    goal: Annotated[str | None, typer.Option("--goal", "-g", help="Answer this goal "
                                             "instead of the file's queries.")] = None,
    engine: Annotated[EngineName, typer.Option(
        "--engine", help="clingo (everything), or pydatalog (the stratified, closed-world "
        "subset; a cross-check).")] = EngineName.clingo,
    fmt: FormatOpt = Format.text,
) -> None:
    """Answer the program's ?- queries (or --goal) without running any tool."""
    try:
        kb = load_kb(program, receipts)
        parsed = parse_query_text(goal) if goal is not None else None
        if engine is EngineName.pydatalog:
            from fxlog.engine.datalog import answer_with_pydatalog

            result = Result(answer_with_pydatalog(kb, parsed), [], [],
                            list(kb.translation(parsed).warnings))
        else:
            result = kb.answer(parsed)
    except ProgramError as exc:
        if fmt is Format.json:
            typer.echo(json.dumps({"answers": [], "diagnostics": [
                d.as_json() for d in exc.diagnostics]}, indent=2, ensure_ascii=False))
            raise typer.Exit(1) from None
        fail(exc)
    except FxlogError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(json.dumps(answers_json(result), indent=2, ensure_ascii=False))
        return
    print_warnings(result.warnings, kb)
    if not result.answers:
        _console().print("no queries: add `?- goal.` to the program or pass --goal")
        return
    print_answers(result.answers, _console())


@app.command()
def check(
    program: ProgramArg,
    adapter: Annotated[list[str] | None, typer.Option(
        "--adapter", "-a", help="Also check inputs and receipt fields against these tools "
        "(module or .py file; repeatable).")] = None,
    max_actions: Annotated[int, typer.Option(min=0, help="Warn when an episode can need "
                                             "more tool calls than this.")] = 32,
    fmt: FormatOpt = Format.text,
) -> None:
    """Parse and check a program; report errors and warnings with locations."""
    try:
        kb = load_kb(program, [])
        translation = kb.translation()
    except ProgramError as exc:
        if fmt is Format.json:
            typer.echo(json.dumps({"ok": False, "diagnostics": [d.as_json()
                                                                for d in exc.diagnostics]},
                                  indent=2))
            raise typer.Exit(1) from None
        fail(exc)
    except FxlogError as exc:
        fail(exc)
    from fxlog.cli_extra import check_analysis

    warnings = check_analysis(kb, list(translation.warnings), adapter or [], max_actions,
                              fmt.value)
    asp = translation.asp
    if fmt is Format.json:
        typer.echo(json.dumps({"ok": True, "diagnostics": [d.as_json() for d in warnings],
                               "queries": len(asp.queries),
                               "externals": len(asp.externals)}, indent=2))
        return
    print_warnings(warnings, kb)
    statements = sum(len(p.statements) for p in kb.programs)
    _console().print(f"{program}: ok ({statements} statements, {len(asp.queries)} queries, "
                     f"{len(asp.externals)} external declarations, {len(warnings)} warnings)",
                     markup=False)


@app.command()
def translate(
    program: ProgramArg,
    receipts: ReceiptsArg = None,
) -> None:
    """Print the ASP program clingo receives (deterministic)."""
    try:
        kb = load_kb(program, receipts)
        text = kb.translation().asp.text
    except FxlogError as exc:
        fail(exc)
    sys.stdout.write(text)
    if kb.receipt_asp:
        sys.stdout.write("% receipts\n" + "".join(kb.receipt_asp))


def print_episode(result: EpisodeResult, console: Console) -> None:
    status = f" (status {result.status})" if result.status else ""
    console.print(f"episode ended: {result.end_reason}{status}; {result.actions} actions",
                  markup=False)
    for text in result.executed:
        console.print(f"  ran {text}", markup=False)
    if result.pending:
        console.print("  still pending: " + ", ".join(result.pending), markup=False)
    if result.receipts_path:
        console.print(f"  receipts: {result.receipts_path}", markup=False)
    print_answers(result.answers, console)


@app.command()
def run(
    program: ProgramArg,
    receipts: ReceiptsArg = None,
    receipts_out: Annotated[Path | None, typer.Option(
        "--receipts-out", "-o", help="Append receipts here (default: NAME.receipts.fx beside "
        "the program; an existing file is resumed, never overwritten).")] = None,
    adapter: Annotated[list[str] | None, typer.Option(
        "--adapter", "-a", help="Register the TOOLS of a module or .py file (repeatable).")
    ] = None,
    max_actions: Annotated[int, typer.Option(min=0, help="Stop after this many tool "
                                             "calls.")] = 32,
    parallel: Annotated[int, typer.Option(min=1, help="Run up to N requests of one step "
                                          "at once.")] = 1,
    tool_timeout: Annotated[float, typer.Option(min=0.001, help="Seconds before a tool "
                                                "call fails with `timeout`.")] = 60.0,
    fmt: FormatOpt = Format.text,
) -> None:
    """Run an episode: execute derived requests in tool#order and record receipts."""
    from fxlog.tools.host import run_episode

    try:
        result = run_episode(program, receipts or [], receipts_out=receipts_out,
                             adapters=adapter or [], max_actions=max_actions,
                             parallel=parallel, tool_timeout=tool_timeout)
    except FxlogError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
        return
    print_warnings(result.warnings)
    print_episode(result, _console())


@app.command()
def replay(
    program: ProgramArg,
    receipts: ReceiptsArg = None,
    check_: Annotated[bool, typer.Option("--check", help="Exit 1 unless the replay ends "
                                         "as the recorded run did, with nothing pending.")
                      ] = False,
    override: Annotated[list[str] | None, typer.Option(
        "--override", help='What if: REQUEST=failed, REQUEST=succeeded or '
        'REQUEST.result("k")=VALUE (repeatable); prints what would change.')] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """Recompute an episode's answers from its receipts; no tool runs."""
    if override:
        from fxlog.cli_extra import replay_what_if

        replay_what_if(program, receipts or [], override, fmt.value)
        return
    from fxlog.tools.host import recorded_end
    from fxlog.tools.host import replay as replay_episode

    try:
        result = replay_episode(program, receipts or [])
    except FxlogError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
    else:
        print_warnings(result.warnings)
        print_episode(result, _console())
    if check_:
        recorded = None
        for path in receipts or []:
            recorded = recorded_end(path) or recorded
        problems = []
        if result.pending:
            problems.append("requests are still pending: " + ", ".join(result.pending))
        if recorded is None:
            problems.append("the receipts record no finished run to compare with")
        elif recorded != (result.end_reason, result.status):
            problems.append(f"the recorded run ended {recorded[0]} (status "
                            f"{recorded[1] or '-'}), the replay ends {result.end_reason} "
                            f"(status {result.status or '-'})")
        if problems:
            _console(err=True).print("replay check failed: " + "; ".join(problems),
                                     markup=False)
            raise typer.Exit(1)


@app.command()
def explain(
    program: ProgramArg,
    args: Annotated[list[str], typer.Argument(help="Receipts files, then the GOAL "
                                              "(`?- ...` or a request term).")],
    depth: Annotated[int, typer.Option(min=0, help="How deep why-not trees go.")] = 3,
    fmt: FormatOpt = Format.text,
) -> None:
    """Explain why a goal (or a request) holds, or why not."""
    from fxlog.explain import explain as explain_goal
    from fxlog.explain.render import explanation_text

    *receipts, goal = args
    try:
        kb = load_kb(program, [Path(r) for r in receipts])
        result = explain_goal(kb, goal, depth)
    except FxlogError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
        return
    sys.stdout.write(explanation_text(result) + "\n")


def main() -> None:
    """Console entry point."""
    app()


from fxlog import cli_extra  # noqa: E402,F401
