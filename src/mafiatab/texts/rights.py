"""The refusals of the one rights model (`services.rights.RightsDenied`), Russian first and
English second: who may act on an account, a tournament or a person's records."""

from __future__ import annotations

from typing import Final

RIGHTS: Final[dict[str, tuple[str, str]]] = {
    "not_admin": (
        "{user}: это может только администратор сервера",
        "{user}: only the server's administrator may do this",
    ),
    "not_organizer": (
        "{user}: это может только организатор с правом создавать турниры или администратор "
        "сервера",
        "{user}: only an organizer with the right to create tournaments or the server's "
        "administrator may do this",
    ),
    "not_federation_organizer": (
        "{user}: это может только организатор с правом создавать турниры",
        "{user}: only an organizer with the right to create tournaments may do this",
    ),
    "reset_self": (
        "свой пароль меняют на главной странице, со старым паролем",
        "your own password is changed on the start page, with the old one",
    ),
    "rights_self": (
        "свои права меняет другой администратор или оператор сервера "
        "(mafiatab db grant-admin)",
        "your own rights are changed by another administrator or the server's operator "
        "(mafiatab db grant-admin)",
    ),
    "role_self": (
        "{user}: свою роль в турнире «{tournament}» выдаёт и забирает другой организатор",
        "{user}: another organizer gives and takes your own role in '{tournament}'",
    ),
    "account_right": (
        "{target} — администратор сервера или организатор с правом создавать турниры: его "
        "пароль и права меняет только администратор сервера",
        "{target} holds the server's administrator right or the right to create "
        "tournaments: only the server's administrator changes that password or those rights",
    ),
    "account_elsewhere": (
        "{target} работает в турнире «{tournament}», где вы не организатор: его пароль "
        "меняет владелец или администратор сервера",
        "{target} works in '{tournament}', which you do not organize: the owner or the "
        "server's administrator changes that password",
    ),
    "grant_unowned": (
        "у {target} нет ни одной роли ни в одном турнире и ни одного права: роль этой "
        "учётной записи даёт администратор сервера (иначе её пароль стал бы ваш)",
        "{target} holds no role in any tournament and no right: the server's administrator "
        "gives that account a role (else its password would be yours to change)",
    ),
    "restore_right": (
        "{target} — администратор сервера или организатор с правом создавать турниры: роль "
        "этой учётной записи из архива восстанавливает только администратор сервера",
        "{target} holds the server's administrator right or the right to create "
        "tournaments: only the server's administrator restores that account's role from an "
        "archive",
    ),
    "restore_unowned": (
        "у {target} нет ни одной роли ни в одном турнире и ни одного права: роль этой "
        "учётной записи из архива восстанавливает администратор сервера",
        "{target} holds no role in any tournament and no right: the server's administrator "
        "restores that account's role from an archive",
    ),
    "restore_elsewhere": (
        "{target} работает в турнире «{tournament}», где вы не организатор: роль этой "
        "учётной записи из архива восстанавливает его организатор или администратор сервера",
        "{target} works in '{tournament}', which you do not organize: its organizer or the "
        "server's administrator restores that account's role from an archive",
    ),
    "account_no_roles": (
        "у {target} нет ни одной роли ни в одном турнире: его пароль меняет владелец или "
        "администратор сервера",
        "{target} holds no role in any tournament: the owner or the server's administrator "
        "changes that password",
    ),
    "not_allowed": (
        "{user}: нет прав на «{action}» в турнире {tournament} (нужна роль: {roles})",
        "{user}: not allowed to {action} in tournament {tournament} (needs: {roles})",
    ),
    "no_role_here": (
        "{user}: у вас нет роли в турнире «{tournament}»",
        "{user}: you hold no role in '{tournament}'",
    ),
    "role_above": (
        "у {target} в турнире «{tournament}» есть роль, которую вы не выдаёте: «{role}»",
        "{target} holds a role in '{tournament}' that you do not give: {role}",
    ),
    "code_elsewhere": (
        "{target} — не учётная запись только этого турнира: код входа открыл бы её права "
        "и роли в других турнирах",
        "{target} is not an account of this tournament alone: a sign-in code would open "
        "its rights and roles elsewhere",
    ),
    "not_their_organizer": (
        "{user}: объединение меняет записи турнира «{tournament}», а вы не его организатор",
        "{user}: the merge changes the records of tournament '{tournament}', which you do "
        "not organize",
    ),
    "records_unowned": (
        "{user}: у турнира «{tournament}» нет организатора с учётной записью — его записи "
        "объединяет и разделяет администратор сервера",
        "{user}: tournament '{tournament}' has no organizer who signs in: the server's "
        "administrator merges and splits its records",
    ),
    "records_unplayed": (
        "{user}: у этих записей нет ни одной игры — их объединяет и разделяет администратор "
        "сервера",
        "{user}: these records have no game: the server's administrator merges and splits "
        "them",
    ),
}

__all__ = ["RIGHTS"]
