"""The refusals of the services that keep a section of their own (the roster, the set-up,
the people, the day, the zone, the video, the teams, the background jobs), Russian first
and English second. Each refusal class names its section (`texts` of
`services.errors.ServiceError`); its problems carry the code and the parameters, never
finished words."""

from __future__ import annotations

from typing import Final

#: why a roster line is not a player (`services.roster.Refusal`)
ROSTER_REASON: Final[dict[str, tuple[str, str]]] = {
    "empty_nickname": ("нет ника", "no nickname"),
    "long_nickname": ("ник длиннее {n} символов", "a nickname longer than {n} characters"),
    "long_club": ("название клуба длиннее {n} символов", "a club name longer than {n} characters"),
    "bad_id": ("id: от 1 до {n} букв, цифр, «-» или «_»",
               "id: 1 to {n} letters, digits, '-' or '_'"),
    "control": ("управляющий символ в строке", "a control character in the line"),
    "too_many_fields": (
        "полей больше двух, а строки заголовка нет: первой строкой напишите «ник;клуб;id»",
        "more than two fields and no header row: make the first line 'nickname;club;id'"),
    "extra_fields": ("лишние поля после {n}-го", "extra fields after field {n}"),
    "taken_nickname": ("ник «{value}» уже в турнире", "nickname '{value}' is already registered"),
    "twice_nickname": ("ник «{value}» уже был в строке {line}",
                       "nickname '{value}' was already on line {line}"),
    "taken_id": ("id «{value}» уже занят", "id '{value}' is taken"),
    "too_many_lines": ("строк больше {n}", "more than {n} lines"),
    "long_line": ("строка длиннее {n} символов", "a line longer than {n} characters"),
}


#: the roster's refusals (`services.roster.RosterError`)
ROSTER: Final[dict[str, tuple[str, str]]] = {
    "no_participant": ("в турнире нет игрока {player}", "no player {player} in the tournament"),
    "bad_player": ("игрок {player}: {reason}", "player {player}: {reason}"),
    "bad_file": (
        "файл не прочитан: {detail}. Нужен CSV (UTF-8 или Windows-1251) или XLSX со строкой "
        "заголовка: ник;клуб (и id по желанию)",
        "the file could not be read: {detail}. A CSV (UTF-8 or Windows-1251) or XLSX with a "
        "header row is needed: nickname;club (and id if you like)"),
    "no_header": (
        "в первой строке файла нет заголовка (ник, клуб, id): «{line}»",
        "the file's first row is no header (nickname, club, id): '{line}'"),
    "withdrawn_seated": (
        "{players}: снят(ы) с турнира, за стол не сажаются",
        "{players}: withdrawn from the tournament, not seated again"),
}


#: an administrator's resets (`services.account_admin.AdminRefused`)
ADMIN: Final[dict[str, tuple[str, str]]] = {
    "reset_code_account": (
        "{user} входит по коду турнира; пароля у такой учётной записи нет",
        "{user} signs in with a tournament's code; such an account has no password",
    ),
    "rights_code_account": (
        "{user} входит по коду турнира: права организатора и администратора даются только "
        "учётной записи с паролем",
        "{user} signs in with a tournament's code: the organizer and administrator rights "
        "go only to an account with a password",
    ),
}


#: the set-up's refusals (`services.setup.SetupRefused`, `SetupInvalid`)
SETUP: Final[dict[str, tuple[str, str]]] = {
    "rules_locked": (
        "правила и их настройки меняются только до первой внесённой игры; игра {game} "
        "уже внесена ({state}, {author})",
        "the rules and their options change only until the first game is entered; game "
        "{game} is entered ({state}, {author})"),
    "rules_needed": (
        "выберите правила турнира: {choices}",
        "choose the tournament's rules: {choices}"),
}


