"""The services' words: why a use case refused (`services.errors`, accounts, the live
log, the screens), Russian first and English second. Keys are the refusals' codes, which
the JSON API gives as they are."""

from __future__ import annotations

from typing import Final

SERVICE: Final[dict[str, tuple[str, str]]] = {
    "no_tournament": ("турнир {ref!r} не найден", "tournament {ref!r} not found"),
    "ambiguous_tournament": (
        "турниров с названием {ref!r} несколько (id: {ids}); укажите id",
        "several tournaments are named {ref!r} (ids: {ids}); give the id",
    ),
    "no_game": ("игра {game}: не найдена в турнире", "game {game}: not in the tournament"),
    "conflict": (
        "игра {game}: пока вы правили ревизию {base}, {author} сохранил(а) ревизию {head} "
        "({at}); ваш протокол не записан, но сохранён в журнале (запись {audit}) — "
        "откройте ревизию {head} и внесите правки снова",
        "game {game}: while you edited revision {base}, {author} saved revision {head} "
        "({at}); yours was not written but is kept in the audit log (entry {audit}): "
        "open revision {head} and apply your changes again",
    ),
    "decided_meanwhile": (
        "дело {case} уже решил(а) {author} мгновением раньше; ваше решение не записано — "
        "откройте дело и посмотрите решение",
        "case {case} was decided by {author} a moment before; yours was not written: "
        "open the case to see the decision",
    ),
    "bad_state": (
        "игра {game}: нельзя {action} протокол в состоянии «{state}»",
        "game {game}: cannot {action} a protocol that is {state}",
    ),
    "same_confirmer": (
        "игра {game}: протокол подал(а) {author}; подтвердить его должен другой человек "
        "(правило «четыре глаза» в настройках турнира: не подтверждает тот, кто подал или "
        "исправил)",
        "game {game}: {author} submitted this protocol; someone else must confirm it "
        "(the tournament's four-eyes rule: nobody confirms what he submitted or corrected)",
    ),
    "corrector_confirms": (
        "игра {game}: протокол исправил(а) {author}; подтвердить исправление должен другой "
        "человек (правило «четыре глаза» в настройках турнира: не подтверждает тот, кто "
        "подал или исправил)",
        "game {game}: {author} corrected this protocol; someone else must confirm the "
        "correction (the tournament's four-eyes rule: nobody confirms what he submitted "
        "or corrected)",
    ),
    "correction_reason_needed": (
        "игра {game}: укажите причину исправления — её увидят судья стола и игроки",
        "game {game}: give the reason for the correction; the table judge and the players "
        "will see it",
    ),
    "correction_reason_long": (
        "игра {game}: причина исправления — не длиннее {n} знаков",
        "game {game}: a correction's reason has at most {n} characters",
    ),
    "correction_no_change": (
        "игра {game}: исправление ничего не меняет в протоколе",
        "game {game}: the correction changes nothing in the protocol",
    ),
    "correct_instead": (
        "игра {game}: протокол подан и ждёт подтверждения; главный судья меняет его "
        "исправлением с причиной («Исправить») или возвращает судье стола",
        "game {game}: the protocol is submitted and waits for confirmation; the head judge "
        "changes it by a correction with its reason ('Correct') or returns it to the table "
        "judge",
    ),
    "not_allowed": (
        "{user}: нет прав на «{action}» в турнире {tournament} (нужна роль: {roles})",
        "{user}: not allowed to {action} in tournament {tournament} (needs: {roles})",
    ),
    "bad_role": ("неизвестная роль {role!r}: {choices}", "unknown role {role!r}: {choices}"),
    "seating_line": (
        "строка рассадки не разобрана (этап, тур, стол, десять игроков, судья): {line}",
        "a seating line that cannot be read (stage, round, table, ten players, judge): {line}",
    ),
    "bad_input": (
        "поле «{field}» не заполнено или заполнено неверно",
        "the field '{field}' is empty or not valid",
    ),
    "lot_changed": ("жребий уже провёл кто-то другой: обновите страницу",
                    "somebody else has just drawn lots: reload the page"),
    "lot_reason_needed": ("жребий заново: укажите причину", "a lot drawn again needs a reason"),
    "lot_reason_long": ("причина: не длиннее {limit} знаков",
                        "the reason: at most {limit} characters"),
    "no_such_lot": ("жребия №{number} нет (или он уже заменён)",
                    "there is no lot {number} (or it was replaced already)"),
    "reason_needed": (
        "игра {game}: укажите причину возврата",
        "game {game}: a reason is needed to return a protocol",
    ),
    "game_id_mismatch": (
        "протокол игры {value!r} нельзя сохранить как игру {game}",
        "the protocol of game {value!r} cannot be saved as game {game}",
    ),
    "unknown_rules": (
        "неизвестные правила {value!r}: fiim2018 или fsm",
        "unknown rules {value!r}: fiim2018 or fsm",
    ),
    "out_of_order": (
        "игра {game}: ожидалась операция №{expected}, пришла №{got}",
        "game {game}: operation {expected} expected, got {got}",
    ),
    "roles_delay": ("задержка ролей: от 0 до {limit} секунд", "roles delay: 0 to {limit} seconds"),
    "announcements": ("объявления: не длиннее {limit} знаков",
                      "announcements: at most {limit} characters"),
    "typed_too_long": ("набранное в полях: не больше {fields} полей по {limit} знаков",
                       "typed values: at most {fields} fields of {limit} characters"),
    "replacement_reason": (
        "игра {game}, место {seat}: укажите причину замены игрока",
        "game {game}, seat {seat}: give the reason for the replacement",
    ),
    "replacement_same": (
        "игра {game}, место {seat}: этот игрок уже на этом месте",
        "game {game}, seat {seat}: this player is in that seat already",
    ),
    "replacement_seat": (
        "игра {game}: места {seat} нет за столом (1–10)",
        "game {game}: there is no seat {seat} at the table (1-10)",
    ),
    "replacement_player": (
        "игра {game}: игрок {player} не зарегистрирован в турнире",
        "game {game}: player {player} is not registered in the tournament",
    ),
    "duplicate_player": ("игрок {value!r} уже зарегистрирован", "player {value!r} is already registered"),
}

