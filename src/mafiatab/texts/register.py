"""The words of a tournament's registration (sign-ups, the waiting list, the organizer's
decisions, the front page's calendar) and of the head judge's awards, Russian first."""

from __future__ import annotations

from typing import Final

#: a registration's states (`services.registration`)
REG_STATE: Final[dict[str, tuple[str, str]]] = {
    "applied": ("ждёт решения организатора", "awaits the organizer's decision"),
    "accepted": ("принят", "accepted"),
    "waiting": ("в листе ожидания", "on the waiting list"),
    "declined": ("отклонена", "declined"),
    "withdrawn": ("отозвана", "withdrawn"),
}

#: the registration's refusals (`services.registration.RegistrationError`)
REGISTRATION: Final[dict[str, tuple[str, str]]] = {
    "closed": ("регистрация на турнир «{tournament}» закрыта",
               "registration for '{tournament}' is closed"),
    "bad_nickname": ("ник: {reason}", "nickname: {reason}"),
    "bad_club": ("клуб: {reason}", "club: {reason}"),
    "no_person": ("нет игрока с номером {person}", "no person number {person}"),
    "person_or_nickname": ("укажите игрока из базы или ник", "name a known person or a nickname"),
    "taken": ("«{nickname}» уже зарегистрирован(а) на турнир",
              "'{nickname}' is already registered for the tournament"),
    "no_registration": ("нет заявки № {registration}", "no registration no. {registration}"),
    "bad_key": ("ключ заявки не подходит", "the registration's key does not match"),
    "not_now": ("заявка № {registration} {state}: так с ней поступить нельзя",
                "registration no. {registration} is {state}: this cannot be done to it"),
    "full": ("мест нет: принято {accepted} из {cap}", "no room: {accepted} of {cap} accepted"),
    "no_waiting": ("лист ожидания пуст", "the waiting list is empty"),
    "bad_cap": ("число мест: от 1 до {n}", "places: 1 to {n}"),
    "cap_below": ("мест не может быть меньше, чем уже принято: {accepted}",
                  "places cannot be fewer than those accepted already: {accepted}"),
    "too_many": ("слишком много заявок с этого адреса; попробуйте через {seconds} с",
                 "too many sign-ups from this address; try again in {seconds} s"),
    "exhibition_unknown": ("в турнире нет игрока {player}", "no player {player} in the tournament"),
}

#: the awards' refusals (`services.awards.AwardError`)
AWARD_REFUSAL: Final[dict[str, tuple[str, str]]] = {
    "no_award": ("правила турнира не знают награды «{award}»",
                 "the tournament's rules know no award '{award}'"),
    "no_player": ("в турнире нет игрока {player}", "no player {player} in the tournament"),
    "exhibition": ("{player} играет вне зачёта и наград не получает",
                   "{player} plays as an exhibition player and gets no award"),
}

#: the awards a federation's setting may name (`RuleProfile.awards`)
AWARD: Final[dict[str, tuple[str, str]]] = {
    "mvp": ("лучший игрок турнира", "MVP"),
    "best_red": ("лучший мирный", "best civilian"),
    "best_sheriff": ("лучший шериф", "best sheriff"),
    "best_black": ("лучший игрок мафии", "best mafia player"),
    "best_don": ("лучший дон", "best don"),
}

#: the registration page, the calendar and the awards' form
REGISTER_PAGE: Final[dict[str, tuple[str, str]]] = {
    "title": ("Запись на турнир", "Sign-ups"),
    "calendar": ("Ближайшие турниры", "Coming tournaments"),
    "starts": ("Начало", "Starts"),
    "state_open": ("регистрация открыта", "registration open"),
    "state_closed": ("регистрация закрыта", "registration closed"),
    "places": ("принято {accepted} из {cap}", "{accepted} of {cap} accepted"),
    "waiting_n": ("в листе ожидания: {n}", "waiting list: {n}"),
    "sign_up": ("Записаться", "Sign up"),
    "nickname": ("Ник", "Nickname"),
    "club": ("Клуб", "Club"),
    "person": ("Или номер игрока из базы", "Or a known person's number"),
    "signed_up": ("Заявка № {registration} подана и {state}. Сохраните номер и ключ, "
                  "чтобы отозвать её: {secret}",
                  "Registration no. {registration} is sent and {state}. Keep its number "
                  "and key to withdraw it: {secret}"),
    "withdraw_with_key": ("Отозвать заявку по ключу", "Withdraw a registration with its key"),
    "registration_no": ("№ заявки", "Registration no."),
    "line_state": ("Заявка № {registration}: {state}", "Registration no. {registration}: {state}"),
    "key": ("Ключ", "Key"),
    "accepted_list": ("Приняты", "Accepted"),
    "waiting_list": ("Лист ожидания", "Waiting list"),
    "applied_list": ("Ждут решения", "Awaiting a decision"),
    "others_list": ("Отклонённые и отозванные", "Declined and withdrawn"),
    "accept": ("Принять", "Accept"),
    "decline": ("Отклонить", "Decline"),
    "withdraw": ("Снять", "Withdraw"),
    "promote": ("Принять первого из листа ожидания", "Accept the first on the waiting list"),
    "settings": ("Настройки регистрации", "Registration settings"),
    "open": ("Регистрация открыта", "Registration open"),
    "cap": ("Мест", "Places"),
    "starts_on": ("Дата начала", "Start date"),
    "save": ("Сохранить", "Save"),
    "none": ("никого", "nobody"),
    "to_players": ("Принятые становятся игроками турнира.",
                   "The accepted become the tournament's players."),
    "exhibition": ("вне зачёта", "exhibition"),
    "awards": ("Награды", "Awards"),
    "player": ("Игрок", "Player"),
    "exhibition_players": ("Вне зачёта: {names}", "Exhibition players: {names}"),
    "award_name": ("Назначить", "Name"),
    "award_nobody": ("— не назначена —", "— not named —"),
}