#: the people's and clubs' refusals (`services.people.PeopleError`)
PEOPLE: Final[dict[str, tuple[str, str]]] = {
    "no_person": ("игрок №{ref} не найден", "player no. {ref} not found"),
    "no_club": ("клуб «{ref}» не найден", "club '{ref}' not found"),
    "no_merge": ("объединение №{ref} не найдено", "merge no. {ref} not found"),
    "same_person": ("нельзя объединить игрока с самим собой",
                    "a player cannot be merged with himself"),
    "same_tournament": (
        "игроки №{kept} и №{merged} оба играли в турнире «{tournament}»: это два человека",
        "players no. {kept} and no. {merged} both played in '{tournament}': two people",
    ),
    "already_split": ("объединение №{ref} уже разделено ({at})",
                      "merge no. {ref} was already split ({at})"),
    "split_later_first": (
        "сначала разделите более позднее объединение №{later}: игрок №{kept} с тех пор "
        "объединён снова или изменился",
        "split the later merge no. {later} first: player no. {kept} was merged again or "
        "changed since",
    ),
    "not_admin": (
        "{user}: настройки рейтинга сервера меняет только администратор сервера",
        "{user}: only the server's administrator changes the server's rating settings",
    ),
    "bad_stage_kind": ("неизвестный вид стадии {value!r}", "unknown stage kind {value!r}"),
    "no_stage_kind": ("нужен хотя бы один вид стадии", "at least one stage kind is needed"),
    "bad_min_games": ("минимум рейтинговых игр — целое число от 0 до {most}",
                      "the minimum of rated games is a whole number from 0 to {most}"),
    "bad_table": ("за столом нужны 10 разных игроков: 6 мирных, шериф, 2 мафии и дон",
                  "a table needs 10 different players: 6 civilians, a sheriff, 2 mafia, a don"),
    "bad_rules": ("неизвестные правила {value!r}", "unknown rules {value!r}"),
    "not_rated": ("игра {game} турнира №{ref} не рейтинговая или не найдена",
                  "game {game} of tournament no. {ref} is not rated or not found"),
    "reason_too_long": ("причина длиннее {n} знаков", "the reason is longer than {n} characters"),
}


#: why a game's video link or offset is refused (`services.video.BadVideo`)
VIDEO_WHY: Final[dict[str, tuple[str, str]]] = {
    "empty": ("нужна ссылка", "a link is needed"),
    "too_long": ("слишком длинная ссылка", "the link is too long"),
    "spaces": ("в ссылке пробелы", "the link has spaces"),
    "scheme": ("ссылка должна начинаться с http:// или https://",
               "the link must start with http:// or https://"),
    "host": ("в ссылке нет сайта", "the link has no host"),
    "not_number": ("смещение — целое число секунд", "the offset is whole seconds"),
    "range": ("смещение — от 0 до 172800 секунд", "the offset is 0 to 172800 seconds"),
}


#: the day's refusals: check-in and no-shows (`services.checkin.DayRefused`)
DAY: Final[dict[str, tuple[str, str]]] = {
    "no_checkin_key": ("этот QR-код регистрации устарел — отсканируйте код на стойке",
                       "this check-in QR code is old: scan the one at the desk"),
    "no_player": ("игрок {player} не зарегистрирован в турнире",
                  "player {player} is not registered in the tournament"),
    "no_round": ("тура {round} стадии {stage} нет", "stage {stage} has no round {round}"),
    "not_seated": ("игрок {player} не сидит в туре {round}",
                   "player {player} is not seated in round {round}"),
    "present": ("игрок {player} на месте — заменять его не нужно",
                "player {player} is present: no need to replace him"),
    "not_present": ("игрок {player} не отмечен как пришедший",
                    "player {player} has not checked in"),
    "seated": ("игрок {player} уже сидит в туре {round}",
               "player {player} is already seated in round {round}"),
    "round_started": ("тур {round} стадии {stage} уже начат — рассадку не меняют",
                      "round {round} of stage {stage} has started: its seating stays"),
    "table_started": ("игра за столом {table} уже начата — её рассадку не меняют",
                      "the game at table {table} has started: its seating stays"),
    "breaks_rule": ("замена нарушает правило рассадки (клуб за одним столом или закрепление)",
                    "the change breaks a seating rule (one club at a table, or a pin)"),
    "too_few_present": ("на тур {round} пришло слишком мало игроков ({present})",
                        "too few players came for round {round} ({present})"),
    "removed": ("игрок {player} снят с турнира ({clause}) — сажать его за стол нельзя",
                "player {player} is removed from the tournament ({clause}): he may not be "
                "seated"),
}


