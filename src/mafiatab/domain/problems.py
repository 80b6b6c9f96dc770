"""Problems found in a tournament file or a protocol: where, what, which rule; ru and en.

A problem is data (a code and its parameters), not text, so that the CLI, the web app and
the API render it in the user's language. `ProtocolRefused` carries every problem at once:
a judge fixes a protocol in one pass, not one error at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, ClassVar, Protocol

from mafiatab.domain.points import Points, format_points, to_decimal
from mafiatab.rules import cite

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
        "неизвестные правила {value!r}: {choices}",
        "unknown rules {value!r}: {choices}",
    ),
    "unknown_option": (
        "неизвестная настройка правил {value!r}",
        "unknown rule option {value!r}",
    ),
    "unknown_field": (
        "неизвестное поле (не учитывается)",
        "unknown field (ignored)",
    ),
    "penalty_no_kind": ("{value}: не выбран вид штрафа", "{value}: no kind of penalty is chosen"),
    "pu_without_fk": ("{value}: сначала укажите первого убиенного",
                      "{value}: choose the first killed first"),
    "typed_readable": (
        "{value}: такого поля нет в форме протокола или значение читается (ему место в протоколе)",
        "{value}: the protocol form has no such field, or the value reads (it belongs in the "
        "protocol)",
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
    "team_member_twice": (
        "игрок {value!r} записан в две команды или дважды",
        "player {value!r} is in two teams, or twice in one",
    ),
    "team_empty": ("в команде {value!r} нет игроков", "team {value!r} has no members"),
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
        "результат {value!r}: допустимо «победа красных», «победа чёрных» или «ничья»",
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
    "penalty_points_ignored": (
        "у этого штрафа размер задан правилами ({value}); указанное значение не учитывается",
        "this penalty's size is fixed by the rules ({value}); the points given are ignored",
    ),
    "penalty_not_in_rules": (
        "такого штрафа нет в правилах {rules}",
        "the {rules} rules have no such penalty",
    ),
    "negative_extra": (
        "доп. баллы судьи только положительные ({value}); штраф записывается в penalties",
        "the judge's extras are positive ({value}); a penalty is a penalties[] entry",
    ),
    "limits_approval_not_in_rules": (
        "эти правила не дают главному судье снимать ограничения доп. баллов игры",
        "these rules give the head judge no power to lift the game's limits on extras",
    ),
    "game_action_case": (
        "штраф за игровое действие называет свой случай ({choices}), указано {value!r}",
        "a game_action penalty names its case ({choices}); {value!r} given",
    ),
    "game_action_case_role": (
        "случай {rule} — только для ролей: {roles}",
        "case {rule} applies only to the roles {roles}",
    ),
    "game_action_case_result": (
        "случай {rule} — только если {team} команда проиграла",
        "case {rule} applies only when the {team} team lost",
    ),
    "removal_twice": (
        "игрок покидает стол один раз: не больше одного штрафа за удаление или ППК за игру",
        "a player leaves a table once: at most one disqualification or team-loss penalty",
    ),
    "revealed_twice": (
        "штраф за вскрытие шерифа без завещания и протокола записан дважды",
        "the penalty for revealing the sheriff without a will or protocol is written twice",
    ),
    "revealed_not_fk": (
        "штраф за вскрытие шерифа без завещания — только у первого убиенного, а он на месте {fk}",
        "this penalty belongs to the first killed, who is seat {fk}",
    ),
    "revealed_with_will": (
        "штраф за то, что ПУ не оставил ни завещания, ни протокола, но они записаны",
        "a penalty for leaving neither will nor protocol, but one is written",
    ),
    "checked_not_sheriff_red": (
        "пометка checked у места {value}: только у «красного» цвета в протоколе ПУ-шерифа",
        "the checked tag on seat {value}: only on a red entry of a first killed who is the sheriff",
    ),
    "aside_will_and_protocol": (
        "нельзя оставить и завещание, и протокол «в стороне» из {count} цветов",
        "a will and an aside protocol of {count} colours may not both be left",
    ),
    "night_killed_without_broken_table": (
        "night_killed — только при «сломе стола» (broken_table)",
        "night_killed is given only with broken_table",
    ),
    "night_killed_is_fk": (
        "night_killed — это место {value}, место получившего лучший ход",
        "night_killed is seat {value}, the seat that got the best move",
    ),
    # --- the game log (domain/gamelog*.py, docs/gamelog.md) ---
    "log_malformed": ("событие записано неверно: {detail}", "a malformed event: {detail}"),
    "log_seat": ("{what}: место {value!r} вне 1–10", "{what}: seat {value!r} is not in 1-10"),
    "log_needs_seats": (
        "для разбора лога нужны 10 мест с ролями",
        "the log needs the game's 10 seats with their roles",
    ),
    "log_unfinished": (
        "лог обрывается до конца игры; дальше: {next}",
        "the log ends before the game does; next: {next}",
    ),
    "log_contradicts": (
        "в протоколе {written}, а по логу {derived}",
        "the protocol says {written}, the log says {derived}",
    ),
    "log_after_end": (
        "событие «{kind}» после окончания игры",
        "a {kind} event after the game ended",
    ),
    "log_deal_not_first": ("раздача ролей — первое событие", "the deal is the first event"),
    "log_deal_mismatch": (
        "роли раздачи не совпадают с ролями мест",
        "the roles dealt differ from the seats' roles",
    ),
    "log_shot_agreement": (
        "в ночь договорки не стреляют",
        "no shot in the agreement night",
    ),
    "log_second_shot": ("второй выстрел в ночь {night}", "a second shot in night {night}"),
    "log_shot_not_at_table": (
        "выстрел в игрока {value}, которого нет за столом",
        "a shot at seat {value}, who is not at the table",
    ),
    "log_shooter": (
        "стреляет {value!r}: не чёрный игрок за столом",
        "shooter {value!r} is not a black player at the table",
    ),
    "log_shot_mismatch": (
        "цель {value} не совпадает с выстрелами чёрных",
        "target {value} differs from the black players' shots",
    ),
    "log_check_agreement": (
        "в ночь договорки проверок нет",
        "no checks in the agreement night",
    ),
    "log_check_not_night": (
        "проверка ({kind}) вне ночи после выстрела",
        "a check ({kind}) outside a night after its shot",
    ),
    "log_checker_gone": (
        "проверка ({kind}), но этого игрока нет за столом",
        "a check ({kind}) by a player who is not at the table",
    ),
    "log_second_check": ("вторая проверка ({kind}) за ночь", "a second check ({kind}) in a night"),
    "log_check_self": ("проверка самого себя", "a player checks himself"),
    "log_check_answer": (
        "ответ судьи о месте {value} не соответствует роли",
        "the judge's answer about seat {value} does not match the role",
    ),
    "log_best_move_not_due": (
        "лучший ход не положен этому игроку сейчас",
        "no best move is due from this player now",
    ),
    "log_shot_missing": (
        "ночь {night}: нет выстрела (или промаха)",
        "night {night}: the shot (or a miss) is missing",
    ),
    "log_last_words_not_due": (
        "последнее слово не положено этому игроку сейчас",
        "no last words are due from this player now",
    ),
    "log_speech_not_now": ("речь не ко времени ({step})", "a speech out of place ({step})"),
    "log_dead_speaks": (
        "говорит игрок, которого нет за столом",
        "a player who is not at the table speaks",
    ),
    "log_speeches_over": ("все речи дня уже сказаны", "the day's speeches are over"),
    "log_speaks_twice": ("вторая речь за день", "a second speech in one day"),
    "log_speech_out_of_turn": (
        "речь не в очередь: сейчас говорит место {expected}",
        "a speech out of turn: seat {expected} speaks now",
    ),
    "log_nominate_gone": (
        "выставлен игрок {value}, которого нет за столом",
        "seat {value}, not at the table, is nominated",
    ),
    "log_nominated_twice": (
        "игрок {value} уже выставлен",
        "seat {value} is already nominated",
    ),
    "log_speeches_missing": (
        "речи дня не закончены: следующим говорит место {expected}",
        "the day's speeches are not over: seat {expected} speaks next",
    ),
    "log_defence_not_now": (
        "оправдательная речь без ничьей в голосовании",
        "a defence speech without a tie",
    ),
    "log_defence_out_of_turn": (
        "оправдательная речь не в очередь (ожидалось место {expected})",
        "a defence speech out of turn (seat {expected} expected)",
    ),
    "log_vote_cancelled": (
        "голосование в этот день не проводится",
        "this day's vote is not held",
    ),
    "log_no_vote_due": (
        "голосования нет (кандидатур: {count})",
        "no vote is due ({count} nominated)",
    ),
    "log_vote_missing": (
        "голосование не записано",
        "the vote is missing",
    ),
    "log_vote_form": (
        "голоса записываются одним способом: votes или counts (voters или count)",
        "write the votes one way: votes or counts (voters or count)",
    ),
    "log_dead_votes": (
        "голосует игрок, которого нет за столом",
        "a player who is not at the table votes",
    ),
    "log_votes_twice": ("игрок голосует дважды", "a player votes twice"),
    "log_vote_count": ("число голосов {value} меньше нуля", "a vote count of {value}"),
    "log_too_many_votes": (
        "голосов {count}, а голосующих за столом {max}",
        "{count} votes, but only {max} players at the table vote",
    ),
    "log_not_candidate": (
        "голос за {value!r}: не кандидат этого голосования",
        "a vote for {value!r}, who is not a candidate of this vote",
    ),
    "log_no_whole_table_lift": (
        "голосование за подъём всего стола не проводится",
        "no vote on lifting the whole table is held",
    ),
    "log_no_lift_due": (
        "голосование за подъём не проводится",
        "no vote on lifting is due",
    ),
    "log_discipline_gone": (
        "фол или удаление игрока, которого нет за столом",
        "a foul or removal of a player who is not at the table",
    ),
    # --- the paper protocol's columns (domain.paper, docs/format.md) ---
    "fouls_count": ("фолов {value}: бывает от 0 до 4", "{value} fouls: 0 to 4 are possible"),
    "fouls_no_removal": (
        "4 фола, но удаление (дисквалификация) не записано",
        "4 fouls, but no removal (disqualification) is written",
    ),
    "day_twice": ("день {value} записан дважды", "day {value} is written twice"),
    "nominated_twice": (
        "день {day}: место выставлено дважды",
        "day {day}: the seat is nominated twice",
    ),
    "nominates_twice": (
        "день {day}: место выставило больше одного игрока",
        "day {day}: the seat nominated more than one player",
    ),
    "vote_not_nominated": (
        "голоса за место {value}, которое в этот день не выставлено",
        "votes for seat {value}, who was not nominated that day",
    ),
    "vote_too_many": (
        "голосов {count}, а за столом не больше {max}",
        "{count} votes, but at most {max} players are at the table",
    ),
    # --- a refusal whose words come from outside the program (`stated`) ---
    "stated": ("{text}", "{text}"),
    "cannot_read": ("не удалось прочитать {file}: {detail}", "cannot read {file}: {detail}"),
    # --- teams (domain.teams) ---
    "team_in_two": ("игрок {value} входит в две команды", "player {value} is in two teams"),
    "team_unknown_player": ("в команде неизвестный игрок {value}",
                            "a team names an unknown player {value}"),
    "team_id_twice": ("команда {value} указана дважды", "team {value} is given twice"),
    # --- the tournament as a whole (domain.invariants) ---
    "twice_in_round": (
        "тур {round}, стол {table}: игрок {player} в этом туре уже записан за столом "
        "{other_table} (место {other_seat})",
        "round {round}, table {table}: player {player} is already recorded at table "
        "{other_table} (seat {other_seat}) in this round",
    ),
    "not_seated_here": (
        "тур {round}, стол {table}: на место {seat} рассажен {seated}, а записан {player}; "
        "замена не записана",
        "round {round}, table {table}: {seated} is seated at seat {seat}, but {player} is "
        "recorded; no replacement is on record",
    ),
    "removed_plays": (
        "тур {round}, стол {table}: игрок {player} удалён с турнира в игре {removed_in} "
        "(тур {removed_round}, стол {removed_table}) и дальше не играет",
        "round {round}, table {table}: player {player} was removed from the tournament in "
        "game {removed_in} (round {removed_round}, table {removed_table}) and plays no more",
    ),
    "withdrawn_plays": (
        "тур {round}, стол {table}: игрок {player} выбыл из турнира и дальше не играет",
        "round {round}, table {table}: player {player} has withdrawn from the tournament and "
        "plays no more",
    ),
    "day1_left_mismatch": (
        "в первый день голосованием ушли {left} (по записи дня), а в поле {count}",
        "{left} left by day one's vote (the day's record), the field says {count}",
    ),
}


#: the words of a protocol's fields, for the place of a problem (the file's paths are codes)
FIELD_WORDS: dict[str, tuple[str, str]] = {
    "seats": ("рассадка", "seating"),
    "role": ("роль", "role"),
    "player": ("игрок", "player"),
    "result": ("результат", "result"),
    "stage": ("стадия", "stage"),
    "round": ("тур", "round"),
    "table": ("стол", "table"),
    "first_killed": ("первый убиенный", "first killed"),
    "best_move": ("лучший ход", "best move"),
    "scores": ("баллы", "points"),
    "extra": ("доп. балл", "extra point"),
    "pu_extra": ("доп. балл ПУ", "first killed's extra"),
    "will": ("завещание", "will"),
    "protocol": ("протокол", "protocol"),
    "pu_protocol": ("протокол ПУ", "first killed's protocol"),
    "penalties": ("штрафы", "penalties"),
    "fouls": ("фолы", "fouls"),
    "days": ("выставления и голосования", "nominations and votes"),
    "day1_vote_left": ("ушли в 1-й день", "left by day one's vote"),
    "broken_table": ("слом стола", "broken table"),
    "log": ("лог игры", "game log"),
    "players": ("игроки", "players"),
    "stages": ("стадии", "stages"),
    "games": ("игры", "games"),
}

#: the words of a day's parts (`days.2.nominations`: "день 2, выставления")
DAY_PART_WORDS: dict[str, tuple[str, str]] = {
    "nominations": ("выставления", "nominations"),
    "votes": ("голосование", "votes"),
    "left": ("ушли голосованием", "left by the vote"),
}


class Typed(str):
    """A value exactly as a person typed it («о,3», not a reading of it such as 0.3): a
    message quotes it whole, in the reader's quotes, and the API gives the text itself."""

    def quoted(self, lang: str) -> str:
        return f"«{self}»" if lang == "ru" else f'"{self}"'


