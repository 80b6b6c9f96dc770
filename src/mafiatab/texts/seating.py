"""Why a seating request cannot be met (`seating.model.InfeasibleRequest`), Russian first
and English second. A counted parameter ({players}, {games}, {rounds}, …) is a word with
its number in the form the number asks for (Babel's plural rules: 2 стола, 5 столов)."""

from __future__ import annotations

from typing import Final

SEATING_REQUEST: Final[dict[str, tuple[str, str]]] = {
    "seating_not_installed": (
        "Генератор рассадки не установлен: это дополнительная часть mafiatab (numba и "
        "OR-Tools). Установите её командой {command} — остальное работает и без неё.",
        "The seating generator is not installed: it is an optional part of mafiatab (numba "
        "and OR-Tools). Install it with {command}; everything else works without it."),
    "seating_too_few_players": ("Нужно хотя бы {need}, а их {players}.",
                                "At least {need} are needed, got {players}."),
    "seating_no_games": ("Каждый игрок должен сыграть хотя бы одну игру.",
                         "Every player must play at least one game."),
    "seating_tables_unfilled": ("{tables} по {size} не заполнить, когда игроков {players}.",
                                "{tables} of {size} cannot be filled by {players} players."),
    "seating_not_multiple": (
        "{players} × {games} = {seats}, это не кратно {multiple} (столов в туре: {tables}); "
        "выберите другое --tables или число игр.",
        "{players} × {games} = {seats}, not a multiple of {multiple} ({tables} tables a "
        "round); choose another --tables or number of games."),
    "seating_no_such_player": ("Игрока {player} нет: игроки пронумерованы 1…{n}.",
                               "There is no player {player}: players are numbered 1…{n}."),
    "seating_pin_table": (
        "Игрок {player} закреплён за столом {table}, а столов в туре {tables}.",
        "Player {player} is pinned to table {table}, but there are {tables} tables a round."),
    "seating_avail_round": ("У игрока {player} указан тур {round}, а туров {rounds}.",
                            "Player {player} lists round {round}, but there are {rounds} rounds."),
    "seating_avail_few": ("Игрок {player} может прийти только на {rounds}, а должен сыграть "
                          "{games}.",
                          "Player {player} can come to {rounds} only but must play {games}."),
    "seating_round_few": ("В туре {round} могут играть только {here}, а нужно {need}.",
                          "Only {here} can play in round {round}, {need} are needed."),
    "seating_pinned_many": ("За столом {table} закреплено {pinned}, а мест {size}.",
                            "{pinned} are pinned to table {table}, it has {size} seats."),
    "seating_pinned_clubmates": (
        "Игроки {first} и {second} из одного клуба «{club}» закреплены за одним столом {table}.",
        "Players {first} and {second} of club '{club}' are both pinned to table {table}."),
    "seating_club_too_big": (
        "В клубе «{club}» {members}, а столов в туре {tables}: развести их нельзя.",
        "Club '{club}' has {members} but there are {tables} tables a round: they cannot be "
        "kept apart."),
    "seating_club_no_fit": (
        "Клуб «{club}»: {members} × {games} не уместить по одному за стол: туров {rounds}, "
        "столов в туре {tables}.",
        "Club '{club}': {members} × {games} do not fit one a table into {rounds} rounds of "
        "{tables} tables."),
    "seating_club_round": ("Клуб «{club}»: в туре {round} играют {members}, а столов {tables}.",
                           "Club '{club}': {members} play round {round}, there are {tables} "
                           "tables."),
    "seating_no_schedule": (
        "По доступности игроков нельзя составить туры: каждому нужно сыграть {games}, а в "
        "каждом туре должно играть {need}.",
        "The players' availability admits no schedule where everyone plays {games} and "
        "{need} play each round."),
    "seating_round_pinned_over": (
        "В туре {round} за одним столом закреплено больше {size} игроков.",
        "More than {size} players are pinned to one table in round {round}."),
    "seating_constraints_unmet": (
        "Не удалось соблюсти ограничения (клубы, закрепления, доступность): нарушений "
        "{violations}. Ослабьте ограничения.",
        "The constraints (clubs, pins, availability) could not be met: {violations} "
        "violations. Relax them."),
}


