"""The rule profiles as text: Markdown for docs/rules.md (a test keeps that file up to
date), and the rows of `mafiatab rules` in the reader's language.

The Markdown stays the developers' reference: English, the profile's own setting names,
points in hundredths as the profile holds them. `mafiatab rules` is for judges and
organizers: every setting named in words, points as points (`0,25`), the clause as the
federation writes it (`ФСМ 8.4.3`).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Literal

from mafiatab import i18n
from mafiatab.domain.points import format_points
from mafiatab.domain.problems import translate_clause
from mafiatab.rules.profile import RuleProfile
from mafiatab.texts.register import AWARD


def _value(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, frozenset):
        return ", ".join(str(v) for v in sorted(value)) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items()) or "—"
    if value is None:
        return "—"
    return str(value).replace("|", "\\|")


def profile_markdown(profile: RuleProfile) -> str:
    """One table: setting, value (points in hundredths), clause."""
    lines = [f"### {profile.title} (`{profile.id}`)", "",
             "| setting | value | clause |", "|---|---|---|"]
    for name, ruled in profile.settings().items():
        lines.append(f"| `{name}` | {_value(ruled.value)} | {ruled.clause} |")
    return "\n".join(lines) + "\n"


# --- the profile for people (`mafiatab rules`): words, points as points, clauses --------

#: how a setting's value reads
Kind = Literal["points", "signed", "list", "best_move", "count", "percent", "minutes", "flag",
               "share", "roles", "stage_kinds", "deciders", "tie_breakers", "versions",
               "choice", "sizes", "errors", "text", "action_cases", "rule_points",
               "awards"]

#: setting -> (Russian name, English name, kind of value)
SETTINGS: dict[str, tuple[str, str, Kind]] = {
    "win_points": ("Баллы за победу команды", "Points for the team's win", "points"),
    "k_max_participants": ("Коэффициент K: участников не больше", "Coefficient K: at most this "
                           "many participants", "count"),
    "k_equal_wins_no_heavy_side": ("K: при равенстве побед «тяжёлой» стороны нет",
                                   "K: equal wins, no heavy side", "flag"),
    "k_formula": ("Формула K", "Formula of K", "text"),
    "best_move_points": ("Лучший ход: баллы за 0, 1, 2, 3 названных чёрных",
                         "Best move: points for 0, 1, 2, 3 blacks named", "best_move"),
    "best_move_scored_roles": ("Лучший ход оценивается у ролей", "Best move is scored for",
                               "roles"),
    "no_best_move_day1_leavers": ("Нет ЛХ, если в первый день голосованием ушли (игроков)",
                                  "No best move when this many left by the day-1 vote",
                                  "count"),
    "best_move_on_draw": ("ЛХ при ничьей засчитывается", "Best move counts on a draw", "flag"),
    "best_move_max_numbers": ("ЛХ: номеров не больше", "Best move: at most this many seats",
                              "count"),
    "extra_limits": ("Как ограничены доп. баллы судьи", "How the judge's extras are limited",
                     "choice"),
    "extra_max_players": ("Доп. баллы: игроков за игру не больше",
                          "Extras: at most this many players a game", "count"),
    "extra_max_sum": ("Доп. баллы: сумма за игру не больше", "Extras: at most this sum a game",
                      "points"),
    "extra_max_winner": ("Доп. балл игроку победившей команды не больше",
                         "Extra of a winning player: at most", "points"),
    "extra_approval_from": ("Доп. балл с одобрения ГС начиная с",
                            "Extra needs the head judge's approval from", "points"),
    "extra_max_loser": ("Доп. балл игроку проигравшей команды не больше",
                        "Extra of a losing player: at most", "points"),
    "extra_positive_scale": ("Шкала положительных доп. баллов", "Scale of positive extras",
                             "list"),
    "extra_positive_approval": ("Положительные доп. баллы с одобрения ГС",
                                "Positive extras that need approval", "list"),
    "extra_negative_scale": ("Шкала отрицательных доп. баллов", "Scale of negative extras",
                             "list"),
    "extra_negative_approval": ("Отрицательные доп. баллы с одобрения ГС",
                                "Negative extras that need approval", "list"),
    "extra_scale_reading": ("Шаг шкалы доп. баллов", "Steps of the extras' scale", "choice"),
    "no_positive_extra_on_draw": ("При ничьей положительных доп. баллов нет",
                                  "No positive extras on a draw", "flag"),
    "no_positive_extra_when_removed": ("Удалённому положительных доп. баллов нет",
                                       "No positive extra for a removed player", "flag"),
    "has_first_killed_protocol": ("Есть протокол ПУ, доп. балл ПУ, оценка завещания",
                                  "First killed's protocol, extra and will evaluation exist",
                                  "flag"),
    "pu_extra_scale": ("Шкала доп. балла ПУ", "Scale of the first killed's extra", "list"),
    "will_scale": ("Шкала оценки завещания (мнения)", "Scale of the will (opinion)", "list"),
    "will_approval": ("Оценка завещания с одобрения ГС", "Will evaluations that need approval",
                      "list"),
    "protocol_scale": ("Шкала оценки протокола", "Scale of the protocol evaluation", "list"),
    "protocol_approval": ("Оценка протокола с одобрения ГС",
                          "Protocol evaluations that need approval", "list"),
    "same_as_will_larger_counts": ("Протокол совпал с завещанием: идёт большая оценка",
                                   "Protocol same as the will: the larger counts", "flag"),
    "limit_counts_will_and_protocol": ("В предел доп. баллов входят завещание и протокол",
                                       "The extras' limit counts the will and protocol", "flag"),
    "pu_protocol_black_correct": ("Протокол ПУ: верный чёрный (1-й, 2-й, 3-й)",
                                  "First killed's protocol: a right black (1st, 2nd, 3rd)",
                                  "signed"),
    "pu_protocol_black_wrong": ("Протокол ПУ: ошибочный чёрный (1-й, 2-й, 3-й)",
                                "First killed's protocol: a wrong black (1st, 2nd, 3rd)",
                                "signed"),
    "pu_protocol_red_first": ("Протокол ПУ: первый верный красный",
                              "First killed's protocol: the first right red", "signed"),
    "pu_protocol_red_next": ("Протокол ПУ: каждый следующий верный красный",
                             "First killed's protocol: each next right red", "signed"),
    "pu_protocol_red_cap": ("Протокол ПУ: за красных не больше",
                            "First killed's protocol: reds at most", "signed"),
    "pu_protocol_red_errors": ("Протокол ПУ: ошибки в красных", "First killed's protocol: "
                               "errors among reds", "errors"),
    "pu_protocol_max_black_entries": ("Протокол ПУ: чёрных записей не больше",
                                      "First killed's protocol: at most this many blacks",
                                      "count"),
    "pu_protocol_versions": ("Протокол ПУ: версии (верная / неверная)",
                             "First killed's protocol: versions (right / wrong)", "versions"),
    "pu_protocol_aside_red": ("Протокол ПУ «в стороне»: верный красный",
                              "Protocol aside: a right red", "signed"),
    "pu_protocol_aside_black": ("Протокол ПУ «в стороне»: верный чёрный",
                                "Protocol aside: a right black", "signed"),
    "pu_protocol_aside_error": ("Протокол ПУ «в стороне»: ошибка", "Protocol aside: an error",
                                "signed"),
    "pu_protocol_near_reliable_percent": ("Околодостоверный цвет: доля балла",
                                          "Near-reliable colour: share of the points",
                                          "percent"),
    "pu_protocol_scored_roles": ("Протокол ПУ оценивается у ролей",
                                 "First killed's protocol is scored for", "roles"),
    "penalty_disqualification": ("Штраф за удаление со стола", "Penalty for a removal", "signed"),
    "penalty_disqualification_critical": ("Штраф за удаление «на критике»",
                                          "Penalty for a removal at a critical moment", "signed"),
    "penalty_team_loss": ("Штраф за ППК", "Penalty for a team loss awarded", "signed"),
    "penalty_game_action_fixed": ("Штраф за игровое действие", "Penalty for a game action",
                                  "signed"),
    "penalty_revealed_sheriff_no_will": ("Штраф: ПУ вскрыл шерифа и ушёл без завещания",
                                         "Penalty: revealed the sheriff, left no will",
                                         "signed"),
    "team_loss_excludes_disqualification": ("При ППК штраф за удаление не добавляется",
                                            "A team loss does not add the removal penalty",
                                            "flag"),
    "has_broken_table": ("Есть «сломанный стол»", "A broken table exists", "flag"),
    "comp_distance": ("Дистанции компенсации Ci", "Distances of the compensation Ci", "choice"),
    "comp_paying_stage_kinds": ("Ci начисляется в стадиях", "Ci is paid in the stages",
                                "stage_kinds"),
    "comp_max": ("Ci: наибольшая компенсация", "Ci: the largest compensation", "points"),
    "comp_b_percent": ("Ci: B — доля игр дистанции", "Ci: B, the share of the distance's games",
                       "percent"),
    "comp_b_minimum": ("Ci: B не меньше", "Ci: B at least", "count"),
    "comp_requires_black_in_best_move": ("Ci только если в ЛХ назван чёрный",
                                         "Ci only when the best move names a black", "flag"),
    "comp_share_on_red_win": ("Доля Ci при победе красных", "Share of Ci on a red win", "share"),
    "comp_per_team": ("Ci по команде: i и B за команду (командный марафон)",
                      "Ci per team: i and B over the team (a team marathon)", "flag"),
    "tie_breakers": ("Порядок мест", "Order of places", "tie_breakers"),
    "exhibition_are_participants": ("Игроки вне зачёта считаются участниками (K, дистанции Ci)",
                                    "Exhibition players count as participants (K, Ci's "
                                    "distances)", "flag"),
    "awards": ("Награды, которые называет главный судья", "Awards the head judge names",
               "awards"),
    "first_killed_night": ("ПУ — убитый в ночь № (договорка — ночь 0)",
                           "First killed: shot in night no. (agreement night: 0)", "count"),
    "day1_single_nominee_no_vote": ("День 1, выставлен один: голосования нет",
                                    "Day 1, one nominee: no vote", "flag"),
    "revote_when_tie_changes": ("Новое равенство голосов — новое переголосование",
                                "A changed tie is voted again", "flag"),
    "removal_cancels_vote": ("Удаление отменяет голосование", "A removal cancels the vote",
                             "flag"),
    "four_players_tie_no_vote": ("Четверо за столом, двое равны дважды: голосования нет",
                                 "Four at the table, two tied twice: no further vote", "flag"),
    "short_speech_table_sizes": ("30 секунд вместо речи при трёх фолах, за столом",
                                 "30 seconds instead of a speech at three fouls, at the table",
                                 "sizes"),
    "draw_quiet_cycles": ("Ничья после кругов без ухода", "A draw after rounds with nobody "
                          "leaving", "count"),
    "no_lift_of_whole_table": ("Нельзя поднять весь стол", "No lift of the whole table", "flag"),
    "removal_by_fouls_penalised": ("Уход по 4-му фолу — удаление со штрафом",
                                   "Leaving with a 4th foul is a removal with its penalty",
                                   "flag"),
    "critical_red_margin": ("«На критике»: красных больше чёрных не более чем на",
                            "Critical moment: reds outnumber blacks by at most", "count"),
    "killed_may_check_that_night": ("Убитый ночью успевает проверить",
                                    "A player shot at night still checks", "flag"),
    "removal_from_tournament": ("Удаление (снятие) с турнира: пункт",
                                "Removal from the tournament: clause", "text"),
    "protest_minutes_after_game": ("Протест не позже чем через", "A protest at most after",
                                   "minutes"),
    "protest_deciders": ("Протест решают", "A protest is decided by", "deciders"),
    "protest_decision_final": ("Решение по протесту окончательно",
                               "The decision on a protest is final", "flag"),
    "score_appeals": ("Апелляции на оценки", "Appeals of scores", "flag"),
    "appeal_rounds_after_publication": ("Апелляция в течение туров после публикации",
                                        "An appeal within rounds after publication", "count"),
    "protest_deadline_inclusive": ("Протест в последнюю минуту срока ещё в срок",
                                   "A protest at the deadline's last minute is in time",
                                   "flag"),
    "appeal_before_next_day": ("Баллы дней турнира до этого оспариваются до начала "
                               "следующего дня", "Scores of the tournament's days up to this "
                               "one are appealed before the next day starts", "count"),
    "appeal_closed_before_last_round": ("Все апелляции закрыты до последнего тура",
                                        "Every appeal closed before the last round", "flag"),
    "appeal_not_after_tables_closed": ("После закрытия таблиц апелляций нет",
                                       "No appeal after the tables are closed", "flag"),
    "appeal_max_positive_extra": ("Апелляций на доп. баллы за турнир не больше",
                                  "Appeals of extras a tournament: at most", "count"),
    "appeal_max_penalty": ("Апелляций на штрафы за турнир не больше",
                           "Appeals of penalties a tournament: at most", "count"),
    "appeal_ignored_difference": ("Разница, на которую апелляция не подаётся",
                                  "A difference too small to appeal", "points"),
    "replay_allowed": ("ГС может назначить переигровку", "The head judge may order a replay",
                       "flag"),
    "result_change_needs_committee": ("Смена результата — с согласия судейского комитета",
                                      "A changed result needs the judicial committee", "flag"),
    "pu_protocol_aside_black_entry": ("Протокол «в стороне»: какой верный чёрный засчитан",
                                      "Protocol aside: which right black counts", "choice"),
    "extra_negative_allowed": ("Доп. балл судьи может быть отрицательным",
                               "A judge's extra may be negative", "flag"),
    "limits_approval": ("ГС может одобрить превышение пределов доп. баллов",
                        "The head judge may approve going past the extras' limits", "flag"),
    "game_action_cases": ("Штрафы за игровые действия (пункт: кому, когда)",
                          "Penalties for game actions (clause: on whom, when)", "action_cases"),
    "game_action_fixed_by_rule": ("Штрафы за игровое действие, заданные пунктом",
                                  "Game-action penalties fixed by their clause", "rule_points"),
    "one_removal_per_game": ("Одно удаление со стола за игру", "One removal a game", "flag"),
    "pu_protocol_checked_roles": ("«Проверен шерифом» пишет", "'Checked by the sheriff' is "
                                  "written by", "roles"),
    "pu_protocol_near_reliable_next_as_first": (
        "После околодостоверного следующий верный считается первым",
        "After a near-reliable entry the next right one scores as the first", "flag"),
    "pu_protocol_aside_will_max_entries": ("Завещание при протоколе «в стороне»: записей не "
                                           "больше", "Will beside a protocol aside: at most "
                                           "this many entries", "count"),
    "pu_protocol_aside_will_scale": ("Шкала завещания при протоколе «в стороне»",
                                     "Scale of the will beside a protocol aside", "list"),
    "best_move_needs_first_killed": ("ЛХ только при ПУ", "A best move only with a first "
                                     "killed", "flag"),
    "best_move_fixed_numbers": ("ЛХ: разные номера, кроме своего, без исправлений",
                                "Best move: distinct seats, not his own, unchanged", "flag"),
    "removal_after_result_cancels_next_vote": (
        "Удаление после итога голосования отменяет голосование следующего дня",
        "A removal after the vote's result cancels the next day's vote", "flag"),
    "three_fouls_speak_at_revote": ("С тремя фолами игрок говорит перед переголосованием",
                                    "With three fouls a player speaks before a revote", "flag"),
    "last_words_after_end": ("Последнее слово после окончания игры",
                             "Last words after the game's end", "flag"),
}

#: the values of the settings that choose among named ways
CHOICES: dict[str, tuple[str, str]] = {
    "by_team": ("предел по командам (ФИИМ 8.4)", "caps by team"),
    "by_scale": ("фиксированная шкала значений", "a fixed scale of values"),
    "none": ("шкалы нет", "no scale"),
    "step_0_2": ("шаг 0,2 и +0,3", "steps of 0.2, and +0.3"),
    "step_0_1": ("шаг 0,1", "steps of 0.1"),
    "qual_semi_together": ("отбор и полуфинал вместе, каждый финал отдельно",
                           "qualification and semifinal together, each final alone"),
    "same_participants": ("подряд идущие стадии с тем же числом участников",
                          "consecutive stages with the same participants"),
    "last": ("последний верно записанный", "the last correctly written"),
    "first": ("первый верно записанный", "the first correctly written"),
}
STAGE_KINDS: dict[str, tuple[str, str]] = {
    "qualification": ("отбор", "qualification"), "semifinal": ("полуфинал", "semifinal"),
    "final": ("финал", "final"),
}
DECIDERS: dict[str, tuple[str, str]] = {
    "head_judge": ("главный судья", "the head judge"),
    "appeals_commission": ("апелляционная комиссия", "the appeals commission"),
}
CRITERIA: dict[str, tuple[str, str]] = {
    "total": ("итого", "total"), "main": ("основные баллы", "main points"),
    "extra": ("доп. баллы", "extra points"),
    "wins": ("победы", "wins"), "wins_don_sheriff": ("победы доном и шерифом",
                                                     "wins as don or sheriff"),
    "first_killed": ("смерти в первую ночь", "first-night deaths"),
}
VERSIONS = i18n.VERSION
K_FORMULA: dict[str, tuple[str, str]] = {
    "K = 1 + (N/2 - n)/(N/2), on win points only": (
        "K = 1 + (N/2 − n)/(N/2), только на баллы за победу",
        "K = 1 + (N/2 − n)/(N/2), on win points only"),
}
#: what an unset value means where "none" would mislead
UNSET: dict[str, tuple[str, str]] = {
    "penalty_game_action_fixed": ("по шкале отрицательных доп. баллов",
                                  "from the scale of negative extras"),
    "protest_minutes_after_game": ("срок не установлен", "no deadline set"),
}
_READING = "Reading"
#: a setting the rule texts leave to the federation (the awards)
_FEDERATION_SETTING = "federation setting"
#: a clause reference with a clause number ("FSM 8.4.3"), not the federation alone
_NUMBERED = re.compile(r"\d")


def _word(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pair = table.get(key)
    return key if pair is None else pair[0 if lang == "ru" else 1]


def _points(value: int, lang: str, sign: bool = False) -> str:
    return format_points(value, lang, sign=sign)


def _none(lang: str) -> str:
    return "нет" if lang == "ru" else "none"


def value_text(kind: Kind, value: object, lang: str) -> str:
    """One setting's value as a person reads it: points as points (`0,25`), counts as
    numbers, flags as yes or no, codes as the glossary's words."""
    ru = lang == "ru"
    if value is None:
        return _none(lang)
    if kind == "flag":
        return ("да" if value else "нет") if ru else ("yes" if value else "no")
    if kind == "points" and isinstance(value, int):
        return _points(value, lang)
    if kind == "signed" and isinstance(value, int):
        return _points(value, lang, sign=True)
    if kind == "signed" and isinstance(value, tuple):
        return "; ".join(_points(v, lang, sign=True) for v in value) or "—"
    if kind == "list" and isinstance(value, frozenset):
        return "; ".join(_points(v, lang, sign=True) for v in sorted(value)) or "—"
    if kind == "best_move" and isinstance(value, tuple):
        return "; ".join(_points(v, lang) for v in value)
    if kind in ("count", "percent") and isinstance(value, int):
        return f"{value} %" if kind == "percent" else str(value)
    if kind == "minutes" and isinstance(value, int):
        return i18n.count(value, "minute", lang)
    if kind == "share" and isinstance(value, tuple):
        a, b = value
        return "0" if a == 0 else "1" if a == b else f"{a}/{b}"
    if kind == "errors" and isinstance(value, tuple):
        one, more = value
        return (f"одна: {_points(one, lang, True)}; две и больше: {_points(more, lang, True)}"
                if ru else f"one: {_points(one, lang, True)}; two or more: "
                f"{_points(more, lang, True)}")
    if kind == "roles" and isinstance(value, frozenset):
        order = ["red", "sheriff", "black", "don"]
        return ", ".join(i18n.pick(i18n.ROLE, r, lang)
                         for r in sorted(value, key=order.index)) or _none(lang)
    if kind == "stage_kinds" and isinstance(value, frozenset):
        order = list(STAGE_KINDS)
        return ", ".join(_word(STAGE_KINDS, k, lang) for k in sorted(value, key=order.index))
    if kind == "deciders" and isinstance(value, frozenset):
        return ", ".join(_word(DECIDERS, d, lang) for d in sorted(value, reverse=True))
    if kind == "tie_breakers" and isinstance(value, tuple):
        return ", ".join(_word(CRITERIA, c, lang) for c in value) + (
            ", жребий" if ru else ", a lot")
    if kind == "versions" and isinstance(value, dict):
        return "; ".join(f"{_word(VERSIONS, k, lang)}: {_points(r, lang, True)} / "
                         f"{_points(w, lang, True)}" for k, (r, w) in value.items()) or "—"
    if kind == "sizes" and isinstance(value, frozenset):
        sizes = sorted(value)
        return ", ".join(str(n) for n in sizes[:-1]) + (" или " if ru else " or ") \
            + i18n.count(sizes[-1], "player", lang) if len(sizes) > 1 else \
            i18n.count(sizes[0], "player", lang) if sizes else "—"
    if kind == "action_cases" and isinstance(value, dict):
        if not value:
            return "список открыт" if ru else "an open list"
        parts = []
        for clause, case in value.items():
            roles = ", ".join(i18n.pick(i18n.ROLE, r, lang) for r in getattr(case, "roles", ()))
            lost = getattr(case, "team_lost", None)
            when = ((f", если проиграли {i18n.pick(i18n.TEAM, lost, lang)}" if ru
                     else f", when the {lost} team lost") if lost else "")
            parts.append(f"{clause}: {roles}{when}")
        return "; ".join(parts)
    if kind == "rule_points" and isinstance(value, dict):
        return "; ".join(f"{k}: {_points(v, lang, sign=True)}" for k, v in value.items()) or \
            _none(lang)
    if kind == "awards" and isinstance(value, tuple):
        return ", ".join(_word(AWARD, a, lang) for a in value) or _none(lang)
    if kind == "text" and isinstance(value, str):
        return _word(K_FORMULA, value, lang) if value else "—"
    if kind == "choice":
        raw = value.value if isinstance(value, Enum) else value
        return _word(CHOICES, str(raw), lang)
    return str(value)


