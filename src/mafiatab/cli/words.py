"""The command line's own words in the reader's language: Click's and Typer's
help and errors («Использование:», «Параметры», «Показать эту справку и выйти.»), the
help of each command and option, and the placeholders of the values.

Click and Typer take their strings through `gettext` (domain `messages`); Russian is a
translation of that domain, compiled by Babel from `CLICK_RU` into
`cli/locale/ru/LC_MESSAGES/messages.mo` (`python -m mafiatab.cli.words` writes it; a
test keeps it current) and bound with `gettext.bindtextdomain`. Typer's panel titles are
module-level strings of `typer.rich_utils`, set here as Typer documents. A command's
help is written "English / русский" (or the other way round); the reader sees his half,
and the options whose help has no Russian half have it in `HELP_RU`.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from pathlib import Path
from typing import Any, Final

from mafiatab.rules import choices

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
DOMAIN: Final = "messages"

#: Click's (and Typer's vendored Click's) strings that a person meets, in Russian
CLICK_RU: Final[dict[str, str]] = {
    "Usage:": "Использование:",
    "Options": "Параметры",
    "Commands": "Команды",
    "Arguments": "Аргументы",
    "Positional arguments": "Аргументы",
    "Show this message and exit.": "Показать эту справку и выйти.",
    "Show the version and exit.": "Показать версию и выйти.",
    "Error": "Ошибка",
    "Error: {message}": "Ошибка: {message}",
    "Try '{command} {option}' for help.": "Справка: '{command} {option}'.",
    "Try [blue]'{command_path} {help_option}'[/] for help.":
        "Справка: [blue]'{command_path} {help_option}'[/].",
    "Missing argument": "Не указан аргумент",
    "Missing command.": "Не указана команда.",
    "Missing option": "Не указан параметр",
    "Missing parameter": "Не указано значение",
    "Missing parameter: {param_name}": "Не указано значение: {param_name}",
    "Missing {param_type}": "Не указан {param_type}",
    "No such command {name!r}.": "Нет такой команды {name!r}.",
    "No such option {name!r}.": "Нет такого параметра {name!r}.",
    "No such option: {name}": "Нет такого параметра: {name}",
    "Option {name!r} does not take a value.": "Параметр {name!r} не принимает значения.",
    "Invalid value for {param_hint}: {message}": "Неверное значение {param_hint}: {message}",
    "Invalid value: {message}": "Неверное значение: {message}",
    "Argument {name!r} takes {nargs} values.": "Аргумент {name!r} принимает значений: {nargs}.",
    "Got unexpected extra argument ({args})": "Лишний аргумент ({args})",
    "Got unexpected extra arguments ({args})": "Лишние аргументы ({args})",
    "Option {name!r} requires an argument.": "Параметру {name!r} нужно значение.",
    "Option {name!r} requires {nargs} arguments.": "Параметру {name!r} нужно значений: {nargs}.",
    "{value!r} is not a valid {number_type}.": "{value!r} — не {number_type}.",
    "integer": "целое число",
    "float": "число",
    "{value} is not in the range {range}.": "{value} вне диапазона {range}.",
    "{value!r} is not one of {choices}.": "{value!r} — не одно из: {choices}.",
    "{value!r} is not {choice}.": "{value!r} — не {choice}.",
    "Choose from:\n\t{choices}": "Выберите:\n\t{choices}",
    "{name} {filename!r} does not exist.": "{name} {filename!r} не существует.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} — папка.",
    "{name} {filename!r} is a file.": "{name} {filename!r} — файл.",
    "{name} {filename!r} is not readable.": "{name} {filename!r} не читается.",
    "{name} {filename!r} is not writable.": "{name} {filename!r} не записывается.",
    "Could not open file {filename!r}: {message}": "Не открыть файл {filename!r}: {message}",
    "file": "файл", "directory": "папка", "path": "путь",
    "File": "Файл", "Directory": "Папка", "Path": "Путь",
    "default: {default}": "по умолчанию: {default}",
    "[default: {}]": "[по умолчанию: {}]",
    "required": "обязательно", "[required]": "[обязательно]",
    "env var: {var}": "переменная окружения: {var}",
    "[env var: {}]": "[переменная окружения: {}]",
    "(deprecated) ": "(устарело) ", "deprecated": "устарело",
    "Aborted!": "Прервано!", "Aborted.": "Прервано.",
    "(dynamic)": "(вычисляется)",
}

def rules_help() -> str:
    """An option's help that lists the registered rule sets, in both halves (each
    profile's id and its title in the reader's words)."""
    return f"Rules: {choices('en')} / правила: {choices('ru')}"


#: the help of the options that say it in English only
HELP_RU: Final[dict[str, str]] = {
    "mafiatab.standings/1 JSON": "JSON mafiatab.standings/1",
    "problems as JSON": "проблемы в JSON",
    "Store the draw in the file": "записать жребий в файл",
    "Only write the file, the database and the standings":
        "только записать файл, базу и таблицу",
    "Number of players N.": "число игроков N.",
    "Games per player R.": "игр у каждого игрока R.",
    "Tables per round.": "столов в туре.",
    "Random seed (same seed, same seating).": "зерно (то же зерно — та же рассадка).",
    "Print mafiatab.seating/1 JSON.": "вывести JSON mafiatab.seating/1.",
    "Stop the search after SECONDS (0: 55 s, 280 s > 100).":
        "остановить поиск через столько секунд (0: 55 с, при N > 100 — 280 с).",
    "Search moves per run (tests).": "ходов поиска за прогон (для тестов).",
    "JSON file {player: club}: club-mates never share a table.":
        "файл JSON {игрок: клуб}: одноклубники не сидят за одним столом.",
    "P:T pins player P to table T (repeatable).":
        "И:С — игрок И всегда за столом С (можно несколько).",
    "P:ROUNDS, e.g. 7:1-4,6 — player 7 comes only then.":
        "И:ТУРЫ, например 7:1-4,6 — игрок 7 играет только в эти туры.",
    "Language of messages: ru or en.": "язык вывода: ru или en.",
    "Workbook: standings and games": "книга Excel: таблица и игры",
    "Standings as CSV": "таблица в CSV",
    "CSV for a Russian Excel: ';' and '0,4'": "CSV для русского Excel: ';' и '0,4'",
    "SVG instead of PNG": "SVG вместо PNG",
    "A protest on the result": "протест на результат",
    "positive_extra | penalty | other": "что оспаривается: доп. балл, штраф или другое",
    "Score awarded, e.g. 0.2": "присуждённый балл, например 0,2",
    "Score asked, e.g. 0.6": "запрошенный балл, например 0,6",
    "Game ended, ISO": "окончание игры (ГГГГ-ММ-ДДTчч:мм)",
    "Protocol published": "протокол опубликован",
    'Schedule JSON: {"rounds": [{stage, round, day, starts}], "tables_closed_at"}':
        "расписание в JSON (туры: стадия, тур, день, начало; закрытие таблиц)",
    "mafiaratings": "откуда игра",
    "ru (default) or en": "язык вывода: ru (по умолчанию) или en",
    "Session key file": "файл ключа сеансов",
    "mafiatab.ratings/1 JSON": "JSON mafiatab.ratings/1",
    "JSON output": "вывод в JSON",
}

#: the placeholder of a value by its type, and of an argument by its name (Russian)
TYPE_RU: Final = {"int": "<целое>", "float": "<число>", "str": "<текст>", "Path": "<путь>",
                  "Lang": "<язык>", "Source": "<источник>", "list[str]": "<текст>",
                  "list[Path]": "<путь>"}
ARG_RU: Final = {"file": "ФАЙЛ", "files": "ФАЙЛЫ", "player": "ИГРОК", "players": "ИГРОКИ",
                 "profile": "ПРАВИЛА", "tournament": "ТУРНИР", "state": "СОСТОЯНИЕ", "absent": "ОТСУТСТВУЮТ",
                 "reserve": "ЗАПАС", "user": "ИМЯ", "award": "НАГРАДА",
                 "document": "ДОКУМЕНТ", "rnd": "ТУР", "first": "ПЕРВЫЙ", "second": "ВТОРОЙ"}

#: the errors of Typer's Click (whose strings are English, not gettext's), in Russian:
#: a pattern of the English message and its Russian form
ERRORS_RU: Final[list[tuple[re.Pattern[str], str]]] = [(re.compile(a, re.S), b) for a, b in (
    (r"^No such option: (\S+)(?:\s+Did you mean (.+)\?)?$", "Нет такого параметра: {0}"),
    (r"^No such command '(.+)'\.$", "Нет такой команды: {0}"),
    (r"^Missing argument '(.+)'\.$", "Не указан аргумент {0}"),
    (r"^Missing option '(.+)'\.$", "Не указан параметр {0}"),
    (r"^Missing parameter: (.+)$", "Не указано значение: {0}"),
    (r"^Missing command\.$", "Не указана команда"),
    (r"^Invalid value for (.+?): (.+)$", "Неверное значение {0}: {1}"),
    (r"^Input should be a valid integer.*$", "нужно целое число"),
    (r"^Input should be a valid number.*$", "нужно число"),
    (r"^Input should be (?:greater|less) than(?: or equal to)? (\S+?)\.?$",
     "число вне допустимого ({0})"),
    (r"^Invalid value: (.+)$", "Неверное значение: {0}"),
    (r"^Got unexpected extra arguments? \((.+)\)$", "Лишние аргументы: {0}"),
    (r"^Option '(.+)' requires an argument\.$", "Параметру {0} нужно значение"),
    (r"^Option '(.+)' requires (\d+) arguments\.$", "Параметру {0} нужно значений: {1}"),
    (r"^Option '(.+)' does not take a value\.$", "Параметр {0} не принимает значения"),
    (r"^'(.+)' is not a valid integer\.$", "{0} — не целое число"),
    (r"^'(.+)' is not a valid float( range)?\.$", "{0} — не число"),
    (r"^'(.+)' is not a valid integer range\.$", "{0} — не целое число"),
    (r"^(.+) is not in the range (.+)\.$", "{0} вне диапазона {1}"),
    (r"^'(.+)' is not one of (.+)\.$", "{0} — не одно из: {1}"),
    (r"^'(.+)' is not (.+)\.$", "{0} — не {1}"),
    (r"^(File|Path|Directory) '(.+)' does not exist\.$", "{1}: нет такого файла"),
)]

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def error_text(message: str, lang: str) -> str:
    """A command line's error in the reader's words (Russian from `ERRORS_RU`); the
    message itself when no pattern knows it."""
    if lang != "ru":
        return message
    for pattern, words in ERRORS_RU:
        m = pattern.match(message.strip())
        if m:
            return words.format(*(error_text(g, lang) if g else "" for g in m.groups()))
    return message


def half(text: str, lang: str) -> str:
    """The reader's half of a help written "English / русский", paragraph by paragraph
    (its parts split at " / ": those with Cyrillic are the Russian half, the others the
    English one); a paragraph in the other language only is left out."""
    paragraphs = [_half(p, lang) for p in text.split("\n\n")]
    kept = [p for p in paragraphs if p]
    return "\n\n".join(kept) if kept else text


def _half(text: str, lang: str) -> str:
    parts = [p.strip() for p in re.split(r"\s/\s", text)]
    ru = [p for p in parts if _CYRILLIC.search(p)]
    en = [p for p in parts if not _CYRILLIC.search(p)]
    if lang == "ru":
        if ru:
            return " / ".join(ru).strip()
        return HELP_RU.get(text.strip(), "")
    return " / ".join(en).strip()


def compile_catalogue() -> bytes:
    """CLICK_RU as a gettext .mo file (Babel writes it)."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="ru", domain=DOMAIN)
    for msgid, msgstr in CLICK_RU.items():
        catalog.add(msgid, msgstr)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def install(lang: str) -> None:
    """Click's and Typer's words in `lang` for this process: the `messages` domain bound
    to our catalogue, the language asked through `LANGUAGE` (what gettext reads), and
    Typer's panel titles."""
    import typer.rich_utils as ru

    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    os.environ["LANGUAGE"] = "ru" if lang == "ru" else "en"
    say = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True).gettext
    if lang == "ru":
        from typer import _click as click

        class Formatter(click.HelpFormatter):
            def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
                super().write_usage(prog, args, "Использование: " if prefix is None else prefix)

        # the formatter a context makes (Click's documented `formatter_class`)
        click.Context.formatter_class = Formatter
        english_error = ru.rich_format_error

        def rich_format_error(self: click.ClickException) -> None:
            said = error_text(self.format_message(), lang)
            self.format_message = lambda: said  # type: ignore[method-assign]  # what it prints
            english_error(self)

        ru.rich_format_error = rich_format_error
    for name, english in (("ARGUMENTS_PANEL_TITLE", "Arguments"),
                          ("OPTIONS_PANEL_TITLE", "Options"),
                          ("COMMANDS_PANEL_TITLE", "Commands"), ("ERRORS_PANEL_TITLE", "Error"),
                          ("ABORTED_TEXT", "Aborted."), ("DEFAULT_STRING", "[default: {}]"),
                          ("REQUIRED_LONG_STRING", "[required]"),
                          ("ENVVAR_STRING", "[env var: {}]"),
                          ("DEPRECATED_STRING", "(deprecated) "),
                          ("RICH_HELP", "Try [blue]'{command_path} {help_option}'[/] for help.")):
        setattr(ru, name, say(english))


