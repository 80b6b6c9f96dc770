"""The core's words shared by the CLI, the pages and the printouts: column headers, the
glossary's words for roles, results, teams, the parts of a score; counted nouns.
Russian first, English second (../shared/spec/glossary.md)."""

from __future__ import annotations

# the words of the protocol's codes live beside the codes (the pure core shows them in its
# problems); they are this catalogue's sections all the same
from mafiatab.domain.words import PENALTY as PENALTY
from mafiatab.domain.words import ROLE as ROLE
from mafiatab.domain.words import TAG as TAG
from mafiatab.domain.words import VERSION as VERSION

TEXT: dict[str, tuple[str, str]] = {
    "place": ("Место", "Place"),
    "player": ("Игрок", "Player"),
    "games": ("Игры", "Games"),
    "wins": ("Победы", "Wins"),
    "wins_don_sheriff": ("Д/Ш", "Don/Sh"),
    "first_killed": ("ПУ", "FK"),
    "main": ("Осн.", "Main"),
    "extra": ("Доп.", "Extra"),
    "total": ("Итого", "Total"),
    "best_move": ("ЛХ", "BM"),
    "compensation": ("Ci", "Ci"),
    "penalties": ("Штрафы", "Penalties"),
    "lot": ("Жребий", "Lot"),
    "lot_needed": ("нужен", "needed"),
    "standings_title": ("{name} — турнирная таблица ({rules})", "{name} — standings ({rules})"),
    "stages": ("Стадии: {stages}", "Stages: {stages}"),
    "k_applied": (
        "Коэффициент K = {k} (ФИИМ 8.7): игр — {games}, «тяжёлая» сторона — {side}, её побед — {n}",
        "Coefficient K = {k} (FIIM 8.7): {games} games, heavy side {side}, {n} wins",
    ),
    "lots_pending": (
        "Места {places}: игроков не разделяет ни один показатель — нужен жребий "
        "(mafiatab lots ФАЙЛ --seed ЗЕРНО{stages})",
        "Places {places}: players no criterion separates — a lot is needed "
        "(mafiatab lots FILE --seed SEED{stages})",
    ),
    "file_sound": ("Файл в порядке: {games}, {players}, правила {rules}.",
                   "The file is sound: {games}, {players}, rules {rules}."),
    "file_refused": ("Файл отклонён: {count}.", "The file is refused: {count}."),
    "warnings": ("Предупреждения:", "Warnings:"),
    "unknown_player_arg": ("Игрок {value!r} не найден в турнире.",
                           "Player {value!r} is not in the tournament."),
    "unknown_stage_arg": ("Стадии {value!r} нет в турнире; есть: {choices}.",
                          "Stage {value!r} is not in the tournament; there are: {choices}."),
    "unknown_game_arg": ("Игры {value!r} у этого игрока нет.",
                         "This player has no game {value!r}."),
    "no_games": ("У игрока нет игр в выбранных стадиях.", "The player has no games in scope."),
    "explain_game": (
        "Игра {game} ({stage}, тур {round}, стол {table}): место {seat}, {role}, итог: {result}",
        "Game {game} ({stage}, round {round}, table {table}): seat {seat}, {role}, result: {result}",
    ),
    "explain_total": ("Всего за игру: {points}", "Game total: {points}"),
    "explain_sum": (
        "Итого {player}: осн. {main} + доп. {extra} = {total} (строка таблицы: место {place})",
        "Total for {player}: main {main} + extra {extra} = {total} (standings row: place {place})",
    ),
    "no_lot_needed": ("Жребий не нужен: все места разделены показателями.",
                      "No lot is needed: every place is decided."),
    "lot_drawn": ("Жребий на места {places} (зерно «{seed}»): {order}",
                  "Lot for places {places} (seed '{seed}'): {order}"),
    "lot_written": ("Жребий записан в файл {file}.", "Written to {file}: the lot is stored."),
    "lot_not_written": ("Пока не записан: добавьте --write, чтобы сохранить жребий в файле.",
                        "Not written yet: add --write to store the lot in the file."),
    "by_lot": ("по жребию", "by lot"),
    "file_written": ("Записан файл {file}", "Written: {file}"),
    "internal_error": ("Внутренняя ошибка: {detail}", "Internal error: {detail}"),
    "cannot_read": ("Не удалось прочитать {file}: {detail}", "Cannot read {file}: {detail}"),
    "demo_intro": (
        "Демо-турнир: {players}, {games}, правила {rules}. Файл: {file}",
        "Demo tournament: {players}, {games}, rules {rules}. File: {file}",
    ),
    "demo_db": ("База данных веб-приложения: {db} (турнир №{id}).",
                "The web app's database: {db} (tournament no. {id})."),
    "demo_open_round": ("Тур {round} рассажен и ждёт судей: {tables} ({list}).",
                        "Round {round} is seated and waits for its judges: {tables} ({list})."),
    "demo_db_standings": ("Таблица ниже — из этой же базы, как на сайте.",
                          "The standings below come from the same database as the site."),
    "demo_accounts": ("Учётные записи (пароль у всех {password}):",
                      "Accounts (password {password} for all):"),
    "demo_code": ("Личный код входа судьи {user}: {code}",
                  "Personal sign-in code of the judge {user}: {code}"),
    "demo_code_table": ("Личный код входа судьи {user} (его ждёт стол {table}): {code}",
                        "Personal sign-in code of the judge {user} (table {table} waits for "
                        "him): {code}"),
    "demo_kept": ("База демо сохранена с прошлого запуска (всё, что вы в ней сделали, на месте); "
                  "начать заново: mafiatab demo --fresh",
                  "The demo's database is kept from the last start (all you did in it is "
                  "there); to start anew: mafiatab demo --fresh"),
    "demo_open": ("Откройте {url} (остановить: Ctrl+C)", "Open {url} (stop: Ctrl+C)"),
    "unknown_schema": ("Схемы {value!r} нет; есть: {choices}.",
                       "No schema {value!r}; there are: {choices}."),
    "unknown_rules": ("Правила {value!r} неизвестны; есть: {choices}.",
                      "Unknown rules {value!r}; there are: {choices}."),
    "rules_setting": ("Параметр", "Setting"),
    "rules_value": ("Значение", "Value"),
    "rules_clause": ("Пункт правил", "Clause"),
    "rules_title": ("Правила {rules}: каждое число с его пунктом",
                    "Rules {rules}: every number with its clause"),
    "rules_points_note": ("Баллы записаны как в таблице (0,25 — четверть балла); «толкование» — "
                          "выбор программы там, где текст правил молчит.",
                          "Points are written as in the standings (0.25 is a quarter point); "
                          "'reading' marks a choice the program makes where the rule text is "
                          "silent."),
}

