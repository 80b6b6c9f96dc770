"""A refused file's or command's problems, printed to the error stream in the reader's
language: errors first (with their count), then warnings. Every command prints them the one
way."""

from __future__ import annotations

from rich.console import Console

from mafiatab import i18n
from mafiatab.domain.problems import Problem, Reason

err = Console(stderr=True, highlight=False, soft_wrap=True)


def print_problems(problems: list[Problem] | list[Reason], lang: str) -> None:
    errors = [p for p in problems if not p.warning]
    warnings = [p for p in problems if p.warning]
    if errors:
        head = i18n.t("file_refused", lang, count=i18n.count(len(errors), "problem", lang))
        err.print(head, style="bold red", markup=False)
        for p in errors:
            err.print("  • " + p.message(lang), markup=False)
    if warnings:
        err.print(f"[yellow]{i18n.t('warnings', lang)}[/yellow]")
        for p in warnings:
            err.print("  • " + p.message(lang), markup=False)


__all__ = ["print_problems"]