ACTIONS: Final[dict[str, tuple[str, str]]] = {
    "save": ("сохранить", "save"),
    "submit": ("подать", "submit"),
    "confirm": ("подтвердить", "confirm"),
    "correct": ("исправить", "correct"),
    "return": ("вернуть", "return"),
    "manage": ("управлять турниром", "manage the tournament"),
    "name_awards": ("назначать награды турнира", "name the tournament's awards"),
    "replace": ("заменить игрока", "replace a player"),
    "read": ("читать", "read"),
    "file": ("подать протест или апелляцию", "file a protest or an appeal"),
    "overlay": ("смотреть оверлей трансляции", "watch the stream overlay"),
    "read_standings": ("смотреть таблицу", "read the standings"),
    "write": ("писать в обсуждение", "write in the thread"),
    "withdraw": ("отозвать", "withdraw"),
    "decide": ("решить", "decide"),
}
STATES: Final[dict[str, tuple[str, str]]] = {
    "draft": ("черновик", "a draft"),
    "submitted": ("подан", "submitted"),
    "confirmed": ("подтверждён", "confirmed"),
    "returned": ("возвращён", "returned"),
}

#: accounts, passwords, sign-in codes, sessions (`services.accounts`)
ACCOUNT: Final[dict[str, tuple[str, str]]] = {
    "password_short": (
        "пароль — не короче {n} символов",
        "a password has at least {n} characters",
    ),
    "password_long": (
        "пароль — не длиннее {n} символов",
        "a password has at most {n} characters",
    ),
    "bad_name": (
        "имя учётной записи: от 1 до {n} символов, без управляющих",
        "an account name has 1 to {n} characters, none of them control characters",
    ),
    "account_exists": (
        "учётная запись {user} уже есть: её пароль меняет только владелец",
        "account {user} exists: only its owner changes its password",
    ),
    "code_for_account": (
        "учётная запись {user} уже есть: код входа создаёт новую учётную запись "
        "для этого турнира, выберите другое имя",
        "account {user} exists: a sign-in code makes a new account for this tournament; "
        "choose another name",
    ),
    "code_role": (
        "код входа дают только для ролей: {roles}",
        "sign-in codes are for these roles only: {roles}",
    ),
    "code_account_elsewhere": (
        "{user} — учётная запись по коду другого турнира; роль в этом турнире ей не дать",
        "{user} is a code account of another tournament; it cannot have a role here",
    ),
    "code_account_role": (
        "{user} входит по коду; роль «{role}» требует учётной записи с паролем",
        "{user} signs in with a code; the role {role} needs an account with a password",
    ),
    "not_organizer": (
        "{user}: создавать турниры может только организатор (право даёт другой организатор)",
        "{user}: only an organizer creates tournaments (another organizer gives the right)",
    ),
    "no_account": ("нет учётной записи {user}", "no account {user}"),
    "four_eyes": (
        "{case}: дело подал(а) {user}; решить его должен другой человек (правило «четыре "
        "глаза» в настройках турнира: не решает тот, кто подал дело или подал его за игрока)",
        "{case}: {user} filed this case; someone else must decide it (the tournament's "
        "four-eyes rule: nobody decides a case he filed, for himself or for a player)",
    ),
    "four_eyes_code": (
        "{case}: дело подано учётной записью {filer}, код входа которой выдал(а) {user}; "
        "решить его должен другой человек (правило «четыре глаза» в настройках турнира: не "
        "решает тот, кто мог подать дело сам)",
        "{case}: filed by the account {filer}, whose sign-in code {user} issued; someone "
        "else must decide it (the tournament's four-eyes rule: nobody decides a case he "
        "could have filed himself)",
    ),
    "wrong_password": ("неверный пароль", "wrong password"),
    "no_code": ("нет такого кода", "no such code"),
    "busy": (
        "сервер занят проверкой паролей, попробуйте через несколько секунд",
        "the server is busy checking passwords; try again in a few seconds",
    ),
    "bad_expiry": (
        "срок действия кода: от 1 минуты до 30 дней",
        "a code lives from 1 minute to 30 days",
    ),
}

#: the tournament roles in the glossary's words (a refusal names the roles it needs)
ROLES: Final[dict[str, tuple[str, str]]] = {
    "organizer": ("организатор", "organizer"),
    "head_judge": ("главный судья", "head judge"),
    "judge": ("судья", "judge"),
    "viewer": ("зритель", "viewer"),
    "player": ("игрок", "player"),
    "appeals_commission": ("апелляционная комиссия", "appeals commission"),
}
