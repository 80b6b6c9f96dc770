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
        "выберите другое число столов в туре или число игр.",
        "{players} × {games} = {seats}, not a multiple of {multiple} ({tables} tables a "
        "round); choose another number of tables a round or of games."),
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
    "seating_pin_forbidden": (
        "Игрок {player} закреплён за столом {table}, а судья этого стола заявил конфликт с ним.",
        "Player {player} is pinned to table {table}, whose judge declared a conflict with him."),
    "seating_all_forbidden": (
        "Игроку {player} нельзя ни за один стол: судьи всех столов заявили с ним конфликт.",
        "Player {player} may sit at no table: every table's judge declared a conflict with "
        "him."),
    "seating_pinned_apart": (
        "Игроки {first} и {second} закреплены за одним столом {table}, а правило «{rule}» "
        "не позволяет им встречаться.",
        "Players {first} and {second} are both pinned to table {table}, but the rule "
        "'{rule}' keeps them apart."),
    "seating_group_too_big": (
        "У {group} {members}, а в туре {tables}: за одним из столов их всегда окажется двое.",
        "The {group} has {members} but a round has {tables}: some table always gets two."),
    "seating_group_no_fit": (
        "{members} {group} × {games} не разместить по одному за стол: {rounds} × {tables} "
        "дают только {places}.",
        "{members} of {group} × {games} cannot sit one a table: {rounds} × {tables} give "
        "only {places}."),
    "seating_group_round": (
        "В туре {round} играют {members} {group}, а в туре {tables}.",
        "{members} of {group} play round {round}, which has {tables}."),
    "seating_no_schedule": (
        "По доступности игроков нельзя составить туры: каждому нужно сыграть {games}, а в "
        "каждом туре должно играть {need}.",
        "The players' availability admits no schedule where everyone plays {games} and "
        "{need} play each round."),
    "seating_round_pinned_over": (
        "В туре {round} за одним столом закреплено больше {size} игроков.",
        "More than {size} players are pinned to one table in round {round}."),
    "seating_constraints_unmet": (
        "Поиск не нашёл рассадки, где соблюдены все жёсткие правила: {which}.",
        "The search found no seating that keeps every hard rule: {which}."),
}

#: the hard rules of a seating, as a refusal names them
RULE_NAMES: Final[dict[str, tuple[str, str]]] = {
    "club": ("разводить одноклубников", "keep club-mates apart"),
    "team": ("разводить игроков одной команды", "keep teammates apart"),
    "pair": ("развести пару игроков", "keep a pair of players apart"),
    "conflict": ("судья не судит игрока, с которым у него конфликт",
                 "a judge never judges a player he has a conflict with"),
    "pin": ("закрепление за столом", "a pin to a table"),
    "round": ("каждый играет своё число игр, раз за тур", "each plays his games, once a round"),
}

#: the group a refusal speaks of (its name in {name})
GROUP_OF: Final[dict[str, tuple[str, str]]] = {
    "club": ("клуба «{name}»", "club '{name}'"),
    "team": ("команды «{name}»", "team '{name}'"),
}