#: a tournament's time zone (`services.clock.BadZone`)
ZONE: Final[dict[str, tuple[str, str]]] = {
    "bad_zone": (
        "часовой пояс {zone!r} неизвестен: нужно имя из базы часовых поясов, "
        "например Europe/Moscow",
        "time zone {zone!r} is unknown: give a zone database name, e.g. Europe/Moscow"),
}


#: a game's video (`services.video.BadVideo`): the reason is a word of `VIDEO_WHY`
VIDEO: Final[dict[str, tuple[str, str]]] = {
    "bad_video": ("{why}", "{why}"),
}


#: teams typed on the form (`services.teams.TeamsInvalid`)
TEAMS: Final[dict[str, tuple[str, str]]] = {
    "teams_line": ("строка «{line}»: нужно «Команда: игрок, игрок»",
                   "line '{line}': expected 'Team: player, player'"),
    "teams_unknown_player": ("игрок «{player}» не зарегистрирован в турнире",
                             "player '{player}' is not registered in the tournament"),
    "teams_too_many": ("команд больше {n}", "more than {n} teams"),
}


#: the background jobs' queue (`services.jobs.JobRefused`)
JOBS: Final[dict[str, tuple[str, str]]] = {
    "queue_full": ("очередь сервера полна ({waiting} задач): попробуйте через минуту",
                   "the server's queue is full ({waiting} jobs): try again in a minute"),
    "owner_queue_full": ("в очереди сервера уже ваши рассадки — не больше {limit} сразу: "
                         "дождитесь их или отмените одну",
                         "the server's queue holds your seatings already, at most {limit} "
                         "at once: wait for them or cancel one"),
    "job_running": ("рассадка уже составляется — дождитесь конца или отмените её",
                    "a seating is being generated already: wait for it or cancel it"),
    "no_job": ("нечего отменять: рассадка не составляется",
               "nothing to cancel: no seating is being generated"),
    # a job's reason (not a refusal): its process stopped twice, the job failed
    "job_process_lost": ("Процесс сервера, составлявший рассадку, остановился дважды. "
                         "Запустите её снова.",
                         "The server process that was generating the seating stopped "
                         "twice. Start it again."),
}


#: the players' photos' refusals (`services.photos.PhotoRefused`, `PhotoNotFound`)
PHOTOS: Final[dict[str, tuple[str, str]]] = {
    "photo_too_big": ("файл фото больше {limit} МБ", "the photo's file is over {limit} MB"),
    "photo_empty": ("файл фото пуст", "the photo's file is empty"),
    "photo_not_image": ("это не изображение (JPEG, PNG, WebP или GIF)",
                        "this is not an image (JPEG, PNG, WebP or GIF)"),
    "photo_too_large": ("изображение слишком большое: больше {limit} млн точек",
                        "the image is too large: over {limit} million pixels"),
    "photo_busy": ("сервер сейчас обрабатывает другие фото: отправьте снова через минуту",
                   "the server is processing other photos now: send it again in a minute"),
    "photo_too_small": ("изображение слишком маленькое (меньше {side}×{side} точек)",
                        "the image is too small (under {side}×{side} pixels)"),
    "no_player": ("игрок {player} не зарегистрирован в турнире",
                  "player {player} is not registered in the tournament"),
    "no_photo": ("у игрока {player} нет фото", "player {player} has no photo"),
}


