"""Words of the web pages, Russian first and English second (the core's `i18n` holds the
words the CLI shares: column headers, roles, results, parts of a score)."""

from __future__ import annotations

from typing import Final

from mafiatab import i18n

WEB: Final[dict[str, tuple[str, str]]] = {
    "app": ("Мафия: турнир", "Mafia: tournament"),
    "tournaments": ("Турниры", "Tournaments"),
    "sign_in": ("Войти", "Sign in"),
    "sign_out": ("Выйти", "Sign out"),
    "account": ("Учётная запись", "Account"),
    "password": ("Пароль", "Password"),
    "code": ("Код турнира", "Tournament code"),
    "code_hint": ("Код выдаёт организатор", "The organizer hands out the code"),
    "bad_login": ("Неверное имя или пароль", "Wrong name or password"),
    "bad_code": ("Код не подходит", "The code does not fit"),
    "standings": ("Турнирная таблица", "Standings"),
    "all_stages": ("Все стадии", "All stages"),
    "after_round": ("после тура {n}", "after round {n}"),
    "confirmed_games": ("подтверждено игр: {done} из {total}", "games confirmed: {done} of {total}"),
    "standings_hidden": ("Таблица скрыта до конца турнира", "Standings are hidden until the end"),
    "extras_hidden": ("Доп. баллы скрыты до конца турнира; показаны основные баллы",
                      "Extra points are hidden until the end; main points are shown"),
    "my_tables": ("Мои столы", "My tables"),
    "manage": ("Судейская", "Head judge"),
    "setup": ("Настройка", "Set-up"),
    "audit": ("Журнал", "Audit log"),
    "new_tournament": ("Новый турнир", "New tournament"),
    "name": ("Название", "Name"),
    "rules": ("Правила", "Rules"),
    "create": ("Создать", "Create"),
    "round": ("Тур", "Round"),
    "table": ("Стол", "Table"),
    "stage": ("Стадия", "Stage"),
    "state": ("Состояние", "State"),
    "judge": ("Судья", "Judge"),
    "open": ("Открыть", "Open"),
    "protocol": ("Протокол", "Protocol"),
    "seat": ("Место", "Seat"),
    "role": ("Роль", "Role"),
    "fouls": ("Фолы", "Fouls"),
    "extra": ("Доп.", "Extra"),
    "will": ("Завещ.", "Will"),
    "protocol_pts": ("Прот.", "Prot."),
    "same": ("= завещ.", "= will"),
    "penalty": ("Штраф", "Penalty"),
    "points": ("Баллы", "Points"),
    "note": ("Примечание", "Note"),
    "critical": ("критич.", "critical"),
    "explanation": ("Пояснение (9.10)", "Explanation (9.10)"),
    "approved": ("одобрено ГС", "approved by HJ"),
    "limits_approved": ("ГС одобрил превышение лимитов", "HJ approved going past the limits"),
    "result": ("Результат", "Result"),
    "first_killed": ("Первый убиенный (ПУ)", "First killed"),
    "best_move": ("Лучший ход", "Best move"),
    "miss": ("— (промах)", "— (a miss)"),
    "none": ("—", "—"),
    "day1_vote_left": ("Ушли голосованием в 1-й день", "Left by the 1st day's vote"),
    "broken_table": ("Сломанный стол (ФСМ 8.6.6)", "Broken table (FSM 8.6.6)"),
    "pu_protocol": ("Протокол ПУ (ФСМ 8.3.9)", "First killed's protocol (FSM 8.3.9)"),
    "pu_extra": ("Доп. балл ПУ", "First killed's extra"),
    "pu_situation": ("Версия", "Version"),
    "pu_right": ("верна", "right"),
    "pu_aside": ("два заявления (8.3.9.11)", "two claims (8.3.9.11)"),
    "colour": ("Цвет", "Colour"),
    "tag": ("Пометка", "Tag"),
    "days": ("Выставления и голосования", "Nominations and votes"),
    "day": ("День", "Day"),
    "nominated": ("Выставлены", "Nominated"),
    "votes": ("Голоса (место:голоса)", "Votes (seat:votes)"),
    "left": ("Ушли", "Left"),
    "protest": ("Протест (ФИИМ 8.9.1)", "Protest (FIIM 8.9.1)"),
    "judge_name": ("Судья (ФИО)", "Judge's name"),
    "date": ("Дата", "Date"),
    "save": ("Сохранить", "Save"),
    "submit": ("Подать протокол", "Submit the protocol"),
    "saved": ("Черновик сохранён (ревизия {n})", "Draft saved (revision {n})"),
    "submitted": ("Протокол подан (ревизия {n})", "Protocol submitted (revision {n})"),
    "no_problems": ("Нарушений правил нет", "No rule problems"),
    "problems_found": ("Нарушений: {n}", "Problems: {n}"),
    "confirm": ("Подтвердить", "Confirm"),
    "return": ("Вернуть", "Send back"),
    "reason": ("Причина", "Reason"),
    "options": ("Публикация", "Publication"),
    "hide_standings": ("Скрыть таблицу до конца", "Hide standings until the end"),
    "hide_extras": ("Скрыть доп. баллы до конца", "Hide extra points until the end"),
    "finished": ("Турнир окончен (всё открыто)", "Tournament finished (all shown)"),
    "apply": ("Применить", "Apply"),
    "lots": ("Жребий", "Lot"),
    "seed": ("Зерно (объявленное)", "Seed (announced)"),
    "draw": ("Тянуть жребий", "Draw"),
    "no_lot": ("Жребий никому не нужен", "Nobody needs a lot"),
    "players": ("Игроки", "Players"),
    "players_hint": ("По строке: id;ник;клуб", "One a line: id;nickname;club"),
    "add": ("Добавить", "Add"),
    "stages": ("Стадии", "Stages"),
    "stage_hint": ("id;название;qualification|semifinal|final", "id;name;qualification|semifinal|final"),
    "seating": ("Рассадка", "Seating"),
    "seating_hint": ("По строке: стадия тур стол игрок1 … игрок10 [судья]",
                     "One a line: stage round table player1 … player10 [judge]"),
    "import_seating": ("Рассадка из файла (формат 1)", "Seating from a file (format 1)"),
    "import_file": ("Импорт турнира (формат 1)", "Import a tournament (format 1)"),
    "upload": ("Загрузить", "Upload"),
    "staff": ("Судьи и роли", "Judges and roles"),
    "user": ("Имя", "Name"),
    "grant": ("Выдать роль", "Grant"),
    "make_code": ("Выдать код", "Make a code"),
    "code_made": ("Код для {user} ({role}): {code} — покажите его один раз",
                  "Code for {user} ({role}): {code} — shown once"),
    "assign": ("Назначить судью", "Assign a judge"),
    "password_new_account": ("Пароль новой учётной записи", "Password of a new account"),
    "grant_hint": ("Пароль задаётся только новой учётной записи; у существующей его меняет "
                   "только владелец. Код входа создаёт учётную запись только для этого турнира "
                   "и одной роли (судья, игрок, зритель); код действует до конца турнира.",
                   "A password is set for a new account only; an existing account's password "
                   "is changed by its owner alone. A sign-in code makes an account for this "
                   "tournament and one role (judge, player, viewer); it works until the "
                   "tournament ends."),
    "revoke_role": ("Забрать роль", "Take the role away"),
    "codes": ("Коды входа", "Sign-in codes"),
    "code_until": ("действует до {at}", "valid until {at}"),
    "code_till_end": ("действует до конца турнира", "valid until the tournament ends"),
    "code_revoked": ("отозван", "revoked"),
    "code_expired": ("истёк", "expired"),
    "revoke_code": ("Отозвать", "Revoke"),
    "plain_http": ("Приложение открыто по HTTP без шифрования. В сети зала пароли, коды и "
                   "протоколы видны всем в той же сети Wi-Fi: используйте отдельную закрытую "
                   "сеть с паролем, выдавайте судьям коды (не пароли) и отзывайте их после "
                   "турнира; для шифрования запустите сервер с --https (сертификат) или "
                   "за прокси с HTTPS и --trust-proxy.",
                   "The app is served over plain HTTP. On the hall's network passwords, codes "
                   "and protocols can be read by anyone on the same Wi-Fi: use a separate "
                   "network with a password, give judges codes (not passwords) and revoke "
                   "them after the tournament; for encryption start the server with --https "
                   "(a certificate) or behind an HTTPS proxy with --trust-proxy."),
    "my_account": ("Учётная запись", "Account"),
    "old_password": ("Текущий пароль", "Current password"),
    "new_password": ("Новый пароль (от 10 символов)", "New password (10 characters or more)"),
    "change_password": ("Сменить пароль", "Change the password"),
    "sign_out_everywhere": ("Выйти на всех устройствах", "Sign out everywhere"),
    "game": ("Игра", "Game"),
    "games_of": ("Игры игрока", "The player's games"),
    "game_total": ("Всего за игру", "Game total"),
    "not_confirmed": ("Протокол ещё не подтверждён", "The protocol is not confirmed yet"),
    "no_tables": ("Вам пока не назначен ни один стол", "No table is assigned to you yet"),
    "forbidden": ("Нет доступа", "Not allowed"),
    "not_found": ("Не найдено", "Not found"),
    "error": ("Ошибка", "Error"),
    "back": ("Назад", "Back"),
    "live": ("обновляется сама", "updates itself"),
    "role_organizer": ("организатор", "organizer"),
    "role_head_judge": ("главный судья", "head judge"),
    "role_judge": ("судья", "judge"),
    "role_viewer": ("зритель", "viewer"),
    "state_draft": ("черновик", "draft"),
    "state_submitted": ("подан", "submitted"),
    "state_confirmed": ("подтверждён", "confirmed"),
    "state_returned": ("возвращён", "returned"),
    "conflict_reload": ("Обновите страницу", "Reload the page"),
    "api_doc": ("API (OpenAPI)", "API (OpenAPI)"),
    "edit": ("Править", "Edit"),
    "live_game": ("Вести игру", "Run the game"),
    "view": ("Смотреть", "View"),
    "colour_red": ("красный", "red"),
    "colour_black": ("чёрный", "black"),
}

#: the one-letter role marks of the paper protocol (К/Ш/Ч/Д)
ROLE_MARK: Final = {"red": ("К", "R"), "sheriff": ("Ш", "S"), "black": ("Ч", "B"), "don": ("Д", "D")}


def word(key: str, lang: str, **params: object) -> str:
    """A word of the pages; falls back to the core's words, then to the key itself."""
    pair = WEB.get(key) or i18n.TEXT.get(key)
    if pair is None:
        return key
    text = pair[0] if lang == "ru" else pair[1]
    return text.format(**params) if params else text
