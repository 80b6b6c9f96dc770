"""Why a seating request cannot be met (`seating.model.InfeasibleRequest`), Russian first
and English second. A counted parameter ({players}, {games}, {rounds}, …) is a word with
its number in the form the number asks for (Babel's plural rules: 2 стола, 5 столов)."""

from __future__ import annotations

from typing import Final

SEATING_REQUEST: Final[dict[str, tuple[str, str]]] = {
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