def clause_text(clause: str, federation: str, lang: str) -> str:
    """The clause as the reader's federation writes it (`ФСМ 8.4.3`), a reading marked as
    such; a setting the federation's rules do not have says so instead of a bare name."""
    ref = translate_clause(clause, lang)
    if _FEDERATION_SETTING in clause:
        fed = i18n.federation(federation, lang)
        return f"настройка федерации ({fed})" if lang == "ru" else f"the federation's setting ({fed})"
    if not _NUMBERED.search(ref):
        fed = i18n.federation(federation, lang)
        return f"нет в правилах {fed}" if lang == "ru" else f"not in the {fed} rules"
    if _READING in clause:
        ref += " (толкование)" if lang == "ru" else " (reading)"
    return ref


def profile_rows(profile: RuleProfile, lang: str) -> list[tuple[str, str, str]]:
    """Every setting of a profile as (name, value, clause) in the reader's language."""
    rows = []
    for name, ruled in profile.settings().items():
        ru, en, kind = SETTINGS.get(name, (name, name, "text"))
        value = (_word(UNSET, name, lang) if ruled.value is None and name in UNSET
                 else value_text(kind, ruled.value, lang))
        rows.append((ru if lang == "ru" else en, value,
                     clause_text(ruled.clause, profile.federation, lang)))
    return rows
