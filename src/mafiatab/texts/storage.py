"""The words of the database commands and of the storage's refusals (a bad URL, a backup
that is not one), Russian first and English second."""

from __future__ import annotations

from typing import Final

STORAGE: Final[dict[str, tuple[str, str]]] = {
    "bad_url": ("Неверный адрес базы данных {url!r}: {detail}",
                "Bad database URL {url!r}: {detail}"),
    "unreachable": ("База данных {url} недоступна: {detail}",
                    "Cannot reach the database {url}: {detail}"),
    "empty": ("База данных {url} пуста: выполните «mafiatab db upgrade»",
              "The database {url} is empty: run 'mafiatab db upgrade'"),
    "old_schema": (
        "Схема базы {url} устарела ({current}, нужна {head}): выполните «mafiatab db upgrade»",
        "The database {url} has schema {current}, {head} is needed: run 'mafiatab db upgrade'",
    ),
    "db_error": ("Ошибка базы данных: {detail}", "Database error: {detail}"),
    "upgraded": ("База данных {url}: схема {head}.", "Database {url}: schema {head}."),
    "rights": ("{user}: организатор — {organizer}, администратор — {admin}.",
               "{user}: organizer — {organizer}, administrator — {admin}."),
    "yes": ("да", "yes"),
    "no": ("нет", "no"),
    "imported": ("Импортирован турнир №{id} «{name}»: {games}, {players}.",
                 "Imported tournament no. {id} '{name}': {games}, {players}."),
    "importing": ("Импорт", "Importing"),
    "progress_line": ("импорт игр: {done}/{total}", "import: {done}/{total} games"),
    "exported": ("Записано в {file}.", "Written to {file}."),
    "no_tournaments": ("В базе нет турниров.", "No tournaments in the database."),
    "tournaments_title": ("Турниры в {url}", "Tournaments in {url}"),
    "col_id": ("№", "No."),
    "col_name": ("Название", "Name"),
    "col_rules": ("Правила", "Rules"),
    "col_players": ("Игроки", "Players"),
    "col_games": ("Игры", "Games"),
    "col_confirmed": ("Подтверждено", "Confirmed"),
    "col_created": ("Создан", "Created"),
    "sqlite_only": (
        "{command}: копия файла SQLite восстанавливается только в SQLite; в PostgreSQL — "
        "дамп (db backup с --db postgresql://…)",
        "{command}: a SQLite file backup restores into SQLite only; into PostgreSQL, a dump "
        "(db backup with --db postgresql://…)",
    ),
    "backup_removed": ("Старых копий удалено: {n} (хранится не больше {keep}).",
                       "Old backups removed: {n} (at most {keep} kept)."),
    "backup_verified": ("Копия проверена: она восстанавливается (в пробную базу).",
                        "Backup verified: it restores (into a throwaway database)."),
    "backup_no_target": (
        "Куда писать копию? Укажите файл или папку (или backup_dir в настройках).",
        "Where to? Give a file or a folder (or backup_dir in the settings).",
    ),
    "backup_keep_folder": ("--keep — только с папкой копий.",
                           "--keep needs a folder of backups."),
    "not_dump": ("{file} — не копия mafiatab или повреждена ({detail}).",
                 "{file} is not a mafiatab backup, or is damaged ({detail})."),
    "other_version_dump": (
        "{file}: схема копии версии {version}, а программа работает со схемой {head}; "
        "восстановите её программой той же версии, затем обновите базу (db upgrade)",
        "{file}: its schema is version {version}, the program runs {head}; restore it with "
        "the program of that version, then upgrade the database (db upgrade)",
    ),
    "settings": ("Настройки: {detail}", "Settings: {detail}"),
    "backup_done": ("Копия базы {db} записана в {file}.", "Backup of {db} written to {file}."),
    "restore_done": ("База {db} восстановлена из {file}.", "Database {db} restored from {file}."),
    "no_database": ("Базы данных {file} нет.", "There is no database {file}."),
    "no_backup": ("Файла {file} нет.", "There is no file {file}."),
    "not_sqlite": ("{file} — не база SQLite: {detail}", "{file} is not a SQLite database: {detail}"),
    "corrupt": ("{file} повреждён: {detail}", "{file} is damaged: {detail}"),
    "not_mafiatab": ("{file} — не база mafiatab.", "{file} is not a mafiatab database."),
    "other_version": (
        "{file}: схема базы версии {version}, а программа работает со схемой {head}; "
        "более старую копию восстановит restore --upgrade",
        "{file}: its schema is version {version}, the program runs {head}; an older backup "
        "is restored with restore --upgrade",
    ),
    "failed": ("Не удалось: {file}: {detail}", "Failed: {file}: {detail}"),
    "cannot_write": ("Не удалось записать {file}: {detail}", "Cannot write {file}: {detail}"),
    "standings_args": (
        "Укажите либо файл турнира, либо --tournament ID (и --db URL), но не оба.",
        "Give either a tournament file or --tournament ID (with --db URL), not both.",
    ),
}