class _Quoted(str):
    """A typed value already in its quotes: `{value!r}` in a message shows it as is."""

    def __repr__(self) -> str:
        return str(self)


class Word(str):
    """A parameter that is a code with its words (a protocol state, a role): the message
    shows the words, the JSON API the code. It is the code itself as a string, so that
    what compares or stores parameters sees the code."""

    ru: str
    en: str

    def __new__(cls, code: str, ru: str, en: str) -> Word:
        word = super().__new__(cls, code)
        word.ru, word.en = ru, en
        return word

    @property
    def code(self) -> str:
        return str(self)

    def text(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


def _shown(value: Any, lang: str) -> Any:
    if isinstance(value, Typed):
        return _Quoted(value.quoted(lang))
    if isinstance(value, Points):
        return format_points(value, lang)
    if isinstance(value, Word):
        return value.text(lang)
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(v, lang)) for v in value)
    return value


def coded(value: Any) -> Any:
    """A parameter as the JSON API gives it: codes and exact decimals, no words."""
    if isinstance(value, Points):
        return str(to_decimal(value.hundredths))
    if isinstance(value, Word):
        return str(value)
    if isinstance(value, list | tuple):
        return [coded(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: its place (game, seat, field), its rule, what is wrong.

    `code` is the text key: in `MESSAGES` here, or in `texts` when the layer that found
    the problem keeps its words in its own section of the catalogue (`mafiatab.texts`);
    the core never imports that catalogue, so the section travels with the problem."""

    code: str
    game: str | None = None
    seat: int | None = None
    field: str | None = None
    clause: str | None = None
    params: dict[str, Any] = dc_field(default_factory=dict)
    #: a warning is shown but does not refuse the file
    warning: bool = False
    texts: Mapping[str, tuple[str, str]] | None = dc_field(default=None, compare=False,
                                                          repr=False)

    def text(self, lang: str = "en") -> str:
        """What is wrong, without the place and the clause."""
        ru, en = (self.texts if self.texts is not None else MESSAGES)[self.code]
        params = {k: _shown(v, lang) for k, v in self.params.items()}
        return (ru if lang == "ru" else en).format(**params)

    def message(self, lang: str = "en") -> str:
        text = self.text(lang)
        where = self.where(lang)
        ref = translate_clause(self.clause, lang) if self.clause else ""
        rule = f" ({ref})" if ref else ""
        return f"{where}: {text}{rule}" if where else f"{text}{rule}"

    def where(self, lang: str = "en") -> str:
        parts = []
        if self.game is not None:
            parts.append(f"{'игра' if lang == 'ru' else 'game'} {self.game}")
        if self.seat is not None:
            parts.append(f"{'место' if lang == 'ru' else 'seat'} {self.seat}")
        if self.field and lang != "ru":
            parts.append(self.field)  # the file's path, as the English reader writes files
        elif self.field:
            # the field's word (its path is a code: the API gives it as `field`)
            word = self.field_words(lang)
            if word is not None:
                parts.append(word)
        return ", ".join(parts)

    def field_words(self, lang: str = "en") -> str | None:
        """The field in words (`days.1.nominations`: "день 1, выставления"), or None."""
        if not self.field:
            return None
        path = self.field.split(".")
        k = 0 if lang == "ru" else 1
        part = DAY_PART_WORDS.get(path[2]) if len(path) > 2 and path[0] == "days" \
            and path[1].isdecimal() else None
        if part is not None:
            return f"{'день' if lang == 'ru' else 'day'} {path[1]}, {part[k]}"
        word = FIELD_WORDS.get(path[0].split("[", 1)[0])
        return None if word is None else word[k]

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "field": self.field,
            "clause": self.clause,
            "code": self.code,
            "params": {k: coded(v) for k, v in self.params.items()},
            "warning": self.warning,
            "message": self.message(lang),
        }


def stated(ru: str, en: str, **where: Any) -> Problem:
    """A problem whose words come from outside the program (a text stored or received in
    both languages), never for the program's own words: those are codes of the catalogue
    with their parameters (tests/texts lists the callers; there are none today)."""
    return Problem("stated", params={"text": Word(en, ru, en)}, **where)


#: the rules of the course of a game that the seeds do not number (the game log cites them
#: as "FIIM, course of the game: ..."), in Russian
COURSE_OF_THE_GAME_RU: dict[str, str] = {
    "a tie": "равенство голосов",
    "fouls": "фолы",
    "night 0, the agreement": "нулевая ночь, договорка",
    "nominations": "выставление кандидатур",
    "one nominee": "одна кандидатура",
    "one shot a night": "один выстрел за ночь",
    "one speech a day": "одна речь в день",
    "order of speeches": "порядок речей",
    "roles are dealt first": "сначала раздача ролей",
    "the day's speeches": "речи дня",
    "the don's and the sheriff's checks": "проверки дона и шерифа",
    "the end of the game": "окончание игры",
    "the judge's protocol": "протокол судьи",
    "the end": "окончание игры",
    "the shot": "выстрел",
    "the vote on lifting": "голосование за подъём",
    "the vote": "голосование",
}
_COURSE = ", course of the game: "

#: the tournament's own rules that neither federation's text numbers (the program keeps
#: them for every tournament, `domain.invariants`): clause -> its Russian words
TOURNAMENT_RULES_RU: dict[str, str] = {
    "tournament rule: one game a round": "правило турнира: одна игра за тур",
    "tournament rule: the seated player plays":
        "правило турнира: играет рассаженный игрок или записанная замена",
    "tournament rule: a withdrawn player plays no more":
        "правило турнира: выбывший игрок дальше не играет",
}


def translate_clause(clause: str, lang: str) -> str:
    """Only the reference (`FSM 8.4.3`), federation names in the reader's language (as
    the registered profiles name them); none
    for the program's own documents (`scoring.md 1`), which cite no rule a person reads."""
    ref = clause.split(" (", 1)[0]
    if ref.startswith(("scoring.md", "format 1")):  # the program's documents, not a rule
        return ""
    if lang == "ru":
        if ref in TOURNAMENT_RULES_RU:
            return TOURNAMENT_RULES_RU[ref]
        if _COURSE in ref:
            federation, what = ref.split(_COURSE, 1)
            ref = f"{federation}, ход игры: {COURSE_OF_THE_GAME_RU.get(what, what)}"
    return cite(ref, lang)


class Reason(Protocol):
    """What a refusal carries: a `Problem`, or an item of the same shape (an appeal's
    `Refusal`). The web app and the CLI show `message(lang)`, the API `as_dict(lang)`."""

    @property
    def code(self) -> str: ...
    @property
    def clause(self) -> str | None: ...
    @property
    def warning(self) -> bool: ...
    def message(self, lang: str = "en") -> str: ...
    def as_dict(self, lang: str = "en") -> dict[str, Any]: ...


class Refused(ValueError):
    """Every refusal of the program: a file, a protocol, a service's use case, a seating
    request. It carries every reason at once (`problems`), so that a person fixes the
    input in one pass; the web app has one handler for the whole family (an HTML page or
    the API's JSON: codes, params, message), the CLI one (exit 1, the problems listed).

    `status` says what kind of refusal it is, in HTTP's numbers: 422 the input breaks a
    rule, 404 nothing of that name, 403 not allowed, 409 not in this state, 503 busy."""

    status: int = 422
    #: the API's `error` field
    error: ClassVar[str] = "refused"

    def __init__(self, problems: Sequence[Reason]) -> None:
        self.problems: list[Any] = list(problems)
        super().__init__(self.summary())

    @property
    def errors(self) -> list[Any]:
        """The reasons that refuse (warnings are shown beside them)."""
        return [p for p in self.problems if not p.warning]

    def summary(self, lang: str = "en") -> str:
        errors = self.errors
        first = errors[0].message(lang) if errors else "refused"
        if len(errors) > 1:
            first += (f" (и ещё {len(errors) - 1})" if lang == "ru"
                      else f" (and {len(errors) - 1} more)")
        return first

    def message(self, lang: str = "en") -> str:
        """Every reason, in the reader's language."""
        return "; ".join(p.message(lang) for p in self.errors) or self.summary(lang)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"error": self.error, "message": self.message(lang),
                "problems": [p.as_dict(lang) for p in self.problems]}


class ProtocolRefused(Refused):
    """A file or protocol is refused as a whole; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
