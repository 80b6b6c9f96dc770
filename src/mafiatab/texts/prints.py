"""Words of the printouts, spreadsheets and charts (the printed form's own words, FIIM
section 9), Russian first and English second."""

from __future__ import annotations

from mafiatab.domain.words import ROLE_LETTER as ROLE_LETTER  # a section of the catalogue

WORDS: dict[str, tuple[str, str]] = {
    "charts_missing": ("Графики не установлены: это дополнительная часть mafiatab (matplotlib).",
                       "Charts are not installed: they are an optional part of mafiatab "
                       "(matplotlib)."),
    "charts_install": ("Установите её командой {command}", "Install it with {command}"),
    "protocol": ("ПРОТОКОЛ ИГРЫ", "GAME PROTOCOL"),
    "tournament": ("Турнир", "Tournament"),
    "stage": ("Стадия", "Stage"),
    "game_no": ("Игра №", "Game no."),
    "round": ("Тур", "Round"),
    "table": ("Стол", "Table"),
    "date": ("Дата", "Date"),
    "judge": ("Судья", "Judge"),
    "seat": ("№", "No."),
    "nickname": ("Игрок (никнейм)", "Player (nickname)"),
    "role": ("Роль", "Role"),
    "fouls": ("Фолы", "Fouls"),
    "points": ("Баллы", "Points"),
    "extra_points": ("Доп. баллы", "Extra"),
    "day": ("День", "Day"),
    "nominated": ("Выставлены", "Nominated"),
    "votes": ("Голоса", "Votes"),
    "revote": ("переголосование", "revote"),
    "lift": ("подъём", "lift"),
    "day_left": ("Ушли", "Left"),
    "left": ("Покинул стол", "Left"),
    "best_move": ("Лучший ход", "Best move"),
    "best_move_fk": ("ПУ №", "first killed no."),
    "best_move_named": ("назвал", "named"),
    "winner": ("Победившая команда", "Winning team"),
    "red_team": ("красные", "red"),
    "black_team": ("чёрные", "black"),
    "draw": ("ничья", "draw"),
    "protest": ("Протест ({clause})", "Protest ({clause})"),
    "signature": ("Подпись судьи", "Judge's signature"),
    # FIIM 9.10; named without the clause, since FSM tournaments print the same form
    "explanations": ("Пояснения судьи", "The judge's explanations"),
    "explanations_hint": (
        "Критерии доп. баллов и штрафов; решение по протесту, если он подан.",
        "Why extra points and penalties were given; the decision on a protest, if any.",
    ),
    "decision": ("Решение по протесту", "Decision on the protest"),
    "no_explanations": ("Доп. баллов и штрафов нет.", "No extra points or penalties."),
    "page": ("стр.", "page"),
    "rules": ("Правила", "Rules"),
    "player_id": ("Код игрока", "Player id"),
    "result": ("Итог игры", "Result"),
    "game": ("Игра", "Game"),
    "game_total": ("Итого за игру", "Game total"),
    "places_title": ("Место после каждого тура", "Place after each round"),
    "roles_title": ("Доля побед по ролям", "Win rate by role"),
    "seats_title": ("Доля побед по местам за столом", "Win rate by seat"),
    "share": ("доля побед", "win rate"),
    "place": ("место", "place"),
    "standings_sheet": ("Таблица", "Standings"),
    "games_sheet": ("Игры", "Games"),
}

#: role letters of FIIM 9.4.1 (К red, Ш sheriff, Ч black, Д don)