#: the glossary's words for a role (../shared/spec/glossary.md)
RESULT: dict[str, tuple[str, str]] = {
    "red": ("победа красных", "red win"),
    "black": ("победа чёрных", "black win"),
    "draw": ("ничья", "draw"),
}
TEAM: dict[str, tuple[str, str]] = {"red": ("красные", "red"), "black": ("чёрные", "black")}
#: "wins of the reds": the genitive in Russian
TEAM_OF: dict[str, tuple[str, str]] = {"red": ("красных", "red"), "black": ("чёрных", "black")}

PART: dict[str, tuple[str, str]] = {
    "win": ("победа команды", "team win"),
    "compensation": ("компенсация Ci", "compensation Ci"),
    "best_move": ("лучший ход", "best move"),
    "extra": ("доп. балл судьи", "judge's extra"),
    "pu_extra": ("доп. балл ПУ", "first killed's extra"),
    "will": ("завещание / мнение", "will / opinion"),
    "protocol": ("протокол", "protocol"),
    "will_protocol": ("протокол и завещание совпадают: большая оценка",
                      "protocol and will say the same: the larger"),
    "pu_protocol": ("протокол ПУ", "first killed's protocol"),
    "penalty": ("штраф", "penalty"),
}


#: a counted word: Russian (one, few, many) and English (one, other)
NOUNS: dict[str, tuple[tuple[str, str, str], tuple[str, str]]] = {
    "game": (("игра", "игры", "игр"), ("game", "games")),
    "player": (("игрок", "игрока", "игроков"), ("player", "players")),
    "table": (("стол", "стола", "столов"), ("table", "tables")),
    "round": (("тур", "тура", "туров"), ("round", "rounds")),
    "pair": (("пара", "пары", "пар"), ("pair", "pairs")),
    "problem": (("проблема", "проблемы", "проблем"), ("problem", "problems")),
    "stage": (("стадия", "стадии", "стадий"), ("stage", "stages")),
    "seat": (("место", "места", "мест"), ("seat", "seats")),
    "minute": (("минута", "минуты", "минут"), ("minute", "minutes")),
    "time": (("раз", "раза", "раз"), ("time", "times")),
}