#: what a breach of a hard rule is counted in ({n} is a counted word)
RULE_BREACHES: Final[dict[str, tuple[str, str]]] = {
    "club": ("одноклубники за одним столом — {n}", "club-mates at one table: {n}"),
    "team": ("игроки одной команды за одним столом — {n}", "teammates at one table: {n}"),
    "pair": ("разведённая пара за одним столом — {n}", "a pair kept apart at one table: {n}"),
    "conflict": ("игрок за столом судьи, с которым у него конфликт — {n}",
                 "a player at the table of a judge he has a conflict with: {n}"),
    "pin": ("закреплённый игрок за чужим столом — {n}", "a pinned player elsewhere: {n}"),
    "round": ("игрок дважды в туре или не со своим числом игр — {n}",
              "a player twice in a round or without his games: {n}"),
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
    "desk_hint_club": (
        "Что изменить: для одноклубников выберите «по возможности» (мягкое правило) или «не "
        "разводить» — либо сделайте больше столов в туре.",
        "What to change: for club-mates choose 'when possible' (a soft rule) or 'do not keep "
        "apart', or play more tables a round."),
    "desk_hint_team": (
        "Что изменить: для игроков одной команды выберите «по возможности» (мягкое правило) "
        "или «не разводить» — либо сделайте больше столов в туре.",
        "What to change: for teammates choose 'when possible' (a soft rule) or 'do not keep "
        "apart', or play more tables a round."),
    "desk_hint_pair": (
        "Что изменить: замените для этой пары «развести» на «избегать» (мягкое правило) или "
        "снимите закрепление одного из игроков.",
        "What to change: make the pair 'avoid' (a soft rule) instead of 'apart', or unpin one "
        "of the two."),
    "desk_hint_conflict": (
        "Что изменить: поставьте к этому столу другого судью или снимите закрепление игрока.",
        "What to change: give that table another judge, or unpin the player."),
    "desk_judge_conflict": (
        "Судья {judge} заявил конфликт с игроком {nickname}, а тот в туре {round} сидит за "
        "столом {table}: поставьте к этому столу другого судью.",
        "Judge {judge} declared a conflict with {nickname}, who sits at table {table} in "
        "round {round}: give that table another judge."),
    "desk_swap_same": ("Выберите двух разных игроков.", "Choose two different players."),
    "desk_swap_not_seated": ("Игрок {nickname} не играет в туре {round}.",
                             "{nickname} does not play round {round}."),
    "desk_swap_breaks": (
        "После замены нарушится жёсткое правило: {which}. Замена не сделана.",
        "The swap would break a hard rule: {which}. Nothing was swapped."),
    "desk_table_judge_line": ("Строка «{line}»: нужно «стол: судья».",
                              "Line '{line}': expected 'table: judge'."),
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
    "table_judges": ("судья стола — у одного из столов тура",
                     "a table's judge is at one of the round's tables"),
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

#: the seating rules typed on the form (`services.seating_rules.RulesRefused`)
RULES_REFUSAL: Final[dict[str, tuple[str, str]]] = {
    "rules_mode": ("Правило рассадки: «{value}» — не из списка.",
                   "Seating rule: '{value}' is not one of the choices."),
    "rules_weight": ("Вес правила — от 1 до {max}, а не {value}.",
                     "A rule's weight is 1 to {max}, not {value}."),
    "rules_too_many": ("Правил рассадки — не больше {max}.", "At most {max} seating rules."),
    "rules_pair_self": ("Пара из одного игрока ({player}).",
                        "A pair of one player ({player})."),
    "rules_unknown_player": ("Строка «{line}»: игрок «{ref}» не зарегистрирован в турнире.",
                             "Line '{line}': player '{ref}' is not registered in the "
                             "tournament."),
    "rules_pair_line": (
        "Строка «{line}»: нужно «игрок, игрок: развести» (или «избегать 3», «вместе 2»).",
        "Line '{line}': expected 'player, player: apart' (or 'avoid 3', 'together 2')."),
    "rules_conflict_line": ("Строка «{line}»: нужно «судья: игрок».",
                            "Line '{line}': expected 'judge: player'."),
    "rules_unknown_judge": ("Строка «{line}»: «{judge}» — не судья этого турнира.",
                            "Line '{line}': '{judge}' is not a judge of this tournament."),
    "rules_server_admin": ("Правила для всего сервера задаёт администратор.",
                           "Only the administrator sets rules for the whole server."),
}

#: a seating's figures in words (`services.seating_figures`): (label, tooltip) pairs are two
#: keys, `<name>` the words and `<name>_tip` the jargon of seating.md for those who know it
FIGURES: Final[dict[str, tuple[str, str]]] = {
    "most": ("Чаще всего одна пара игроков встречается", "The most one pair of players meets"),
    "most_value": ("{times} ({pairs})", "{times} ({pairs})"),
    "most_tip": ("P1: наибольшее m(i, j) и число пар с ним", "P1: the largest m(i, j) and its pairs"),
    "fewest": ("Реже всего пара встречается", "The fewest one pair meets"),
    "fewest_tip": ("P2: наименьшее m(i, j)", "P2: the smallest m(i, j)"),
    "never": ("Пар, которые ни разу не встретятся", "Pairs that never meet"),
    "never_tip": ("P2: пары с m = 0", "P2: pairs with m = 0"),
    "mean": ("В среднем пара встречается, раз", "On average a pair meets, times"),
    "mean_tip": ("μ = 9R/(N − 1)", "μ = 9R/(N − 1)"),
    "spread": ("Неровность встреч (чем меньше, тем ровнее)",
               "Unevenness of meetings (smaller is more even)"),
    "spread_value": ("{value} (меньше {bound} не бывает)", "{value} (never below {bound})"),
    "spread_tip": ("P3: Σ m² по всем парам", "P3: Σ m² over all pairs"),
    "hist": ("Сколько пар встречается сколько раз", "How many pairs meet how often"),
    "hist_item": ("{times} — {pairs}", "{times}: {pairs}"),
    "hist_tip": ("P4: гистограмма m", "P4: the histogram of m"),
    "same_seat": ("Больше всего игр одного игрока на одном месте",
                  "The most games one player plays in one seat"),
    "same_seat_tip": ("S1: клеток «игрок — место» вне [⌊R/10⌋, ⌈R/10⌉]: {cells}",
                      "S1: player–seat cells outside [⌊R/10⌋, ⌈R/10⌉]: {cells}"),
    "seats_off": ("Игроков, у которых места распределены неровно",
                  "Players whose seats are uneven"),
    "seats_off_tip": ("S1: клеток «игрок — место» вне нормы: {cells}",
                      "S1: player–seat cells off: {cells}"),
    "groups_off": ("Игроков, у которых неровно пары мест (1–2, 3–4…) или половины стола",
                   "Players uneven over seat pairs (1–2, 3–4…) or halves of the table"),
    "groups_off_tip": ("S2: клеток вне нормы: {cells}", "S2: cells off: {cells}"),
    "same_table": ("Больше всего игр одного игрока за одним столом",
                   "The most games one player plays at one table"),
    "tables_off": ("Игроков, которые за одним столом чаще, чем поровну",
                   "Players at one table more often than an even share"),
    "tables_off_tip": ("T1: клеток «игрок — стол» вне [⌊R/T⌋, ⌈R/T⌉]: {cells}",
                       "T1: player–table cells outside [⌊R/T⌋, ⌈R/T⌉]: {cells}"),
    "hard": ("Жёсткие правила", "Hard rules"),
    "hard_kept": ("все соблюдены", "all kept"),
    "hard_tip": ("нарушений: {n}", "violations: {n}"),
    "avoid": ("Встреч пар, которых просили по возможности развести",
              "Games shared by pairs to be avoided"),
    "avoid_tip": ("мягкое правило: каждая встреча стоит его вес",
                  "a soft rule: every shared game costs its weight"),
    "welcome": ("Встреч пар, которых просили посадить вместе",
                "Games shared by pairs welcomed together"),
    "welcome_tip": ("мягкое правило: каждая встреча приносит его вес",
                    "a soft rule: every shared game earns its weight"),
}
