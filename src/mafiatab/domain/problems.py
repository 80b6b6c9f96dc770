"""Problems found in a tournament file or a protocol: where, what, which rule; ru and en.

A problem is data (a code and its parameters), not text, so that the CLI, the web app and
the API render it in the user's language. `ProtocolRefused` carries every problem at once:
a judge fixes a protocol in one pass, not one error at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from mafiatab.domain.points import Points, format_points

LANGS = ("ru", "en")

#: code -> (Russian, English). Parameters in braces; points are rendered by `format_points`.
MESSAGES: dict[str, tuple[str, str]] = {
    # --- the file itself ---
    "not_json": ("файл не является JSON: {detail}", "the file is not JSON: {detail}"),
    "not_object": ("ожидался объект JSON", "a JSON object was expected"),
    "missing": ("нет обязательного поля", "a required field is missing"),
    "type": ("ожидалось {expected}, получено {got}", "expected {expected}, got {got}"),
    "format": (
        "неизвестный формат {value!r}, ожидался mafiatab.tournament/1",
        "unknown format {value!r}, expected mafiatab.tournament/1",
    ),
    "unknown_rules": (
        "неизвестные правила {value!r}: fiim2018 или fsm",
        "unknown rules {value!r}: fiim2018 or fsm",
    ),
    "unknown_option": (
        "неизвестная настройка правил {value!r}",
        "unknown rule option {value!r}",
    ),
    "unknown_field": (
        "неизвестное поле (не учитывается)",
        "unknown field (ignored)",
    ),
    "points_format": (
        "число с не более чем двумя знаками после запятой, получено {value!r}",
        "a number with at most two decimal places was expected, got {value!r}",
    ),
    "duplicate_id": ("id {value!r} повторяется", "id {value!r} is used twice"),
    "bad_choice": (
        "недопустимое значение {value!r}; допустимо: {choices}",
        "invalid value {value!r}; allowed: {choices}",
    ),
    "positive_int": ("ожидалось целое число ≥ 1", "a whole number of at least 1 was expected"),
    "nonneg_int": ("ожидалось целое число ≥ 0", "a whole number of at least 0 was expected"),
    "unknown_player": ("неизвестный игрок {value!r}", "unknown player {value!r}"),
    "unknown_stage": ("неизвестная стадия {value!r}", "unknown stage {value!r}"),
    "lot_unknown_player": (
        "жребий называет неизвестного игрока {value!r}",
        "the lot names an unknown player {value!r}",
    ),
    "lot_duplicate": (
        "жребий называет игрока {value!r} дважды",
        "the lot names player {value!r} twice",
    ),
    # --- section 1: seats, roles, players, result ---
    "seat_count": (
        "за столом должно быть 10 мест, указано {count}",
        "a table has 10 seats, {count} given",
    ),
    "seat_number": ("место {value!r} вне 1–10", "seat {value!r} is not in 1-10"),
    "seat_twice": ("место {value} указано дважды", "seat {value} is listed twice"),
    "player_twice": (
        "игрок {value!r} сидит за столом дважды",
        "player {value!r} sits at the table twice",
    ),
    "role_count": (
        "ролей «{role}»: {count}, а должно быть {expected}",
        "{count} players have the role {role}, {expected} expected",
    ),
    "bad_result": (
        "результат {value!r}: допустимо red, black или draw",
        "result {value!r}: red, black or draw",
    ),
    # --- best move ---
    "bm_without_fk": (
        "лучший ход записан без первого убиенного",
        "a best move is recorded without a first killed",
    ),
    "bm_too_many": (
        "в лучшем ходе больше {max} номеров",
        "the best move names more than {max} seats",
    ),
    "bm_repeat": ("номер {value} повторяется в лучшем ходе", "seat {value} is named twice"),
    "bm_own_seat": (
        "первый убиенный назвал свой собственный номер {value}",
        "the first killed named his own seat {value}",
    ),
    "bm_not_allowed": (
        "лучший ход не положен: в первый день голосованием ушли {count} игрока",
        "no best move: {count} players left by the first day's vote",
    ),
    "fk_seat": ("первый убиенный: место {value!r} вне 1–10", "first killed: seat {value!r} is not in 1-10"),
    "broken_table_not_in_rules": (
        "«слом стола» есть только в правилах ФСМ",
        "broken_table exists only in the FSM rules",
    ),
    "broken_table_without_fk": (
        "«слом стола» отмечен без игрока, получившего лучший ход",
        "broken_table is set but first_killed names nobody",
    ),
    # --- extras ---
    "fsm_only": (
        "поле есть только в правилах ФСМ",
        "this field exists only in the FSM rules",
    ),
    "off_scale": (
        "значение {value} вне шкалы; допустимо: {choices}",
        "value {value} is off the scale; allowed: {choices}",
    ),
    "needs_approval": (
        "значение {value} требует согласования с главным судьёй",
        "{value} needs the head judge's approval",
    ),
    "extra_on_draw": (
        "при ничьей положительные доп. баллы не начисляются ({value})",
        "a draw gives no positive extra points ({value})",
    ),
    "extra_when_removed": (
        "удалённый игрок не получает положительных доп. баллов ({value})",
        "a removed player gets no positive extra points ({value})",
    ),
    "extra_loser_max": (
        "игрок проигравшей команды получает не более +0,4 ({value})",
        "a player of the losing team gets at most +0.4 ({value})",
    ),
    "extra_winner_max": (
        "игрок победившей команды получает не более {max} ({value})",
        "a player of the winning team gets at most {max} ({value})",
    ),
    "limit_players": (
        "положительные доп. баллы у {count} игроков, предел {max} без согласования",
        "{count} players have positive extras; the limit is {max} without approval",
    ),
    "limit_sum": (
        "сумма положительных доп. баллов {value}, предел {max} без согласования",
        "positive extras add up to {value}; the limit is {max} without approval",
    ),
    "pu_field_not_fk": (
        "{what} — только у первого убиенного, а он на месте {fk}",
        "{what} belongs to the first killed, who is seat {fk}",
    ),
    "extra_on_fk": (
        "доп. балл первого убиенного записывается в pu_extra",
        "the first killed's positive extra is pu_extra, not extra",
    ),
    "protocol_on_fk": (
        "протокол первого убиенного записывается в pu_protocol",
        "the first killed's protocol is pu_protocol, not protocol",
    ),
    "same_as_will_alone": (
        "same_as_will без завещания и протокола",
        "same_as_will needs both will and protocol",
    ),
    "pu_black_entries": (
        "в протоколе ПУ {count} «чёрных», допустимо не более {max}",
        "the first killed's protocol has {count} black entries, at most {max}",
    ),
    "pu_entry_seat": (
        "запись о месте {value!r}: место вне 1–10 или это сам ПУ",
        "entry for seat {value!r}: not in 1-10 or the first killed himself",
    ),
    "pu_entry_twice": ("место {value} записано дважды", "seat {value} is written twice"),
    # --- penalties ---
    "team_loss_not_lost": (
        "присуждение поражения (ППК), но команда игрока не проиграла",
        "a team-loss penalty, but the player's team did not lose",
    ),
    "team_loss_and_dq": (
        "ППК и дисквалификация у одного игрока",
        "one player carries both a team-loss and a disqualification penalty",
    ),
    "game_action_points": (
        "штраф за игровое действие без значения points",
        "a game_action penalty needs its points",
    ),
    "game_action_fixed": (
        "штраф за игровое действие равен {max}, указано {value}",
        "a game_action penalty is {max}, {value} given",
    ),
    "dq_critical": (
        "для дисквалификации нужно critical: true или false",
        "a disqualification needs critical: true or false",
    ),
    "penalty_not_in_rules": (
        "такого штрафа нет в правилах {rules}",
        "the {rules} rules have no such penalty",
    ),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: its place (game, seat, field), its rule, what is wrong."""

    code: str
    game: str | None = None
    seat: int | None = None
    field: str | None = None
    clause: str | None = None
    params: dict[str, Any] = dc_field(default_factory=dict)
    #: a warning is shown but does not refuse the file
    warning: bool = False

    def message(self, lang: str = "en") -> str:
        ru, en = MESSAGES[self.code]
        params = {
            k: (format_points(v, lang) if isinstance(v, Points) else v)
            for k, v in self.params.items()
        }
        text = (ru if lang == "ru" else en).format(**params)
        where = self.where(lang)
        rule = f" ({translate_clause(self.clause, lang)})" if self.clause else ""
        return f"{where}: {text}{rule}" if where else f"{text}{rule}"

    def where(self, lang: str = "en") -> str:
        parts = []
        if self.game is not None:
            parts.append(f"{'игра' if lang == 'ru' else 'game'} {self.game}")
        if self.seat is not None:
            parts.append(f"{'место' if lang == 'ru' else 'seat'} {self.seat}")
        if self.field:
            parts.append(self.field)
        return ", ".join(parts)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "field": self.field,
            "clause": self.clause,
            "code": self.code,
            "warning": self.warning,
            "message": self.message(lang),
        }


def translate_clause(clause: str, lang: str) -> str:
    """Only the reference (`FSM 8.4.3`), federation names in the reader's language."""
    ref = clause.split(" (", 1)[0]
    if lang == "ru":
        ref = ref.replace("FIIM", "ФИИМ").replace("FSM", "ФСМ")
    return ref


class ProtocolRefused(ValueError):
    """A file or protocol is refused as a whole; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [p for p in problems if not p.warning]
        first = errors[0].message() if errors else "refused"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more)