#: the seating desk's refusals (`services.seating_web.SeatingRefused`)
SEATING_DESK: Final[dict[str, tuple[str, str]]] = {
    "desk_rounds_unreadable": ("Не понял список туров «{text}» (пример: 1-3,5).",
                               "Cannot read the round list '{text}' (e.g. 1-3,5)."),
    "desk_unknown_player": ("Игрок «{ref}» не зарегистрирован в турнире.",
                            "Player '{ref}' is not registered in the tournament."),
    "desk_line": ("Строка «{line}»: нужно «игрок: значение».",
                  "Line '{line}': expected 'player: value'."),
    "desk_pin_not_table": ("Закрепление игрока {nickname}: «{value}» — не номер стола.",
                           "Pin of {nickname}: '{value}' is not a table number."),
    "desk_bound": ("Рассадка: {bound}.", "Seating: {bound}."),
    "desk_none_yet": ("Рассадка ещё не составлена.", "No seating has been generated yet."),
    "desk_too_many_players": ("Рассадка в веб-приложении — до {max} игроков.",
                              "The web app seats up to {max} players."),
    "desk_no_stage": ("Стадии «{stage}» в турнире нет.",
                      "The tournament has no stage '{stage}'."),
    "desk_first_round": ("Номер первого тура — с 1.", "The first round is 1 or more."),
    "desk_not_ready": ("Рассадка ещё не готова.", "The seating is not ready yet."),
    "desk_no_round": ("В рассадке туры 1…{rounds}, тура {round} нет.",
                      "The seating has rounds 1…{rounds}, not {round}."),
    "desk_rounds_are": ("В рассадке туры 1…{rounds}.", "The seating has rounds 1…{rounds}."),
    "desk_round_started": (
        "Тур {number} стадии {stage} уже начат: протоколы столов {which} уже заполняются или "
        "поданы. Пересадить игроков этого тура нельзя.",
        "Round {number} of stage {stage} has started: the protocols of tables {which} are "
        "being filled in or were submitted. Its seating can no longer change."),
    "desk_extra_tables": ("В туре {number} уже есть столы {extra}, которых нет в этой рассадке.",
                          "Round {number} already has tables {extra} that this seating lacks."),
    "desk_not_a_number": ("Поле «{name}»: «{value}» — не число.",
                          "Field '{name}': '{value}' is not a number."),
    "desk_games_needed": ("Укажите число игр у каждого игрока.", "Give the games per player."),
    "desk_round_needed": ("Укажите тур.", "Give the round."),
}

#: the bounds of a seating request (`services.seating_web.check_bounds`), the {bound} of
#: `desk_bound`
SEATING_BOUND: Final[dict[str, tuple[str, str]]] = {
    "games": ("игр на игрока — от 1 до {max}", "games per player are 1 to {max}"),
    "tables": ("столов — от 1 до {max}", "tables are 1 to {max}"),
    "first_round": ("первый тур — от 1 до {max}", "the first round is 1 to {max}"),
    "seed": ("зерно — неотрицательное, до 2⁶³", "the seed is 0 to 2⁶³"),
    "iterations": ("итераций — до {max}", "iterations are at most {max}"),
    "time_limit": ("предел времени — до {max} с", "the time limit is at most {max} s"),
    "pins": ("стол закрепления — из столов тура", "a pinned table is one of the round's tables"),
    "availability": ("туры доступности — из туров рассадки",
                     "available rounds are rounds of the seating"),
}

#: a wrong command line of `mafiatab seating` (`cli.seating.BadCommandLine`, exit 2)
SEATING_CLI: Final[dict[str, tuple[str, str]]] = {
    "cli_bad_rounds": ("неверный список туров «{text}»", "bad round list '{text}'"),
    "cli_bad_round_range": ("неверный диапазон туров «{part}»", "bad round range '{part}'"),
    "cli_bad_player": ("игрок «{text}» — не номер от 1 до {players}",
                       "player '{text}' is not a number in 1..{players}"),
    "cli_clubs_unreadable": ("не удалось прочитать файл клубов {path}: {error}",
                             "cannot read clubs file {path}: {error}"),
    "cli_clubs_not_object": ("файл клубов — объект JSON {{номер игрока: клуб}}",
                             "clubs file must be a JSON object {{player number: club}}"),
    "cli_club_not_string": ("клуб игрока {key} должен быть строкой",
                            "club of player {key} must be a string"),
    "cli_bad_pin": ("неверное закрепление «{part}», нужно ИГРОК:СТОЛ",
                    "bad pin '{part}', expected PLAYER:TABLE"),
    "cli_bad_availability": ("неверная доступность «{item}», нужно ИГРОК:ТУРЫ",
                             "bad availability '{item}', expected PLAYER:ROUNDS"),
}
