"""The `mafiatab` command line (Typer + Rich).

Exit codes: 0 success, 1 a refused file (rule or format problems), 2 a wrong command line.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="mafiatab",
    help="Sports mafia tournaments: FIIM (2018) and FSM rules. / Турниры по спортивной мафии.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# --- sub-commands registered by other modules (keep one line each) ---
# seating: registered below when the module exists


def main() -> None:
    app()


if __name__ == "__main__":
    main()