def localize(command: Any, lang: str) -> None:
    """A Click command tree (Typer's, built) in the reader's language: each command's and
    option's help his half, the values' placeholders in Russian for a Russian reader."""
    from typer import _click as click

    if command.help:
        command.help = half(command.help, lang)
    if getattr(command, "short_help", None):
        command.short_help = half(command.short_help, lang)
    ctx = click.Context(command)
    helper = command.get_help_option(ctx)
    if helper is not None:
        helper.help = CLICK_RU["Show this message and exit."] if lang == "ru" else helper.help
        helper.metavar = ""
    if lang == "ru":
        command.options_metavar = "[ПАРАМЕТРЫ]"
        if hasattr(command, "subcommand_metavar"):
            command.subcommand_metavar = "КОМАНДА [АРГУМЕНТЫ]..."
    for p in command.params:
        if getattr(p, "help", None):
            p.help = half(p.help, lang)
        if lang != "ru" or p.metavar is not None:
            continue
        if p.param_type_name == "argument":
            p.metavar = ARG_RU.get(p.name or "", (p.name or "").upper())
            # an argument's type column has no placeholder of its own in Typer 0.29
            shown = TYPE_RU.get(p.bare_type(), "<значение>")
            p.display_type_rich = lambda ctx, shown=shown: shown
        elif getattr(p, "is_flag", False):
            p.metavar = ""
        elif hasattr(p, "bare_type"):
            p.metavar = TYPE_RU.get(p.bare_type(), "<значение>")
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                localize(sub, lang)


def write_catalogue() -> Path:
    target = LOCALE_DIR / "ru" / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(compile_catalogue())
    return target


if __name__ == "__main__":
    print(write_catalogue())