#: the web layer's own refusals (`web.refusals`): what a request could not be read as, or
#: where it could not go; the JSON API gives the codes as they are
WEB_REFUSAL: Final[dict[str, tuple[str, str]]] = {
    "not_found": ("такой страницы нет", "no such page"),
    "no_such_stage": ("стадии {stage!r} в турнире нет", "the tournament has no stage {stage!r}"),
    "no_such_player": ("игрока {player!r} в турнире нет",
                       "the tournament has no player {player!r}"),
    "no_such_seat": ("места {seat} за столом нет: места 1–10",
                     "a table has no seat {seat}: seats are 1-10"),
    "no_stages": ("в турнире ещё нет стадий", "the tournament has no stages yet"),
    "no_codes_issued": ("в туре {round} стадии {stage!r} нет столов с судьями, кому выдать код",
                        "round {round} of stage {stage!r} has no tables whose judges get a code"),
    "no_photo_here": ("фото нет", "no photo"),
    "method_not_allowed": ("так к этому адресу не обращаются", "this address does not take "
                           "that method"),
    "http_error": ("запрос не выполнен", "the request was not served"),
    "login_required": ("войдите в учётную запись", "sign in first"),
    "bad_login": ("неверное имя или пароль", "wrong name or password"),
    "bad_code": ("код не подходит: проверьте его или попросите новый",
                 "the code does not fit: check it or ask for a new one"),
    "rate_limited": ("Слишком много попыток входа: подождите {seconds} с и попробуйте снова",
                     "Too many sign-in attempts: wait {seconds} s and try again"),
    "csrf": ("форма устарела или отправлена не с этой страницы: обновите страницу и "
             "отправьте снова",
             "the form is stale or was not sent from this page: reload the page and send "
             "it again"),
    "form_unreadable": ("форма не читается ({detail})", "the form cannot be read ({detail})"),
    "field_too_long": ("поле «{field}» длиннее {limit} символов",
                       "field '{field}' is longer than {limit} characters"),
    "body_unreadable": ("запрос не читается", "the request cannot be read"),
    "value_unreadable": ("значение не читается ({detail})", "unreadable ({detail})"),
    "bad_time": ("время {value!r}: нужно в виде 2026-03-07T12:30",
                 "time {value!r}: ISO, e.g. 2026-03-07T12:30"),
    "whose_case": ("выберите игрока, от имени которого подаётся дело",
                   "choose the player the case is filed for"),
    "filing_unreadable": ("дело не читается: {detail}", "the filing cannot be read: {detail}"),
    "decision_unreadable": ("решение не читается: {detail}",
                            "the decision cannot be read: {detail}"),
    "bad_whole": ("{field}: целое число, а не {value!r}", "{field}: a whole number, not {value!r}"),
    "bad_pu_entry": ("протокол ПУ: {value!r} — нужно место и цвет (3ч, 7к)",
                     "first killed's protocol: {value!r}: a seat and a colour (3b, 7r)"),
    "bad_case_kind": ("вид дела {value!r}: protest или appeal",
                      "kind of case {value!r}: protest or appeal"),
    "event_or_undo": ("операция — это событие или отмена, ровно одно из двух",
                      "an operation is an event or an undo, exactly one of them"),
    "merge_whom": ("укажите, с кем объединить", "name the person to merge with"),
    "photo_file": ("фото: выберите файл", "photo: choose a file"),
    "video_stale": ("видео игры только что изменил кто-то другой: обновите страницу",
                    "somebody else changed the game's video just now: reload the page"),
    "bad_colour": ("{field}: цвет шестнадцатеричным числом (ff8800)",
                   "{field}: a hexadecimal colour (ff8800)"),
    "bad_font": ("размер шрифта — число", "the font size is a number"),
    "bad_roles_delay": ("задержка ролей — число минут", "the roles' delay is a number of minutes"),
    "roles_delay_range": ("задержка ролей — от 0 до {most} мин",
                          "the roles' delay is 0 to {most} minutes"),
    "bad_queue_id": ("сохранение без номера очереди телефона",
                     "a save without the phone's queue number"),
}
