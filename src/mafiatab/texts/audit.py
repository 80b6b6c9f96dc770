"""The audit log as sentences: "judge1 сохранил(а) черновик протокола игры q1-t1
(ревизия 1)" rather than the stored action code and its JSON. The stored entry keeps its
codes (the API and the archive give them as they are); only the page reads them out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mafiatab.texts.service import ROLES

#: action -> the sentence (its placeholders are the entry's detail, made readable)
AUDIT: Final[dict[str, tuple[str, str]]] = {
    "create_tournament": ("создал(а) турнир «{name}» (правила {rules})",
                          "created the tournament '{name}' ({rules} rules)"),
    "register_players": ("зарегистрировал(а) игроков: {players}", "registered {players}"),
    "grant_role": ("выдал(а) {user} роль «{role}»", "gave {user} the role {role}"),
    "revoke_role": ("забрал(а) у {user} роль «{role}»", "took the role {role} from {user}"),
    "create_code": ("выдал(а) код входа для {user} (роль «{role}»)",
                    "made a sign-in code for {user} (role {role})"),
    "revoke_code": ("отозвал(а) код входа {user} (роль «{role}»)",
                    "revoked the sign-in code of {user} (role {role})"),
    "save": ("сохранил(а) черновик протокола игры {game} (ревизия {revision})",
             "saved a draft of game {game}'s protocol (revision {revision})"),
    "submit": ("подал(а) протокол игры {game} (ревизия {revision})",
               "submitted game {game}'s protocol (revision {revision})"),
    "confirm": ("подтвердил(а) протокол игры {game} (ревизия {revision})",
                "confirmed game {game}'s protocol (revision {revision})"),
    "return": ("вернул(а) протокол игры {game} судье (ревизия {revision})",
               "sent game {game}'s protocol back (revision {revision})"),
    "conflict": ("не записан протокол игры {game}: его уже изменили (сохранён здесь)",
                 "game {game}'s protocol was not written: it had changed (kept here)"),
    "correct": ("исправил(а) протокол игры {game} (ревизия {revision}), он ждёт подтверждения",
                "corrected game {game}'s protocol (revision {revision}); it waits for "
                "confirmation"),
    "replace_player": ("заменил(а) игрока на месте {seat} игры {game}: {before} → {after}",
                       "replaced the player in seat {seat} of game {game}: {before} -> {after}"),
    "drop_log": ("сбросил(а) лог игры {game}", "dropped game {game}'s log"),
    "game_end": ("завершил(а) игру {game}", "ended game {game}"),
    "assign_judge": ("назначил(а) судью {judge} на игру {game}",
                     "assigned the judge {judge} to game {game}"),
    "add_stage": ("добавил(а) стадию {stage}", "added the stage {stage}"),
    "lots": ("провёл(а) жребий (зерно «{seed}»)", "drew lots (seed '{seed}')"),
    "lot_redraw": ("провёл(а) жребий №{replaces} заново (зерно «{seed}»): {reason}",
                   "drew lot {replaces} again (seed '{seed}'): {reason}"),
    "set_visibility": ("изменил(а) публикацию таблицы", "changed what the standings show"),
    "set_options": ("изменил(а) настройки турнира", "changed the tournament's settings"),
    "four_eyes_on": ("включил(а) правило «четыре глаза»: не подтверждает и не решает тот, кто "
                     "подал, исправил или подал за игрока",
                     "switched the four-eyes rule on: nobody confirms or decides what he "
                     "submitted, corrected or filed"),
    "four_eyes_off": ("выключил(а) правило «четыре глаза»", "switched the four-eyes rule off"),
    "set_schedule": ("задал(а) расписание туров", "set the rounds' schedule"),
    "set_time_zone": ("задал(а) часовой пояс турнира", "set the tournament's time zone"),
    "checkin_key": ("сделал(а) новый QR-код стойки регистрации",
                    "made a new QR code for the check-in desk"),
    "link_player": ("связал(а) игрока {player} с учётной записью {user}",
                    "linked the player {player} to the account {user}"),
    "import": ("импортировал(а) турнир", "imported the tournament"),
    "import_archive": ("восстановил(а) турнир из архива", "restored the tournament from an archive"),
    "appeal_file": ("подал(а) дело {case}", "filed the case {case}"),
    "appeal_message": ("написал(а) в деле {case}", "wrote in the case {case}"),
    "appeal_decide": ("решил(а) дело {case}", "decided the case {case}"),
    "appeal_withdraw": ("отозвал(а) дело {case}", "withdrew the case {case}"),
    "appeal_refused": ("подача отклонена", "a filing was refused"),
    "announcements": ("изменил(а) объявления на экранах", "changed the screens' announcements"),
    "roles_delay": ("задал(а) задержку ролей на экранах: {seconds} с",
                    "set the screens' roles delay to {seconds} s"),
    "overlay_link": ("выдал(а) ссылку на оверлей", "made an overlay link"),
    "give_organizer": ("дал(а) {user} право создавать турниры",
                       "let {user} create tournaments"),
    "set_password": ("задал(а) пароль учётной записи {user}", "set the password of {user}"),
    "sign_out_everywhere": ("вышел(шла) на всех устройствах", "signed out everywhere"),
    "sign_in_code": ("вошёл(шла) по коду", "signed in with a code"),
    "registration_settings": ("изменил(а) настройки записи на турнир",
                              "changed the registration's settings"),
    "sign_up": ("заявка № {registration}: {nickname}", "registration no. {registration}: "
                "{nickname}"),
    "accept_registration": ("принял(а) заявку № {registration}",
                            "accepted registration no. {registration}"),
    "decline_registration": ("отклонил(а) заявку № {registration}",
                             "declined registration no. {registration}"),
    "withdraw_registration": ("отозвал(а) заявку № {registration}",
                              "withdrew registration no. {registration}"),
    "promote_registration": ("принял(а) заявку № {registration} из листа ожидания",
                             "accepted registration no. {registration} from the waiting list"),
    "name_award": ("назначил(а) награду «{award}»", "named the award '{award}'"),
    "exhibition_player": ("изменил(а) зачёт игрока {player}",
                          "changed whether {player} is ranked"),
    "other": ("действие «{action}»", "action '{action}'"),
}

#: the names of the entry's details, when a sentence lists them
FIELDS: Final[dict[str, tuple[str, str]]] = {
    "reason": ("причина", "reason"),
    "seat": ("место", "seat"),
    "extra": ("доп. балл", "extra"),
}

_FEDERATION: Final = {"fsm": ("ФСМ", "FSM"), "fiim2018": ("ФИИМ (2018)", "FIIM (2018)")}


class _Filled(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "—"


def audit_sentence(action: str, detail: Mapping[str, Any], lang: str) -> str:
    """What an entry says, in the reader's language."""
    from mafiatab.texts import count

    i = 0 if lang == "ru" else 1
    pair = AUDIT.get(action)
    params = _Filled({k: v for k, v in detail.items() if isinstance(v, str | int)})
    if pair is None:
        pair, params["action"] = AUDIT["other"], action
    if isinstance(detail.get("role"), str):
        params["role"] = ROLES.get(detail["role"], (detail["role"],) * 2)[i]
    if isinstance(detail.get("rules"), str):
        params["rules"] = _FEDERATION.get(detail["rules"], (detail["rules"],) * 2)[i]
    if isinstance(detail.get("players"), list):
        params["players"] = count(len(detail["players"]), "player", lang)
    text = pair[i].format_map(params)
    if isinstance(detail.get("reason"), str) and detail["reason"]:
        text += f"; {FIELDS['reason'][i]}: {detail['reason']}"
    return text
